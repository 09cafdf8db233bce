// The transfer benchmark on the simulated device: the seed's protocol
// (warm-ups, event-timed samples, median), every cell delivered live.
#include "bench/BandwidthBench.h"
#include "sim/SimDevice.h"

#include <QtTest>

using namespace ovs;

namespace {
class PointSink : public RecordSink {
public:
    std::vector<BandwidthPoint> points;
    bool finished = false;
    void bandwidthMeasured(const BandwidthPoint& p) override
    {
        QVERIFY(!finished); // live, before the sweep ends
        points.push_back(p);
    }
    void sweepFinished(const BandwidthSweep&) override { finished = true; }
};
} // namespace

class TestBandwidthBench : public QObject {
    Q_OBJECT

private slots:
    void medianIsTheSixthOfTen()
    {
        QCOMPARE(medianOf({10, 1, 9, 2, 8, 3, 7, 4, 6, 5}), 6.0);
        QCOMPARE(medianOf({3, 1, 2}), 2.0);
        QCOMPARE(medianOf({}), 0.0);
    }

    void sweepMeasuresEveryCell()
    {
        SimDevice dev(*findSimPreset("h200"));
        PointSink sink;
        CancelFlag cancel;
        BenchConfig config;
        config.sizes = {1 << 20, 64 << 20};
        const BandwidthSweep sweep = runBandwidthSweep(dev, config, sink, cancel);
        QVERIFY(sink.finished);
        QCOMPARE(sweep.points.size(), std::size_t(2 * 5));
        QCOMPARE(sink.points.size(), sweep.points.size());
        QCOMPARE(sweep.timing, std::string("simulated"));
        QVERIFY(sweep.device.simulated);
        for (const auto& p : sweep.points) {
            QCOMPARE(int(p.samplesMs.size()), 10);
            QCOMPARE(p.medianMs, medianOf(p.samplesMs));
            const double moved = p.direction == "bidir" ? 2.0 * double(p.bytes) : double(p.bytes);
            QCOMPARE(p.gbps, moved / (p.medianMs * 1e6));
            QVERIFY(p.gbps > 0);
        }
        auto find = [&](std::uint64_t bytes, HostMemoryKind memory, const char* dir) {
            for (const auto& p : sweep.points)
                if (p.bytes == bytes && p.memory == memory && p.direction == dir)
                    return p.gbps;
            return -1.0;
        };
        const auto& preset = dev.preset();
        // The model's link rate comes back out of the event timing (within the
        // fixed per-copy latencies: about 1% of a 64 MiB copy).
        QVERIFY(qAbs(find(64 << 20, HostMemoryKind::Pinned, "HtoD") - preset.pinnedH2DGBps) < 0.03 * preset.pinnedH2DGBps);
        // Small copies pay the fixed latencies, so they run slower.
        QVERIFY(find(1 << 20, HostMemoryKind::Pinned, "HtoD") < find(64 << 20, HostMemoryKind::Pinned, "HtoD"));
        QVERIFY(find(64 << 20, HostMemoryKind::Pageable, "HtoD") < find(64 << 20, HostMemoryKind::Pinned, "HtoD"));
        // Both directions at once share the link: they reach the preset's
        // measured bidirectional rate (within the fixed latencies), more than
        // one direction alone and less than the two added up.
        const double bidir = find(64 << 20, HostMemoryKind::Pinned, "bidir");
        QVERIFY(preset.bidirectionalGBps > 0);
        QVERIFY2(qAbs(bidir - preset.bidirectionalGBps) < 0.05 * preset.bidirectionalGBps, qPrintable(QString::number(bidir)));
        QVERIFY(bidir > 1.5 * find(64 << 20, HostMemoryKind::Pinned, "HtoD"));
        QVERIFY(bidir < find(64 << 20, HostMemoryKind::Pinned, "HtoD") + find(64 << 20, HostMemoryKind::Pinned, "DtoH"));
    }

    // Host memcpy on 1, 2, 4 ... 64 threads: the simulator's model comes back
    // out of the host-clock timing (one thread's rate, shared under the
    // host's aggregate cap beyond it).
    void hostCopiesMeasuredPerThreadCount()
    {
        SimDevice dev(*findSimPreset("h200"));
        PointSink sink;
        CancelFlag cancel;
        BenchConfig config;
        config.pageable = config.pinned = config.bidirectional = false;
        config.hostCopyBytes = 4 << 20;
        const BandwidthSweep sweep = runBandwidthSweep(dev, config, sink, cancel);
        QVERIFY(sweep.points.empty());
        const std::vector<int> expected = {1, 2, 4, 8, 16, 32, 64};
        QCOMPARE(defaultHostCopyThreads(dev.info()), expected);
        QCOMPARE(sweep.hostCopies.size(), expected.size());
        const auto& preset = dev.preset();
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const HostCopyPoint& p = sweep.hostCopies[i];
            QCOMPARE(p.threads, expected[i]);
            QCOMPARE(p.bytes, std::uint64_t(4 << 20));
            QCOMPARE(int(p.samplesMs.size()), config.samples);
            QCOMPARE(p.medianMs, medianOf(p.samplesMs));
            const double model = std::min(p.threads * preset.hostMemcpyGBps, preset.hostMemoryGBps);
            QVERIFY2(qAbs(p.gbps - model) < 0.01 * model, qPrintable(QString::number(p.gbps)));
        }

