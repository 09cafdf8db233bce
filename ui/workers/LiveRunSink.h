#pragma once

#include "workers/CoreMetaTypes.h"

#include "record/RecordSink.h"

#include <QObject>
#include <QString>

namespace ovs {
struct LessonResult;
}

#include <chrono>
#include <memory>
#include <vector>

namespace ovs::ui {

// The worker-thread half of RunController: the core calls it as a RecordSink
// on the thread doing the work, and it re-emits everything as signals that
// RunController receives queued on the GUI thread (in emission order, since
// one thread posts them all to one receiver).
//
// Ops are batched: a batch leaves at most every kFlushInterval (the first ops
// of a run at once), so a run that completes thousands of ops a second costs
// the GUI one event per frame rather than one per op. Ops left in the batch
// when the run finishes are dropped, because the finished run carries them all.
// A batch can wait until the next op or progress report when the work goes
// quiet; the pipelines report progress every chunk.
class LiveRunSink : public QObject, public RecordSink {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kFlushInterval{30};

    // jobCount: pipelines plus sweep in the request, to turn each job's
    // fraction into the request's.
    explicit LiveRunSink(int jobCount);

    // Called by the worker between jobs and at the very end.
    void beginJob(int index, const QString& title);
    void finish(bool ok, const QString& message);
    // A lesson's verdict, sent before finish(): through a signal like every
    // other result, so that ThreadSanitizer sees the same hand-off (a
    // queued lambda's captures cross threads in a way it cannot follow).
    void lessonJudged(std::shared_ptr<const LessonResult> result);
    // A lesson learns its job count only as it goes (its calibration sizes
    // the plan): the fraction follows the latest count.
    void setJobCount(int jobCount);

    void runStarted(const Run& header) override;
    void laneAdded(const Lane& lane, int laneIndex) override;
    void opsCompleted(std::span<const Op> ops) override;
    void runFinished(const Run& run) override;
    void sweepStarted(const BandwidthSweep& header) override;
    void bandwidthMeasured(const BandwidthPoint& point) override;
    void sweepFinished(const BandwidthSweep& sweep) override;
    void progress(double fraction, const std::string& what) override;

signals:
    void runBegan(const ovs::Run& header);
    void laneArrived(const ovs::Lane& lane, int laneIndex);
    void opsArrived(const std::vector<ovs::Op>& ops);
    void runEnded(const ovs::Run& run);
    void sweepBegan(const ovs::BandwidthSweep& header);
    void pointArrived(const ovs::BandwidthPoint& point);
    void sweepEnded(const ovs::BandwidthSweep& sweep);
    void progressed(double fraction, const QString& what);
    void workDone(bool ok, const QString& message);
    void lessonArrived(const std::shared_ptr<const ovs::LessonResult>& result);

private:
    void flushIfDue();
    void flush();

    int m_jobCount;
    int m_job = 0;
    QString m_jobTitle;
    std::vector<Op> m_batch;
    std::chrono::steady_clock::time_point m_lastFlush{};
};

} // namespace ovs::ui
