// The lessons (core/lessons): every lesson's qualitative outcome on the
// simulator, the lesson data the views rely on, the cancel contract of
// runLesson, and the pipeline variants the lessons added, in traces.
#include "lessons/LessonRunner.h"
#include "lessons/SweepPoints.h"
#include "pipeline/PipelineRunner.h"
#include "record/TraceCollector.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace ovs;

namespace {

// Small chunks keep the test fast (the simulator moves the data for real);
// every lesson sizes its runs from this one figure.
LessonOptions smallLessons()
{
    LessonOptions options;
    options.chunkBytes = 4ull << 20;
    return options;
}

// Each lesson runs once on the simulated H200; the tests read its result.
const LessonResult& runOnSim(const std::string& id)
{
    static std::map<std::string, LessonResult> results;
    auto it = results.find(id);
    if (it != results.end())
        return it->second;
    const Lesson* lesson = findLesson(id);
    if (!lesson)
        qFatal("no lesson %s", id.c_str());
    SimDevice device(*findSimPreset("h200"));
    RecordSink sink;
    CancelFlag cancel;
    return results.emplace(id, runLesson(*lesson, device, sink, cancel, {}, smallLessons())).first->second;
}

const LessonRunResult& runOf(const LessonResult& result, const std::string& step)
{
    const LessonRunResult* r = result.measured.run(step);
    if (!r)
        qFatal("no run %s", step.c_str());
    return *r;
}

double wall(const LessonResult& result, const std::string& step)
{
    return static_cast<double>(runOf(result, step).run.wallNs());
}

double overlap(const LessonResult& result, const std::string& step)
{
    return runOf(result, step).analysis.metrics.overlapPercent;
}

// Raises the cancel flag when `after` runs have finished.
class CancelAfterRuns : public RecordSink {
public:
    CancelAfterRuns(CancelFlag& flag, int after) : m_flag(flag), m_after(after) {}
    void runFinished(const Run&) override
    {
        if (++m_finished == m_after)
            m_flag.cancel();
    }

private:
    CancelFlag& m_flag;
    int m_after;
    int m_finished = 0;
};

int sentences(const std::string& text)
{
    int count = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((text[i] == '.' || text[i] == '?') && (i + 1 == text.size() || text[i + 1] == ' '))
            ++count;
    return count;
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT

private slots:
    void catalogHasTheTenLessonsWithTheirParts()
    {
        const auto& all = lessons();
        QVERIFY(all.size() >= 10);
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Lesson& l = all[i];
            QCOMPARE(l.number, static_cast<int>(i) + 1);
            QVERIFY(!l.id.empty());
            QVERIFY(!l.title.empty());
            const int n = sentences(l.explanation);
            QVERIFY2(n >= 3 && n <= 6, qPrintable(QString::fromStdString(l.id) + ": " + QString::number(n) + " sentences"));
            QVERIFY(!l.question.text.empty());
            QVERIFY(l.question.choices.size() >= 2);
            QVERIFY(l.plan);
            QVERIFY(l.judge);
            QVERIFY(!l.focus.empty());
            QVERIFY(l.takeaway.find('{') != std::string::npos);
            QCOMPARE(findLesson(l.id), &l);
            // Every planned pipeline is one validate() accepts.
            for (const auto& step : l.plan({}, LessonOptions{}))
                if (step.pipeline)
                    QVERIFY2(validate(*step.pipeline).empty(), qPrintable(QString::fromStdString(validate(*step.pipeline))));
        }
        QCOMPARE(findLesson("no-such-lesson"), nullptr);
    }

    void fillTakeawayKeepsUnknownNames()
    {
        QCOMPARE(fillTakeaway("a {x} b {y} {", {{"x", "1"}}), std::string("a 1 b {y} {"));
    }

