#include "timeline/TimeAxisMapping.h"

#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"

#include "models/AnalysisCache.h"
#include "models/OpeningView.h"

#include "judgement/JudgedSpan.h"
#include "formats/TraceJson.h"
#include "lessons/Lesson.h"

#include <QTest>

#include <algorithm>
#include <limits>

using ovs::ui::AnalysisCache;
using ovs::ui::AxisSpan;
using ovs::ui::FramePolicy;
using ovs::ui::TimeAxisMapping;
using ovs::ui::TimeFrame;
using ovs::ui::TraceDocument;
using ovs::ui::ViewState;

Q_DECLARE_METATYPE(FramePolicy)

namespace {

constexpr qint64 kMax = std::numeric_limits<qint64>::max();

// A run with a timed region [timedBegin, timedEnd], one op to `end`, and
// depth-0 regions at the given spans (plus a nested one inside the first).
ovs::Run runWith(std::int64_t timedBegin, std::int64_t timedEnd, std::int64_t end,
                 std::vector<std::pair<std::int64_t, std::int64_t>> regions = {})
{
    ovs::Run run;
    run.lanes = {ovs::Lane{"host", ovs::LaneKind::HostThread}};
    ovs::Op op;
    op.kind = ovs::OpKind::ApiCall;
    op.startNs = 0;
    op.endNs = end;
    run.ops = {op};
    run.timedBeginNs = timedBegin;
    run.timedEndNs = timedEnd;
    for (const auto& [begin, regionEnd] : regions) {
        run.regions.push_back({"step", begin, regionEnd, 0, 0, ovs::RegionSource::ProfilerStep});
        run.regions.push_back({"inner", begin, begin + 1, 0, 1, ovs::RegionSource::Annotation});
    }
    return run;
}

TimeAxisMapping mapping(qint64 start, qint64 end, double left, double width)
{
    TimeAxisMapping m;
    m.startNs = start;
    m.endNs = end;
    m.left = left;
    m.width = width;
    return m;
}

} // namespace

