#pragma once

#include "workers/CoreMetaTypes.h"

#include "profile/ProfileRun.h"
#include "profile/ProfileSink.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace ovs::ui {

// The worker-thread half of ProfileController, as LiveRunSink is for
// RunController: runProfile() calls it as the sink of the profiled processes'
// runs and as the observer of the program, on the worker thread, and it
// re-emits everything as signals received queued, in order, on the GUI thread.
//
// Ops are batched per run (the processes of a profile record at the same
// time) and leave at most every kFlushInterval, each batch with the op names
// that appeared since the run's last batch, so the document's name table
// always covers the ops it holds. A run's ops still in its batch when the run
// finishes are dropped: the finished run carries them all.
class LiveProfileSink : public QObject, public profile::ProfileSink, public profile::ProfileObserver {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kFlushInterval{30};
    static constexpr std::chrono::milliseconds kProgressInterval{200};

    void runStarted(int run, const Run& header) override;
    void laneAdded(int run, const Lane& lane, int laneIndex) override;
    void opsCompleted(int run, std::span<const Op> ops, const std::vector<std::string>& names) override;
    void runFinished(int run, const Run& finished) override;

    void notice(const std::string& text) override;
    void launched(pid_t pid) override;
    void progress(const profile::ProfileProgress& progress) override;
    void stopping(const char* signalName) override;

    // Called by the worker at the very end.
    void finish(bool ok, bool cancelled, const QString& message);

signals:
    void runBegan(int run, const ovs::Run& header);
    void laneArrived(int run, const ovs::Lane& lane, int laneIndex);
    // `newNames`: to append to the run's name table before adding `ops`.
    void opsArrived(int run, const std::vector<ovs::Op>& ops, const std::vector<std::string>& newNames);
    void runEnded(int run, const ovs::Run& run_);
    void progressed(const QString& what);
    void noticed(const QString& text);
    void workDone(bool ok, bool cancelled, const QString& message);

private:
    struct Batch {
        std::vector<Op> ops;
        std::vector<std::string> newNames;
        std::size_t namesSent = 1; // names[0] is "" in every run
    };
    void flushIfDue();

    std::map<int, Batch> m_batches;
    std::chrono::steady_clock::time_point m_lastFlush{};
    std::chrono::steady_clock::time_point m_lastProgress{};
    QString m_stopping;
};

} // namespace ovs::ui
