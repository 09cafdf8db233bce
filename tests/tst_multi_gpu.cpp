// Several GPUs of one host: the specs that name them, the simulated host
// they share, and pipelines spread over them (runPipelineOnDevices).
#include "judgement/HostShare.h"
#include "analysis/RunAnalysis.h"
#include "bench/PeerBench.h"
#include "device/DeviceBuffer.h"
#include "device/Stream.h"
#include "devicefactory/DeviceFactory.h"
#include "pipeline/MultiDeviceRunner.h"
#include "pipeline/PipelineRunner.h"
#include "record/TraceCollector.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include <QtTest>

#include <set>

using namespace ovs;

namespace {

PipelineConfig config(PipelineKind kind, int chunks, int chunkMib = 4)
{
    PipelineConfig c;
    c.kind = kind;
    c.chunks = chunks;
    c.chunkBytes = static_cast<std::uint64_t>(chunkMib) << 20;
    return c;
}

// N simulated GPUs of `preset` on one simulated host.
DeviceSet simSet(const SimPreset& preset, int count)
{
    DeviceSet set;
    auto host = std::make_shared<SimHost>(preset.hostMemoryTrafficGBps);
    for (int i = 0; i < count; ++i)
        set.devices.push_back(std::make_unique<SimDevice>(preset, host, i, count));
    return set;
}

Run runOn(const DeviceSet& set, const PipelineConfig& c)
{
    RecordSink sink;
    CancelFlag cancel;
    return runPipelineOnDevices(set, c, sink, cancel);
}

double wallMs(const Run& run)
{
    return static_cast<double>(run.wallNs()) / 1e6;
}

// Raises the cancel flag once some ops have completed.
class CancellingSink : public RecordSink {
public:
    explicit CancellingSink(CancelFlag& cancel) : m_cancel(cancel) {}
    void opsCompleted(std::span<const Op> ops) override
    {
        m_seen += ops.size();
        if (m_seen >= 6)
            m_cancel.cancel();
    }

private:
    CancelFlag& m_cancel;
    std::size_t m_seen = 0;
};

} // namespace

class TestMultiGpu : public QObject {
    Q_OBJECT

private slots:
    void goodSpecs_data();
    void goodSpecs();
    void badSpecs_data();
    void badSpecs();
    void singleSpecsRefuseSeveral();
    void chunksAreSplitContiguously();
    void twoSimulatedGpusVerifyWithLanesOnEach_data();
    void twoSimulatedGpusVerifyWithLanesOnEach();
    void sameRunTwiceIsTheSameRun();
    void stagingCompetesForHostMemory();
    void pinnedDataScalesWhenTheLinksBind();
    void analysisNamesTheSharedResource();
    void peerCopyMovesTheData();
    void peerMatrixBothDirectionsAccessOnAndOff();
    void peerMatrixNeedsTwoGpus();
    void tooFewChunksFailWithAMessage();
    void cancelKeepsWhatFinished();
    void mergedRunSurvivesTheFormat();
    void cudaAllRunsOnWhateverGpusExist();
};

void TestMultiGpu::goodSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("preset");
    QTest::newRow("two H200") << "sim:h200x2" << 2 << "h200";
    QTest::newRow("eight") << "sim:h200x8" << 8 << "h200";
    QTest::newRow("one of a set") << "sim:h200x1" << 1 << "h200";
    QTest::newRow("preset with an x in its name") << "sim:rtx4090" << 1 << "rtx4090";
    QTest::newRow("that preset, three times") << "sim:rtx4090x3" << 3 << "rtx4090";
    QTest::newRow("a single spec is a set of one") << "sim" << 1 << "h200";
}

void TestMultiGpu::goodSpecs()
{
    QFETCH(QString, spec);
    QFETCH(int, count);
    QFETCH(QString, preset);
    const DeviceSet set = createDevices(spec.toStdString());
    QCOMPARE(set.size(), count);
    for (int i = 0; i < count; ++i) {
        QVERIFY(set.at(i).info().simulated);
        QCOMPARE(QString::fromStdString(set.at(i).info().preset), preset);
        if (count > 1 || spec.contains('x' + QString::number(count)))
            QVERIFY(set.at(i).info().detail.find("GPU " + std::to_string(i) + " of " + std::to_string(count))
                    != std::string::npos);
    }
    QCOMPARE(isMultiDeviceSpec(spec.toStdString()), count > 1 || spec.endsWith("x1"));
}

