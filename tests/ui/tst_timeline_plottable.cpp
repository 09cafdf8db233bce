#include "document/RunTimeline.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "timeline/TimelinePlottable.h"

#include <QTest>

using ovs::Lane;
using ovs::LaneKind;
using ovs::Op;
using ovs::OpKind;
using ovs::Run;
using ovs::ui::RunTimeline;

namespace {

Op makeOp(std::uint16_t lane, std::int64_t start, std::int64_t end, OpKind kind = OpKind::Upload)
{
    Op op;
    op.lane = lane;
    op.startNs = start;
    op.endNs = end;
    op.kind = kind;
    return op;
}

// Lane 0: [100,200] [300,400] [400,500] [1000,1000]; lane 1: empty.
Run handBuiltRun()
{
    Run run;
    run.name = "hand built";
    run.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream 0", LaneKind::Stream}};
    run.ops = {makeOp(0, 300, 400), makeOp(0, 100, 200), makeOp(0, 400, 500, OpKind::Kernel), makeOp(0, 1000, 1000)};
    run.timedBeginNs = 50;
    run.timedEndNs = 1200;
    return run;
}

} // namespace

class TestTimelinePlottable : public QObject {
    Q_OBJECT

private slots:
    void visibleRange_data()
    {
        QTest::addColumn<int>("lane");
        QTest::addColumn<qint64>("t0");
        QTest::addColumn<qint64>("t1");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::newRow("everything") << 0 << qint64(0) << qint64(2000) << 0 << 4;
        QTest::newRow("before all") << 0 << qint64(0) << qint64(99) << 0 << 0;
        QTest::newRow("touches first start") << 0 << qint64(0) << qint64(100) << 0 << 1;
        QTest::newRow("touches first end") << 0 << qint64(200) << qint64(250) << 0 << 1;
        QTest::newRow("in a gap") << 0 << qint64(201) << qint64(299) << 1 << 1;
        QTest::newRow("shared edge") << 0 << qint64(400) << qint64(400) << 1 << 3;
        QTest::newRow("inside one op") << 0 << qint64(320) << qint64(330) << 1 << 2;
        QTest::newRow("zero-length op") << 0 << qint64(1000) << qint64(1000) << 3 << 4;
        QTest::newRow("after all") << 0 << qint64(1001) << qint64(5000) << 4 << 4;
        QTest::newRow("empty lane") << 1 << qint64(0) << qint64(5000) << 0 << 0;
        QTest::newRow("bad lane") << 7 << qint64(0) << qint64(5000) << 0 << 0;
        QTest::newRow("reversed range") << 0 << qint64(500) << qint64(100) << 0 << 0;
    }
    void visibleRange()
    {
        QFETCH(int, lane);
        QFETCH(qint64, t0);
        QFETCH(qint64, t1);
        QFETCH(int, first);
        QFETCH(int, last);
        const RunTimeline timeline(handBuiltRun());
        const auto [f, l] = timeline.visibleRange(lane, t0, t1);
        QCOMPARE(int(f), first);
        QCOMPARE(int(l), last);
    }

    void opIndexAt_data()
    {
        QTest::addColumn<int>("lane");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("tolerance");
        QTest::addColumn<int>("expected");
        QTest::newRow("inside first") << 0 << qint64(150) << qint64(0) << 0;
        QTest::newRow("start edge") << 0 << qint64(100) << qint64(0) << 0;
        QTest::newRow("end edge") << 0 << qint64(200) << qint64(0) << 0;
        QTest::newRow("gap, no tolerance") << 0 << qint64(250) << qint64(0) << -1;
        QTest::newRow("gap, nearer the first") << 0 << qint64(230) << qint64(40) << 0;
        QTest::newRow("gap, nearer the second") << 0 << qint64(280) << qint64(40) << 1;
        QTest::newRow("shared edge picks the earlier") << 0 << qint64(400) << qint64(0) << 1;
        QTest::newRow("inside the kernel") << 0 << qint64(450) << qint64(0) << 2;
        QTest::newRow("zero-length op within tolerance") << 0 << qint64(1003) << qint64(5) << 3;
        QTest::newRow("far away") << 0 << qint64(5000) << qint64(100) << -1;
        QTest::newRow("empty lane") << 1 << qint64(150) << qint64(1000) << -1;
    }
    void opIndexAt()
    {
        QFETCH(int, lane);
        QFETCH(qint64, t);
        QFETCH(qint64, tolerance);
        QFETCH(int, expected);
        const RunTimeline timeline(handBuiltRun());
        QCOMPARE(timeline.opIndexAt(lane, t, tolerance), expected);
    }

    void liveOpsStaySorted()
    {
        Run header = handBuiltRun();
        const std::vector<Op> ops = header.ops;
        header.ops.clear();
        RunTimeline timeline = RunTimeline::live(header);
        timeline.addOps(ops); // out of order on purpose
        const std::span<const Op> lane = timeline.laneOps(0);
        QCOMPARE(int(lane.size()), 4);
        for (std::size_t i = 1; i < lane.size(); ++i)
            QVERIFY(lane[i - 1].startNs <= lane[i].startNs);
        QCOMPARE(timeline.endNs(), 1000);
    }

    void ranges()
    {
        QCustomPlot plot;
        ovs::ui::TraceDocument document;
        ovs::Trace trace;
        trace.runs.push_back(handBuiltRun());
        document.setTrace(trace, QString());
        ovs::ui::ViewState view;
        auto* plottable = new ovs::ui::TimelinePlottable(plot.xAxis, plot.yAxis, &document, 0, &view);
        bool found = false;
        const QCPRange keys = plottable->getKeyRange(found);
        QVERIFY(found);
        QCOMPARE(keys.lower, 0.0);
        QCOMPARE(keys.upper, 1200.0); // the timed region ends after the last op
        const QCPRange values = plottable->getValueRange(found);
        QVERIFY(found);
        QCOMPARE(values.lower, -0.5);
        QCOMPARE(values.upper, 1.5);

        // Hit testing in pixels, through the axes.
        plot.resize(600, 300);
        plot.xAxis->setRange(0, 1200);
        plot.yAxis->setRange(-0.5, 1.5);
        plot.replot();
        const QPointF onKernel(plot.xAxis->coordToPixel(450), plot.yAxis->coordToPixel(0));
        QCOMPARE(plottable->opAt(onKernel), (ovs::ui::OpRef{0, 0, 2}));
        QCOMPARE(plottable->selectTest(onKernel, false), 0.0);
        const QPointF emptyLane(plot.xAxis->coordToPixel(450), plot.yAxis->coordToPixel(1));
        QVERIFY(!plottable->opAt(emptyLane).isValid());
        QCOMPARE(plottable->selectTest(emptyLane, false), -1.0);
        const QPointF betweenRows(plot.xAxis->coordToPixel(450), plot.yAxis->coordToPixel(0.5));
        QVERIFY(!plottable->opAt(betweenRows).isValid());
    }
};

QTEST_MAIN(TestTimelinePlottable)
#include "tst_timeline_plottable.moc"
