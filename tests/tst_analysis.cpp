// The analysis: interval unions, per-engine busy time and overlap on
// hand-built runs with exact numbers; rates and where they come from; bounds
// by formula; and diagnoses of simulated runs built to be each kind of bound.
#include "facts/IntervalSet.h"
#include "analysis/RunAnalysis.h"
#include "base/DeviceClassRates.h"
#include "bench/BandwidthBench.h"
#include "pipeline/PipelineRunner.h"
#include "ranks/RankComparison.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"
#include "judgement/OverlapWords.h"

#include "TestOps.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <span>

using namespace ovs;
using ovs::test::makeOp;

Q_DECLARE_METATYPE(ovs::VerdictKind)
Q_DECLARE_METATYPE(ovs::BoundKind)
Q_DECLARE_METATYPE(ovs::Op)

namespace {

Op withExec(Op op, std::int64_t start, std::int64_t end)
{
    op.execStartNs = start;
    op.execEndNs = end;
    return op;
}

// A run on a real (not simulated) device, so the rates come from its ops or
// from what the test passes.
Run makeRun(const char* pipeline, std::int64_t timedBegin, std::int64_t timedEnd, int streams, int hostLanes = 1)
{
    Run run;
    run.name = pipeline;
    run.pipeline = pipeline;
    run.device.name = "Test GPU";
    run.device.asyncEngineCount = 2;
    run.timing = "cuda-events";
    run.params = {4, 1000, streams, 1, hostLanes};
    run.timedBeginNs = timedBegin;
    run.timedEndNs = timedEnd;
    run.lanes.push_back({"host", LaneKind::HostThread});
    for (int s = 0; s < streams; ++s)
        run.lanes.push_back({"stream " + std::to_string(s), LaneKind::Stream});
    for (int h = 1; h < hostLanes; ++h)
        run.lanes.push_back({"staging " + std::to_string(h), LaneKind::HostThread});
    return run;
}

Run simulate(const SimPreset& preset, PipelineKind kind, int chunks, std::uint64_t chunkBytes, int repeats = 1)
{
    SimDevice device(preset);
    RecordSink sink;
    CancelFlag cancel;
    PipelineConfig config;
    config.kind = kind;
    config.chunks = chunks;
    config.chunkBytes = chunkBytes;
    config.kernelRepeats = repeats;
    return runPipeline(device, config, sink, cancel);
}

// The H200 preset's link, kernel and fixed-cost figures on a fresh preset, so
// that model features added later stay at their neutral defaults and the
// case stays what it was built to be.
SimPreset customPreset(const char* id)
{
    const SimPreset h200 = *findSimPreset("h200");
    SimPreset p;
    p.id = id; // unknown to findSimPreset: the rates come from the model stored with the run
    p.name = std::string("Simulated ") + id;
    p.asyncEngineCount = h200.asyncEngineCount;
    p.pinnedH2DGBps = h200.pinnedH2DGBps;
    p.pinnedD2HGBps = h200.pinnedD2HGBps;
    p.pageableH2DGBps = h200.pageableH2DGBps;
    p.pageableD2HGBps = h200.pageableD2HGBps;
    p.copyLatencyUs = h200.copyLatencyUs;
    p.apiCallUs = h200.apiCallUs;
    p.launchLatencyUs = h200.launchLatencyUs;
    p.syncWakeUs = h200.syncWakeUs;
    p.kernelGBps = h200.kernelGBps;
    p.kernelFixedUs = h200.kernelFixedUs;
    p.hostMemcpyGBps = h200.hostMemcpyGBps;
    p.pageFaultGBps = h200.pageFaultGBps;
    p.deviceAllocUs = h200.deviceAllocUs;
    p.deviceFreeUs = h200.deviceFreeUs;
    p.pinnedAllocUs = h200.pinnedAllocUs;
    p.pinnedAllocGBps = h200.pinnedAllocGBps;
    p.pinnedFreeUs = h200.pinnedFreeUs;
    p.deviceMemoryBytes = h200.deviceMemoryBytes;
    return p;
}


// ---- The pipeline verdict's thresholds (PipelineVerdict.cpp,
// base/Thresholds.h), one at a time: metrics and the model built by hand
// (judgePipeline is a function of them), a row on each side of each threshold. The base case: a pipeline of
// 8 chunks on two streams, copy engines busy 80% of 1 ms, kernels 20%,
// copies overlapping kernels 10% of the time, uploads beside downloads 60%
// of copy time, 1.25x its transfer bound.
struct DiagnosisCase {
    Run run;
    RunMetrics m;
    PipelineModel b;
    std::int64_t boundNs = 800'000;
    double distance = 1.25;
    TransferRates rates;
    DiagnosisCase()
    {
        run.name = run.pipeline = "overlapped";
        run.timing = "cuda-events";
        run.params.chunks = 8;
        run.params.slotCount = 2;
        m.wallNs = 1'000'000;
        m.gpuOps = 24;
        m.streams = 2;
        m.copies = {800'000, 0.8};
        m.compute = {200'000, 0.2};
        m.copyWithKernelNs = 100'000;
        m.overlapPercent = 12.5;
        m.h2dWithD2hPercent = 60;
        for (OpKind k : {OpKind::Upload, OpKind::Download}) {
            KindThroughput& t = kind(k);
            t.count = 8;
            t.bytes = 8'000'000;
            t.ns = t.unionNs = 400'000;
            t.memory = HostMemoryKind::Pinned;
        }
        kind(OpKind::Kernel) = {8, 0, 200'000, 200'000, HostMemoryKind::None};
        b.binding = BoundKind::Transfer;
        b.chunks = 8;
        b.transferNs = 800'000;
        b.uploadChunkNs = b.downloadChunkNs = 50'000;
    }
    KindThroughput& kind(OpKind k) { return m.kinds[static_cast<std::size_t>(k)]; }
    Verdict diagnosis() const
    {
        Verdict v;
        v.pipeline = b;
        v.boundNs = boundNs;
        v.distance = distance;
        judgePipeline(v, run, m, rates);
        return v;
    }
};

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

private slots:
    void intervalUnionAndIntersection_data()
    {
        QTest::addColumn<QList<qint64>>("a"); // begin, end pairs
        QTest::addColumn<QList<qint64>>("b");
        QTest::addColumn<qint64>("unionA");
        QTest::addColumn<qint64>("unionAB");
        QTest::addColumn<qint64>("intersection");
        QTest::addColumn<int>("piecesA");
        QTest::newRow("empty") << QList<qint64>{} << QList<qint64>{} << 0ll << 0ll << 0ll << 0;
        QTest::newRow("disjoint") << QList<qint64>{0, 10, 20, 30} << QList<qint64>{40, 50} << 20ll << 30ll << 0ll << 2;
        QTest::newRow("overlapping") << QList<qint64>{0, 100, 50, 150} << QList<qint64>{120, 200} << 150ll << 200ll
                                     << 30ll << 1;
        QTest::newRow("touching join, do not intersect")
            << QList<qint64>{0, 100, 100, 200} << QList<qint64>{200, 300} << 200ll << 300ll << 0ll << 1;
        QTest::newRow("nested and unsorted") << QList<qint64>{50, 60, 0, 100, 10, 20} << QList<qint64>{90, 95, 5, 15}
                                             << 100ll << 100ll << 15ll << 1;
        QTest::newRow("empty and inverted dropped") << QList<qint64>{10, 10, 30, 20} << QList<qint64>{0, 5} << 0ll
                                                    << 5ll << 0ll << 0;
    }
    void intervalUnionAndIntersection()
    {
        QFETCH(QList<qint64>, a);
        QFETCH(QList<qint64>, b);
        QFETCH(qint64, unionA);
        QFETCH(qint64, unionAB);
        QFETCH(qint64, intersection);
        QFETCH(int, piecesA);
        auto toSet = [](const QList<qint64>& v) {
            std::vector<Interval> intervals;
            for (int i = 0; i + 1 < v.size(); i += 2)
                intervals.push_back({v[i], v[i + 1]});
            return IntervalSet(intervals);
        };
        const IntervalSet setA = toSet(a);
        const IntervalSet setB = toSet(b);
        QCOMPARE(setA.length(), unionA);
        QCOMPARE(int(setA.pieces().size()), piecesA);
        QCOMPARE(setA.united(setB).length(), unionAB);
        QCOMPARE(setA.intersected(setB).length(), intersection);
        QCOMPARE(setB.intersected(setA).length(), intersection);
        QCOMPARE(setA.clipped(0, 25).length(), setA.intersected(IntervalSet({{0, 25}})).length());
    }

    // Three streams whose ops overlap each other: every number by hand.
    void unionsAndOverlapOnThreeStreams()
    {
        Run run = makeRun("overlapped", 0, 500, 3, 2);
        const int host = 0, s0 = 1, s1 = 2, s2 = 3, staging = 4;
        run.ops = {
            makeOp(OpKind::Upload, s0, 0, 0, 100, 1000, HostMemoryKind::Pinned),
            makeOp(OpKind::Kernel, s0, 0, 100, 200, 1000),
            makeOp(OpKind::Download, s0, 0, 200, 300, 1000, HostMemoryKind::Pinned),
            makeOp(OpKind::Upload, s1, 1, 50, 150, 1000, HostMemoryKind::Pinned),
            makeOp(OpKind::Kernel, s1, 1, 150, 260, 1000),
            makeOp(OpKind::Download, s1, 1, 260, 350, 1000, HostMemoryKind::Pinned),
            makeOp(OpKind::Upload, s2, 2, 300, 400, 1000, HostMemoryKind::Pinned),
            makeOp(OpKind::StageIn, host, 0, 0, 40, 400, HostMemoryKind::Pinned),
            makeOp(OpKind::StageIn, staging, 1, 20, 60, 400, HostMemoryKind::Pinned),
            makeOp(OpKind::HostWait, host, 0, 100, 130),
            makeOp(OpKind::Sync, host, -1, 120, 150),
            makeOp(OpKind::HostWait, staging, 1, 60, 480), // not the main host lane
            makeOp(OpKind::Alloc, host, -1, 500, 600, 1000), // after the timed region
        };
        run.sortOps();
        const RunMetrics m = computeMetrics(run, ratesFromRunOps(run));

        QCOMPARE(m.wallNs, 500ll);
        QCOMPARE(m.gpuOps, 7);
        QCOMPARE(m.streams, 3);
        QVERIFY(m.engineTimes.starts_with("event intervals"));
        QCOMPARE(m.h2d.busyNs, 250ll); // [0,150) + [300,400)
        QCOMPARE(m.h2d.utilisation, 0.5);
        QCOMPARE(m.d2h.busyNs, 150ll); // [200,350)
        QCOMPARE(m.compute.busyNs, 160ll); // [100,260)
        QCOMPARE(m.copies.busyNs, 350ll); // [0,150) + [200,400)
        QCOMPARE(m.copyWithKernelNs, 110ll); // [100,150) + [200,260)
        QCOMPARE(m.h2dWithD2hNs, 50ll); // [300,350)
        QCOMPARE(m.overlapPercent, 100.0 * 110 / 350);
        QCOMPARE(m.h2dWithD2hPercent, 100.0 * 50 / 350);
        QCOMPARE(m.staging.busyNs, 60ll); // [0,60) over two host lanes
        QCOMPARE(m.stagingThreadNs, 80ll);
        QCOMPARE(m.stagingThreads, 2);
        QCOMPARE(m.stagingWithGpuNs, 60ll); // the first upload runs under all of it
        QCOMPARE(m.hostWaitNs, 50ll); // [100,150) on the main host lane only
        QCOMPARE(m.kind(OpKind::Upload).count, 3);
        QCOMPARE(m.kind(OpKind::Upload).ns, 300ll);
        QCOMPARE(m.kind(OpKind::Upload).gbps(), 10.0); // 3000 bytes / 300 ns
        QCOMPARE(m.kind(OpKind::Upload).memory, HostMemoryKind::Pinned);
        QCOMPARE(m.kind(OpKind::Kernel).bytes, std::uint64_t(4000)); // read + written, one pass each
        QCOMPARE(m.kind(OpKind::Alloc).count, 0);
    }

    void engineTimesPreferredWhereKnown()
    {
        // Two streams reach their uploads at once; the engine runs them in
        // turn. Events say both took the whole span; exec times say not.
        Run run = makeRun("overlapped", 0, 400, 2);
        run.ops = {
            withExec(makeOp(OpKind::Upload, 1, 0, 0, 100, 1000, HostMemoryKind::Pinned), 0, 100),
            withExec(makeOp(OpKind::Upload, 2, 1, 0, 240, 1000, HostMemoryKind::Pinned), 140, 240),
            withExec(makeOp(OpKind::Kernel, 1, 0, 100, 150, 1000), 100, 150),
        };
        run.sortOps();
        RunMetrics m = computeMetrics(run, ratesFromRunOps(run));
        QCOMPARE(m.engineTimes, std::string("engine execution intervals"));
        QCOMPARE(m.gpuOpsWithExec, 3);
        QCOMPARE(m.h2d.busyNs, 200ll);
        QCOMPARE(m.copyWithKernelNs, 10ll); // [140,150)
        QCOMPARE(m.kind(OpKind::Upload).gbps(), 10.0); // 2000 bytes / 200 engine ns
        QCOMPARE(m.h2dQueue.ns, 140ll);
        QCOMPARE(m.h2dQueue.streams, 1);

        for (Op& op : run.ops)
            op.execStartNs = op.execEndNs = -1;
        m = computeMetrics(run, ratesFromRunOps(run));
        QVERIFY(m.engineTimes.starts_with("event intervals"));
        QCOMPARE(m.h2d.busyNs, 240ll);
        QCOMPARE(m.copyWithKernelNs, 50ll);
        QCOMPARE(m.h2dQueue.ns, 0ll);

        run.ops[0] = withExec(run.ops[0], 0, 100);
        m = computeMetrics(run, ratesFromRunOps(run));
        QCOMPARE(m.engineTimes, std::string("engine execution intervals for 1 of 3 GPU ops, event intervals for the rest"));
    }

    void emptyRunHasNoWork()
    {
        const Run run = makeRun("overlapped", 0, 0, 1);
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(a.metrics.wallNs, 0ll);
        QCOMPARE(a.metrics.copies.busyNs, 0ll);
        QCOMPARE(a.metrics.overlapPercent, 0.0);
        QCOMPARE(QString(toString(a.findings.verdict.binding())), QString(toString(BoundKind::None)));
        QCOMPARE(a.findings.verdict.distance, 0.0);
        QCOMPARE(QString(toString(a.findings.verdict.kind)), QString(toString(VerdictKind::NoWork)));
        QVERIFY(a.findings.verdict.words.starts_with("no work: "));
        QVERIFY(a.findings.verdict.causes.empty());
    }

    void cancelledAndFailedRunsSaySo_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error");
        QTest::addColumn<VerdictKind>("kind");
        QTest::addColumn<QString>("start");
        QTest::newRow("cancelled") << int(RunStatus::Cancelled) << "cancelled by the user" << VerdictKind::Cancelled
                                   << "cancelled: cancelled by the user; the 2 ops recorded";
        QTest::newRow("failed") << int(RunStatus::Failed) << "out of device memory" << VerdictKind::Failed
                                << "failed: out of device memory; the 2 ops recorded";
        QTest::newRow("cancelled, no reason") << int(RunStatus::Cancelled) << "" << VerdictKind::Cancelled
                                              << "cancelled: stopped before the end";
    }
    void cancelledAndFailedRunsSaySo()
    {
        QFETCH(int, status);
        QFETCH(QString, error);
        QFETCH(VerdictKind, kind);
        QFETCH(QString, start);
        Run run = makeRun("overlapped", 0, 300, 1);
        run.status = static_cast<RunStatus>(status);
        run.error = error.toStdString();
        run.ops = {makeOp(OpKind::Upload, 1, 0, 0, 100, 1000, HostMemoryKind::Pinned),
                   makeOp(OpKind::Kernel, 1, 0, 100, 200, 1000)};
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(QString(toString(a.findings.verdict.kind)), QString(toString(kind)));
        QVERIFY2(a.findings.verdict.words.starts_with(start.toStdString()), a.findings.verdict.words.c_str());
        QCOMPARE(QString(toString(a.findings.verdict.binding())), QString(toString(BoundKind::None)));
        QCOMPARE(a.metrics.h2d.busyNs, 100ll); // what was recorded is still measured
        QVERIFY(!a.speedup.value);
        QCOMPARE(a.speedup.why, std::string("only completed runs are compared"));
    }