        config.hostCopyThreads = {3};
        QCOMPARE(runBandwidthSweep(dev, config, sink, cancel).hostCopies.front().threads, 3);
        config.hostCopyThreads = {65};
        QVERIFY(QString::fromStdString(validate(config)).contains("host copy threads"));
    }

    void badConfigurationIsRefused_data()
    {
        QTest::addColumn<qulonglong>("size");
        QTest::addColumn<int>("samples");
        QTest::addColumn<QString>("message");
        QTest::newRow("size not a multiple of 4") << 6ull << 10 << "multiple of 4";
        QTest::newRow("no samples") << 1024ull << 0 << "samples";
    }
    void badConfigurationIsRefused()
    {
        QFETCH(qulonglong, size);
        QFETCH(int, samples);
        QFETCH(QString, message);
        BenchConfig config;
        config.sizes = {size};
        config.samples = samples;
        QVERIFY(QString::fromStdString(validate(config)).contains(message));
        SimDevice dev(*findSimPreset("h200"));
        PointSink sink;
        CancelFlag cancel;
        const BandwidthSweep sweep = runBandwidthSweep(dev, config, sink, cancel);
        QCOMPARE(sweep.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(sweep.error).contains(message), sweep.error.c_str());
        QVERIFY(sweep.points.empty());
        QVERIFY(sink.finished);
    }

    // Cancelled after `cells` cells: those stay, in the sweep and the sink,
    // and the sweep says it was cancelled.
    void cancelKeepsTheMeasuredCells_data()
    {
        QTest::addColumn<int>("cells");
        QTest::newRow("before the first cell") << 0;
        QTest::newRow("after the first cell") << 1;
        QTest::newRow("mid-size") << 3;
        QTest::newRow("between sizes") << 5;
        QTest::newRow("in the second size") << 7;
    }
    void cancelKeepsTheMeasuredCells()
    {
        QFETCH(int, cells);
        SimDevice dev(*findSimPreset("h200"));
        CancelFlag cancel;
        class CancellingSink : public PointSink {
        public:
            CancelFlag* flag = nullptr;
            std::size_t after = 0;
            BandwidthSweep finishedSweep;
            void bandwidthMeasured(const BandwidthPoint& p) override
            {
                PointSink::bandwidthMeasured(p);
                if (points.size() >= after)
                    flag->cancel();
            }
            void sweepFinished(const BandwidthSweep& sweep) override
            {
                PointSink::sweepFinished(sweep);
                finishedSweep = sweep;
            }
        } sink;
        sink.flag = &cancel;
        sink.after = static_cast<std::size_t>(cells);
        if (cells == 0)
            cancel.cancel();
        BenchConfig config;
        config.sizes = {1 << 20, 2 << 20};
        const BandwidthSweep sweep = runBandwidthSweep(dev, config, sink, cancel);
        QCOMPARE(sweep.status, RunStatus::Cancelled);
        QCOMPARE(sweep.error, std::string("cancelled by the user"));
        QCOMPARE(sweep.points.size(), std::size_t(cells));
        QCOMPARE(sink.points.size(), std::size_t(cells));
        QVERIFY(sink.finished);
        QCOMPARE(sink.finishedSweep.status, RunStatus::Cancelled);
        QCOMPARE(sink.finishedSweep.points.size(), std::size_t(cells));
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(0));
    }

    void aDeviceErrorEndsTheSweepAsFailed()
    {
        SimPreset preset = *findSimPreset("h200");
        preset.deviceMemoryBytes = 3ull << 20; // room for the 1 MiB cells, not the 4 MiB ones
        SimDevice dev(preset);
        PointSink sink;
        CancelFlag cancel;
        BenchConfig config;
        config.sizes = {1 << 20, 4 << 20};
        const BandwidthSweep sweep = runBandwidthSweep(dev, config, sink, cancel);
        QCOMPARE(sweep.status, RunStatus::Failed);
        QVERIFY(!sweep.error.empty());
        QCOMPARE(sweep.points.size(), std::size_t(5));
        QVERIFY(sink.finished);
    }
};

QTEST_GUILESS_MAIN(TestBandwidthBench)
#include "tst_bandwidth_bench.moc"
