// Issue 12, the timeline's part: lanes grouped by device with a header per
// group and the host threads apart, for a run on several GPUs; a run on one
// device exactly as before. And the peer copy's colour: apart from every
// other op colour, the backgrounds and the playhead in every theme, for
// normal vision and the two colour-vision deficiencies ColorVision checks.
#include "UiTestSupport.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "style/ColorVision.h"
#include "style/OpStyle.h"
#include "style/Theme.h"
#include "timeline/LaneRows.h"
#include "timeline/TimelineLegendItem.h"
#include "timeline/TimelinePlot.h"
#include "timeline/TimelineStyle.h"

#include <QFontDatabase>
#include <QTest>

using namespace ovs;
using namespace ovs::ui;
using ovs::test::chunkOp;

namespace {


DeviceInfo simH200()
{
    DeviceInfo device;
    device.name = "Simulated H200";
    device.simulated = true;
    return device;
}

// Lanes in the order a live run meets them: the groups interleave.
Run twoDeviceRun()
{
    Run run;
    run.name = "overlapped pinned";
    run.device = simH200();
    run.moreDevices = {simH200()};
    run.lanes = {Lane{"GPU 0 \u00b7 stream 0", LaneKind::Stream, 0}, Lane{"host \u00b7 GPU 0", LaneKind::HostThread, 0},
                 Lane{"GPU 1 \u00b7 stream 0", LaneKind::Stream, 1}, Lane{"host \u00b7 GPU 1", LaneKind::HostThread, 0},
                 Lane{"GPU 0 \u00b7 stream 1", LaneKind::Stream, 0}};
    run.ops = {chunkOp(0, 10'000, 60'000, OpKind::Upload, 0),  chunkOp(1, 0, 10'000, OpKind::StageIn, 0),
               chunkOp(2, 10'000, 60'000, OpKind::Upload, 2),  chunkOp(3, 0, 10'000, OpKind::StageIn, 2),
               chunkOp(4, 60'000, 90'000, OpKind::Kernel, 0), chunkOp(2, 60'000, 80'000, OpKind::PeerCopy, -1)};
    run.timedEndNs = 90'000;
    run.sortOps();
    return run;
}

Run oneDeviceRun()
{
    Run run;
    run.name = "serialized pageable";
    run.device = simH200();
    run.lanes = {Lane{"host", LaneKind::HostThread}, Lane{"stream 0", LaneKind::Stream},
                 Lane{"stream 1", LaneKind::Stream}};
    run.ops = {chunkOp(0, 0, 20'000, OpKind::StageIn, 0), chunkOp(1, 20'000, 120'000, OpKind::Upload, 0),
               chunkOp(2, 120'000, 160'000, OpKind::Kernel, 0)};
    run.timedEndNs = 160'000;
    run.sortOps();
    return run;
}

} // namespace

class TestLaneRows : public QObject {
    Q_OBJECT

    // A pixel in the middle of the first op of `lane`, on the row it is drawn.
    static QPoint opPixel(const TimelinePlot& plot, const TraceDocument& document, int lane)
    {
        const Op& op = document.run(0).laneOps(lane).front();
        const QCPAxisRect* rect = plot.runAxisRect(0);
        const double t = op.startNs + 0.5 * op.durationNs() + document.displayOffsetNs(0);
        return QPoint(int(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(t))),
                      int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(plot.laneRow(0, lane)))));
    }

private slots:
    void initTestCase()
    {
        Q_INIT_RESOURCE(resources);
        QVERIFY(QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans.ttf")) >= 0);
        QVERIFY(QFontDatabase::addApplicationFont(QStringLiteral(":/fonts/DejaVuSans-Bold.ttf")) >= 0);
    }

    void oneDeviceKeepsItsLanes()
    {
        const LaneRows rows = LaneRows::of(oneDeviceRun());
        QVERIFY(!rows.grouped());
        QCOMPARE(rows.rowCount(), 3);
        for (int lane = 0; lane < 3; ++lane) {
            QCOMPARE(rows.rowOf(lane), lane);
            QCOMPARE(rows.laneAt(lane), lane);
        }
    }

    void severalDevicesAreGroupedWithHeaders()
    {
        const Run run = twoDeviceRun();
        const LaneRows rows = LaneRows::of(run);
        QVERIFY(rows.grouped());
        // GPU 0: its two streams in recorded order; GPU 1; then the host.
        const std::vector<int> expected = {-1, 0, 4, -1, 2, -1, 1, 3};
        QCOMPARE(rows.laneAtRow, expected);
        for (int row = 0; row < rows.rowCount(); ++row)
            if (rows.laneAt(row) >= 0)
                QCOMPARE(rows.rowOf(rows.laneAt(row)), row);
        QCOMPARE(int(rows.headers.size()), 3);
        QCOMPARE(rows.headers[0].row, 0);
        QCOMPARE(rows.headers[0].text, QString("GPU 0 \u00b7 Simulated H200 [simulated]"));
        QCOMPARE(rows.headers[1].row, 3);
        QCOMPARE(rows.headers[1].text, QString("GPU 1 \u00b7 Simulated H200 [simulated]"));
        QCOMPARE(rows.headers[2].row, 5);
        QCOMPARE(rows.headers[2].device, -1);
        QCOMPARE(rows.headers[2].text, LaneRows::hostHeader());
        QVERIFY(rows.headerAt(3) && !rows.headerAt(4));
    }

    void liveRunGroupsBeforeItKnowsTheDevices()
    {
        // A live run's header may not list device 1 yet: its lanes say it.
        Run run = twoDeviceRun();
        run.moreDevices.clear();
        const LaneRows rows = LaneRows::of(run);
        QVERIFY(rows.grouped());
        QCOMPARE(rows.headers[1].text, QString("GPU 1"));
        // A group with no lanes yet has no header.
        run.lanes.resize(2);
        const LaneRows early = LaneRows::of(run);
        QVERIFY(!early.grouped()); // nothing on device 1 yet, one device known
    }

    void timelineDrawsTheGroups()
    {
        TraceDocument document;
        ViewState view;
        TimelinePlot plot(&document, &view);
        Trace trace;
        trace.runs = {twoDeviceRun()};
        document.setTrace(trace, QString());
        plot.resize(1000, 600);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();

        const LaneRows* rows = plot.laneRows(0);
        QVERIFY(rows && rows->grouped());
        QCOMPARE(plot.totalLanes(), 8); // five lanes and three headers
        // Tick labels: one per lane, on its row; header rows have none (the
        // plottable draws their text).
        const auto ticker = plot.runAxisRect(0)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 5);
        QCOMPARE(ticker->ticks().value(1), QString("GPU 0 \u00b7 stream 0"));
        QCOMPARE(ticker->ticks().value(2), QString("GPU 0 \u00b7 stream 1"));
        QCOMPARE(ticker->ticks().value(4), QString("GPU 1 \u00b7 stream 0"));
        QCOMPARE(ticker->ticks().value(6), QString("host \u00b7 GPU 0"));
        QVERIFY(!ticker->ticks().contains(0) && !ticker->ticks().contains(3) && !ticker->ticks().contains(5));

        // Every lane's op is found where it is drawn; a header row has none.
        for (int lane = 0; lane < document.run(0).laneCount(); ++lane) {
            const OpRef ref = plot.opAt(opPixel(plot, document, lane));
            QVERIFY2(ref.isValid() && ref.lane == lane, qPrintable(QString("lane %1").arg(lane)));
        }
        const QPoint onHeader(opPixel(plot, document, 0).x(),
                              int(std::lround(plot.runAxisRect(0)->axis(QCPAxis::atLeft)->coordToPixel(0))));
        QVERIFY(!plot.opAt(onHeader).isValid());

        // The header's band and text are drawn: the header row's pixels
        // differ from the plain background next to the lanes' stripes.
        const QImage image = plot.grab().toImage();
        const QCPAxisRect* rect = plot.runAxisRect(0);
        const int headerY = int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(0)));
        const TimelineStyle style = TimelineStyle::from(plot.palette(), plot.font());
        const QColor band = image.pixelColor(rect->right() - 3, headerY);
        QCOMPARE(band.name(), style.plottable.groupBand.name());

        // The title names both devices; "[simulated]" kept.
        QString titles;
        for (auto* element : plot.plotLayout()->elements(true))
            if (auto* text = qobject_cast<QCPTextElement*>(element))
                titles += text->text();
        QVERIFY2(titles.contains("2 \u00d7 Simulated H200 [simulated]"), qPrintable(titles));

        // The peer copy is in the legend.
        bool peerInLegend = false;
        for (auto* element : plot.plotLayout()->elements(true))
            if (auto* item = qobject_cast<TimelineLegendItem*>(element))
                peerInLegend = peerInLegend || (!item->isTimedRegion() && *item->kind() == OpKind::PeerCopy);
        QVERIFY(peerInLegend);
    }

    void timelineOfOneDeviceIsUnchanged()
    {
        TraceDocument document;
        ViewState view;
        TimelinePlot plot(&document, &view);
        Trace trace;
        trace.runs = {oneDeviceRun()};
        document.setTrace(trace, QString());
        plot.resize(1000, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        QVERIFY(!plot.laneRows(0)->grouped());
        QCOMPARE(plot.totalLanes(), 3);
        const QCPRange range = plot.runAxisRect(0)->axis(QCPAxis::atLeft)->range();
        QCOMPARE(range.lower, -0.5);
        QCOMPARE(range.upper, 2.5);
        for (int lane = 0; lane < 3; ++lane) {
            QCOMPARE(plot.laneRow(0, lane), lane);
            QCOMPARE(plot.opAt(opPixel(plot, document, lane)).lane, lane);
        }
    }

    void peerCopyColourStandsApartInEveryTheme()
    {
        const QColor peer = opColor(OpKind::PeerCopy);
        constexpr Vision visions[] = {Vision::Normal, Vision::Deuteranopia, Vision::Protanopia};
        const QPalette palettes[] = {Theme::palette(false), Theme::palette(true), Theme::highContrastPalette(false),
                                     Theme::highContrastPalette(true)};
        for (const QPalette& palette : palettes) {
            const TimelineStyle style = TimelineStyle::from(palette, QFont());
            for (Vision vision : visions) {
                const auto seen = [vision](const QColor& c) { return ColorVision::simulate(c, vision); };
                for (int k = 0; k < kOpKindCount; ++k) {
                    if (static_cast<OpKind>(k) == OpKind::PeerCopy)
                        continue;
                    const double d = ColorVision::deltaE76(seen(peer), seen(opColor(static_cast<OpKind>(k))));
                    QVERIFY2(d >= ColorVision::kMinimumOpDeltaE,
                             qPrintable(QString("peer / %1 (%2): %3")
                                            .arg(opKindLabel(static_cast<OpKind>(k)), ColorVision::visionName(vision))
                                            .arg(d)));
                }
                // The playhead is magenta too: they must not be confused.
                const double toPlayhead = ColorVision::deltaE76(seen(peer), seen(style.plottable.playhead));
                QVERIFY2(toPlayhead >= ColorVision::kMinimumOpDeltaE,
                         qPrintable(QString("peer / playhead (%1): %2").arg(ColorVision::visionName(vision)).arg(toPlayhead)));
                for (const QColor& background : {style.background, style.plottable.groupBand})
                    QVERIFY2(ColorVision::deltaE76(seen(peer), seen(background)) >= 15,
                             qPrintable(background.name()));
            }
        }
        QCOMPARE(opKindLabel(OpKind::PeerCopy), QString("Peer copy (GPU to GPU)"));
    }
};

QTEST_MAIN(TestLaneRows)
#include "tst_lane_rows.moc"