    void ratesSayWhereTheyComeFrom()
    {
        Run gpu = makeRun("overlapped", 0, 1000, 1);
        gpu.ops = {makeOp(OpKind::Upload, 1, 0, 0, 100, 1000, HostMemoryKind::Pinned),
                   makeOp(OpKind::Upload, 1, 1, 100, 150, 1000, HostMemoryKind::Pinned),
                   makeOp(OpKind::Download, 1, 0, 200, 400, 1000, HostMemoryKind::Pinned)};
        TransferRates r = transferRatesFor(gpu, {});
        QCOMPARE(r.source, std::string("estimated from this run's ops"));
        QCOMPARE(r.pinnedH2DGBps, 20.0); // the best op, not the mean
        QCOMPARE(r.pinnedD2HGBps, 5.0);
        QCOMPARE(r.hostMemcpyGBps, 0.0); // nothing measured it
        QCOMPARE(r.hostCopyGBps(4), 0.0);
        QVERIFY(r.hostSource.empty());

        // The run's own staging copies never stand in for the host rate: a
        // bound made of them is the run itself.
        gpu.ops.push_back(makeOp(OpKind::StageIn, 0, 0, 0, 500, 1000, HostMemoryKind::Pinned));
        gpu.ops.push_back(makeOp(OpKind::StageOut, 0, 0, 500, 1000, 1000, HostMemoryKind::Pinned));
        r = transferRatesFor(gpu, {});
        QCOMPARE(r.hostMemcpyGBps, 0.0);
        QVERIFY(r.hostSource.empty());

        BandwidthSweep sweep;
        sweep.device = gpu.device;
        auto point = [](std::uint64_t mib, HostMemoryKind memory, const char* direction, double gbps) {
            BandwidthPoint p;
            p.bytes = mib << 20;
            p.memory = memory;
            p.direction = direction;
            p.gbps = gbps;
            return p;
        };
        sweep.points = {point(1, HostMemoryKind::Pinned, "HtoD", 30), point(64, HostMemoryKind::Pinned, "HtoD", 55),
                        point(64, HostMemoryKind::Pinned, "DtoH", 54), point(64, HostMemoryKind::Pageable, "DtoH", 14),
                        point(64, HostMemoryKind::Pinned, "bidir", 99)};
        BandwidthSweep otherDevice = sweep;
        otherDevice.device.name = "Another GPU";
        r = transferRatesFor(gpu, {sweep, otherDevice});
        QCOMPARE(r.source, std::string("bandwidth sweep of Test GPU (64 MiB medians)"));
        QCOMPARE(r.pinnedH2DGBps, 55.0);
        QCOMPARE(r.pinnedD2HGBps, 54.0);
        QCOMPARE(r.pageableD2HGBps, 14.0);
        QCOMPARE(r.pageableH2DGBps, 0.0); // neither the sweep nor the run has it
        QVERIFY(r.hostSource.empty()); // the sweep measured no host copies
        r = transferRatesFor(gpu, {otherDevice});
        QCOMPARE(r.source, std::string("estimated from this run's ops"));

        // Host copies measured on 1, 2, 4 and 8 threads (8 no faster than 4).
        auto hostCopy = [](int threads, double gbps) {
            HostCopyPoint p;
            p.threads = threads;
            p.bytes = 32 << 20;
            p.gbps = gbps;
            return p;
        };
        sweep.hostCopies = {hostCopy(1, 6), hostCopy(2, 11), hostCopy(4, 30), hostCopy(8, 28)};
        r = transferRatesFor(gpu, {sweep});
        QCOMPARE(r.hostSource, std::string("host memcpy sweep of Test GPU (32 MiB medians, 1 to 8 threads)"));
        QCOMPARE(r.hostMemcpyGBps, 6.0);
        QCOMPARE(r.hostCopyGBps(1), 6.0);
        QCOMPARE(r.hostCopyGBps(2), 11.0);
        QCOMPARE(r.hostCopyGBps(3), 30.0); // up to the next measured count: never slower than 3 threads can be
        QCOMPARE(r.hostCopyGBps(8), 30.0); // the best of any count up to 8
        QCOMPARE(r.hostCopyGBps(64), 30.0); // beyond the measured counts, no gain assumed

        // A simulated run carries its model: the rates come from it, whatever
        // preset this binary has under that name.
        Run sim = gpu;
        sim.device.simulated = true;
        sim.device.preset = "h200";
        sim.device.model = ModelRates{40, 41, 7, 14, 5, 12, 900};
        r = transferRatesFor(sim, {});
        QCOMPARE(r.source, std::string("simulator preset h200"));
        QCOMPARE(r.pinnedH2DGBps, 40.0);
        QCOMPARE(r.hostMemcpyGBps, 5.0);
        QCOMPARE(r.hostCopyGBps(2), 10.0);
        QCOMPARE(r.hostCopyGBps(4), 12.0); // the model's cap on all threads together
        QCOMPARE(r.hostSource, std::string("simulator preset h200"));
        QCOMPARE(r.kernelGBps, 900.0);
        QCOMPARE(r.kernelSource, std::string("simulator preset h200"));
        sim.device.model.reset();
        r = transferRatesFor(sim, {});
        QCOMPARE(r.source, std::string("estimated from this run's ops"));
        QCOMPARE(r.hostMemcpyGBps, 0.0);
    }