void TestMultiGpu::badSpecs_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("no GPUs") << "sim:h200x0" << "a simulated host has 1 to 8 GPUs";
    QTest::newRow("too many") << "sim:h200x9" << "a simulated host has 1 to 8 GPUs";
    QTest::newRow("unknown preset") << "sim:foox2" << "unknown simulator preset 'foo'";
    QTest::newRow("a GPU twice") << "cuda:0,0" << "GPU 0 is named twice";
    QTest::newRow("not a number") << "cuda:0,one" << "expected cuda:N,M,...";
    QTest::newRow("empty index") << "cuda:0," << "expected cuda:N,M,...";
    QTest::newRow("nonsense") << "gpu:all" << "unknown device";
}

void TestMultiGpu::badSpecs()
{
    QFETCH(QString, spec);
    QFETCH(QString, message);
    try {
        createDevices(spec.toStdString());
        QFAIL("no error");
    } catch (const DeviceUnavailable& e) {
        QFAIL(e.what()); // a bad spec is refused before any GPU is asked
    } catch (const DeviceError& e) {
        QVERIFY2(QString(e.what()).contains(message), e.what());
    }
}

void TestMultiGpu::singleSpecsRefuseSeveral()
{
    for (const char* spec : {"sim:h200x2", "cuda:0,1", "cuda:all"}) {
        try {
            createDevice(spec);
            QFAIL(spec);
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("names several devices"), e.what());
        }
    }
}

void TestMultiGpu::chunksAreSplitContiguously()
{
    const ChunkRange a = chunkRangeOf(10, 3, 0), b = chunkRangeOf(10, 3, 1), c = chunkRangeOf(10, 3, 2);
    QCOMPARE(a.first, 0);
    QCOMPARE(a.count, 4);
    QCOMPARE(b.first, 4);
    QCOMPARE(b.count, 3);
    QCOMPARE(c.first, 7);
    QCOMPARE(c.count, 3);
}

void TestMultiGpu::twoSimulatedGpusVerifyWithLanesOnEach_data()
{
    QTest::addColumn<int>("kind");
    for (auto kind : {PipelineKind::Serialized, PipelineKind::Overlapped, PipelineKind::Registered,
                      PipelineKind::PinnedData, PipelineKind::PageableAsync, PipelineKind::PinnedOneStream})
        QTest::newRow(pipelineKindInfo(kind).id) << static_cast<int>(kind);
}

