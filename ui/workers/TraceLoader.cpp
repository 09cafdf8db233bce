#include "workers/TraceLoader.h"

#include "formats/TraceJson.h"

#include <QFile>

namespace ovs::ui {

namespace {

std::string nativePath(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {}

TraceLoader::~TraceLoader() = default;

void TraceLoader::load(const QString& path)
{
    m_worker.post([this, path]() -> std::function<void()> {
        try {
            TraceLoadResult result = loadTrace(nativePath(path));
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
