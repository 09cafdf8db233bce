// The sweep chart: one curve per (memory, direction) cell of the benchmark,
// growing point by point as cells arrive; a hint when there is no sweep.
#include "charts/BandwidthChart.h"
#include "charts/OpRateChart.h"
#include "document/TraceDocument.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

namespace {

DeviceInfo simulatedH200()
{
    DeviceInfo device;
    device.name = "Simulated H200 (PCIe Gen5)";
    device.simulated = true;
    device.preset = "h200";
    return device;
}

BandwidthSweep sweepHeader(const DeviceInfo& device)
{
    BandwidthSweep sweep;
    sweep.device = device;
    sweep.timing = device.simulated ? "simulated" : "cuda-events";
    sweep.warmups = 3;
    sweep.samples = 10;
    return sweep;
}

BandwidthPoint point(std::uint64_t mib, HostMemoryKind memory, const char* direction, double gbps)
{
    BandwidthPoint p;
    p.bytes = mib << 20;
    p.memory = memory;
    p.direction = direction;
    p.gbps = gbps;
    p.medianMs = static_cast<double>(p.bytes) / (gbps * 1e6);
    p.samplesMs = {p.medianMs};
    return p;
}

// The cells the benchmark measures per size, in its order.
std::vector<BandwidthPoint> cells(const std::vector<std::uint64_t>& sizesMiB, bool pageable, bool pinned, bool bidir)
{
    std::vector<BandwidthPoint> points;
    for (auto mib : sizesMiB) {
        const double scale = 1.0 - 0.5 / static_cast<double>(mib); // small copies are slower
        if (pageable) {
            points.push_back(point(mib, HostMemoryKind::Pageable, "HtoD", 6.0 * scale));
            points.push_back(point(mib, HostMemoryKind::Pageable, "DtoH", 5.5 * scale));
        }
        if (pinned) {
            points.push_back(point(mib, HostMemoryKind::Pinned, "HtoD", 55.0 * scale));
            points.push_back(point(mib, HostMemoryKind::Pinned, "DtoH", 55.5 * scale));
        }
        if (bidir)
            points.push_back(point(mib, HostMemoryKind::Pinned, "bidir", 100.0 * scale));
    }
    return points;
}

QCPGraph* graphNamed(const QCustomPlot& plot, const QString& name)
{
    for (int i = 0; i < plot.graphCount(); ++i)
        if (plot.graph(i)->name() == name)
            return plot.graph(i);
    return nullptr;
}

} // namespace

class TestBandwidthChart : public QObject {
    Q_OBJECT

private slots:
    void emptyDocumentShowsTheHint()
    {
        TraceDocument document;
        BandwidthChart chart(&document);
        QCOMPARE(chart.graphCount(), 0);
        QCOMPARE(chart.shownSweep(), -1);
        QVERIFY(chart.isShowingEmptyState());
        QVERIFY(!chart.legend->visible());
    }

    void oneCurvePerMeasuredCell_data()
    {
        QTest::addColumn<bool>("pageable");
        QTest::addColumn<bool>("pinned");
        QTest::addColumn<bool>("bidir");
        QTest::addColumn<QStringList>("curves");
        QTest::newRow("full sweep") << true << true << true
                                    << QStringList{"pageable HtoD", "pinned HtoD", "pageable DtoH", "pinned DtoH",
                                                   "pinned bidirectional"};
        QTest::newRow("pinned only") << false << true << false << QStringList{"pinned HtoD", "pinned DtoH"};
        QTest::newRow("pageable and bidir") << true << false << true
                                            << QStringList{"pageable HtoD", "pageable DtoH", "pinned bidirectional"};
    }

