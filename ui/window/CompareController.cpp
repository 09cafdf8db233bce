#include "window/CompareController.h"

#include "workers/BackgroundWorker.h"
#include "workers/TraceLoader.h"

#include "trace/Trace.h"

#include <new>
#include <utility>

namespace ovs::ui {

CompareController::CompareController(QObject* parent)
    : QObject(parent), m_loader(new TraceLoader(this)), m_worker(std::make_unique<BackgroundWorker>())
{
    connect(m_loader, &TraceLoader::loaded, this,
            [this](const QString&, const std::shared_ptr<Trace>& trace) { onLoaded(trace); });
    connect(m_loader, &TraceLoader::failed, this, [this](const QString&, const QString& message) { onFailed(message); });
}

CompareController::~CompareController() = default;

bool CompareController::isBusy() const
{
    return !m_expected.empty() || m_worker->isBusy();
}

void CompareController::compare(const QString& beforePath, const QString& afterPath)
{
    ++m_generation;
    m_beforePath = beforePath;
    m_afterPath = afterPath;
    m_before.reset();
    // The loader answers in the order asked: the same path twice is still
    // told apart.
    m_expected.push_back({m_generation, true});
    m_expected.push_back({m_generation, false});
    m_loader->load(beforePath);
    m_loader->load(afterPath);
}

void CompareController::onFailed(const QString& message)
{
    if (m_expected.empty())
        return;
    const Expected expected = m_expected.front();
    m_expected.pop_front();
    if (expected.generation != m_generation || m_failedGeneration == m_generation)
        return;
    m_failedGeneration = m_generation; // the other trace's answer is not wanted
    m_before.reset();
    emit failed(message); // the loader's message names the file
}

void CompareController::onLoaded(const std::shared_ptr<Trace>& trace)
{
    if (m_expected.empty())
        return;
    const Expected expected = m_expected.front();
    m_expected.pop_front();
    if (expected.generation != m_generation || m_failedGeneration == m_generation)
        return;
    if (expected.before) {
        m_before = trace;
        return;
    }
    const int generation = m_generation;
    m_worker->post([this, generation, before = std::exchange(m_before, nullptr), after = trace,
                    beforePath = m_beforePath, afterPath = m_afterPath]() -> BackgroundWorker::Delivery {
        try {
            auto build = std::make_shared<ComparisonBuild>(
                buildComparison(std::move(*before), std::move(*after), beforePath, afterPath));
            return [this, generation, build] {
                if (generation != m_generation)
                    return;
                if (!build->trace)
                    emit failed(build->error);
                else
                    emit ready(std::make_shared<Trace>(std::move(*build->trace)), build->comparison);
            };
        } catch (const std::bad_alloc&) {
            return [this, generation] {
                if (generation == m_generation)
                    emit failed(tr("not enough memory to compare these traces"));
            };
        }
    });
}

} // namespace ovs::ui