    // Every lesson on the simulated H200: judged, the answer the simulator
    // gives, every expected outcome held, and the takeaway filled in.
    void everyLessonHoldsOnTheSimulator_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("answer");
        QTest::newRow("1") << "pageable-vs-pinned" << "c";
        QTest::newRow("2") << "pageable-async-blocks" << "b";
        QTest::newRow("3") << "one-vs-several-streams" << "c";
        QTest::newRow("4") << "staging-threads" << "b";
        QTest::newRow("5") << "issue-order" << "b";
        QTest::newRow("6") << "legacy-default-stream" << "b";
        QTest::newRow("7") << "allocation-in-loop" << "b";
        QTest::newRow("8") << "chunk-size" << "c";
        QTest::newRow("9") << "copy-vs-compute" << "b";
        QTest::newRow("10") << "both-directions" << "b";
    }
    void everyLessonHoldsOnTheSimulator()
    {
        QFETCH(QString, id);
        QFETCH(QString, answer);
        const LessonResult& r = runOnSim(id.toStdString());
        QVERIFY2(r.judged, r.notJudged.c_str());
        QVERIFY(r.device.simulated);
        QVERIFY(r.outcome.ok());
        for (const auto& run : r.measured.runs)
            QVERIFY2(run.run.verification.passed, run.run.verification.message.c_str());
        for (const auto& c : r.verdict.checks)
            QVERIFY2(c.held, (c.expectation + ": " + c.measured).c_str());
        QVERIFY(!r.verdict.checks.empty());
        QCOMPARE(QString::fromStdString(r.verdict.answer), answer);
        QVERIFY2(r.takeaway.find('{') == std::string::npos, r.takeaway.c_str());
        // What to look at lands on ops of the measured runs.
        for (const auto& f : r.focus) {
            QVERIFY2(f.runIndex >= 0 && !f.ops.empty(), (f.stepId + ": " + f.callout).c_str());
            QVERIFY(f.startNs < f.endNs);
        }
    }

    // The brief's outcomes, read straight off the runs.
    void pinnedBeatsPageable()
    {
        const LessonResult& r = runOnSim("pageable-vs-pinned");
        QVERIFY(wall(r, "pinned") < wall(r, "pageable"));
    }

    void severalStreamsBeatOneWhenComputeMatchesCopy()
    {
        const LessonResult& r = runOnSim("one-vs-several-streams");
        QVERIFY(r.measured.runs.front().run.params.kernelRepeats > 1); // the calibration sized the kernels
        QVERIFY(wall(r, "three") < 0.8 * wall(r, "one"));
        QVERIFY(overlap(r, "one") < 1.0);
    }

    void breadthFirstWinsOnOneCopyEngineOnly()
    {
        const LessonResult& r = runOnSim("issue-order");
        QVERIFY(wall(r, "breadth-1ce") < 0.9 * wall(r, "depth-1ce"));
        QVERIFY(wall(r, "breadth") >= 0.95 * wall(r, "depth"));
        QCOMPARE(runOf(r, "depth-1ce").run.device.asyncEngineCount, 1);
        QVERIFY(runOf(r, "depth-1ce").run.device.simulated);
    }

    void defaultStreamOpRemovesTheOverlap()
    {
        const LessonResult& r = runOnSim("legacy-default-stream");
        QVERIFY(overlap(r, "blocking") > 30);
        QVERIFY(overlap(r, "legacy") < 5);
        QVERIFY(wall(r, "legacy") > 1.3 * wall(r, "blocking"));
        QVERIFY(overlap(r, "non-blocking") > 30);
        QVERIFY(overlap(r, "per-thread") > 30);
        // The legacy default stream has its own lane, with the tiny kernels.
        const Run& legacy = runOf(r, "legacy").run;
        QVERIFY(std::any_of(legacy.lanes.begin(), legacy.lanes.end(),
                            [](const Lane& lane) { return lane.name == "legacy default stream"; }));
        QCOMPARE(legacy.params.defaultStreamOp, DefaultStreamOp::Legacy);
        const auto kernels = std::count_if(legacy.ops.begin(), legacy.ops.end(),
                                           [](const Op& op) { return op.kind == OpKind::Kernel; });
        QCOMPARE(kernels, static_cast<long>(2 * legacy.params.chunks)); // each chunk's, and one on stream 0
        QCOMPARE(legacy.params.streamSync, StreamSync::Blocking);
    }

    void allocationInTheLoopIsSlower()
    {
        const LessonResult& r = runOnSim("allocation-in-loop");
        QVERIFY(wall(r, "malloc") > wall(r, "once"));
        QVERIFY(wall(r, "malloc-free") > wall(r, "once"));
        const Run& mf = runOf(r, "malloc-free").run;
        const auto allocs = std::count_if(mf.ops.begin(), mf.ops.end(), [&](const Op& op) {
            return op.kind == OpKind::Alloc && op.startNs >= mf.timedBeginNs && op.endNs <= mf.timedEndNs;
        });
        QCOMPARE(allocs, static_cast<long>(mf.params.chunks)); // one cudaMalloc per chunk, inside the timed region
    }

    void chunkSizeSweepHasAnInteriorMinimum()
    {
        const LessonResult& r = runOnSim("chunk-size");
        std::vector<const LessonRunResult*> runs;
        for (const auto& run : r.measured.runs)
            runs.push_back(&run);
        QCOMPARE(runs.size(), std::size_t(6));
        std::sort(runs.begin(), runs.end(),
                  [](const auto* a, const auto* b) { return a->run.params.chunkBytes < b->run.params.chunkBytes; });
        const auto best = std::min_element(runs.begin(), runs.end(),
                                           [](const auto* a, const auto* b) { return a->run.wallNs() < b->run.wallNs(); });
        QVERIFY(best != runs.begin());
        QVERIFY(best != runs.end() - 1);
        // Each judged against its bound. The simulator never slows a copy
        // already booked when one in the other direction joins it, so long
        // two-way streaming can beat the bidirectional bound by a few percent
        // (docs/measurements.md, "Where the model departs"); never by more.
        for (const auto* run : runs)
            QVERIFY(run->analysis.findings.verdict.boundNs > 0
                    && static_cast<double>(run->analysis.findings.verdict.boundNs) <= 1.06 * static_cast<double>(run->run.wallNs()));
    }

    // The chart's data: one point per completed run, in order of chunk size,
    // each with its wall time and its bound; the fastest marked.
    void chunkSizeSweepPointsFollowTheRuns()
    {
        const Lesson& lesson = *findLesson("chunk-size");
        QCOMPARE(lesson.swept, SweptParameter::ChunkBytes);
        const LessonResult& r = runOnSim("chunk-size");
        const SweepSeries series = sweepSeries(lesson, r.measured);
        QCOMPARE(series.parameter, SweptParameter::ChunkBytes);
        QCOMPARE(series.points.size(), r.measured.runs.size());
        QVERIFY(series.simulated);
        QVERIFY(series.hasBounds());
        const std::uint64_t chunk = smallLessons().chunkBytes;
        QCOMPARE(series.points.front().value, chunk / 128);
        QCOMPARE(series.points.front().label, std::string("32 KiB"));
        QCOMPARE(series.points.back().value, 4 * chunk);
        QCOMPARE(series.points.back().label, std::string("16 MiB"));
        for (std::size_t i = 0; i < series.points.size(); ++i) {
            const SweepPoint& p = series.points[i];
            if (i > 0)
                QVERIFY(series.points[i - 1].value < p.value);
            const LessonRunResult& run = runOf(r, p.stepId);
            QCOMPARE(p.value, run.run.params.chunkBytes);
            QCOMPARE(p.wallNs, run.run.wallNs());
            QCOMPARE(p.boundNs, run.analysis.findings.verdict.boundNs);
            QVERIFY(p.boundNs > 0);
        }
        QVERIFY(series.best > 0 && series.best < static_cast<int>(series.points.size()) - 1);
        for (const SweepPoint& p : series.points)
            QVERIFY(series.points[static_cast<std::size_t>(series.best)].wallNs <= p.wallNs);
    }

    // A run that did not complete has no wall time to draw; a lesson that
    // sweeps nothing has no chart.
    void sweepPointsLeaveOutIncompleteRunsAndOtherLessons()
    {
        const Lesson& lesson = *findLesson("chunk-size");
        LessonMeasurements measured = runOnSim("chunk-size").measured;
        measured.runs[1].run.status = RunStatus::Cancelled;
        const SweepSeries series = sweepSeries(lesson, measured);
        QCOMPARE(series.points.size(), measured.runs.size() - 1);
        for (const SweepPoint& p : series.points)
            QVERIFY(p.stepId != measured.runs[1].stepId);
        QVERIFY(sweepSeries(*findLesson("one-vs-several-streams"), measured).points.empty());
        QCOMPARE(findLesson("one-vs-several-streams")->swept, SweptParameter::None);
        QVERIFY(sweepSeries(lesson, LessonMeasurements{}).points.empty());
        QCOMPARE(sweepSeries(lesson, LessonMeasurements{}).best, -1);
    }

    // Lesson 9 sweeps the kernels' work: x is the passes per chunk.
    void copyVsComputeSweepsKernelPasses()
    {
        const Lesson& lesson = *findLesson("copy-vs-compute");
        QCOMPARE(lesson.swept, SweptParameter::KernelRepeats);
        const LessonResult& r = runOnSim("copy-vs-compute");
        const SweepSeries series = sweepSeries(lesson, r.measured);
        QCOMPARE(series.points.size(), r.measured.runs.size());
        QCOMPARE(series.points.front().stepId, std::string("k-1/8"));
        QCOMPARE(series.points.back().stepId, std::string("k-8"));
        QCOMPARE(series.points.back().value,
                 static_cast<std::uint64_t>(runOf(r, "k-8").run.params.kernelRepeats));
        QCOMPARE(series.points.back().binding, BoundKind::Compute);
        QVERIFY(QString::fromStdString(series.points.back().label).endsWith("passes"));
        QCOMPARE(series.best, -1); // the least work is fastest: nothing to mark
    }

    void overlapHidesTheSmallerOfCopyAndCompute()
    {
        const LessonResult& r = runOnSim("copy-vs-compute");
        const auto& heavy = runOf(r, "k-8").analysis;
        const auto& light = runOf(r, "k-1/8").analysis;
        QCOMPARE(light.findings.verdict.binding(), BoundKind::Transfer);
        QCOMPARE(heavy.findings.verdict.binding(), BoundKind::Compute);
        QVERIFY(wall(r, "k-8") < static_cast<double>(heavy.metrics.compute.busyNs + heavy.metrics.copies.busyNs));
    }

    void bidirectionalRateIsBelowTheSumOfOneWay()
    {
        const LessonResult& r = runOnSim("both-directions");
        const BandwidthSweep* sweep = r.measured.sweep("sweep");
        QVERIFY(sweep);
        double h2d = 0, d2h = 0, bidir = 0;
        for (const auto& p : sweep->points) {
            if (p.direction == "HtoD")
                h2d = p.gbps;
            else if (p.direction == "DtoH")
                d2h = p.gbps;
            else if (p.direction == "bidir")
                bidir = p.gbps;
        }
        QVERIFY(h2d > 0 && d2h > 0);
        QVERIFY(bidir < h2d + d2h);
        QVERIFY(bidir > std::max(h2d, d2h));
    }

    // The staging lesson and the transfer lessons judge the seed's path and
    // the pageable copies: their runs are what the lesson says they are.
    void stagingThreadsHelpTheSeedsPath()
    {
        const LessonResult& r = runOnSim("staging-threads");
        QCOMPARE(runOf(r, "seed").run.pipeline, std::string("overlapped"));
        QCOMPARE(runOf(r, "threads").run.params.stagingThreads, 8);
        QVERIFY(wall(r, "threads") < wall(r, "seed"));
    }

    void pageableAsyncBlocksTheHost()
    {
        const LessonResult& r = runOnSim("pageable-async-blocks");
        const Run& pageable = runOf(r, "pageable").run;
        std::int64_t blocked = 0;
        for (const Op& op : pageable.ops)
            if (op.kind == OpKind::HostWait && op.memory == HostMemoryKind::Pageable)
                blocked += op.durationNs();
        QVERIFY(blocked > pageable.wallNs() / 2);
    }

    // Cancelled after the first run: that run stays, the rest never start,
    // and the lesson is not judged.
    void cancelKeepsFinishedRunsAndSkipsTheRest()
    {
        SimDevice device(defaultSimPreset());
        CancelFlag cancel;
        CancelAfterRuns sink(cancel, 2); // the calibration run, then the first lesson run
        const LessonResult r = runLesson(*findLesson("legacy-default-stream"), device, sink, cancel, {}, smallLessons());
        QVERIFY(r.outcome.cancelled);
        QVERIFY(!r.judged);
        QVERIFY(!r.notJudged.empty());
        QCOMPARE(r.calibration.size(), std::size_t(1));
        QCOMPARE(r.measured.runs.size(), std::size_t(1));
        QCOMPARE(r.measured.runs.front().run.status, RunStatus::Completed);
    }

    // A lesson recorded to a trace (as on a GPU server, for slides made
    // elsewhere) judges the same from the file as it did when it ran.
    void recordedLessonJudgesAsItRan_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("calibrated") << "one-vs-several-streams";
        QTest::newRow("with a sweep") << "pageable-vs-pinned";
        QTest::newRow("a step on another device") << "issue-order";
    }

    void recordedLessonJudgesAsItRan()
    {
        QFETCH(QString, id);
        const Lesson* lesson = findLesson(id.toStdString());
        QVERIFY(lesson);
        SimDevice device(*findSimPreset("h200"));
        TraceCollector sink;
        CancelFlag cancel;
        const LessonResult ran = runLesson(*lesson, device, sink, cancel, {}, smallLessons());
        QVERIFY(ran.judged);
        QTemporaryDir dir;
        const std::string path = dir.filePath("lesson.json").toStdString();
        std::string error;
        QVERIFY2(saveTrace(sink.trace(), path, &error), error.c_str());
        auto loaded = loadTrace(path);
        QVERIFY2(loaded.trace, loaded.error.c_str());

        const auto again = lessonFromTrace(*lesson, *loaded.trace, smallLessons(), &error);
        QVERIFY2(again, error.c_str());
        QVERIFY(again->judged);
        QCOMPARE(again->device.label(), ran.device.label());
        QCOMPARE(again->verdict.answer, ran.verdict.answer);
        QCOMPARE(again->verdict.why, ran.verdict.why);
        QCOMPARE(again->takeaway, ran.takeaway);
        QCOMPARE(again->verdict.checks.size(), ran.verdict.checks.size());
        for (std::size_t i = 0; i < ran.verdict.checks.size(); ++i) {
            QCOMPARE(again->verdict.checks[i].held, ran.verdict.checks[i].held);
            QCOMPARE(again->verdict.checks[i].measured, ran.verdict.checks[i].measured);
        }
        QCOMPARE(again->focus.size(), ran.focus.size());
        for (std::size_t i = 0; i < ran.focus.size(); ++i) {
            QCOMPARE(again->focus[i].runIndex, ran.focus[i].runIndex);
            QCOMPARE(again->focus[i].ops, ran.focus[i].ops);
        }

        // Read with another chunk size, or as another lesson: refused, saying why.
        LessonOptions other = smallLessons();
        other.chunkBytes *= 2;
        error.clear();
        QVERIFY(!lessonFromTrace(*lesson, *loaded.trace, other, &error));
        QVERIFY2(error.find("--chunk-mib") != std::string::npos, error.c_str());
        const Lesson* another = findLesson(id == "issue-order" ? "both-directions" : "issue-order");
        error.clear();
        QVERIFY(!lessonFromTrace(*another, *loaded.trace, smallLessons(), &error));
        QVERIFY2(error.find(another->id) != std::string::npos, error.c_str());
    }

    // The variants travel with the run: written to the native format and read
    // back; a value the reader does not know is refused with a message.
    void variantsTravelInTraces()
    {
        SimDevice device(defaultSimPreset());
        PipelineConfig config;
        config.kind = PipelineKind::PinnedData;
        config.chunks = 4;
        config.chunkBytes = 1 << 20;
        config.issueOrder = IssueOrder::BreadthFirst;
        config.streamSync = StreamSync::Blocking;
        config.defaultStreamOp = DefaultStreamOp::PerThread;
        config.loopAllocation = LoopAllocation::MallocFree;
        TraceCollector sink;
        CancelFlag cancel;
        const Run run = runPipeline(device, config, sink, cancel);
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
        QCOMPARE(run.name, pipelineTitle(config));
        QVERIFY(run.name.find("breadth-first") != std::string::npos);

        QTemporaryDir dir;
        const std::string path = dir.filePath("variants.json").toStdString();
        std::string error;
        QVERIFY2(saveTrace(sink.trace(), path, &error), error.c_str());
        auto loaded = loadTrace(path);
        QVERIFY2(loaded.trace, loaded.error.c_str());
        const RunParams& p = loaded.trace->runs.front().params;
        QCOMPARE(p.issueOrder, IssueOrder::BreadthFirst);
        QCOMPARE(p.streamSync, StreamSync::Blocking);
        QCOMPARE(p.defaultStreamOp, DefaultStreamOp::PerThread);
        QCOMPARE(p.loopAllocation, LoopAllocation::MallocFree);

        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        QVERIFY(text.contains("\"issueOrder\":\"breadth-first\"") || text.contains("\"issueOrder\": \"breadth-first\""));
        text.replace("breadth-first", "sideways");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        loaded = loadTrace(path);
        QVERIFY(!loaded.trace);
        QVERIFY2(loaded.error.find("issueOrder") != std::string::npos, loaded.error.c_str());
        QVERIFY2(loaded.error.find("depth-first") != std::string::npos, loaded.error.c_str());
    }

    // The variants apply to the rotating-stream strategies only.
    void variantsAreRefusedWhereTheyDoNotApply()
    {
        PipelineConfig config;
        config.kind = PipelineKind::Overlapped;
        config.issueOrder = IssueOrder::BreadthFirst;
        QVERIFY(validate(config).find("not to overlapped") != std::string::npos);
        config.kind = PipelineKind::PinnedData;
        QCOMPARE(validate(config), std::string());
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