void TestMultiGpu::twoSimulatedGpusVerifyWithLanesOnEach()
{
    QFETCH(int, kind);
    const DeviceSet set = createDevices("sim:h200x2");
    PipelineConfig c = config(static_cast<PipelineKind>(kind), 7, 1);
    c.stagingThreads = c.kind == PipelineKind::Overlapped ? 2 : 1;
    const Run run = runOn(set, c);
    QCOMPARE(run.status, RunStatus::Completed);
    QVERIFY2(run.verification.passed, run.verification.message.c_str());
    QVERIFY(run.verification.message.find("GPU 0 verified") != std::string::npos);
    QVERIFY(run.verification.message.find("GPU 1 verified") != std::string::npos);
    QCOMPARE(run.deviceCount(), 2);
    std::set<int> streamDevices;
    std::set<int> chunksOnDevice[2];
    for (const Op& op : run.ops) {
        const Lane& lane = run.lanes[op.lane];
        if (lane.kind == LaneKind::Stream) {
            streamDevices.insert(lane.device);
            QVERIFY(lane.name.starts_with("GPU " + std::to_string(lane.device) + " \u00b7 "));
            if (op.kind == OpKind::Upload)
                chunksOnDevice[lane.device].insert(op.chunk);
        } else {
            QCOMPARE(int(lane.device), 0);
        }
    }
    QCOMPARE(streamDevices, (std::set<int>{0, 1}));
    // 7 chunks: 0..3 on GPU 0, 4..6 on GPU 1, numbered as in the whole run.
    QCOMPARE(chunksOnDevice[0], (std::set<int>{0, 1, 2, 3}));
    QCOMPARE(chunksOnDevice[1], (std::set<int>{4, 5, 6}));
    QVERIFY(run.usesSeveralDevices());

    // Its bound is one it could not beat: the GPUs work at once, so a bound
    // summing both GPUs' chunks (as for one GPU) would be beaten by ~2x.
    const RunAnalysis analysis = analyzeRun(run, {}, nullptr);
    QCOMPARE(analysis.findings.verdict.pipeline->devices, 2);
    QVERIFY(analysis.findings.verdict.boundNs > 0);
    QVERIFY2(analysis.findings.verdict.distance >= 0.99,
             qPrintable(QString("distance %1 (wall %2 ns, bound %3 ns, %4)")
                            .arg(analysis.findings.verdict.distance)
                            .arg(run.wallNs())
                            .arg(analysis.findings.verdict.boundNs)
                            .arg(toString(analysis.findings.verdict.binding()))));
}

void TestMultiGpu::sameRunTwiceIsTheSameRun()
{
    // Two threads, one virtual clock: the OS's scheduling must not show.
    const PipelineConfig c = config(PipelineKind::Overlapped, 8, 2);
    Trace a, b;
    a.runs = {runOn(createDevices("sim:h200x2"), c)};
    for (int i = 0; i < 3; ++i) {
        b.runs = {runOn(createDevices("sim:h200x2"), c)};
        QCOMPARE(traceToJson(b), traceToJson(a));
    }
}

void TestMultiGpu::stagingCompetesForHostMemory()
{
    // Each GPU does the same work (4 chunks) alone and beside another GPU,
    // staging the user's pageable data with 8 host threads: alone they copy
    // at 40 GB/s (80 GB/s of reads and writes, the H200 host's estimate), so
    // two GPUs staging at once share it and each takes longer.
    const SimPreset h200 = *findSimPreset("h200"); // a copy: findSimPreset returns by value
    PipelineConfig one = config(PipelineKind::Overlapped, 4);
    one.stagingThreads = 8;
    PipelineConfig two = one;
    two.chunks = 8;
    const Run alone = runOn(simSet(h200, 1), one);
    const Run together = runOn(simSet(h200, 2), two);
    QVERIFY(together.verification.passed);
    QVERIFY2(wallMs(together) > 1.4 * wallMs(alone),
             qPrintable(QString("alone %1 ms, together %2 ms").arg(wallMs(alone)).arg(wallMs(together))));
}

void TestMultiGpu::pinnedDataScalesWhenTheLinksBind()
{
    SimPreset wide = *findSimPreset("h200");
    wide.hostMemoryTrafficGBps = 1000; // a host that never binds: the links do
    const Run alone = runOn(simSet(wide, 1), config(PipelineKind::PinnedData, 4));
    const Run together = runOn(simSet(wide, 2), config(PipelineKind::PinnedData, 8));
    QVERIFY(together.verification.passed);
    // Twice the data in about the same time: ~2x the throughput.
    QVERIFY2(wallMs(together) < 1.05 * wallMs(alone),
             qPrintable(QString("alone %1 ms, together %2 ms").arg(wallMs(alone)).arg(wallMs(together))));

    // With the H200 host's estimate (80 GB/s of traffic) two GPUs' pinned
    // copies (2 x 55 GB/s each way) are host-memory bound instead.
    const SimPreset h200 = *findSimPreset("h200"); // a copy: findSimPreset returns by value
    const Run hostBound = runOn(simSet(h200, 2), config(PipelineKind::PinnedData, 8));
    QVERIFY(hostBound.verification.passed);
    QVERIFY2(wallMs(hostBound) > 1.2 * wallMs(together),
             qPrintable(QString("wide host %1 ms, H200 host %2 ms").arg(wallMs(together)).arg(wallMs(hostBound))));
}

