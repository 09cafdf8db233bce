#pragma once

#include "workers/BackgroundWorker.h"
#include "workers/CoreMetaTypes.h"

#include "trace/Trace.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ovs::ui {

// Reads and writes native trace files off the GUI thread: a trace of a
// million ops takes seconds to parse or write, and the window must keep
// painting meanwhile. Jobs run one at a time in the order asked for (so a
// load after a save of the same file reads what was saved); results arrive
// as signals on the thread that owns the loader.
//
// Destroying the loader waits for the job in progress to end; results not yet
// delivered are dropped.
class TraceLoader : public QObject {
    Q_OBJECT

public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    // True while a load or save is queued or running.
    bool isBusy() const { return m_worker.isBusy(); }

public slots:
    // Returns at once; emits loaded() or failed().
    void load(const QString& path);
    // Returns at once; writes through a temporary file and a rename, so a
    // failed save leaves an existing file as it was. Emits saved() or saveFailed().
    void save(const QString& path, const ovs::Trace& trace);

signals:
    void loaded(const QString& path, const std::shared_ptr<ovs::Trace>& trace);
    // message: the loader's one line ("line 3: expected ...", "format version 9 is newer ...").
    void failed(const QString& path, const QString& message);
    void saved(const QString& path);
    void saveFailed(const QString& path, const QString& message);

private:
    BackgroundWorker m_worker;
};

} // namespace ovs::ui
