// One process's record stream becomes a run: ops of the right kind on the
// right lane, on the profile's time base, named and joined by correlation,
// and a status that says whether the stream is whole.
#include "TestProfileStream.h"
#include "profile/ProcessRunBuilder.h"

#include <QtTest>

using namespace ovs;
using namespace ovs::profile;
using ovs::test::TestProfileStream;

namespace {

// CUPTI's clock reads 1'000'000 ahead of the host's; the profile started at
// host time 10'000, so CUPTI time 1'010'000 + t is run time t.
constexpr std::uint64_t kCuptiAtZero = 1'010'000;
constexpr std::int64_t kZeroNs = 10'000;

TestProfileStream stream(std::uint32_t pid = 100)
{
    TestProfileStream s(pid);
    s.clock(kCuptiAtZero, kZeroNs);
    s.device(0, "NVIDIA H200");
    s.context(1, 0, 7); // stream 7 is the legacy default stream
    return s;
}

void feed(ProcessRunBuilder& builder, const TestProfileStream& s)
{
    ProfileStreamDecoder decoder;
    decoder.feed(s.bytes().data(), s.bytes().size());
    DecodedRecord r;
    while (decoder.next(r))
        builder.add(r);
}

Run build(const TestProfileStream& s, const ProcessEnding& ending = {}, const std::string& problem = {})
{
    ProcessRunBuilder builder(kZeroNs);
    feed(builder, s);
    return builder.finish(ending, problem);
}

// A record type a newer injection library might write.
struct FutureRecord {
    static constexpr RecordType kType = static_cast<RecordType>(999);
    std::uint64_t value = 1;
};

} // namespace