void TestMultiGpu::analysisNamesTheSharedResource()
{
    // Pinned data on two GPUs: on a host that never binds each GPU uploads
    // near its own link's rate; on the H200 host's estimate they share it.
    SimPreset wide = *findSimPreset("h200");
    wide.hostMemoryTrafficGBps = 1000;
    const PipelineConfig c = config(PipelineKind::PinnedData, 8);
    const HostShare links = analyseHostShare(runOn(simSet(wide, 2), c), {});
    QVERIFY(links.applies);
    QCOMPARE(links.devices.size(), std::size_t(2));
    QCOMPARE(links.sumAloneGBps, 2 * wide.pinnedH2DGBps);
    QVERIFY2(links.bound == SharedBound::Links, links.diagnosis.c_str());
    QVERIFY(links.diagnosis.starts_with("link bound: 2 GPUs upload"));

    const HostShare host = analyseHostShare(runOn(simSet(*findSimPreset("h200"), 2), c), {});
    QVERIFY2(host.bound == SharedBound::HostMemory, host.diagnosis.c_str());
    QVERIFY(host.diagnosis.find("the shared resource is the host's memory bandwidth") != std::string::npos);
    QVERIFY(host.aggregateGBps < links.aggregateGBps);

    // One GPU: nothing shared to judge.
    QVERIFY(!analyseHostShare(runOn(simSet(wide, 1), c), {}).applies);
}

void TestMultiGpu::peerCopyMovesTheData()
{
    const DeviceSet set = createDevices("sim:h200x2");
    Device& a = set.at(0);
    Device& b = set.at(1);
    QVERIFY(a.canAccessPeer(b));
    QVERIFY(!a.canAccessPeer(a));
    DeviceBuffer<float> source(a, 1024);
    DeviceBuffer<float> target(b, 1024);
    // The simulator's device memory is host memory: the test can fill and read it.
    for (int i = 0; i < 1024; ++i)
        source.devicePtr()[i] = static_cast<float>(i);
    Stream stream(a);
    for (bool access : {true, false}) {
        std::fill(target.devicePtr(), target.devicePtr() + 1024, -1.0f);
        a.setPeerAccess(b, access);
        a.copyPeerAsync(target.devicePtr(), b, source.devicePtr(), 1024 * sizeof(float), stream.id());
        stream.synchronize();
        for (int i = 0; i < 1024; ++i)
            QCOMPARE(target.devicePtr()[i], static_cast<float>(i));
    }
    // The destination must be the peer's device memory.
    QVERIFY_THROWS_EXCEPTION(DeviceError, a.copyPeerAsync(target.devicePtr(), a, source.devicePtr(), 64, stream.id()));
    const DeviceSet other = createDevices("sim:h200x2");
    QVERIFY(!a.canAccessPeer(other.at(1))); // another simulated host
}

void TestMultiGpu::peerMatrixBothDirectionsAccessOnAndOff()
{
    CancelFlag cancel;
    const PeerMatrix matrix = runPeerMatrix(createDevices("sim:h200x2"), 8ull << 20, 1, 3, cancel);
    QVERIFY(matrix.note.empty());
    QCOMPARE(matrix.status, RunStatus::Completed);
    QCOMPARE(matrix.points.size(), std::size_t(4));
    double on = 0, off = 0;
    std::set<std::pair<int, int>> pairs;
    for (const PeerPoint& p : matrix.points) {
        QVERIFY(p.measured);
        QCOMPARE(p.samplesMs.size(), std::size_t(3));
        pairs.insert({p.src, p.dst});
        (p.peerAccess ? on : off) = p.gbps;
    }
    QCOMPARE(pairs, (std::set<std::pair<int, int>>{{0, 1}, {1, 0}}));
    // Direct over the peer link beats staging through host memory.
    QVERIFY2(on > 1.5 * off, qPrintable(QString("on %1, off %2 GB/s").arg(on).arg(off)));

    // The copies are a run of peer copies on both GPUs' lanes.
    const Run& run = matrix.run;
    QCOMPARE(run.deviceCount(), 2);
    std::set<int> devices;
    for (const Op& op : run.ops) {
        QCOMPARE(op.kind, OpKind::PeerCopy);
        devices.insert(run.lanes[op.lane].device);
    }
    QCOMPARE(run.ops.size(), std::size_t(4 * 3));
    QCOMPARE(devices, (std::set<int>{0, 1}));
    QCOMPARE(run.nameOf(run.ops.front()), std::string("GPU 0 \u2192 GPU 1 (peer access on)"));
    Trace trace;
    trace.runs = {run};
    const auto loaded = traceFromJson(traceToJson(trace));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(trace.formatVersion(), 3);
}