    // The device class table (base/DeviceClassRates.h): a name's words pick
    // the first row that covers them; a family's members never pass for
    // one another ("A10" is not "A100"); a name the table does not know has none.
    void deviceClassesByName_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("label"); // empty: no class
        QTest::addColumn<double>("h2d");
        QTest::addColumn<double>("d2h");
        QTest::newRow("H200, measured") << "NVIDIA H200" << "H200 on PCIe Gen5 x16" << 55.4 << 55.3;
        QTest::newRow("H200 NVL") << "NVIDIA H200 NVL" << "H200 on PCIe Gen5 x16" << 55.4 << 55.3;
        QTest::newRow("GH200: C2C") << "NVIDIA GH200 480GB" << "GH200 on NVLink-C2C" << 395.26 << 395.26;
        QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << "H100 PCIe on PCIe Gen5 x16" << 55.35 << 55.35;
        QTest::newRow("H100 SXM5 by its memory") << "NVIDIA H100 80GB HBM3" << "H100 SXM5 on PCIe Gen5 x16" << 55.35
                                                 << 55.35;
        QTest::newRow("A100 SXM4 (Nsight's name)") << "NVIDIA A100-SXM4-80GB" << "A100 SXM4 on PCIe Gen4 x16" << 27.68
                                                   << 27.68;
        QTest::newRow("A100 PCIe") << "NVIDIA A100-PCIE-40GB" << "A100 PCIe on PCIe Gen4 x16" << 27.68 << 27.68;
        QTest::newRow("A10 is not A100") << "NVIDIA A10" << "A40, A30, A10 on PCIe Gen4 x16" << 27.68 << 27.68;
        QTest::newRow("RTX 4090, the seed's") << "NVIDIA GeForce RTX 4090" << "RTX 4090 on PCIe Gen4 x16" << 23.6 << 23.85;
        QTest::newRow("RTX 4060 Ti: eight lanes") << "NVIDIA GeForce RTX 4060 Ti" << "RTX 4060 on PCIe Gen4 x8" << 13.84
                                                  << 13.84;
        QTest::newRow("V100, Gen3") << "Tesla V100-SXM2-16GB" << "V100, T4 on PCIe Gen3 x16" << 13.84 << 13.84;
        QTest::newRow("unknown") << "Test GPU" << "" << 0.0 << 0.0;
        QTest::newRow("a word that only begins like one") << "NVIDIA RTX A1000" << "" << 0.0 << 0.0;
        QTest::newRow("another vendor's") << "AMD Instinct MI300X" << "" << 0.0 << 0.0;
    }
    void deviceClassesByName()
    {
        QFETCH(QString, device);
        QFETCH(QString, label);
        QFETCH(double, h2d);
        QFETCH(double, d2h);
        const DeviceClassRates* row = deviceClassRatesFor(device.toStdString());
        QCOMPARE(row != nullptr, !label.isEmpty());
        if (!row)
            return;
        QCOMPARE(QString::fromStdString(row->label()), label);
        QVERIFY2(std::abs(row->h2dGBps - h2d) < 0.01, qPrintable(QString::number(row->h2dGBps)));
        QVERIFY2(std::abs(row->d2hGBps - d2h) < 0.01, qPrintable(QString::number(row->d2hGBps)));
        QVERIFY(row->bidirectionalGBps > std::max(row->h2dGBps, row->d2hGBps));
        QVERIFY(row->bidirectionalGBps < row->h2dGBps + row->d2hGBps);
        QVERIFY(!row->source.empty());
    }

    // The table's measured rows are the simulator presets' figures, and its
    // one efficiency factor turns PCIe Gen5 x16 back into the H200's rate.
    void deviceClassesAgreeWithThePresets()
    {
        const SimPreset h200 = *findSimPreset("h200");
        const DeviceClassRates& row = *deviceClassRatesFor("NVIDIA H200");
        QCOMPARE(row.h2dGBps, h200.pinnedH2DGBps);
        QCOMPARE(row.d2hGBps, h200.pinnedD2HGBps);
        QCOMPARE(row.bidirectionalGBps, h200.bidirectionalGBps);
        const SimPreset rtx = *findSimPreset("rtx4090");
        QCOMPARE(deviceClassRatesFor("NVIDIA GeForce RTX 4090")->h2dGBps, rtx.pinnedH2DGBps);
        QCOMPARE(deviceClassRatesFor("NVIDIA GeForce RTX 4090")->d2hGBps, rtx.pinnedD2HGBps);
        QVERIFY(std::abs(assumedLinkEfficiency() * pcieTheoreticalGBps(5, 16)
                         - (h200.pinnedH2DGBps + h200.pinnedD2HGBps) / 2) < 1e-9);
        QVERIFY(std::abs(pcieTheoreticalGBps(4, 16) - 31.5077) < 1e-3);
        QCOMPARE(pcieTheoreticalGBps(6, 16), 0.0); // not modelled
    }