    void oneCurvePerMeasuredCell()
    {
        QFETCH(bool, pageable);
        QFETCH(bool, pinned);
        QFETCH(bool, bidir);
        QFETCH(QStringList, curves);
        TraceDocument document;
        BandwidthChart chart(&document);
        const std::vector<std::uint64_t> sizes = {1, 4, 16, 64};
        const auto points = cells(sizes, pageable, pinned, bidir);

        const int sweep = document.beginSweep(sweepHeader(simulatedH200()));
        QCOMPARE(chart.shownSweep(), sweep);
        QVERIFY(chart.isShowingEmptyState()); // a header without cells yet
        int drawn = 0;
        for (const auto& p : points) {
            document.addBandwidthPoint(sweep, p);
            ++drawn;
            int total = 0;
            for (int i = 0; i < chart.graphCount(); ++i)
                total += chart.graph(i)->dataCount();
            QCOMPARE(total, drawn); // live: every cell shows as it arrives
        }
        QVERIFY(!chart.isShowingEmptyState());

        QCOMPARE(chart.graphCount(), curves.size());
        for (int i = 0; i < curves.size(); ++i) {
            QCOMPARE(chart.graph(i)->name(), curves[i]); // fixed legend order
            QCOMPARE(chart.graph(i)->dataCount(), int(sizes.size()));
            // Sorted by size, on the measured sizes.
            QCOMPARE(chart.graph(i)->data()->at(0)->key, double(1 << 20));
            QCOMPARE(chart.graph(i)->data()->at(3)->key, double(64 << 20));
        }
        QVERIFY(chart.legend->visible());
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart.title().contains("[simulated]"));
        QVERIFY(chart.title().contains("Simulated H200"));
        QVERIFY(chart.yAxis->range().upper > 0);
    }

    void styleSetsMemoryKindsAndDirectionsApart()
    {
        TraceDocument document;
        BandwidthChart chart(&document);
        BandwidthSweep sweep = sweepHeader(simulatedH200());
        sweep.points = cells({1, 4}, true, true, true);
        document.finishSweep(document.beginSweep(sweepHeader(simulatedH200())), sweep);
        QCOMPARE(chart.graphCount(), 5);
        QCPGraph* pageableUp = graphNamed(chart, "pageable HtoD");
        QCPGraph* pinnedUp = graphNamed(chart, "pinned HtoD");
        QCPGraph* pinnedDown = graphNamed(chart, "pinned DtoH");
        QVERIFY(pageableUp && pinnedUp && pinnedDown);
        QCOMPARE(pageableUp->pen().color(), pinnedUp->pen().color());
        QVERIFY(pageableUp->pen().style() != pinnedUp->pen().style());
        QVERIFY(pinnedUp->pen().color() != pinnedDown->pen().color());
    }

    void showsTheLatestSweepAndFollowsReset()
    {
        TraceDocument document;
        BandwidthChart chart(&document);
        Trace trace;
        BandwidthSweep first = sweepHeader(simulatedH200());
        first.points = cells({1, 4, 16}, true, true, true);
        DeviceInfo gpu;
        gpu.name = "NVIDIA H200";
        BandwidthSweep second = sweepHeader(gpu);
        second.points = cells({1, 4}, false, true, false);
        trace.sweeps = {first, second};
        document.setTrace(trace, "two-sweeps.json");

        QCOMPARE(chart.shownSweep(), 1);
        QCOMPARE(chart.graphCount(), 2);
        QVERIFY(chart.title().contains("NVIDIA H200"));
        QVERIFY(!chart.title().contains("[simulated]"));
        QVERIFY(chart.title().contains("sweep 2 of 2"));

        document.clear();
        QCOMPARE(chart.graphCount(), 0);
        QVERIFY(chart.isShowingEmptyState());
    }

    void exportsToPng()
    {
        QTemporaryDir dir;
        TraceDocument document;
        BandwidthChart chart(&document);
        BandwidthSweep sweep = sweepHeader(simulatedH200());
        sweep.points = cells({1, 4, 16, 64, 256}, true, true, true);
        document.finishSweep(document.beginSweep(sweepHeader(simulatedH200())), sweep);
        const QString path = dir.filePath("sweep.png");
        QVERIFY(chart.savePng(path, 800, 500));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(800, 500));
    }

    // The per-op rate chart shares the document and the op colours.
    void opRatesPerRunAndKind()
    {
        TraceDocument document;
        OpRateChart chart(&document);
        QVERIFY(chart.isShowingEmptyState());

        Run run;
        run.name = "overlapped pinned";
        run.pipeline = "overlapped";
        run.device = simulatedH200();
        run.lanes = {{"host", LaneKind::HostThread}, {"stream 0", LaneKind::Stream}};
        const int index = document.beginRun(run);
        auto op = [](OpKind kind, int lane, std::int64_t start, std::int64_t ns, std::uint64_t bytes) {
            Op o;
            o.kind = kind;
            o.lane = static_cast<std::uint16_t>(lane);
            o.startNs = start;
            o.endNs = start + ns;
            o.bytes = bytes;
            return o;
        };
        // 1 MiB in 19 µs is ~55 GB/s; in 175 µs ~6 GB/s.
        const std::vector<Op> ops = {
            op(OpKind::StageIn, 0, 0, 175'000, 1 << 20),   op(OpKind::Upload, 1, 200'000, 19'000, 1 << 20),
            op(OpKind::Kernel, 1, 220'000, 10'000, 1 << 20), op(OpKind::Download, 1, 240'000, 19'000, 1 << 20),
            op(OpKind::StageOut, 0, 260'000, 175'000, 1 << 20), op(OpKind::HostWait, 0, 440'000, 5'000, 0),
        };
        document.addOps(index, ops);
        QCOMPARE(chart.pointCount(), 4); // kernels and waits move no bytes over a link
        QVERIFY(!chart.isShowingEmptyState());
        QCPGraph* uploads = chart.series(index, OpKind::Upload);
        QVERIFY(uploads);
        QCOMPARE(uploads->dataCount(), 1);
        QVERIFY(qAbs(uploads->data()->at(0)->value - 55.19) < 0.1);
        QCOMPARE(uploads->data()->at(0)->key, 0.2);
        QVERIFY(qAbs(chart.series(index, OpKind::StageIn)->data()->at(0)->value - 5.99) < 0.1);
        QCOMPARE(chart.series(index, OpKind::Kernel), nullptr);

        // Where the engine's own interval is known, queueing does not count.
        Op queued = op(OpKind::Upload, 1, 500'000, 40'000, 1 << 20);
        queued.execStartNs = 521'000;
        queued.execEndNs = 540'000;
        QVERIFY(qAbs(OpRateChart::opRate(queued) - 55.19) < 0.1);

        document.clear();
        QCOMPARE(chart.pointCount(), 0);
        QVERIFY(chart.isShowingEmptyState());
    }
};

QTEST_MAIN(TestBandwidthChart)
#include "tst_bandwidth_chart.moc"
