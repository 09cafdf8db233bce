// The one call that runs a request's jobs (pipelines, then the sweep) and its
// cancel contract: cancelled anywhere, every finished job stays, the one in
// flight is kept marked cancelled, nothing later starts, nothing is thrown.
#include "jobs/JobRunner.h"
#include "record/TraceCollector.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <stdexcept>

using namespace ovs;

namespace {

// Collects the trace and raises the cancel flag at one chosen point.
class CancellingCollector : public TraceCollector {
public:
    // Progress: the pipelines report it once per chunk, before its work, so
    // it lands mid-run whenever a strategy hands its ops over.
    enum class At { Never, Ops, Progress, RunFinished, Cell };
    At at = At::Never;
    int job = 0;            // Ops, Progress: in run `job`; RunFinished: once `job` runs have finished
    std::size_t count = 0;  // Ops: after this many ops; Progress: reports; Cell: cells
    CancelFlag* flag = nullptr;
    std::size_t opsInRun = 0;

    void runStarted(const Run& header) override
    {
        opsInRun = 0;
        progressInRun = 0;
        TraceCollector::runStarted(header);
    }
    void opsCompleted(std::span<const Op> ops) override
    {
        TraceCollector::opsCompleted(ops);
        opsInRun += ops.size();
        if (at == At::Ops && static_cast<int>(trace().runs.size()) == job && opsInRun >= count)
            flag->cancel();
    }
    void progress(double fraction, const std::string& what) override
    {
        TraceCollector::progress(fraction, what);
        ++progressInRun;
        if (at == At::Progress && static_cast<int>(trace().runs.size()) == job && progressInRun >= count)
            flag->cancel();
    }
    void runFinished(const Run& run) override
    {
        TraceCollector::runFinished(run);
        if (at == At::RunFinished && static_cast<int>(trace().runs.size()) == job)
            flag->cancel();
    }
    void bandwidthMeasured(const BandwidthPoint& point) override
    {
        TraceCollector::bandwidthMeasured(point);
        ++cells;
        if (at == At::Cell && cells >= count)
            flag->cancel();
    }

private:
    std::size_t cells = 0;
    std::size_t progressInRun = 0;
};

PipelineConfig pipeline(PipelineKind kind)
{
    PipelineConfig c;
    c.kind = kind;
    c.chunks = 6;
    c.chunkBytes = 1 << 20;
    return c;
}

JobList threePipelinesAndASweep()
{
    JobList jobs;
    jobs.pipelines = {pipeline(PipelineKind::Serialized), pipeline(PipelineKind::Overlapped),
                      pipeline(PipelineKind::PinnedData)};
    BenchConfig bench;
    bench.sizes = {1 << 20, 2 << 20};
    bench.warmups = 1;
    bench.samples = 3;
    jobs.sweep = bench;
    return jobs;
}

} // namespace

Q_DECLARE_METATYPE(CancellingCollector::At)

class TestJobRunner : public QObject {
    Q_OBJECT

private slots:
    void everyJobRunsInOrder()
    {
        SimDevice dev(*findSimPreset("h200"));
        TraceCollector sink;
        CancelFlag cancel;
        const JobList jobs = threePipelinesAndASweep();
        std::vector<std::pair<int, std::string>> started;
        const JobOutcome outcome = runJobs(dev, jobs, sink, cancel, [&](int index, const std::string& title) {
            started.emplace_back(index, title);
        });
        QVERIFY(outcome.ok());
        QCOMPARE(outcome.runsRequested, 3);
        QCOMPARE(outcome.runsCompleted, 3);
        QCOMPARE(outcome.runsVerified, 3);
        QVERIFY(outcome.sweepRequested);
        QCOMPARE(outcome.sweepCells, 10);
        QCOMPARE(sink.trace().runs.size(), std::size_t(3));
        QCOMPARE(sink.trace().runs[0].pipeline, std::string("serialized"));
        QCOMPARE(sink.trace().runs[2].pipeline, std::string("pinned-data"));
        QCOMPARE(sink.trace().sweeps.size(), std::size_t(1));
        QCOMPARE(sink.trace().sweeps[0].status, RunStatus::Completed);
        const std::vector<std::pair<int, std::string>> expected = {
            {0, "serialized pageable"}, {1, "overlapped pinned"}, {2, "data already pinned"}, {3, "bandwidth sweep"}};
        QCOMPARE(started, expected);
    }