    // Where the pinned rates come from, first that has them: a sweep of the
    // device, the simulator's model, the run's own pinned copies, and last
    // the device class table by the device's name; a simulated device
    // never takes the table's.
    void pinnedRateFallbackOrder_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("sweep");
        QTest::addColumn<bool>("model");
        QTest::addColumn<bool>("pinnedCopies");
        QTest::addColumn<bool>("simulated");
        QTest::addColumn<double>("h2d");
        QTest::addColumn<QString>("basis");
        QTest::addColumn<QString>("source"); // how it begins
        const QString a100 = "NVIDIA A100-SXM4-80GB";
        const QString assumed = "assumed for A100 SXM4 on PCIe Gen4 x16";
        QTest::newRow("a sweep beats the model") << a100 << true << true << true << false << 50.0 << "" << "bandwidth sweep";
        QTest::newRow("the model beats the run's copies")
            << a100 << false << true << true << true << 40.0 << "" << "simulator preset";
        QTest::newRow("the run's pinned copies beat the table")
            << a100 << false << false << true << false << 20.0 << "" << "estimated from this run's ops";
        QTest::newRow("the table, last") << a100 << false << false << false << false << 27.68 << assumed
                                         << "pinned rates assumed for A100 SXM4 on PCIe Gen4 x16 (assumed: 87.8%";
        QTest::newRow("an unknown device: none") << "Test GPU" << false << false << false << false << 0.0 << ""
                                                 << "estimated from this run's ops";
        QTest::newRow("simulated: never the table") << a100 << false << false << false << true << 0.0 << ""
                                                    << "estimated from this run's ops";
    }
    void pinnedRateFallbackOrder()
    {
        QFETCH(QString, device);
        QFETCH(bool, sweep);
        QFETCH(bool, model);
        QFETCH(bool, pinnedCopies);
        QFETCH(bool, simulated);
        QFETCH(double, h2d);
        QFETCH(QString, basis);
        QFETCH(QString, source);
        Run run = makeRun("overlapped", 0, 1000, 1);
        run.device.name = device.toStdString();
        run.device.simulated = simulated;
        run.ops = {makeOp(OpKind::Upload, 1, 0, 0, 100, 1000, HostMemoryKind::Pageable),
                   makeOp(OpKind::Download, 1, 0, 200, 400, 1000, HostMemoryKind::Pageable)};
        if (pinnedCopies) // 20 GB/s each way
            for (OpKind kind : {OpKind::Upload, OpKind::Download})
                run.ops.push_back(makeOp(kind, 1, 1, 500, 550, 1000, HostMemoryKind::Pinned));
        if (model)
            run.device.model = ModelRates{40, 40, 7, 14, 5, 12, 900};
        std::vector<BandwidthSweep> sweeps;
        if (sweep) {
            BandwidthSweep s;
            s.device = run.device;
            for (const char* direction : {"HtoD", "DtoH"}) {
                BandwidthPoint p;
                p.bytes = 64 << 20;
                p.memory = HostMemoryKind::Pinned;
                p.direction = direction;
                p.gbps = 50;
                s.points.push_back(p);
            }
            sweeps.push_back(s);
        }
        const TransferRates r = transferRatesFor(run, sweeps);
        QVERIFY2(std::abs(r.pinnedH2DGBps - h2d) < 0.01, qPrintable(QString::number(r.pinnedH2DGBps)));
        QCOMPARE(QString::fromStdString(r.pinnedBasis), basis);
        QVERIFY2(QString::fromStdString(r.source).startsWith(source), r.source.c_str());
        // The pageable rates stay the run's own whatever the pinned ones are.
        if (!sweep && !model)
            QCOMPARE(r.pageableH2DGBps, 10.0);
    }

    // --pinned-rate H2D,D2H: read strictly, and it replaces every other
    // source of the pinned rates, a sweep's included, saying so.
    void givenPinnedRates_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<double>("h2d");
        QTest::addColumn<double>("d2h");
        QTest::newRow("both") << "25,26.5" << true << 25.0 << 26.5;
        QTest::newRow("one for both") << "12" << true << 12.0 << 12.0;
        QTest::newRow("zero") << "0,5" << false << 0.0 << 0.0;
        QTest::newRow("negative") << "-3,5" << false << 0.0 << 0.0;
        QTest::newRow("three") << "1,2,3" << false << 0.0 << 0.0;
        QTest::newRow("words") << "fast" << false << 0.0 << 0.0;
        QTest::newRow("empty") << "" << false << 0.0 << 0.0;
        QTest::newRow("too fast") << "20000,1" << false << 0.0 << 0.0;
    }
    void givenPinnedRates()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(double, h2d);
        QFETCH(double, d2h);
        std::string error;
        const auto given = parsePinnedRates(text.toStdString(), &error);
        QCOMPARE(given.has_value(), valid);
        QCOMPARE(error.empty(), valid);
        if (!given)
            return;
        QCOMPARE(given->h2dGBps, h2d);
        QCOMPARE(given->d2hGBps, d2h);
        QVERIFY(parsePinnedRates(pinnedRatesText(*given), nullptr) == given);
        Run run = makeRun("overlapped", 0, 1000, 1);
        run.ops = {makeOp(OpKind::Upload, 1, 0, 0, 100, 1000, HostMemoryKind::Pinned)};
        AnalysisOptions options;
        options.pinnedRates = *given;
        const RunAnalysis a = analyzeRun(run, {}, nullptr, options);
        QCOMPARE(a.rates.pinnedH2DGBps, h2d);
        QCOMPARE(a.rates.pinnedD2HGBps, d2h);
        QVERIFY2(a.rates.pinnedBasis.starts_with("given: "), a.rates.pinnedBasis.c_str());
        QVERIFY2(a.rates.source.starts_with("pinned rates given: "), a.rates.source.c_str());
        QCOMPARE(analyzeRun(run, {}, nullptr).rates.pinnedH2DGBps, 10.0); // without it, the run's own
    }

    // 4 chunks of 1000 bytes at H2D 10 GB/s and D2H 5 GB/s: 100 and 200 ns a
    // chunk; kernels 50 ns each; 8000 staged bytes at 20 GB/s: 400 ns.
    void boundsByFormula_data()
    {
        QTest::addColumn<QString>("pipeline");
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("engines");
        QTest::addColumn<qint64>("transfer");
        QTest::addColumn<qint64>("bound");
        QTest::addColumn<BoundKind>("binding");
        QTest::addColumn<bool>("pageable");
        // 4 * max(100, 200) + min(100, 200) + one kernel
        QTest::newRow("pipelined") << "overlapped" << 2 << 2 << 950ll << 950ll << BoundKind::Transfer << false;
        // 4 * (100 + 200): the engine copies other chunks while a kernel runs
        QTest::newRow("one copy engine") << "overlapped" << 2 << 1 << 1200ll << 1200ll << BoundKind::Transfer << false;
        // the calling thread stages pageable copies one at a time: the same
        QTest::newRow("pageable both ways") << "pageable-async" << 2 << 2 << 1250ll << 1250ll << BoundKind::Transfer
                                            << true;
        // copies then kernels, all in order: 4 * 300 + 4 * 50
        QTest::newRow("one stream") << "pinned-one-stream" << 1 << 2 << 1200ll << 1400ll << BoundKind::Serial << false;
        // and the host copies too: + 400
        QTest::newRow("serialized") << "serialized" << 1 << 2 << 1200ll << 1800ll << BoundKind::Serial << false;
    }
    void boundsByFormula()
    {
        QFETCH(QString, pipeline);
        QFETCH(int, streams);
        QFETCH(int, engines);
        QFETCH(qint64, transfer);
        QFETCH(qint64, bound);
        QFETCH(BoundKind, binding);
        QFETCH(bool, pageable);
        const HostMemoryKind memory = pageable ? HostMemoryKind::Pageable : HostMemoryKind::Pinned;
        Run run = makeRun(qPrintable(pipeline), 0, 1900, streams);
        run.device.asyncEngineCount = engines;
        std::int64_t t = 0;
        for (int c = 0; c < 4; ++c) {
            const int lane = 1 + c % streams;
            run.ops.push_back(makeOp(OpKind::StageIn, 0, c, t, t + 10, 1000, HostMemoryKind::Pinned));
            run.ops.push_back(makeOp(OpKind::Upload, lane, c, t + 10, t + 110, 1000, memory));
            run.ops.push_back(makeOp(OpKind::Kernel, lane, c, t + 110, t + 160, 1000));
            run.ops.push_back(makeOp(OpKind::Download, lane, c, t + 160, t + 360, 1000, memory));
            run.ops.push_back(makeOp(OpKind::StageOut, 0, c, t + 360, t + 370, 1000, HostMemoryKind::Pinned));
            t += 400;
        }
        run.sortOps();
        TransferRates rates;
        rates.pinnedH2DGBps = rates.pageableH2DGBps = 10;
        rates.pinnedD2HGBps = rates.pageableD2HGBps = 5;
        rates.hostMemcpyGBps = 20;
        const RunMetrics m = computeMetrics(run, rates);
        const Verdict v = findFindings(run, m, rates, {run.timedBeginNs, run.timedEndNs}).verdict;
        QVERIFY(v.pipeline);
        const PipelineModel& b = *v.pipeline;
        QCOMPARE(b.chunks, 4);
        QCOMPARE(b.uploadChunkNs, 100ll);
        QCOMPARE(b.downloadChunkNs, 200ll);
        QCOMPARE(b.kernelChunkNs, 50ll);
        QCOMPARE(b.computeNs, 200ll);
        QCOMPARE(b.stagingNs, 400ll);
        QCOMPARE(b.transferNs, transfer);
        QCOMPARE(v.boundNs, bound);
        QCOMPARE(QString(toString(b.binding)), QString(toString(binding)));
        QCOMPARE(v.distance, 1900.0 / static_cast<double>(bound));

        // One thread staging at a twentieth of the rate binds instead.
        rates.hostMemcpyGBps = 1;
        const Verdict slow = findFindings(run, computeMetrics(run, rates), rates, {run.timedBeginNs, run.timedEndNs}).verdict;
        QCOMPARE(slow.pipeline->stagingNs, 8000ll);
        if (pipeline != "serialized") {
            QCOMPARE(QString(toString(slow.binding())), QString(toString(BoundKind::HostStaging)));
            QCOMPARE(slow.boundNs, 8000ll);
        }
    }

    // The verdict, pinned in each case (Verdict.h): the loop of
    // boundsByFormula (4 chunks on two streams, each staged, uploaded,
    // computed and downloaded in turn, nothing overlapping: uploads 400 ns in
    // all, downloads 800, kernels 200, GPU busy 1400 ns) judged as one of our
    // pipelines, as a run we did not build, and stopped early.
    void verdictOfEachCase_data()
    {
        QTest::addColumn<bool>("ours");
        QTest::addColumn<qint64>("wall");
        QTest::addColumn<int>("status");
        QTest::addColumn<VerdictKind>("kind");
        QTest::addColumn<BoundKind>("binding");
        QTest::addColumn<qint64>("bound");
        QTest::addColumn<double>("distance");
        QTest::addColumn<QString>("words");
        const int done = int(RunStatus::Completed);
        // The pipeline model: 4 * max(100, 200) + min(100, 200) + a kernel;
        // its copies and kernels took turns, so serialized.
        QTest::newRow("pipeline model") << true << 1900ll << done << VerdictKind::Serialized << BoundKind::Transfer
                                        << 950ll << 2.0
                                        << "serialized: copies, kernels and host copies never overlap";
        // The general model: the busiest engine (downloads, 800 ns); the GPU
        // idles 500 of 1900 ns, under half.
        QTest::newRow("general model") << false << 1900ll << done << VerdictKind::TransferBound << BoundKind::None
                                       << 800ll << 2.375 << "transfer bound: the GPU idles 26% of the timed region";
        // The same work in a longer span: idle 2600 of 4000 ns, over half.
        QTest::newRow("general model, host bound") << false << 4000ll << done << VerdictKind::HostBound
                                                   << BoundKind::None << 800ll << 5.0
                                                   << "host bound: the GPU idles 65% of the timed region";
        QTest::newRow("stopped early") << true << 1900ll << int(RunStatus::Cancelled) << VerdictKind::Cancelled
                                       << BoundKind::None << 0ll << 0.0 << "cancelled: stopped before the end";
    }
    void verdictOfEachCase()
    {
        QFETCH(bool, ours);
        QFETCH(qint64, wall);
        QFETCH(int, status);
        QFETCH(VerdictKind, kind);
        QFETCH(BoundKind, binding);
        QFETCH(qint64, bound);
        QFETCH(double, distance);
        QFETCH(QString, words);
        Run run = makeRun(ours ? "overlapped" : "profile", 0, wall, 2);
        if (!ours)
            run.params = {};
        run.status = static_cast<RunStatus>(status);
        for (int c = 0; c < 4; ++c) {
            const std::int64_t t = 400 * c;
            const int lane = 1 + c % 2;
            run.ops.push_back(makeOp(OpKind::StageIn, 0, c, t, t + 10, 1000, HostMemoryKind::Pinned));
            run.ops.push_back(makeOp(OpKind::Upload, lane, c, t + 10, t + 110, 1000, HostMemoryKind::Pinned));
            run.ops.push_back(makeOp(OpKind::Kernel, lane, c, t + 110, t + 160, 1000));
            run.ops.push_back(makeOp(OpKind::Download, lane, c, t + 160, t + 360, 1000, HostMemoryKind::Pinned));
            run.ops.push_back(makeOp(OpKind::StageOut, 0, c, t + 360, t + 370, 1000, HostMemoryKind::Pinned));
        }
        run.sortOps();
        TransferRates rates;
        rates.pinnedH2DGBps = 10;
        rates.pinnedD2HGBps = 5;
        rates.hostMemcpyGBps = 20;
        const RunFindings f = findFindings(run, computeMetrics(run, rates), rates, {0, wall});
        const Verdict& v = f.verdict;
        QCOMPARE(QString(toString(v.kind)), QString(toString(kind)));
        QCOMPARE(QString(toString(v.binding())), QString(toString(binding)));
        QCOMPARE(v.pipeline.has_value(), binding != BoundKind::None);
        QCOMPARE(v.boundNs, bound);
        QCOMPARE(v.distance, distance);
        QCOMPARE(v.costNs, bound > 0 ? wall - bound : 0);
        QCOMPARE(v.engineBoundNs, 800ll); // the downloads, in every case
        QVERIFY2(v.words.starts_with(words.toStdString()), v.words.c_str());
        // The Bound finding is the verdict, last.
        const Finding& last = f.findings.back();
        QCOMPARE(last.kind, FindingKind::Bound);
        QCOMPARE(last.cause, v.cause);
        QCOMPARE(last.fix, v.fix);
        QCOMPARE(last.costNs, v.costNs);
        QCOMPARE(v.words, ours ? v.cause : v.cause + "; " + v.fix);
    }

    void setupInsideTheTimedRegion()
    {
        // Registering the user's memory takes most of the run.
        Run run = makeRun("registered", 0, 1000, 1);
        run.params.chunks = 1; // the bounds read the chunk count from the params
        run.ops = {makeOp(OpKind::Register, 0, -1, 0, 800, 4000, HostMemoryKind::Registered),
                   makeOp(OpKind::Upload, 1, 0, 800, 900, 1000, HostMemoryKind::Registered),
                   makeOp(OpKind::Kernel, 1, 0, 900, 950, 1000),
                   makeOp(OpKind::Download, 1, 0, 950, 1000, 1000, HostMemoryKind::Registered)};
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(QString(toString(a.findings.verdict.kind)), QString(toString(VerdictKind::SetupBound)));
        QCOMPARE(a.findings.verdict.words,
                 std::string("setup bound: 80% of wall time in host memory registration at 5.00 GB/s; 5.00x the serial "
                             "bound (which leaves setup out); register the buffers once and reuse them across runs"));
        QCOMPARE(a.findings.verdict.causes.front().what, std::string("host memory registration"));
        QCOMPARE(a.findings.verdict.causes.front().share, 0.8);
    }


    // Each row changes the base case on one side of one threshold; the
    // verdict and the clause that turns (and the one it must not say).
    void diagnosisBoundaries_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<double>("value");
        QTest::addColumn<VerdictKind>("kind");
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("notSays");
        // kNoOverlapShare: activities overlapping under 0.5% of the wall
        // time never overlapped (clock slivers).
        QTest::newRow("overlap 0.5%") << "overlap" << 5000.0 << VerdictKind::TransferBound
                                      << "transfer bound: copy engines busy 80%" << "never overlap";
        QTest::newRow("overlap under 0.5%: serialized") << "overlap" << 4999.0 << VerdictKind::Serialized
                                                        << "serialized: copies and kernels never overlap" << "busy";
        // kBusyEnough: the busiest resource at half the wall time binds.
        QTest::newRow("busiest 50%") << "copies" << 0.5 << VerdictKind::TransferBound
                                     << "transfer bound: copy engines busy 50%" << "nothing is busy";
        QTest::newRow("busiest under 50%: latency") << "copies" << 0.499999 << VerdictKind::LatencyBound
                                                    << "nothing is busy most of the run (the busiest, copy engines, 50%)"
                                                    << "transfer bound";
        QTest::newRow("allocation 50%: setup") << "alloc" << 500'000.0 << VerdictKind::SetupBound
                                               << "setup bound: 50% of wall time in allocation and free" << "busy";
        QTest::newRow("allocation under 50%") << "alloc" << 499'999.0 << VerdictKind::TransferBound
                                              << "transfer bound: copy engines busy 80%" << "setup";
        // kQueueWorthSaying: queueing 5% of the wall time is said.
        QTest::newRow("queued 5%") << "queue" << 50'000.0 << VerdictKind::TransferBound
                                   << "; queueing: 1 stream's uploads waited 50.0 \u00b5s on one copy engine (event "
                                      "times count the wait as copy time)"
                                   << "never";
        QTest::newRow("queued under 5%") << "queue" << 49'999.0 << VerdictKind::TransferBound << "copy engines busy"
                                         << "queueing";
        // kBothWaysShare: two directions beside each other half the copy
        // time use the link; less leaves one direction idle.
        QTest::newRow("both ways 50%") << "bothWays" << 50.0 << VerdictKind::TransferBound
                                       << "; the link is the limit: only moving fewer bytes goes faster" << "more slots";
        QTest::newRow("both ways under 50%")
            << "bothWays" << 49.0 << VerdictKind::TransferBound
            << "; uploads run alongside downloads only 49% of copy time: more slots let the two directions overlap"
            << "the link is the limit";
        // kAtBound, kNearBoundWords and kFarFromBound: the distance in words.
        QTest::newRow("under 1.005x: at the bound") << "distance" << 1.004999 << VerdictKind::TransferBound
                                                    << "; at the transfer bound" << "within";
        QTest::newRow("1.005x: within 1%") << "distance" << 1.005 << VerdictKind::TransferBound
                                           << "; within 1% of the transfer bound" << "at the";
        QTest::newRow("1.15x: within 15%") << "distance" << 1.15 << VerdictKind::TransferBound
                                           << "; within 15% of the transfer bound" << "1.15x";
        QTest::newRow("over 1.15x: a factor") << "distance" << 1.150001 << VerdictKind::TransferBound
                                              << "; 1.15x the transfer bound" << "within";
        QTest::newRow("1000x") << "distance" << 1000.0 << VerdictKind::TransferBound << "; 1000.00x the transfer bound"
                               << "over";
        QTest::newRow("over 1000x") << "distance" << 1000.001 << VerdictKind::TransferBound
                                    << "; over 1000x the transfer bound" << "1000.00x";
        // kCopiesHiddenShare: kernels busy 90%; copies overlapping them half
        // their time hide under them.
        QTest::newRow("copies hidden 50%") << "hidden" << 50.0 << VerdictKind::ComputeBound
                                           << "; copies hide under them (50% overlap)" << "more slots";
        QTest::newRow("copies hidden under 50%")
            << "hidden" << 49.0 << VerdictKind::ComputeBound
            << "; only 49% of copy time overlaps them; 1.25x the transfer bound; more slots would hide the copies under "
               "the kernels"
            << "only faster kernels";
        // kColdPageShare: serialized, pageable downloads the top cause, at
        // half the warm rate (10 GB/s) or under.
        QTest::newRow("downloads at half the warm rate") << "coldPages" << 3'000'000.0 << VerdictKind::Serialized
                                                         << "60% of wall time in pageable downloads at 5.00 GB/s; "
                                                         << "fresh pages";
        QTest::newRow("under half: cold pages")
            << "coldPages" << 2'999'400.0 << VerdictKind::Serialized
            << "at 5.00 GB/s (10.0 GB/s into warm memory: the copy faults in fresh pages)" << "at 5.00 GB/s; ";
        // kFillDrainShare and kMinChunksPerSlot: latency bound (copies 40%),
        // 2 slots.
        QTest::newRow("fill and drain 25%") << "fillDrain" << 75.0 << VerdictKind::LatencyBound
                                            << "; fixed per-op costs (launches, waits, API calls) leave the engines "
                                               "idle: use larger chunks"
                                            << "too few";
        QTest::newRow("fill and drain over 25%") << "fillDrain" << 74.0 << VerdictKind::LatencyBound
                                                 << "; 8 chunks are too few to fill a 2-deep pipeline" << "larger";
        QTest::newRow("2 chunks a slot") << "chunks" << 4.0 << VerdictKind::LatencyBound << "use larger chunks"
                                         << "too few";
        QTest::newRow("under 2 chunks a slot") << "chunks" << 3.0 << VerdictKind::LatencyBound
                                               << "; 3 chunks are too few to fill a 2-deep pipeline" << "larger";
        // The staging threads' busy share is their average (summed time over
        // wall time and threads); kMaxSuggestedThreads: with rates rising to
        // 16 threads, 8 is the most suggested.
        QTest::newRow("4 threads busy 99%: try 8")
            << "staging" << 4.0 << VerdictKind::HostStagingBound
            << "host staging bound: 4 staging threads busy 99% of wall time on average, at 1.00 GB/s each; 1.25x the "
               "transfer bound; try 8 staging threads or registered memory (no staging copies)"
            << "16";
        QTest::newRow("8 threads: registered memory")
            << "staging" << 8.0 << VerdictKind::HostStagingBound
            << "8 staging threads busy 99% of wall time on average, at 1.00 GB/s each; 1.25x the transfer bound; "
               "registered memory (no staging copies) is the way past it"
            << "try";
    }
    void diagnosisBoundaries()
    {
        QFETCH(QString, change);
        QFETCH(double, value);
        QFETCH(VerdictKind, kind);
        QFETCH(QString, says);
        QFETCH(QString, notSays);
        DiagnosisCase c;
        const auto ns = static_cast<std::int64_t>(value);
        if (change == "overlap") {
            c.m.copyWithKernelNs = ns;
        } else if (change == "copies") {
            c.m.copies.utilisation = value;
        } else if (change == "alloc") {
            c.kind(OpKind::Alloc).unionNs = ns;
        } else if (change == "queue") {
            c.m.h2dQueue = {ns, 1};
        } else if (change == "bothWays") {
            c.m.h2dWithD2hPercent = value;
        } else if (change == "distance") {
            c.distance = value;
        } else if (change == "hidden") {
            c.m.compute.utilisation = 0.9;
            c.m.overlapPercent = value;
        } else if (change == "coldPages") {
            c.m.copyWithKernelNs = 0;
            KindThroughput& down = c.kind(OpKind::Download);
            down.memory = HostMemoryKind::Pageable;
            down.ns = down.unionNs = 600'000;
            down.bytes = static_cast<std::uint64_t>(value);
            c.rates.pageableD2HGBps = 10;
        } else if (change == "fillDrain" || change == "chunks") {
            c.m.copies.utilisation = 0.4;
            c.b.transferNs = 800;
            c.b.downloadChunkNs = 0;
            c.b.chunks = change == "chunks" ? ns : 8;
            c.b.uploadChunkNs = change == "chunks" ? 800 / ns : ns;
        } else if (change == "staging") {
            const int threads = static_cast<int>(value);
            c.b.stagingThreads = threads;
            c.b.stagingNs = 1000;
            c.b.stagingGBps = 1;
            c.m.stagingThreadNs = threads * 990'000;
            c.kind(OpKind::StageIn) = {threads, std::uint64_t(threads) * 990'000, threads * 990'000,
                                       990'000, HostMemoryKind::Pinned};
            for (int t : {1, 2, 4, 8, 16})
                c.rates.hostCopyRates.push_back({t, double(t)});
        }
        const Verdict d = c.diagnosis();
        QCOMPARE(QString(toString(d.kind)), QString(toString(kind)));
        QVERIFY2(QString::fromStdString(d.words).contains(says), d.words.c_str());
        QVERIFY2(!QString::fromStdString(d.words).contains(notSays), d.words.c_str());
    }

    // kQueuedStreamParts: a stream's copies count as queued once their
    // waits are 1% of the wall time (every op waits a launch latency).
    void queuedStreamBoundary_data()
    {
        QTest::addColumn<qint64>("wait");
        QTest::addColumn<int>("streams");
        QTest::newRow("1% of the wall time") << qint64(10) << 1;
        QTest::newRow("under 1%") << qint64(9) << 0;
    }
    void queuedStreamBoundary()
    {
        QFETCH(qint64, wait);
        QFETCH(int, streams);
        Run run = makeRun("overlapped", 0, 1000, 2);
        run.ops = {makeOp(OpKind::Upload, 1, 0, 0, 500, 1000, HostMemoryKind::Pinned, wait, 500),
                   makeOp(OpKind::Upload, 2, 1, 500, 1000, 1000, HostMemoryKind::Pinned, 500, 1000)};
        const RunMetrics m = computeMetrics(run, {});
        QCOMPARE(m.h2dQueue.ns, wait);
        QCOMPARE(m.h2dQueue.streams, streams);
    }

    // kTooShortToOverlap: kernels under 5% of copy time (or copies under 5%
    // of kernel time) are too short for their overlap to matter, and the
    // words say so; at 5% they are compared as overlap.
    void tooShortToOverlapBoundary_data()
    {
        QTest::addColumn<qint64>("copies");
        QTest::addColumn<qint64>("kernels");
        QTest::addColumn<bool>("tooShort");
        QTest::newRow("kernels 5% of copies") << qint64(1'000'000) << qint64(50'000) << false;
        QTest::newRow("kernels under 5%") << qint64(1'000'000) << qint64(49'999) << true;
        QTest::newRow("copies 5% of kernels") << qint64(50'000) << qint64(1'000'000) << false;
        QTest::newRow("copies under 5%") << qint64(49'999) << qint64(1'000'000) << true;
    }
    void tooShortToOverlapBoundary()
    {
        QFETCH(qint64, copies);
        QFETCH(qint64, kernels);
        QFETCH(bool, tooShort);
        RunMetrics m;
        m.copies.busyNs = copies;
        m.compute.busyNs = kernels;
        QCOMPARE(overlapTooShortToMatter(m), tooShort);
        const QString words = QString::fromStdString(overlapInWords(m));
        // "kernels are 5% of copy time: nothing to hide copies behind" (4.9999%
        // rounded), "copies are 5% of kernel time: hiding them gains little"; else
        // the overlap, in other words.
        QVERIFY2(words.contains(" time: ") == tooShort, qPrintable(words));
    }

    // kStragglerShare: a rank whose median step is 5% above the others'
    // holds them; under 5% is noise.
    void stragglerBoundary_data()
    {
        QTest::addColumn<qint64>("slowest");
        QTest::addColumn<bool>("straggler");
        QTest::newRow("5% slower") << qint64(105'000'000) << true;
        QTest::newRow("under 5%") << qint64(104'999'999) << false;
    }
    void stragglerBoundary()
    {
        QFETCH(qint64, slowest);
        QFETCH(bool, straggler);
        std::vector<RankSummary> rows(3);
        for (int r = 0; r < 3; ++r) {
            rows[std::size_t(r)].label = "rank " + std::to_string(r);
            rows[std::size_t(r)].stepMedianNs = r == 2 ? slowest : 100'000'000;
        }
        const RankStraggler s = findStraggler(rows);
        QCOMPARE(s.slowestRow, std::size_t(2));
        QCOMPARE(s.row.has_value(), straggler);
        if (straggler)
            QVERIFY2(s.sentence.starts_with("rank 2 is the straggler: median step 105.000 ms, 5% above the other ranks' "
                                            "median 100.000 ms"),
                     s.sentence.c_str());
    }

    void simulatedRunsDiagnosedAsBuilt_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<VerdictKind>("kind");
        QTest::addColumn<BoundKind>("binding");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("staging") << "staging" << VerdictKind::HostStagingBound << BoundKind::HostStaging
                                 << "single-thread memcpy at 5.80 GB/s";
        QTest::newRow("compute") << "compute" << VerdictKind::ComputeBound << BoundKind::Compute << "kernels busy";
        QTest::newRow("serialized") << "serialized" << VerdictKind::Serialized << BoundKind::Serial
                                    << "pageable downloads at";
        QTest::newRow("transfer") << "transfer" << VerdictKind::TransferBound << BoundKind::Transfer
                                  << "copy engines busy";
    }
    void simulatedRunsDiagnosedAsBuilt()
    {
        QFETCH(QString, name);
        QFETCH(VerdictKind, kind);
        QFETCH(BoundKind, binding);
        QFETCH(QString, mentions);
        Run run;
        if (name == "staging") {
            run = simulate(*findSimPreset("h200"), PipelineKind::Overlapped, 8, 4 << 20);
        } else if (name == "compute") {
            SimPreset slowKernels = customPreset("slow-kernels");
            slowKernels.kernelGBps = 50;
            run = simulate(slowKernels, PipelineKind::Overlapped, 8, 1 << 20, 100);
        } else if (name == "serialized") {
            run = simulate(*findSimPreset("h200"), PipelineKind::Serialized, 8, 4 << 20);
        } else {
            SimPreset fastHost = customPreset("fast-host");
            fastHost.hostMemcpyGBps = 1000;
            run = simulate(fastHost, PipelineKind::Overlapped, 8, 4 << 20);
        }
        QCOMPARE(run.status, RunStatus::Completed);
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        const std::string& sentence = a.findings.verdict.words;
        QCOMPARE(QString(toString(a.findings.verdict.kind)), QString(toString(kind)));
        QVERIFY2(sentence.starts_with(std::string(toString(kind)) + ": "), sentence.c_str());
        QVERIFY2(sentence.find(mentions.toStdString()) != std::string::npos, sentence.c_str());
        QCOMPARE(QString(toString(a.findings.verdict.binding())), QString(toString(binding)));
        // The simulator runs at its own rates, so a run is never faster than
        // the bound those rates give, and the pipelined ones come close.
        QVERIFY2(a.findings.verdict.distance >= 0.99, qPrintable(QString::number(a.findings.verdict.distance)));
        if (kind != VerdictKind::Serialized)
            QVERIFY2(a.findings.verdict.distance < 1.3, qPrintable(QString::number(a.findings.verdict.distance) + " " + sentence.c_str()));
        QVERIFY(!a.findings.verdict.causes.empty());
        for (std::size_t i = 1; i < a.findings.verdict.causes.size(); ++i)
            QVERIFY(a.findings.verdict.causes[i - 1].ns >= a.findings.verdict.causes[i].ns);
        // Deterministic: the same run says the same thing.
        QCOMPARE(analyzeRun(run, {}, nullptr).findings.verdict.words, sentence);

        if (name == "serialized") {
            QCOMPARE(a.findings.verdict.causes.front().what, std::string("pageable downloads"));
            QVERIFY2(sentence.find("fresh pages") != std::string::npos, sentence.c_str());
            QCOMPARE(a.metrics.overlapPercent, 0.0);
        }
        if (name == "staging") {
            QCOMPARE(a.rates.source, std::string("simulator preset h200"));
            QVERIFY2(sentence.find("try 8 staging threads or registered memory") != std::string::npos, sentence.c_str());
        }
        if (name == "transfer") {
            QCOMPARE(a.rates.source, std::string("simulator preset fast-host")); // stored with the run
            QVERIFY(a.metrics.copies.utilisation > 0.8);
        }
        if (name == "compute")
            QVERIFY(a.metrics.compute.utilisation > 0.9);
    }

    void speedupAgainstTheSerializedRunOfTheSameWorkload()
    {
        const Run serialized = simulate(*findSimPreset("h200"), PipelineKind::Serialized, 4, 1 << 20);
        const Run overlapped = simulate(*findSimPreset("h200"), PipelineKind::Overlapped, 4, 1 << 20);
        Run otherSize = simulate(*findSimPreset("h200"), PipelineKind::Overlapped, 5, 1 << 20);
        const std::vector<Run> runs = {serialized, overlapped, otherSize};
        QCOMPARE(findSerializedBaseline(runs, overlapped), &runs[0]);
        QCOMPARE(findSerializedBaseline(runs, otherSize), nullptr);
        const RunAnalysis a = analyzeRun(overlapped, {}, findSerializedBaseline(runs, overlapped));
        QVERIFY(a.speedup.value);
        QCOMPARE(*a.speedup.value, static_cast<double>(serialized.wallNs()) / static_cast<double>(overlapped.wallNs()));
        QCOMPARE(*analyzeRun(serialized, {}, &runs[0]).speedup.value, 1.0);
        // A baseline of another workload is refused even when passed in.
        const Speedup mixed = speedupOver(&runs[0], otherSize);
        QVERIFY(!mixed.value);
        QCOMPARE(mixed.why, std::string("no completed serialized run of the same workload on this device"));
        // The window's form (pointers) finds the same run.
        const std::vector<const Run*> pointers = {&runs[0], &runs[1], &runs[2]};
        QCOMPARE(findSerializedBaseline(std::span<const Run* const>(pointers), overlapped), &runs[0]);
        // analyzeTrace pairs every run with its own baseline.
        Trace trace;
        trace.runs = runs;
        const std::vector<RunAnalysis> all = analyzeTrace(trace);
        QCOMPARE(all.size(), std::size_t(3));
        QCOMPARE(*all[1].speedup.value, *a.speedup.value);
        QVERIFY(!all[2].speedup.value);
    }

    // Times and sizes a loaded trace may hold: each row would overflow a
    // 64-bit sum, difference or float-to-integer cast somewhere in the
    // analysis (run under UBSan in CI). Every figure must stay in range and
    // every sentence free of wrapped-around values.
    void extremeValuesSaturate_data()
    {
        constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
        constexpr std::int64_t small = std::numeric_limits<std::int64_t>::min();
        constexpr std::uint64_t huge = std::numeric_limits<std::uint64_t>::max();
        QTest::addColumn<qint64>("timedBegin");
        QTest::addColumn<qint64>("timedEnd");
        QTest::addColumn<QList<Op>>("ops");
        QTest::addColumn<int>("stagingThreads");
        QTest::newRow("wall wider than int64") << qint64(small) << qint64(big)
            << QList<Op>{makeOp(OpKind::Upload, 0, 0, small, big, 1000, HostMemoryKind::Pinned),
                         makeOp(OpKind::Kernel, 0, 0, 0, big, 1000)} << 1;
        QTest::newRow("durations summing past int64") << qint64(0) << qint64(big)
            << QList<Op>{makeOp(OpKind::Upload, 0, 0, 0, big, huge, HostMemoryKind::Pinned),
                         makeOp(OpKind::Upload, 0, 1, 1, big, huge, HostMemoryKind::Pinned),
                         makeOp(OpKind::StageIn, 1, 0, 0, big, huge, HostMemoryKind::Pageable),
                         makeOp(OpKind::StageOut, 1, 0, 1, big, huge, HostMemoryKind::Pageable),
                         makeOp(OpKind::Alloc, 1, -1, 0, big), makeOp(OpKind::Free, 1, -1, 1, big)} << 1;
        QTest::newRow("queue wait from the far past") << qint64(small + 1) << qint64(big)
            << QList<Op>{makeOp(OpKind::Upload, 0, 0, small + 1, big, 1, HostMemoryKind::Pinned, big - 1, big),
                         makeOp(OpKind::Upload, 0, 1, small + 2, big, 1, HostMemoryKind::Pinned, big - 1, big),
                         makeOp(OpKind::Kernel, 0, 0, 0, 1, 1)} << 1;
        QTest::newRow("kernel bytes past uint64") << qint64(0) << qint64(1000)
            << QList<Op>{makeOp(OpKind::Kernel, 0, 0, 0, 1, huge), makeOp(OpKind::Upload, 0, 0, 0, 1, huge, HostMemoryKind::Pinned),
                         makeOp(OpKind::Download, 0, 0, 1, 2, huge, HostMemoryKind::Pinned)} << 1;
        QTest::newRow("bytes at a tiny rate") << qint64(0) << qint64(big)
            << QList<Op>{makeOp(OpKind::Upload, 0, 0, 0, big, huge, HostMemoryKind::Pinned),
                         makeOp(OpKind::StageIn, 1, 0, 0, big, huge, HostMemoryKind::Pageable),
                         makeOp(OpKind::Download, 2, 0, 0, big, huge, HostMemoryKind::Pinned)} << std::numeric_limits<int>::max();
    }

    void extremeValuesSaturate()
    {
        QFETCH(qint64, timedBegin);
        QFETCH(qint64, timedEnd);
        QFETCH(QList<Op>, ops);
        QFETCH(int, stagingThreads);
        Run run = makeRun("overlapped", timedBegin, timedEnd, 3, 1);
        run.params.stagingThreads = stagingThreads;
        run.params.slotCount = std::numeric_limits<int>::max();
        run.params.kernelRepeats = std::numeric_limits<int>::max();
        run.ops.assign(ops.begin(), ops.end());
        run.sortOps();
        Run serialized = run;
        serialized.pipeline = "serialized";
        const RunAnalysis a = analyzeRun(run, {}, &serialized);
        const RunMetrics& m = a.metrics;
        const PipelineModel model = a.findings.verdict.pipeline.value_or(PipelineModel{});
        for (std::int64_t ns : {m.wallNs, m.h2d.busyNs, m.copies.busyNs, m.compute.busyNs, m.staging.busyNs,
                                m.stagingThreadNs, m.hostWaitNs, m.h2dQueue.ns, m.d2hQueue.ns, model.transferNs,
                                model.stagingNs, a.findings.verdict.boundNs, a.findings.verdict.costNs, model.uploadChunkNs})
            QVERIFY(ns >= 0);
        for (const KindThroughput& t : m.kinds)
            QVERIFY(t.ns >= 0 && t.unionNs >= 0);
        QVERIFY(m.wallNs >= m.h2d.busyNs);
        QVERIFY(std::isfinite(a.findings.verdict.distance) && a.findings.verdict.distance >= 0);
        QVERIFY(!a.findings.verdict.words.empty());
        const std::string& sentence = a.findings.verdict.words;
        for (std::size_t i = sentence.find('-'); i != std::string::npos; i = sentence.find('-', i + 1))
            QVERIFY2(i + 1 == sentence.size() || !std::isdigit(static_cast<unsigned char>(sentence[i + 1])),
                     sentence.c_str()); // no negative figure
    }

    // A simulated run's model and a sweep's host copies go into the trace
    // and come back: a trace read later is judged by the same rates.
    void storedRatesSurviveTheTrace()
    {
        SimDevice device(*findSimPreset("h200"));
        RecordSink sink;
        CancelFlag cancel;
        PipelineConfig config;
        config.chunks = 2;
        config.chunkBytes = 1 << 20;
        Trace trace;
        trace.runs.push_back(runPipeline(device, config, sink, cancel));
        BenchConfig bench;
        bench.sizes = {1 << 20};
        bench.hostCopyBytes = 1 << 20;
        bench.hostCopyThreads = {1, 4};
        trace.sweeps.push_back(runBandwidthSweep(device, bench, sink, cancel));
        QVERIFY(trace.runs[0].device.model);

        const std::string path = QDir(QDir::tempPath()).filePath("tst_analysis_rates.json").toStdString();
        std::string error;
        QVERIFY2(saveTrace(trace, path, &error), error.c_str());
        const auto loaded = loadTrace(path);
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QFile::remove(QString::fromStdString(path));
        const Run& run = loaded.trace->runs[0];
        QVERIFY(run.device.model == trace.runs[0].device.model);
        const BandwidthSweep& sweep = loaded.trace->sweeps[0];
        QCOMPARE(sweep.hostCopies.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(sweep.hostCopies[i].threads, trace.sweeps[0].hostCopies[i].threads);
            QCOMPARE(sweep.hostCopies[i].bytes, trace.sweeps[0].hostCopies[i].bytes);
            QCOMPARE(sweep.hostCopies[i].samplesMs, trace.sweeps[0].hostCopies[i].samplesMs);
            QCOMPARE(sweep.hostCopies[i].gbps, trace.sweeps[0].hostCopies[i].gbps);
        }
        const TransferRates before = transferRatesFor(trace.runs[0], trace.sweeps);
        const TransferRates after = transferRatesFor(run, loaded.trace->sweeps);
        QCOMPARE(after.hostSource, before.hostSource);
        QCOMPARE(after.hostCopyGBps(4), before.hostCopyGBps(4));
        QCOMPARE(after.kernelGBps, before.kernelGBps);
        // Without the sweep, the stored model stands in.
        QCOMPARE(transferRatesFor(run, {}).hostSource, std::string("simulator preset h200"));
    }

    // The H200 recording in docs/: what docs/measurements.md says of it.
    void recordedH200Trace()
    {
        // From the source tree, not __FILE__: a compiler cache may make that relative.
        const QString path = QStringLiteral(OVERLAPSCOPE_TEST_DATA) + "/../../docs/traces/h200-seed-defaults.json";
        const auto loaded = loadTrace(QDir::cleanPath(path).toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        const Trace& trace = *loaded.trace;
        QCOMPARE(trace.runs.size(), std::size_t(2));
        const RunAnalysis serialized = analyzeRun(trace.runs[0], trace.sweeps, &trace.runs[0]);
        const RunAnalysis overlapped = analyzeRun(trace.runs[1], trace.sweeps, &trace.runs[0]);
        QVERIFY(serialized.rates.source.starts_with("bandwidth sweep of NVIDIA H200 (256 MiB"));
        QCOMPARE(QString(toString(serialized.findings.verdict.kind)), QString(toString(VerdictKind::Serialized)));
        QVERIFY2(serialized.findings.verdict.words.find("67% of wall time in pageable downloads at 1.24 GB/s")
                     != std::string::npos,
                 serialized.findings.verdict.words.c_str());
        QCOMPARE(QString(toString(overlapped.findings.verdict.kind)), QString(toString(VerdictKind::HostStagingBound)));
        QVERIFY2(overlapped.findings.verdict.words.starts_with("host staging bound: 99% of wall time in single-thread memcpy"),
                 overlapped.findings.verdict.words.c_str());
        // Its sweep predates the host memcpy measurement, and the run's own
        // staging copies are no rate to judge it by: no staging bound.
        QCOMPARE(overlapped.rates.hostMemcpyGBps, 0.0);
        QCOMPARE(overlapped.findings.verdict.pipeline->stagingNs, 0ll);
        QCOMPARE(QString(toString(overlapped.findings.verdict.binding())), QString(toString(BoundKind::Transfer)));
        QVERIFY(overlapped.findings.verdict.distance > 1.0);
        QVERIFY(std::abs(*overlapped.speedup.value - 3.44) < 0.005);
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
