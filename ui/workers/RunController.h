#pragma once

#include "workers/BackgroundWorker.h"
#include "workers/CoreMetaTypes.h"
#include "workers/LessonRun.h"
#include "workers/RunRequest.h"

#include "base/CancelFlag.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>


namespace ovs::ui {

class LiveRunSink;
class TraceDocument;

// The one seam between the window and the device: runs a RunRequest (or a
// lesson, startLesson) on a BackgroundWorker and feeds what it records into
// the TraceDocument on the GUI thread, batch by batch, so the timeline and
// the sweep chart fill in live.
//
// The device is created, used and destroyed on the worker thread; the GUI
// thread never waits for it while a run is going. One request runs at a time.
//
// Destroying the controller during a run cancels it and waits for the device
// to drain (usually well under a second, a chunk's worth of copies): freeing
// buffers under in-flight copies is never an option. The same holds for a
// device listing in progress, which cannot be interrupted.
class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(TraceDocument* document, QObject* parent = nullptr);
    ~RunController() override;

    // True from a successful start() until finished() has been emitted.
    bool isRunning() const { return m_running; }
    // True from queryDevices() until devicesListed() has been emitted.
    bool isListingDevices() const { return m_lister.isBusy(); }

public slots:
    // Returns at once. Refuses (emits refused(), returns false, starts
    // nothing) while a run is in progress or when the request is impossible;
    // otherwise emits started() and, later, finished().
    bool start(const ovs::ui::RunRequest& request);
    // Runs a lesson the same way (live, cancellable, the device made and
    // destroyed on the worker): its runs join the document captioned with
    // their steps; lessonFinished() brings the result just before finished().
    bool startLesson(const ovs::ui::LessonRequest& request);
    // Asks the run to stop; it drains the device and ends as a Cancelled run
    // (finished(false, "cancelled ...")). Nothing happens when idle.
    void cancel();
    // Lists the devices on a worker (finding a CUDA GPU can take seconds) and
    // emits devicesListed(). Ignored while a listing is already in progress.
    void queryDevices();

signals:
    void started();
    // Fraction in [0, 1] of the whole request and what it is doing now.
    void progress(double fraction, const QString& what);
    // ok: every run completed and verified (and the sweep, if asked, finished).
    // message: one line for the user: "2 runs verified on ...", "cancelled
    // ...", the device error ("unknown device ...", "no CUDA GPU ..."), ...
    void finished(bool ok, const QString& message);
    // start() would not run the request; no run began.
    void refused(const QString& message);
    void devicesListed(const QList<ovs::DeviceListing>& devices);
    // A lesson's result, judged or not (cancelled: the runs that finished).
    void lessonFinished(const std::shared_ptr<const ovs::LessonResult>& result);

private:
    void begin();
    void connectSink(LiveRunSink& sink);
    void work(const RunRequest& request);
    void workLesson(const LessonRequest& request);
    void onRunBegan(const Run& header);
    void onLaneArrived(const Lane& lane, int laneIndex);
    void onOpsArrived(const std::vector<Op>& ops);
    void onRunEnded(const Run& run);
    void onSweepBegan(const BandwidthSweep& header);
    void onPointArrived(const BandwidthPoint& point);
    void onSweepEnded(const BandwidthSweep& sweep);
    void onWorkDone(bool ok, const QString& message);
    void onDocumentReset();

    QPointer<TraceDocument> m_document;
    CancelFlag m_cancel;
    // Two workers: a device listing must not wait for a run to end.
    BackgroundWorker m_runner;
    BackgroundWorker m_lister;
    bool m_running = false;
    // Where the live run and sweep are in the document; -1 when none.
    int m_run = -1;
    int m_sweep = -1;
    // The document was reset under a live run: the rest of it has no place.
    bool m_dropRun = false;
    bool m_dropSweep = false;
};

} // namespace ovs::ui