void TestMultiGpu::peerMatrixNeedsTwoGpus()
{
    CancelFlag cancel;
    const PeerMatrix matrix = runPeerMatrix(createDevices("sim:h200x1"), 1 << 20, 0, 1, cancel);
    QVERIFY2(matrix.note.find("needs two GPUs") != std::string::npos, matrix.note.c_str());
    QVERIFY(matrix.points.empty());
}

void TestMultiGpu::tooFewChunksFailWithAMessage()
{
    const Run run = runOn(createDevices("sim:h200x4"), config(PipelineKind::Overlapped, 3));
    QCOMPARE(run.status, RunStatus::Failed);
    QVERIFY2(run.error.find("3 chunks cannot be spread over 4 GPUs") != std::string::npos, run.error.c_str());
}

void TestMultiGpu::cancelKeepsWhatFinished()
{
    CancelFlag cancel;
    CancellingSink sink(cancel);
    const DeviceSet set = createDevices("sim:h200x2");
    const Run run = runPipelineOnDevices(set, config(PipelineKind::Overlapped, 16), sink, cancel);
    QCOMPARE(run.status, RunStatus::Cancelled);
    QVERIFY(!run.ops.empty());
    QVERIFY(!run.verification.passed);
    // The devices are usable again: nothing is left in flight or waiting.
    const Run after = runOn(set, config(PipelineKind::Overlapped, 4));
    QVERIFY2(after.verification.passed, after.verification.message.c_str());
}

void TestMultiGpu::mergedRunSurvivesTheFormat()
{
    Trace trace;
    trace.runs = {runOn(createDevices("sim:h200x2"), config(PipelineKind::Overlapped, 4, 1))};
    const std::string json = traceToJson(trace);
    const auto loaded = traceFromJson(json);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->runs[0].deviceCount(), 2);
    QCOMPARE(traceToJson(*loaded.trace), json);
}

void TestMultiGpu::cudaAllRunsOnWhateverGpusExist()
{
    std::string why;
    if (!cudaDeviceAvailable(&why))
        QSKIP(("no CUDA GPU here: " + why).c_str());
    const DeviceSet set = createDevices("cuda:all");
    QVERIFY(set.size() >= 1);
    if (set.size() == 1)
        QVERIFY(set.note.find("1 GPU") != std::string::npos);
    const Run run = runOn(set, config(PipelineKind::Overlapped, 4 * set.size()));
    QCOMPARE(run.status, RunStatus::Completed);
    QVERIFY2(run.verification.passed, run.verification.message.c_str());
    if (set.size() == 1)
        QVERIFY(run.device.detail.find("1 GPU") != std::string::npos);
    else
        QCOMPARE(run.deviceCount(), set.size());

    CancelFlag cancel;
    const PeerMatrix matrix = runPeerMatrix(set, 64ull << 20, 1, 3, cancel);
    if (set.size() == 1) {
        QVERIFY2(matrix.note.find("needs two GPUs") != std::string::npos, matrix.note.c_str());
    } else {
        QCOMPARE(matrix.status, RunStatus::Completed);
        for (const PeerPoint& p : matrix.points)
            QVERIFY2(!p.measured || p.gbps > 0, p.note.c_str());
    }
}

QTEST_GUILESS_MAIN(TestMultiGpu)
#include "tst_multi_gpu.moc"
