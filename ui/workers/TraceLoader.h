#pragma once

#include "workers/BackgroundWorker.h"
#include "workers/CoreMetaTypes.h"

#include "base/CancelFlag.h"
#include "trace/Trace.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
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
    // Returns at once; emits progress() while a big file is read, then
    // loaded(), failed() or cancelled().
    void load(const QString& path);
    // Stops the loads asked for so far at their next piece of the file
    // (a window of a Chrome or Kineto trace, a block of a native one); each
    // emits cancelled(). A save is never stopped: it leaves a file whole.
    void cancelLoads();
    // Returns at once; writes through a temporary file and a rename, so a
    // failed save leaves an existing file as it was. Emits saved() or saveFailed().
    void save(const QString& path, const ovs::Trace& trace);

signals:
    // Bytes of the load in progress read so far, of its total: at most once
    // per percent.
    void progress(qint64 done, qint64 total);
    void loaded(const QString& path, const std::shared_ptr<ovs::Trace>& trace);
    void cancelled(const QString& path);
    // message: the loader's one line ("line 3: expected ...", "format version 9 is newer ...").
    void failed(const QString& path, const QString& message);
    void saved(const QString& path);
    void saveFailed(const QString& path, const QString& message);

private:
    // On the loader's thread, woken by the reading threads: emits progress().
    Q_INVOKABLE void announceProgress();

    std::atomic<qint64> m_done{0};
    std::atomic<qint64> m_total{0};
    std::atomic<int> m_percent{-1};
    // Raised by cancelLoads(); each load holds the one current when it was
    // asked for, so a later load starts unraised.
    std::shared_ptr<CancelFlag> m_cancel;
    BackgroundWorker m_worker;
};

} // namespace ovs::ui
