// Every strategy on a real GPU: each verifies, records what the simulator
// records, and the staging threads really copy in parallel. Skips where no
// GPU answers; runs on the lent H200 before merging.
#include <QtTest>

#ifdef OVERLAPSCOPE_HAVE_CUDA

#include "cuda/CudaDevice.h"
#include "pipeline/PipelineRunner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ovs;

Q_DECLARE_METATYPE(ovs::PipelineKind)

namespace {

int count(const Run& run, OpKind kind)
{
    return static_cast<int>(std::count_if(run.ops.begin(), run.ops.end(), [kind](const Op& op) { return op.kind == kind; }));
}

} // namespace

class TestCudaStrategies : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        std::string why;
        if (!cudaRuntimeHasDevice(&why)) {
            m_skipReason = QByteArray("no CUDA device: ") + why.c_str();
            return;
        }
        try {
            m_device = createCudaDevice(0);
        } catch (const DeviceError& error) {
            QFAIL(error.what());
        }
    }

    void init()
    {
        if (!m_device)
            QSKIP(m_skipReason.constData());
    }

    void cleanupTestCase() { m_device.reset(); }

    void hostCopyParallelCopiesOnTheHostClock()
    {
        std::vector<float> src(8 << 20);
        for (std::size_t i = 0; i < src.size(); ++i)
            src[i] = static_cast<float>(i % 1021);
        std::vector<float> dst(src.size(), -1.0f);
        const auto before = m_device->hostNowNs();
        const auto intervals = m_device->hostCopyParallel(dst.data(), src.data(), src.size() * sizeof(float), 4);
        const auto after = m_device->hostNowNs();
        QVERIFY(dst == src);
        QCOMPARE(intervals.size(), std::size_t(4));
        for (const auto& interval : intervals) {
            QVERIFY(interval.startNs >= before);
            QVERIFY(interval.startNs <= interval.endNs);
            QVERIFY(interval.endNs <= after);
        }
    }

    void everyStrategyVerifies_data()
    {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("threads");
        for (const auto& info : pipelineKinds())
            QTest::newRow(info.id) << info.kind << 1;
        QTest::newRow("overlapped, 4 staging threads") << PipelineKind::Overlapped << 4;
    }
    void everyStrategyVerifies()
    {
        QFETCH(PipelineKind, kind);
        QFETCH(int, threads);
        PipelineConfig config;
        config.kind = kind;
        config.chunks = 6;
        config.chunkBytes = 4 << 20;
        config.slotCount = 3;
        config.stagingThreads = threads;
        RecordSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(*m_device, config, sink, cancel);
        QVERIFY2(run.status == RunStatus::Completed, run.error.c_str());
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
        QCOMPARE(count(run, OpKind::Upload), config.chunks);
        QCOMPARE(count(run, OpKind::Download), config.chunks);
        QCOMPARE(count(run, OpKind::Register), kind == PipelineKind::Registered ? 4 : 0);
        if (kind == PipelineKind::Overlapped && threads > 1) {
            // A part of every chunk on every staging lane.
            std::map<int, int> perLane;
            for (const auto& op : run.ops)
                if (op.kind == OpKind::StageIn)
                    ++perLane[op.lane];
            QCOMPARE(perLane.size(), std::size_t(threads));
            for (const auto& [lane, parts] : perLane)
                QCOMPARE(parts, config.chunks);
        }
    }

    // The lessons' variants on a real GPU: each verifies, and the ops it
    // adds are there (one tiny kernel on a default stream per chunk; one
    // cudaMalloc per chunk inside the timed region).
    void everyVariantVerifies_data()
    {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("sync");
        QTest::addColumn<int>("defaultOp");
        QTest::addColumn<int>("allocation");
        QTest::newRow("breadth-first") << int(IssueOrder::BreadthFirst) << int(StreamSync::NonBlocking)
                                       << int(DefaultStreamOp::None) << int(LoopAllocation::None);
        QTest::newRow("blocking + legacy default stream") << int(IssueOrder::DepthFirst) << int(StreamSync::Blocking)
                                                          << int(DefaultStreamOp::Legacy) << int(LoopAllocation::None);
        QTest::newRow("non-blocking + legacy default stream")
            << int(IssueOrder::DepthFirst) << int(StreamSync::NonBlocking) << int(DefaultStreamOp::Legacy)
            << int(LoopAllocation::None);
        QTest::newRow("per-thread default stream") << int(IssueOrder::DepthFirst) << int(StreamSync::Blocking)
                                                   << int(DefaultStreamOp::PerThread) << int(LoopAllocation::None);
        QTest::newRow("cudaMalloc in loop") << int(IssueOrder::DepthFirst) << int(StreamSync::NonBlocking)
                                            << int(DefaultStreamOp::None) << int(LoopAllocation::Malloc);
        QTest::newRow("cudaMalloc+cudaFree in loop, breadth-first")
            << int(IssueOrder::BreadthFirst) << int(StreamSync::NonBlocking) << int(DefaultStreamOp::None)
            << int(LoopAllocation::MallocFree);
    }
    void everyVariantVerifies()
    {
        QFETCH(int, order);
        QFETCH(int, sync);
        QFETCH(int, defaultOp);
        QFETCH(int, allocation);
        PipelineConfig config;
        config.kind = PipelineKind::PinnedData;
        config.chunks = 7; // not a multiple of the streams: a last, short round
        config.chunkBytes = 4 << 20;
        config.slotCount = 3;
        config.kernelRepeats = 3;
        config.issueOrder = static_cast<IssueOrder>(order);
        config.streamSync = static_cast<StreamSync>(sync);
        config.defaultStreamOp = static_cast<DefaultStreamOp>(defaultOp);
        config.loopAllocation = static_cast<LoopAllocation>(allocation);
        RecordSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(*m_device, config, sink, cancel);
        QVERIFY2(run.status == RunStatus::Completed, run.error.c_str());
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
        QCOMPARE(run.name, pipelineTitle(config));
        QCOMPARE(count(run, OpKind::Upload), config.chunks);
        // One kernel op per chunk (its passes together), plus the tiny one.
        QCOMPARE(count(run, OpKind::Kernel),
                 config.chunks + (config.defaultStreamOp != DefaultStreamOp::None ? config.chunks : 0));
        int allocsInLoop = 0;
        for (const auto& op : run.ops)
            if (op.kind == OpKind::Alloc && op.chunk >= 0)
                ++allocsInLoop;
        QCOMPARE(allocsInLoop, config.loopAllocation != LoopAllocation::None ? config.chunks : 0);
        // Every stream lane says what its stream is, as on the simulator.
        const StreamKind own = config.streamSync == StreamSync::Blocking ? StreamKind::Blocking
                                                                         : StreamKind::NonBlocking;
        const StreamKind defaultKind = config.defaultStreamOp == DefaultStreamOp::Legacy
                                           ? StreamKind::LegacyDefault
                                           : StreamKind::PerThreadDefault;
        int ownLanes = 0;
        for (const Lane& lane : run.lanes) {
            if (lane.kind != LaneKind::Stream)
                continue;
            const bool isDefault = lane.name.find("default stream") != std::string::npos;
            ownLanes += !isDefault;
            QCOMPARE(lane.streamKind, isDefault ? defaultKind : own);
        }
        QCOMPARE(ownLanes, config.slotCount);
    }

    void smallBuffersRegisterSeparately()
    {
        // Input and output smaller than a page each must not share one:
        // cudaHostRegister refuses a page already registered.
        PipelineConfig config;
        config.kind = PipelineKind::Registered;
        config.chunks = 1;
        config.chunkBytes = 64;
        RecordSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(*m_device, config, sink, cancel);
        QVERIFY2(run.status == RunStatus::Completed, run.error.c_str());
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
    }

private:
    std::unique_ptr<Device> m_device;
    QByteArray m_skipReason;
};

#else

class TestCudaStrategies : public QObject {
    Q_OBJECT

private slots:
    void cudaStrategies() { QSKIP("built without CUDA"); }
};

#endif

QTEST_GUILESS_MAIN(TestCudaStrategies)
#include "tst_cuda_strategies.moc"
