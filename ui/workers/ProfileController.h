#pragma once

#include "workers/BackgroundWorker.h"
#include "workers/CoreMetaTypes.h"
#include "workers/ProfileRequest.h"

#include "profile/ProfileRun.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <map>

namespace ovs::ui {

class TraceDocument;

// File > Profile program…: runs a program under the injection library on a
// BackgroundWorker (profile::runProfile, the loop the CLI uses) and feeds its
// processes' runs into the TraceDocument on the GUI thread as they record, as
// RunController does for the pipelines: each process's run begins when it
// initializes CUDA, fills batch by batch, and is replaced by the finished run
// when the program ends.
//
// Cancel stops the program (SIGINT, then SIGTERM after the grace, a third
// cancel SIGKILL); what was recorded is kept, marked cancelled. Destroying
// the controller during a profile stops the program the same way and waits
// for it (SIGKILL after the grace), so no child outlives the window unseen.
class ProfileController : public QObject {
    Q_OBJECT

public:
    explicit ProfileController(TraceDocument* document, QObject* parent = nullptr);
    ~ProfileController() override;

    bool isRunning() const { return m_running; }
    // How long the program may ignore SIGINT before SIGTERM (tests shorten it).
    void setStopGrace(std::chrono::milliseconds grace) { m_stopGrace = grace; }

public slots:
    // Returns at once. Refuses (emits refused(), returns false) while a
    // profile runs or when request.problem() says why; else emits started()
    // and later finished().
    bool start(const ovs::ui::ProfileRequest& request);
    // Each call escalates: SIGINT, SIGTERM, SIGKILL. Nothing when idle.
    void cancel();

signals:
    void started();
    // One line: elapsed time, processes, GPU ops, API calls; or the stop sent.
    void progress(const QString& what);
    // ok: the program ran to its end, not cancelled, and every run recorded
    // without a problem. message: one line or a few for the user: how the
    // program ended, or why it could not start, and each run's problem (no
    // CUDA, CUPTI held by another profiler, dropped records).
    void finished(bool ok, const QString& message);
    void refused(const QString& message);

private:
    void onRunBegan(int run, const Run& header);
    void onLaneArrived(int run, const Lane& lane, int laneIndex);
    void onOpsArrived(int run, const std::vector<Op>& ops, const std::vector<std::string>& newNames);
    void onRunEnded(int run, const Run& finished);
    void onWorkDone(bool ok, bool cancelled, const QString& message);
    void onDocumentReset();

    QPointer<TraceDocument> m_document;
    profile::ProfileStop m_stop;
    std::chrono::milliseconds m_stopGrace{5000};
    BackgroundWorker m_worker;
    // True from start() until the worker is out of runProfile (cleared
    // there): the destructor cannot wait for deliveries through the event loop.
    std::atomic<bool> m_inProfile{false};
    bool m_running = false;
    std::string m_tool; // the trace's provenance for this profile's runs
    // The profile's run index -> the document's; a run dropped by a reset
    // of the document has no entry and is dropped to its end.
    std::map<int, int> m_runs;
    bool m_dropped = false; // the document was reset during this profile
};

} // namespace ovs::ui
