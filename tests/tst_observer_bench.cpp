// The observer benchmark on the simulated device: every run is made
// recorded and wall-time only, interleaved; the wall-only runs carry no ops;
// the plain-thread copies copy exactly what the pool does.
#include "bench/ObserverBench.h"
#include "bench/PlainThreadCopyDevice.h"
#include "device/HostCopyPool.h"
#include "pipeline/PipelineRunner.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <numeric>

using namespace ovs;

namespace {
PipelineConfig smallConfig(PipelineKind kind, int stagingThreads = 1)
{
    PipelineConfig config;
    config.kind = kind;
    config.chunks = 4;
    config.chunkBytes = 1 << 20;
    config.stagingThreads = stagingThreads;
    return config;
}
} // namespace

class TestObserverBench : public QObject {
    Q_OBJECT

private slots:
    void wallOnlyRunHasNoOps_data()
    {
        QTest::addColumn<int>("kind");
        for (const auto& info : pipelineKinds())
            QTest::newRow(info.id) << int(info.kind);
    }
    void wallOnlyRunHasNoOps()
    {
        QFETCH(int, kind);
        SimDevice device(*findSimPreset("h200"));
        RecordSink sink;
        CancelFlag cancel;
        PipelineConfig config = smallConfig(static_cast<PipelineKind>(kind), 2);
        const Run recorded = runPipeline(device, config, sink, cancel);
        config.opTiming = false;
        const Run bare = runPipeline(device, config, sink, cancel);
        QCOMPARE(bare.status, RunStatus::Completed);
        QVERIFY2(bare.verification.passed, bare.verification.message.c_str());
        QCOMPARE(bare.timing, std::string(kWallOnlyTiming));
        QVERIFY(bare.ops.empty());
        QVERIFY(!recorded.ops.empty());
        QVERIFY(bare.wallNs() > 0);
        // The simulator charges each API call: recording's extra events are
        // calls, so the recorded run is never the faster one.
        QVERIFY2(recorded.wallNs() >= bare.wallNs(),
                 qPrintable(QString("%1 < %2").arg(recorded.wallNs()).arg(bare.wallNs())));
    }

    void benchInterleavesBothModes()
    {
        ObserverConfig config;
        config.pipelines = {smallConfig(PipelineKind::Overlapped, 4), smallConfig(PipelineKind::PinnedData)};
        config.repetitions = 3;
        config.warmups = 1;
        std::vector<bool> made;
        std::vector<std::string> order;
        const ObserverDeviceMaker make = [&](bool opTiming) {
            made.push_back(opTiming);
            return std::unique_ptr<Device>(std::make_unique<SimDevice>(*findSimPreset("h200")));
        };
        CancelFlag cancel;
        int calls = 0;
        const auto rows = runObserverBench(make, config, cancel, [&](int done, int total, const std::string& what) {
            QCOMPARE(done, calls++);
            QCOMPARE(total, 2 * 2 * 4);
            order.push_back(what);
        });
        QCOMPARE(calls, 16);
        QCOMPARE(rows.size(), std::size_t(2));
        for (const ObserverRow& row : rows) {
            QVERIFY2(row.problem.empty(), row.problem.c_str());
            QCOMPARE(row.recordedMs.size(), std::size_t(3));
            QCOMPARE(row.wallOnlyMs.size(), std::size_t(3));
            QVERIFY(row.plainThreadsMs.empty()); // no real threads on the simulator
            QCOMPARE(row.plainThreadsMedianMs(), 0.0);
            QVERIFY(row.recordingRatio() >= 1.0);
            QCOMPARE(row.recordingRatio(), row.recordedMedianMs() / row.wallOnlyMedianMs());
        }
        QCOMPARE(rows[0].name, std::string("overlapped pinned, 4 staging threads"));
        // Each run on a device of its own, made for its mode.
        QCOMPARE(std::count(made.begin() + 1, made.end(), true), 8);
        QCOMPARE(std::count(made.begin() + 1, made.end(), false), 8);
        // The order flips every repetition, so neither mode always goes first.
        QVERIFY(QString::fromStdString(order[0]).endsWith("recorded (warm-up)"));
        QVERIFY(QString::fromStdString(order[4]).endsWith("wall only"));
        QVERIFY(QString::fromStdString(order[5]).endsWith("recorded"));
    }

    // Drift between repetitions divides out of the paired ratio: here every
    // repetition costs 2% while the runs themselves spread by 2x.
    void pairedRatiosDivideOutDrift()
    {
        ObserverRow row;
        row.wallOnlyMs = {100, 200, 150, 120, 180};
        for (double ms : row.wallOnlyMs)
            row.recordedMs.push_back(ms * 1.02);
        row.recordedMs[4] = 180 * 1.10; // one outlier
        QCOMPARE(row.pairedRatios().size(), std::size_t(5));
        QCOMPARE(row.pairedRatioMedian(), 1.02);
        const auto [q1, q3] = row.pairedRatioQuartiles();
        QCOMPARE(q1, 1.02);
        QCOMPARE(q3, 1.02);
        // Medians over medians mix repetitions: 153 / 150.
        QCOMPARE(row.recordingRatio(), 153.0 / 150.0);
        ObserverRow unequal;
        unequal.recordedMs = {10, 11, 12};
        unequal.wallOnlyMs = {10, 10};
        QCOMPARE(unequal.pairedRatios().size(), std::size_t(2));
        QCOMPARE(unequal.pairedRatioQuartiles().first, 1.025);
        QCOMPARE(ObserverRow{}.pairedRatioMedian(), 0.0);
    }

    void cancelStopsTheBench()
    {
        ObserverConfig config;
        config.pipelines = {smallConfig(PipelineKind::PinnedData)};
        CancelFlag cancel;
        cancel.cancel();
        const ObserverDeviceMaker make = [](bool) {
            return std::unique_ptr<Device>(std::make_unique<SimDevice>(*findSimPreset("h200")));
        };
        QVERIFY_THROWS_EXCEPTION(RunCancelled, runObserverBench(make, config, cancel));
    }

    void plainThreadsCopyWhatThePoolCopies_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("bytes");
        QTest::newRow("1 thread") << 1 << 4096;
        QTest::newRow("3 threads, uneven") << 3 << 1000003;
        QTest::newRow("8 threads, fewer lines than threads") << 8 << 300;
    }
    void plainThreadsCopyWhatThePoolCopies()
    {
        QFETCH(int, threads);
        QFETCH(int, bytes);
        SimDevice inner(*findSimPreset("h200"));
        PlainThreadCopyDevice device(inner);
        QCOMPARE(device.info().name, inner.info().name);
        std::vector<unsigned char> src(static_cast<std::size_t>(bytes));
        std::iota(src.begin(), src.end(), static_cast<unsigned char>(7));
        std::vector<unsigned char> dst(src.size(), 0);
        const auto intervals = device.hostCopyParallel(dst.data(), src.data(), src.size(), threads);
        QCOMPARE(dst, src);
        QCOMPARE(intervals.size(), HostCopyPool::split(src.size(), threads).size());
        for (const HostInterval& i : intervals)
            QVERIFY(i.startNs <= i.endNs && i.startNs > 0);
        QVERIFY_THROWS_EXCEPTION(DeviceError, device.hostCopyParallel(dst.data(), src.data(), 1, 0));
    }
};

QTEST_GUILESS_MAIN(TestObserverBench)
#include "tst_observer_bench.moc"