    // Where the cancel lands, and what must be in the trace afterwards: the
    // runs that finished, then (cancelledRun) the one in flight marked
    // cancelled, and the sweep when it had begun.
    void cancelKeepsEveryFinishedJobAndThePartialOne_data()
    {
        QTest::addColumn<CancellingCollector::At>("at");
        QTest::addColumn<int>("job");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("runsKept");
        QTest::addColumn<int>("cancelledRun"); // index of the run marked cancelled, -1: none
        QTest::addColumn<int>("sweepCells");   // -1: the sweep never started
        using At = CancellingCollector::At;
        QTest::newRow("first pipeline, first ops") << At::Ops << 0 << 1 << 1 << 0 << -1;
        QTest::newRow("first pipeline, midway") << At::Ops << 0 << 12 << 1 << 0 << -1;
        QTest::newRow("second pipeline, midway") << At::Ops << 1 << 10 << 2 << 1 << -1;
        // Data already pinned hands its ops over only once its timed region is
        // over (engine records are fetched at most every 20 ms), so its cancel
        // is raised from progress: during chunk 3 of 6.
        QTest::newRow("last pipeline, midway") << At::Progress << 2 << 3 << 3 << 2 << -1;
        QTest::newRow("between the pipelines") << At::RunFinished << 1 << 0 << 1 << -1 << -1;
        QTest::newRow("between the pipelines and the sweep") << At::RunFinished << 3 << 0 << 3 << -1 << -1;
        QTest::newRow("sweep, first cell") << At::Cell << 0 << 1 << 3 << -1 << 1;
        QTest::newRow("sweep, midway") << At::Cell << 0 << 6 << 3 << -1 << 6;
    }
    void cancelKeepsEveryFinishedJobAndThePartialOne()
    {
        QFETCH(CancellingCollector::At, at);
        QFETCH(int, job);
        QFETCH(int, count);
        QFETCH(int, runsKept);
        QFETCH(int, cancelledRun);
        QFETCH(int, sweepCells);
        SimDevice dev(*findSimPreset("h200"));
        CancelFlag cancel;
        CancellingCollector sink;
        sink.at = at;
        sink.job = job;
        sink.count = static_cast<std::size_t>(count);
        sink.flag = &cancel;

        JobOutcome outcome;
        try {
            outcome = runJobs(dev, threePipelinesAndASweep(), sink, cancel);
        } catch (...) {
            QFAIL("runJobs threw");
        }
        QVERIFY(outcome.cancelled);
        QVERIFY(!outcome.ok());
        QVERIFY(outcome.problems.empty());
        const Trace& trace = sink.trace();
        QCOMPARE(int(trace.runs.size()), runsKept);
        for (int i = 0; i < runsKept; ++i) {
            const Run& run = trace.runs[std::size_t(i)];
            if (i == cancelledRun) {
                QCOMPARE(run.status, RunStatus::Cancelled);
                QVERIFY(!run.ops.empty()); // what it recorded before the cancel
                QVERIFY(!run.verification.passed);
            } else {
                QCOMPARE(run.status, RunStatus::Completed);
                QVERIFY(run.verification.passed);
            }
        }
        QCOMPARE(outcome.runsCompleted, cancelledRun >= 0 ? runsKept - 1 : runsKept);
        if (sweepCells < 0) {
            QVERIFY(trace.sweeps.empty());
            QCOMPARE(outcome.sweepCells, -1);
        } else {
            QCOMPARE(trace.sweeps.size(), std::size_t(1));
            QCOMPARE(trace.sweeps[0].status, RunStatus::Cancelled);
            QCOMPARE(int(trace.sweeps[0].points.size()), sweepCells);
            QCOMPARE(outcome.sweepCells, sweepCells);
        }
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(0));
    }

    void cancelledBeforeTheFirstJobRunsNothing()
    {
        SimDevice dev(*findSimPreset("h200"));
        TraceCollector sink;
        CancelFlag cancel;
        cancel.cancel();
        int started = 0;
        const JobOutcome outcome =
            runJobs(dev, threePipelinesAndASweep(), sink, cancel, [&](int, const std::string&) { ++started; });
        QVERIFY(outcome.cancelled);
        QCOMPARE(started, 0);
        QVERIFY(sink.trace().runs.empty());
        QVERIFY(sink.trace().sweeps.empty());
    }

    void aFailedJobIsRecordedAndTheNextStillRuns_data()
    {
        QTest::addColumn<bool>("badPipeline");
        QTest::addColumn<QString>("problem");
        QTest::newRow("pipeline") << true << "serialized pageable failed: chunk count";
        QTest::newRow("sweep") << false << "bandwidth sweep failed: bad benchmark configuration";
    }
    void aFailedJobIsRecordedAndTheNextStillRuns()
    {
        QFETCH(bool, badPipeline);
        QFETCH(QString, problem);
        SimDevice dev(*findSimPreset("h200"));
        TraceCollector sink;
        CancelFlag cancel;
        JobList jobs = threePipelinesAndASweep();
        if (badPipeline)
            jobs.pipelines[0].chunks = 0;
        else
            jobs.sweep->samples = 0;
        const JobOutcome outcome = runJobs(dev, jobs, sink, cancel);
        QVERIFY(!outcome.ok());
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.problems.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(outcome.problems[0]).startsWith(problem), outcome.problems[0].c_str());
        QCOMPARE(outcome.runsFailed, badPipeline ? 1 : 0);
        QCOMPARE(outcome.sweepFailed, !badPipeline);
        QCOMPARE(outcome.runsVerified, badPipeline ? 2 : 3);
        QCOMPARE(sink.trace().runs.size(), std::size_t(3));
        QCOMPARE(sink.trace().sweeps.size(), std::size_t(1));
        QCOMPARE(sink.trace().runs[0].status, badPipeline ? RunStatus::Failed : RunStatus::Completed);
    }

    // A sink that throws is no run-time trouble of the device's: the jobs stop
    // there, the call still returns, and what the sink took stays.
    void anEscapingErrorStopsTheJobsWithoutThrowing()
    {
        class ThrowingCollector : public TraceCollector {
        public:
            void runFinished(const Run& run) override
            {
                TraceCollector::runFinished(run);
                if (trace().runs.size() == 2)
                    throw std::runtime_error("sink broke");
            }
        } sink;
        SimDevice dev(*findSimPreset("h200"));
        CancelFlag cancel;
        const JobOutcome outcome = runJobs(dev, threePipelinesAndASweep(), sink, cancel);
        QCOMPARE(outcome.problems.size(), std::size_t(1));
        QCOMPARE(outcome.problems[0], std::string("overlapped pinned stopped on an unexpected error: sink broke"));
        QCOMPARE(sink.trace().runs.size(), std::size_t(2));
        QVERIFY(sink.trace().sweeps.empty());
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