// The time axis as pixels, with rows as KDAB hotspot tests its TimeLineData:
// ordinary views, views at the int64 limits, and degenerate widths.
class TestTimeAxisMapping : public QObject {
    Q_OBJECT

private slots:
    void pixelAndTime_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("x");
        QTest::addColumn<qint64>("expectedNs");
        QTest::newRow("left edge") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 50.0 << qint64(1000);
        QTest::newRow("right edge") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 150.0 << qint64(2000);
        QTest::newRow("middle") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 100.0 << qint64(1500);
        QTest::newRow("left of the column") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 0.0 << qint64(500);
        QTest::newRow("sub-ns per pixel") << qint64(0) << qint64(100) << 0.0 << 1000.0 << 15.0 << qint64(2);
        QTest::newRow("at 2^63") << kMax - 1000 << kMax << 0.0 << 1000.0 << 1000.0 << kMax;
        QTest::newRow("past 2^63 saturates") << kMax - 1000 << kMax << 0.0 << 1000.0 << 1e9 << kMax;
        QTest::newRow("the whole int64 range") << qint64(0) << kMax << 0.0 << 2.0 << 2.0 << kMax;
        QTest::newRow("far left saturates") << qint64(0) << kMax << 100.0 << 1.0 << -1e9
                                            << std::numeric_limits<qint64>::min();
        QTest::newRow("zero width acts as 1 px") << qint64(0) << qint64(1000) << 0.0 << 0.0 << 1.0 << qint64(1000);
        QTest::newRow("empty range acts as 1 ns") << qint64(7) << qint64(7) << 0.0 << 10.0 << 10.0 << qint64(8);
    }
    void pixelAndTime()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, left);
        QFETCH(double, width);
        QFETCH(double, x);
        QFETCH(qint64, expectedNs);
        const TimeAxisMapping m = mapping(start, end, left, width);
        QCOMPARE(m.nsAt(x), expectedNs);
        QVERIFY(m.nsPerPixel() > 0);
        // Round trip where the time is representable without saturation.
        if (expectedNs != kMax && expectedNs != std::numeric_limits<qint64>::min())
            QVERIFY(std::abs(m.pixelAt(m.timeAt(x)) - x) < 1e-6 * std::max(1.0, std::abs(x)));
    }

    void containsX_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<bool>("inside");
        QTest::newRow("before") << 49.0 << false;
        QTest::newRow("left edge") << 50.0 << true;
        QTest::newRow("inside") << 120.0 << true;
        QTest::newRow("right edge") << 150.0 << true;
        QTest::newRow("after") << 151.0 << false;
    }
    void containsX()
    {
        QFETCH(double, x);
        QFETCH(bool, inside);
        QCOMPARE(mapping(0, 1000, 50, 100).containsX(x), inside);
    }

    // TimeFrame: framing a span by policy, saturating at the int64 limits.
    void framing_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<FramePolicy>("policy");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("fit: a twentieth each side") << qint64(10'000) << qint64(30'000) << FramePolicy::Fit
                                                     << qint64(9'000) << qint64(31'000);
        QTest::newRow("op: a quarter each side") << qint64(10'000) << qint64(30'000) << FramePolicy::Op
                                                  << qint64(5'000) << qint64(35'000);
        QTest::newRow("context: the middle third") << qint64(10'000) << qint64(30'000) << FramePolicy::Context
                                                    << qint64(-10'000) << qint64(50'000);
        QTest::newRow("a short span gets the least margin")
            << qint64(1'000) << qint64(1'010) << FramePolicy::Fit << qint64(1'000 - ViewState::kMinimumSpanNs)
            << qint64(1'010 + ViewState::kMinimumSpanNs);
        QTest::newRow("at 2^63 saturates") << kMax - 1'000 << kMax << FramePolicy::Context << kMax - 2'000 << kMax;
        QTest::newRow("the whole int64 range") << std::numeric_limits<qint64>::min() << kMax << FramePolicy::Fit
                                               << std::numeric_limits<qint64>::min() << kMax;
    }
    void framing()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(FramePolicy, policy);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        QCOMPARE(TimeFrame::frame(AxisSpan{start, end}, policy), (AxisSpan{expectedStart, expectedEnd}));
    }

    // A run's times to the axis and back: its display offset, saturating.
    void runTimesToTheAxis()
    {
        TraceDocument document;
        ovs::Trace trace;
        trace.runs = {runWith(1'000, 5'000, 6'000), runWith(4'000, 9'000, 10'000), runWith(0, 0, kMax)};
        document.setTrace(trace, QString());
        const TimeFrame frame(document);
        QCOMPARE(frame.toAxis(0, 100), qint64(100));
        document.setAlignTimedRegions(true); // run 0 moves right to start its timed region at 4'000
        QCOMPARE(frame.toAxis(0, 100), qint64(3'100));
        QCOMPARE(frame.toRun(0, 3'100), qint64(100));
        QCOMPARE(frame.toAxis(1, 100), qint64(100));
        QCOMPARE(frame.toAxis(0, kMax), kMax); // saturates
        QCOMPARE(frame.toAxis(0, 1'000, 5'000), (AxisSpan{4'000, 8'000}));
        QCOMPARE(frame.runAxis(0).toAxis(1'000), qint64(4'000));
    }

    // The opening view: the runs' judged spans (here their depth-0
    // regions) together, framed; runs without regions do not widen it; none
    // at all: empty (show all). The judged span is the run's analysis, from
    // the cache's worker: until it is in, nothing narrows the view.
    void openingView_data()
    {
        QTest::addColumn<bool>("withRegions");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("regions: framed on them") << true << qint64(590'000) << qint64(810'000);
        QTest::newRow("no regions: everything") << false << qint64(0) << qint64(0);
    }
    void openingView()
    {
        QFETCH(bool, withRegions);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        TraceDocument document;
        ovs::Trace trace;
        // Setup before 600 us, then two steps, then teardown to 1 ms.
        trace.runs = {runWith(0, 1'000'000, 1'000'000),
                      withRegions ? runWith(0, 1'000'000, 1'000'000, {{600'000, 700'000}, {700'000, 800'000}})
                                  : runWith(0, 1'000'000, 1'000'000)};
        AnalysisCache* cache = AnalysisCache::of(&document);
        document.setTrace(trace, QString());
        const TimeFrame frame(document);
        QVERIFY(ovs::ui::openingView(document, *cache).isEmpty());
        QVERIFY(judgedAxisSpan(document, 1, *cache).isEmpty());
        for (int run = 0; run < document.runCount(); ++run)
            QVERIFY(!cache->analysis(run)); // asked for: judged on the worker, delivered to this thread
        QVERIFY(ovs::ui::openingView(document, *cache).isEmpty());
        cache->finishPending();
        QCOMPARE(ovs::ui::openingView(document, *cache), (AxisSpan{expectedStart, expectedEnd}));
        QCOMPARE(judgedAxisSpan(document, 1, *cache).isEmpty(), !withRegions);
        QVERIFY(judgedAxisSpan(document, 0, *cache).isEmpty());
    }

    // Stored profiles with regions (PyTorch profiler steps, NVTX ranges):
    // the frame is the whole run until the cache has judged it, then core's
    // judged span, at the run's place on the axis.
    void judgedSpanOfAStoredTrace_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("torch profiler steps") << QStringLiteral("torch_steps.json");
        QTest::newRow("NVTX ranges") << QStringLiteral("sync_in_loop_nvtx.json");
    }
    void judgedSpanOfAStoredTrace()
    {
        QFETCH(QString, file);
        const ovs::TraceLoadResult loaded =
            ovs::loadTrace((QStringLiteral(OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/regions/") + file).toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        // The run the profile's regions are in (a trace of several processes
        // has others).
        const auto& runs = loaded.trace->runs;
        const int run = static_cast<int>(std::max_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
                                             return a.regions.size() < b.regions.size();
                                         }) - runs.begin());
        const ovs::JudgedSpan expected = ovs::judgedSpan(runs[static_cast<std::size_t>(run)]);
        QVERIFY(!expected.wholeRun());
        TraceDocument document;
        AnalysisCache* cache = AnalysisCache::of(&document);
        document.setTrace(*loaded.trace, file);
        const TimeFrame frame(document);
        QVERIFY(judgedAxisSpan(document, run, *cache).isEmpty());
        cache->analysis(run);
        QVERIFY(judgedAxisSpan(document, run, *cache).isEmpty());
        cache->finishPending();
        QCOMPARE(judgedAxisSpan(document, run, *cache), frame.toAxis(run, expected.span.beginNs, expected.span.endNs));
        if (runs.size() == 1)
            QCOMPARE(ovs::ui::openingView(document, *cache),
                     TimeFrame::frame(judgedAxisSpan(document, run, *cache), FramePolicy::Fit));
    }

    // A lesson is framed once: the focus in context, the overview on the
    // timed regions (a run without one: all of it).
    void lessonFraming()
    {
        TraceDocument document;
        ovs::Trace trace;
        trace.runs = {runWith(100'000, 300'000, 400'000), runWith(0, 0, 50'000)};
        document.setTrace(trace, QString());
        const TimeFrame frame(document);
        ovs::ResolvedFocus focus;
        focus.runIndex = 0;
        focus.startNs = 150'000;
        focus.endNs = 160'000;
        QCOMPARE(frame.lessonFocus(focus), (AxisSpan{140'000, 170'000}));
        QCOMPARE(frame.lessonOverview(), (AxisSpan{-15'000, 315'000}));
    }
};

// An application: the analysis cache delivers through its event loop.
QTEST_GUILESS_MAIN(TestTimeAxisMapping)
#include "tst_time_axis_mapping.moc"
