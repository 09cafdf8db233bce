#include "workers/TraceLoader.h"
#include "workers/NativePath.h"

#include "formats/TraceJson.h"

#include <QFile>
#include <QMetaObject>

namespace ovs::ui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), m_cancel(std::make_shared<CancelFlag>()) {}

TraceLoader::~TraceLoader()
{
    // Loads still queued or running end at their next piece: destruction
    // waits for the one in progress, not for the whole file.
    m_cancel->cancel();
}

void TraceLoader::announceProgress()
{
    emit progress(m_done.load(), m_total.load());
}

void TraceLoader::cancelLoads()
{
    m_cancel->cancel();
    m_cancel = std::make_shared<CancelFlag>();
}

void TraceLoader::load(const QString& path)
{
    m_worker.post([this, path, cancel = m_cancel]() -> std::function<void()> {
        try {
            // Reported from the reading threads, at most once per percent
            // (a 2 GB file has thousands of windows; a bar needs a hundred
            // steps), through atomics the loader's thread reads when woken:
            // nothing else crosses (see BackgroundWorker on ThreadSanitizer).
            ReadProgress progress;
            progress.cancel = cancel.get();
            progress.onProgress = [this](std::uint64_t done, std::uint64_t total) {
                const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 0;
                if (m_percent.exchange(percent) == percent)
                    return;
                m_done = static_cast<qint64>(done);
                m_total = static_cast<qint64>(total);
                QMetaObject::invokeMethod(this, "announceProgress", Qt::QueuedConnection);
            };
            m_percent = -1;
            TraceLoadResult result = loadTrace(nativePath(path), kDefaultMaxTraceBytes, progress);
            if (result.cancelled)
                return [this, path] { emit cancelled(path); };
            if (!result.trace)
                return [this, path, error = QString::fromStdString(result.error)] { emit failed(path, error); };
            auto trace = std::make_shared<Trace>(std::move(*result.trace));
            return [this, path, trace] { emit loaded(path, trace); };
        } catch (const std::bad_alloc&) {
            return [this, path] { emit failed(path, tr("not enough memory to load this trace")); };
        } catch (const std::exception& e) {
            return [this, path, error = QString::fromStdString(e.what())] { emit failed(path, error); };
        }
    });
}

void TraceLoader::save(const QString& path, const Trace& trace)
{
    // The copy is taken here, on the caller's thread, so the document can
    // change while the file is written.
    m_worker.post([this, path, trace]() -> std::function<void()> {
        try {
            std::string error;
            if (saveTrace(trace, nativePath(path), &error))
                return [this, path] { emit saved(path); };
            return [this, path, message = QString::fromStdString(error)] { emit saveFailed(path, message); };
        } catch (const std::bad_alloc&) {
            return [this, path] { emit saveFailed(path, tr("not enough memory to write this trace")); };
        } catch (const std::exception& e) {
            return [this, path, message = QString::fromStdString(e.what())] { emit saveFailed(path, message); };
        }
    });
}

} // namespace ovs::ui