class TestProcessRunBuilder : public QObject {
    Q_OBJECT

private slots:
    void copiesBecomeOpsByDirectionAndMemory_data()
    {
        QTest::addColumn<int>("copyKind");
        QTest::addColumn<int>("src");
        QTest::addColumn<int>("dst");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("memory");
        QTest::addColumn<QString>("name");
        QTest::newRow("pageable upload") << int(kCopyHtoD) << int(kMemoryPageable) << int(kMemoryDevice)
                                         << int(OpKind::Upload) << int(HostMemoryKind::Pageable)
                                         << "Memcpy HtoD (Pageable -> Device)";
        QTest::newRow("pinned upload") << int(kCopyHtoD) << int(kMemoryPinned) << int(kMemoryDevice)
                                       << int(OpKind::Upload) << int(HostMemoryKind::Pinned)
                                       << "Memcpy HtoD (Pinned -> Device)";
        QTest::newRow("managed upload") << int(kCopyHtoD) << int(kMemoryManaged) << int(kMemoryDevice)
                                        << int(OpKind::Upload) << int(HostMemoryKind::Managed)
                                        << "Memcpy HtoD (Managed -> Device)";
        QTest::newRow("pinned download") << int(kCopyDtoH) << int(kMemoryDevice) << int(kMemoryPinned)
                                         << int(OpKind::Download) << int(HostMemoryKind::Pinned)
                                         << "Memcpy DtoH (Device -> Pinned)";
        QTest::newRow("pageable download") << int(kCopyDtoH) << int(kMemoryDevice) << int(kMemoryPageable)
                                           << int(OpKind::Download) << int(HostMemoryKind::Pageable)
                                           << "Memcpy DtoH (Device -> Pageable)";
        QTest::newRow("device copy") << int(kCopyDtoD) << int(kMemoryDevice) << int(kMemoryDevice)
                                     << int(OpKind::DeviceCopy) << int(HostMemoryKind::Device)
                                     << "Memcpy DtoD (Device -> Device)";
        QTest::newRow("managed device copy") << int(kCopyDtoD) << int(kMemoryManaged) << int(kMemoryDevice)
                                             << int(OpKind::DeviceCopy) << int(HostMemoryKind::Managed)
                                             << "Memcpy DtoD (Managed -> Device)";
    }
    void copiesBecomeOpsByDirectionAndMemory()
    {
        QFETCH(int, copyKind);
        QFETCH(int, src);
        QFETCH(int, dst);
        QFETCH(int, kind);
        QFETCH(int, memory);
        QFETCH(QString, name);
        TestProfileStream s = stream();
        s.memcpy(kCuptiAtZero + 2000, kCuptiAtZero + 5000, static_cast<std::uint8_t>(copyKind),
                 static_cast<std::uint8_t>(src), static_cast<std::uint8_t>(dst), 13, 42, 4096);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.ops.size(), std::size_t(1));
        const Op& op = run.ops.front();
        QCOMPARE(int(op.kind), kind);
        QCOMPARE(int(op.memory), memory);
        QCOMPARE(QString::fromStdString(run.nameOf(op)), name);
        QCOMPARE(op.bytes, std::uint64_t(4096));
        QCOMPARE(op.correlation, 42u);
        // CUPTI's times are engine times: both intervals, on the run's base.
        QCOMPARE(op.startNs, std::int64_t(2000));
        QCOMPARE(op.endNs, std::int64_t(5000));
        QCOMPARE(op.execStartNs, op.startNs);
        QCOMPARE(op.execEndNs, op.endNs);
        QCOMPARE(run.lanes[op.lane].name, std::string("stream 13"));
    }

    void apiCallsGetAKindByWhatTheyDo_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<int>("kind");
        QTest::newRow("async copy") << "cudaMemcpyAsync" << int(OpKind::ApiCall);
        QTest::newRow("launch") << "cudaLaunchKernel" << int(OpKind::ApiCall);
        QTest::newRow("driver launch") << "cuLaunchKernel" << int(OpKind::ApiCall);
        QTest::newRow("stream sync") << "cudaStreamSynchronize" << int(OpKind::Sync);
        QTest::newRow("device sync") << "cudaDeviceSynchronize" << int(OpKind::Sync);
        QTest::newRow("context sync") << "cuCtxSynchronize" << int(OpKind::Sync);
        QTest::newRow("stream waits on event") << "cudaStreamWaitEvent" << int(OpKind::ApiCall);
        QTest::newRow("malloc") << "cudaMalloc" << int(OpKind::Alloc);
        QTest::newRow("pinned malloc") << "cudaMallocHost" << int(OpKind::Alloc);
        QTest::newRow("host alloc") << "cudaHostAlloc" << int(OpKind::Alloc);
        QTest::newRow("driver alloc") << "cuMemAlloc" << int(OpKind::Alloc);
        QTest::newRow("free") << "cudaFree" << int(OpKind::Free);
        QTest::newRow("pinned free") << "cudaFreeHost" << int(OpKind::Free);
        QTest::newRow("register") << "cudaHostRegister" << int(OpKind::Register);
        QTest::newRow("unregister") << "cudaHostUnregister" << int(OpKind::Register);
    }
    void apiCallsGetAKindByWhatTheyDo()
    {
        QFETCH(QString, call);
        QFETCH(int, kind);
        TestProfileStream s = stream();
        s.api(kCuptiAtZero + 100, kCuptiAtZero + 900, call.toStdString(), 100, 5);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.ops.size(), std::size_t(1));
        QCOMPARE(int(run.ops.front().kind), kind);
        QCOMPARE(QString::fromStdString(run.nameOf(run.ops.front())), call);
        QCOMPARE(run.lanes[run.ops.front().lane].kind, LaneKind::HostThread);
    }

    void lanesGoDevicesStreamsThenThreads()
    {
        TestProfileStream s = stream(100);
        s.device(1, "NVIDIA H200");
        s.context(2, 1, 3);
        // Arrival order deliberately scrambled.
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaLaunchKernel", 105, 1);
        s.kernel(kCuptiAtZero + 30, kCuptiAtZero + 40, "k", 14, 1);
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaMemcpyAsync", 100, 2);
        s.memcpy(kCuptiAtZero + 30, kCuptiAtZero + 50, kCopyHtoD, kMemoryPinned, kMemoryDevice, 7, 2);
        s.kernel(kCuptiAtZero + 60, kCuptiAtZero + 70, "k", 9, 3, 1, 2);
        s.kernel(kCuptiAtZero + 60, kCuptiAtZero + 70, "k", 3, 4, 1, 2);
        s.end();
        const Run run = build(s);
        std::vector<std::string> names;
        for (const Lane& lane : run.lanes)
            names.push_back(lane.name);
        QCOMPARE(names, (std::vector<std::string>{"GPU 0 default stream (legacy)", "GPU 0 stream 14",
                                                  "GPU 1 default stream (legacy)", "GPU 1 stream 9", "main thread",
                                                  "thread 105"}));
        // Ops follow their lanes through the re-ordering.
        for (const Op& op : run.ops)
            QCOMPARE(run.lanes[op.lane].kind, isGpuOp(op.kind) ? LaneKind::Stream : LaneKind::HostThread);
        // Each stream lane says which of the run's devices it is on.
        QCOMPARE(run.deviceCount(), 2);
        QCOMPARE(run.deviceAt(1).name, std::string("NVIDIA H200"));
        std::vector<int> devices;
        for (const Lane& lane : run.lanes)
            devices.push_back(lane.device);
        QCOMPARE(devices, (std::vector<int>{0, 0, 1, 1, 0, 0}));
        // The kinds follow the lanes through the re-ordering too.
        std::vector<StreamKind> kinds;
        for (const Lane& lane : run.lanes)
            kinds.push_back(lane.streamKind);
        QCOMPARE(kinds, (std::vector<StreamKind>{StreamKind::LegacyDefault, StreamKind::Unknown,
                                                 StreamKind::LegacyDefault, StreamKind::Unknown, StreamKind::Unknown,
                                                 StreamKind::Unknown}));
    }

    void streamLanesSayTheirKind_data()
    {
        QTest::addColumn<int>("streamId");
        QTest::addColumn<int>("flag"); // CUPTI's stream flag; -1: no stream record
        QTest::addColumn<bool>("recordFirst"); // the stream record before the stream's first op
        QTest::addColumn<int>("expected");
        QTest::newRow("blocking") << 14 << int(kStreamFlagBlocking) << true << int(StreamKind::Blocking);
        QTest::newRow("non-blocking") << 14 << int(kStreamFlagNonBlocking) << true << int(StreamKind::NonBlocking);
        QTest::newRow("null flag") << 14 << int(kStreamFlagNull) << true << int(StreamKind::LegacyDefault);
        QTest::newRow("the context's null stream") << 7 << -1 << true << int(StreamKind::LegacyDefault);
        QTest::newRow("no stream record") << 14 << -1 << true << int(StreamKind::Unknown);
        QTest::newRow("flag unknown") << 14 << 0 << true << int(StreamKind::Unknown);
        QTest::newRow("record after the first op") << 14 << int(kStreamFlagNonBlocking) << false
                                                   << int(StreamKind::NonBlocking);
    }
    void streamLanesSayTheirKind()
    {
        QFETCH(int, streamId);
        QFETCH(int, flag);
        QFETCH(bool, recordFirst);
        QFETCH(int, expected);
        TestProfileStream s = stream();
        const auto streamRecord = [&] {
            if (flag >= 0)
                s.raw(StreamRecord{1, static_cast<std::uint32_t>(streamId), static_cast<std::uint32_t>(flag), 0});
        };
        if (recordFirst)
            streamRecord();
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", static_cast<std::uint32_t>(streamId), 1);
        s.api(kCuptiAtZero + 1, kCuptiAtZero + 2, "cudaLaunchKernel", 100, 1);
        if (!recordFirst)
            streamRecord();
        s.end();
        ProcessRunBuilder builder(kZeroNs);
        feed(builder, s);
        if (recordFirst) // the live lane already knows
            QCOMPARE(int(builder.live().lanes.front().streamKind), expected);
        const Run run = builder.finish({}, {});
        QCOMPARE(run.lanes.size(), std::size_t(2));
        QCOMPARE(run.lanes[0].kind, LaneKind::Stream);
        QCOMPARE(int(run.lanes[0].streamKind), expected);
        QCOMPARE(run.lanes[1].streamKind, StreamKind::Unknown); // a host lane has none
    }

    void peerCopiesAreTheirOwnKind()
    {
        TestProfileStream s = stream();
        s.device(1, "NVIDIA H200");
        s.context(2, 1, 3);
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 7, 1);
        s.peerMemcpy(kCuptiAtZero + 10, kCuptiAtZero + 20, 0, 1, 7, 2, 0, 1);
        s.end();
        const Run run = build(s);
        const auto peer = std::find_if(run.ops.begin(), run.ops.end(),
                                       [](const Op& op) { return op.kind == OpKind::PeerCopy; });
        QVERIFY(peer != run.ops.end());
        QCOMPARE(run.nameOf(*peer), std::string("Memcpy PtoP (GPU 0 -> GPU 1)"));
        QCOMPARE(peer->memory, HostMemoryKind::Device);
    }

    void oneDeviceNeedsNoDevicePrefix()
    {
        TestProfileStream s = stream();
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 7, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.lanes.front().name, std::string("default stream (legacy)"));
        QCOMPARE(run.device.name, std::string("NVIDIA H200"));
        QCOMPARE(run.device.asyncEngineCount, 7);
    }

    void threadsAreNamedWhenTheirNameArrives()
    {
        TestProfileStream s = stream(100);
        s.api(kCuptiAtZero + 1, kCuptiAtZero + 2, "cudaMalloc", 101, 1);
        ThreadRecord thread;
        thread.threadId = 101;
        thread.nameId = s.string("pt_autograd_0");
        s.raw(thread);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.lanes.front().name, std::string("thread 101 (pt_autograd_0)"));
    }

    void kernelsAreNamedWithTheirLaunchShape()
    {
        TestProfileStream s = stream();
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "increment(float*, int)", 7, 9);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.nameOf(run.ops.front()), std::string("increment(float*, int) [grid 64x1x1, block 256x1x1]"));
        QCOMPARE(run.ops.front().correlation, 9u);
    }

    void synchronizationsSayWhatTheyWaitedFor_data()
    {
        QTest::addColumn<bool>("syncFirst");
        QTest::newRow("sync record after the call") << false;
        QTest::newRow("sync record before the call") << true;
    }
    void synchronizationsSayWhatTheyWaitedFor()
    {
        QFETCH(bool, syncFirst);
        TestProfileStream s = stream();
        if (syncFirst)
            s.sync(kSyncStream, 77, 13, 0);
        s.api(kCuptiAtZero + 1, kCuptiAtZero + 500, "cudaStreamSynchronize", 100, 77);
        if (!syncFirst)
            s.sync(kSyncStream, 77, 13, 0);
        s.api(kCuptiAtZero + 600, kCuptiAtZero + 700, "cudaStreamWaitEvent", 100, 78);
        s.sync(kSyncStreamWaitEvent, 78, 14, 3);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.nameOf(run.ops[0]), std::string("cudaStreamSynchronize (stream 13)"));
        QCOMPARE(run.nameOf(run.ops[1]), std::string("cudaStreamWaitEvent (stream 14 waits for event 3)"));
    }

    void driverCallsInsideARuntimeCallAreDropped()
    {
        TestProfileStream s = stream();
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cuLaunchKernel", 100, 1, kApiDriver);
        s.api(kCuptiAtZero + 5, kCuptiAtZero + 30, "cudaLaunchKernel", 100, 1);
        s.api(kCuptiAtZero + 40, kCuptiAtZero + 50, "cuLaunchKernel", 100, 2, kApiDriver); // Triton-style
        s.end();
        const Run run = build(s);
        QCOMPARE(run.ops.size(), std::size_t(2));
        QCOMPARE(run.nameOf(run.ops[0]), std::string("cudaLaunchKernel"));
        QCOMPARE(run.nameOf(run.ops[1]), std::string("cuLaunchKernel"));
    }

    void timedRegionSpansWhatWasRecorded()
    {
        TestProfileStream s = stream();
        s.api(kCuptiAtZero + 1000, kCuptiAtZero + 1100, "cudaMalloc", 100, 1);
        s.kernel(kCuptiAtZero + 3000, kCuptiAtZero + 9000, "k", 13, 2);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.timedBeginNs, std::int64_t(1000));
        QCOMPARE(run.timedEndNs, std::int64_t(9000));
    }

    void statusSaysWhetherTheStreamIsWhole_data()
    {
        QTest::addColumn<bool>("ended");
        QTest::addColumn<bool>("cancelled");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("ended") << true << false << "" << int(RunStatus::Completed) << "";
        QTest::newRow("crashed") << false << false << "" << int(RunStatus::Failed) << "incomplete";
        QTest::newRow("stopped by the user") << false << true << "" << int(RunStatus::Cancelled) << "stopped by the user";
        QTest::newRow("cut off") << true << false << "the stream ends inside a record" << int(RunStatus::Failed)
                                 << "ends inside a record";
    }
    void statusSaysWhetherTheStreamIsWhole()
    {
        QFETCH(bool, ended);
        QFETCH(bool, cancelled);
        QFETCH(QString, problem);
        QFETCH(int, status);
        QFETCH(QString, message);
        TestProfileStream s = stream();
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        if (ended)
            s.end();
        ProcessEnding ending;
        ending.cancelled = cancelled;
        const Run run = build(s, ending, problem.toStdString());
        QCOMPARE(int(run.status), status);
        QVERIFY2(QString::fromStdString(run.error).contains(message), run.error.c_str());
        QCOMPARE(run.ops.size(), std::size_t(1)); // what was flushed is kept
    }

    void notesLossAndExitStatusReachTheRun()
    {
        TestProfileStream s = stream();
        s.note(kNoteWarning, "cuptiActivityEnable(memset): memset records are missing");
        s.loss(12, 3);
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        s.end();
        ProcessEnding ending;
        ending.exitStatus = "exit status 2";
        const Run run = build(s, ending);
        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY(run.error.find("memset records are missing") != std::string::npos);
        QVERIFY(run.error.find("CUPTI dropped 12 records") != std::string::npos);
        QVERIFY(run.error.find("3 records came back without times") != std::string::npos);
        QVERIFY(run.error.find("exit status 2") != std::string::npos);
    }

    void aProcessCuptiRefusedSaysWhy()
    {
        TestProfileStream s(100);
        s.note(kNoteNotRecorded, "CUPTI is in use by another profiler (Nsight Systems): this process is not recorded");
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Failed);
        QVERIFY(run.error.find("in use by another profiler") != std::string::npos);
        QVERIFY(run.ops.empty());
    }

    void liveOpsArriveOnTheRunTimeBase()
    {
        TestProfileStream s = stream();
        s.kernel(kCuptiAtZero + 100, kCuptiAtZero + 200, "k", 13, 1);
        ProcessRunBuilder builder(kZeroNs);
        feed(builder, s);
        QCOMPARE(builder.takeNewLanes().size(), std::size_t(1));
        std::vector<Op> ops = builder.takeNewOps();
        QCOMPARE(ops.size(), std::size_t(1));
        QCOMPARE(ops.front().startNs, std::int64_t(100));
        QVERIFY(builder.takeNewOps().empty()); // taken once
        QCOMPARE(builder.live().name, std::string("app --fast (pid 100)"));
    }

    void unknownRecordTypesAreSkipped()
    {
        TestProfileStream s = stream();
        s.raw(FutureRecord{});
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(run.ops.size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestProcessRunBuilder)
#include "tst_process_run_builder.moc"
