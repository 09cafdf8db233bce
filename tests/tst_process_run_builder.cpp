// One process's record stream becomes a run: ops of the right kind on the
// right lane, on the profile's time base, named and joined by correlation,
// and a status that says whether the stream is whole.
#include "TestProfileStream.h"
#include "profile/CaptureRange.h"
#include "profile/ProcessRunBuilder.h"
#include "profile/StackCapture.h"
#include "symbols/NativeSiteRule.h"
#include "symbols/StackSites.h"
#include "symbols/Symbolizer.h"

#include <QtTest>

#include <algorithm>
#include <cstring>
#include <optional>

#if OVERLAPSCOPE_TEST_CUPTI
#include "CuptiRecordEncoder.h"
#include "cuda/CuptiActivityCollector.h"
#include "cupti/ActivityKinds.h"
#include "cupti/ClockPair.h"
#include "cupti/GpuActivityDecoder.h"
#include "cupti/Library.h"
#include "cupti/RecordCursor.h"
#include "trace/ApiNames.h"

#include <cupti_activity.h>

#include <cstring>
#endif

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

void feed(ProcessRunBuilder& builder, const std::vector<std::uint8_t>& bytes)
{
    ProfileStreamDecoder decoder;
    decoder.feed(bytes.data(), bytes.size());
    DecodedRecord r;
    while (decoder.next(r))
        builder.add(r);
}

void feed(ProcessRunBuilder& builder, const TestProfileStream& s)
{
    feed(builder, s.bytes());
}

Run build(const TestProfileStream& s, const ProcessEnding& ending = {}, const std::string& problem = {})
{
    ProcessRunBuilder builder(kZeroNs);
    feed(builder, s);
    return builder.finish(ending, problem);
}

// The return address into the caller, as the capture would record it for a
// call made on the caller's line: a one-frame stack, no unwinder needed.
__attribute__((noinline)) std::uint64_t returnAddressHere()
{
    const auto at = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    asm volatile("" ::: "memory");
    return at;
}

// The objects of this test process as the capture sends them; the
// executable (this test, built with -g) first.
std::vector<std::pair<ModuleRecord, std::string>> thisProcessModules()
{
    return StackCapture::loadedModules();
}

const ModuleRecord* moduleHolding(const std::vector<std::pair<ModuleRecord, std::string>>& modules, std::uint64_t at)
{
    for (const auto& [r, path] : modules)
        if (r.lowAddress <= at && at < r.highAddress)
            return &r;
    return nullptr;
}

bool endsWith(const std::string& text, const std::string& end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// A record type a newer injection library might write.
struct FutureRecord {
    static constexpr RecordType kType = static_cast<RecordType>(999);
    std::uint64_t value = 1;
};

#if OVERLAPSCOPE_TEST_CUPTI
// CUPTI activity records built in memory, as CUPTI's buffers hold them.
union SyntheticRecord {
    CUpti_Activity header;
    CUpti_ActivityMemcpy6 memcpy;
    CUpti_ActivityMemcpyPtoP4 peer;
    CUpti_ActivityMemset4 memset;
    CUpti_ActivityKernel10 kernel;
};

// `type`: "memcpy", "peer", "memset" or "kernel"; `src` is a memset's memory kind.
SyntheticRecord syntheticRecord(const QString& type, int copyKind, int src, int dst, std::uint64_t start,
                                std::uint64_t end)
{
    SyntheticRecord r;
    std::memset(&r, 0, sizeof r);
    const auto common = [&](auto& record, CUpti_ActivityKind kind) {
        record.kind = kind;
        record.start = start;
        record.end = end;
        record.deviceId = 0;
        record.contextId = 1;
        record.streamId = 13;
        record.correlationId = 42;
    };
    const auto copy = [&](auto& record, CUpti_ActivityKind kind) {
        common(record, kind);
        record.copyKind = static_cast<std::uint8_t>(copyKind);
        record.srcKind = static_cast<std::uint8_t>(src);
        record.dstKind = static_cast<std::uint8_t>(dst);
        record.bytes = 4096;
        record.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
    };
    if (type == "memcpy") {
        copy(r.memcpy, CUPTI_ACTIVITY_KIND_MEMCPY);
    } else if (type == "peer") {
        copy(r.peer, CUPTI_ACTIVITY_KIND_MEMCPY2);
        r.peer.srcDeviceId = 0;
        r.peer.dstDeviceId = 1;
    } else if (type == "memset") {
        common(r.memset, CUPTI_ACTIVITY_KIND_MEMSET);
        r.memset.memoryKind = static_cast<std::uint16_t>(src);
        r.memset.bytes = 4096;
    } else {
        common(r.kernel, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        r.kernel.name = "_Z9incrementPfm";
        r.kernel.gridX = 64;
        r.kernel.gridY = r.kernel.gridZ = 1;
        r.kernel.blockX = 256;
        r.kernel.blockY = r.kernel.blockZ = 1;
    }
    return r;
}

// GPU records need no API names.
CUptiResult noCallbackNames(CUpti_CallbackDomain, CUpti_CallbackId, const char**)
{
    return CUPTI_ERROR_INVALID_PARAMETER;
}

// A stand-in for libcupti, for the session's shared parts (the buffer loop,
// the kinds with rollback, the clock pairing): plain functions, as CUPTI's
// entry points are, reading and writing this state.
struct FakeCupti {
    // cuptiActivityGetNextRecord: hands out `records` records, then answers `end`.
    int records = 0;
    CUptiResult end = CUPTI_ERROR_MAX_LIMIT_REACHED;
    int handedOut = 0;
    CUpti_Activity record{};
    // cuptiActivityEnable refuses these; Enable and Disable log what they did.
    std::vector<CUpti_ActivityKind> refused;
    std::vector<std::pair<bool, CUpti_ActivityKind>> calls; // (enable, kind)
    // cuptiGetTimestamp: the time it reads, or an error.
    std::uint64_t timestamp = 0;
    CUptiResult timestampResult = CUPTI_SUCCESS;
    // cuptiActivityEnableRuntimeApi: the calls switched, (id, on); refuses `refusedCall`.
    std::vector<std::pair<CUpti_CallbackId, bool>> apiCalls;
    CUpti_CallbackId refusedCall = 0;
};
FakeCupti fake;

CUptiResult fakeNextRecord(std::uint8_t*, std::size_t, CUpti_Activity** record)
{
    if (fake.handedOut == fake.records)
        return fake.end;
    ++fake.handedOut;
    *record = &fake.record;
    return CUPTI_SUCCESS;
}

CUptiResult fakeEnable(CUpti_ActivityKind kind)
{
    fake.calls.emplace_back(true, kind);
    return std::find(fake.refused.begin(), fake.refused.end(), kind) == fake.refused.end()
               ? CUPTI_SUCCESS
               : CUPTI_ERROR_NOT_COMPATIBLE;
}

CUptiResult fakeDisable(CUpti_ActivityKind kind)
{
    fake.calls.emplace_back(false, kind);
    return CUPTI_SUCCESS;
}

CUptiResult fakeTimestamp(std::uint64_t* timestamp)
{
    *timestamp = fake.timestamp;
    return fake.timestampResult;
}

// Three runtime calls by id; CUPTI knows no other.
CUptiResult fakeCallbackName(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char** name)
{
    constexpr const char* kNames[] = {nullptr, "cudaMemcpyAsync", "cudaGetDevice", "cudaLaunchKernel"};
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || id == 0 || id >= std::size(kNames))
        return CUPTI_ERROR_INVALID_PARAMETER;
    *name = kNames[id];
    return CUPTI_SUCCESS;
}

CUptiResult fakeEnableRuntimeApi(CUpti_CallbackId id, std::uint8_t on)
{
    fake.apiCalls.emplace_back(id, on != 0);
    return id == fake.refusedCall ? CUPTI_ERROR_INVALID_PARAMETER : CUPTI_SUCCESS;
}

cupti::Library::Api fakeApi()
{
    fake = FakeCupti{};
    cupti::Library::Api api; // getResultString null: errors read "CUPTI error <n>"
    api.activityGetNextRecord = fakeNextRecord;
    api.activityEnable = fakeEnable;
    api.activityDisable = fakeDisable;
    api.getTimestamp = fakeTimestamp;
    api.getCallbackName = fakeCallbackName;
    api.activityEnableRuntimeApi = fakeEnableRuntimeApi;
    return api;
}

// The kinds a client asks CUPTI for, in order, from the one table.
std::vector<CUpti_ActivityKind> kindsOf(cupti::Client client, bool requested)
{
    std::vector<CUpti_ActivityKind> kinds;
    for (const cupti::ActivityKind& k : cupti::kActivityKinds) {
        const cupti::Need need = client == cupti::Client::EngineTiming ? k.engineTiming : k.profile;
        if (need != cupti::Need::No && (need != cupti::Need::OnRequest || requested))
            kinds.push_back(k.kind);
    }
    return kinds;
}
#endif

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

    // A launcher's RANK, sent after Begin (inject/CuptiTracer), is the
    // run's rank; a process of no job sends none and has none.
    void aRankRecordIsTheRunsRank()
    {
        TestProfileStream s = stream();
        profile::RankRecord rank;
        rank.rank = 3;
        rank.localRank = 1;
        rank.worldSize = 4;
        s.raw(rank);
        s.kernel(kCuptiAtZero + 3000, kCuptiAtZero + 9000, "k", 13, 2);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.rank, 3);
        QVERIFY2(run.name.starts_with("rank 3: ") && run.name.ends_with(" (pid 100)"), run.name.c_str());
        TestProfileStream alone = stream();
        alone.kernel(kCuptiAtZero + 3000, kCuptiAtZero + 9000, "k", 13, 2);
        alone.end();
        QCOMPARE(build(alone).rank, -1);
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

    // The one loss policy (cupti/BufferLoss.h): records CUPTI dropped and
    // buffers it could not read are counted and said on a run that still
    // completes; totals, so the last record of each kind wins.
    void bufferLossIsSaidNotFailed_data()
    {
        QTest::addColumn<int>("dropped"); // LossRecord; -1: none
        QTest::addColumn<int>("unread");  // UnreadBuffersRecord's total; -1: none
        QTest::addColumn<QString>("words"); // expected in the run's message; empty: no CUPTI loss said
        QTest::newRow("nothing lost") << -1 << -1 << "";
        QTest::newRow("dropped records") << 12 << -1 << "CUPTI dropped 12 records (out of activity buffers)";
        QTest::newRow("one unread buffer")
            << -1 << 1
            << "1 CUPTI activity buffer could not be read to the end (cuptiActivityGetNextRecord: "
               "CUPTI_ERROR_INVALID_KIND): their later records are lost";
        QTest::newRow("unread buffers counted")
            << -1 << 3
            << "3 CUPTI activity buffers could not be read to the end (cuptiActivityGetNextRecord: "
               "CUPTI_ERROR_INVALID_KIND): their later records are lost";
        QTest::newRow("both, dropped said first")
            << 5 << 2
            << "CUPTI dropped 5 records (out of activity buffers); 2 CUPTI activity buffers could not be read";
    }
    void bufferLossIsSaidNotFailed()
    {
        QFETCH(int, dropped);
        QFETCH(int, unread);
        QFETCH(QString, words);
        TestProfileStream s = stream();
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        if (unread > 1)
            s.unreadBuffers(1, "an older total");
        if (unread > 0)
            s.unreadBuffers(static_cast<std::uint64_t>(unread), "cuptiActivityGetNextRecord: CUPTI_ERROR_INVALID_KIND");
        if (dropped >= 0)
            s.loss(static_cast<std::uint64_t>(dropped), 0);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(run.ops.size(), std::size_t(1));
        if (words.isEmpty())
            QVERIFY2(run.error.find("CUPTI") == std::string::npos, run.error.c_str());
        else
            QVERIFY2(QString::fromStdString(run.error).contains(words), run.error.c_str());
        QVERIFY2(run.error.find("an older total") == std::string::npos, run.error.c_str());
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

#if OVERLAPSCOPE_TEST_CUPTI
    // One record, both readers of CUPTI: the CUDA device's collector (its
    // engine records) and the injection library's encoder, whose stream this
    // builder turns into ops. They must agree on kind, memory, times and which
    // records are untimed; the expected values keep them both honest.
    void bothCuptiReadersAgree_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("copyKind");
        QTest::addColumn<int>("src");
        QTest::addColumn<int>("dst");
        QTest::addColumn<qulonglong>("start"); // CUPTI ns; 0 is CUPTI's "no time"
        QTest::addColumn<qulonglong>("end");
        QTest::addColumn<bool>("timed");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("memory");
        const qulonglong t0 = kCuptiAtZero + 2000;
        const qulonglong t1 = kCuptiAtZero + 5000;
        QTest::newRow("pageable upload") << "memcpy" << int(kCopyHtoD) << int(kMemoryPageable) << int(kMemoryDevice)
                                         << t0 << t1 << true << int(OpKind::Upload) << int(HostMemoryKind::Pageable);
        QTest::newRow("pinned download") << "memcpy" << int(kCopyDtoH) << int(kMemoryDevice) << int(kMemoryPinned)
                                         << t0 << t1 << true << int(OpKind::Download) << int(HostMemoryKind::Pinned);
        QTest::newRow("managed upload") << "memcpy" << int(kCopyHtoD) << int(kMemoryManaged) << int(kMemoryDevice)
                                        << t0 << t1 << true << int(OpKind::Upload) << int(HostMemoryKind::Managed);
        QTest::newRow("managed download") << "memcpy" << int(kCopyDtoH) << int(kMemoryDevice) << int(kMemoryManaged)
                                          << t0 << t1 << true << int(OpKind::Download) << int(HostMemoryKind::Managed);
        QTest::newRow("device copy") << "memcpy" << int(kCopyDtoD) << int(kMemoryDevice) << int(kMemoryDevice) << t0
                                     << t1 << true << int(OpKind::DeviceCopy) << int(HostMemoryKind::Device);
        QTest::newRow("peer copy") << "peer" << int(kCopyPtoP) << int(kMemoryDevice) << int(kMemoryDevice) << t0 << t1
                                   << true << int(OpKind::PeerCopy) << int(HostMemoryKind::Device);
        QTest::newRow("memset") << "memset" << 0 << int(kMemoryDevice) << 0 << t0 << t1 << true << int(OpKind::Memset)
                                << int(HostMemoryKind::Device);
        QTest::newRow("kernel") << "kernel" << 0 << 0 << 0 << t0 << t1 << true << int(OpKind::Kernel)
                                << int(HostMemoryKind::None);
        QTest::newRow("zero length") << "memcpy" << int(kCopyHtoD) << int(kMemoryPinned) << int(kMemoryDevice) << t0
                                     << t0 << true << int(OpKind::Upload) << int(HostMemoryKind::Pinned);
        QTest::newRow("untimed: no times") << "memcpy" << int(kCopyHtoD) << int(kMemoryPinned) << int(kMemoryDevice)
                                           << 0ull << 0ull << false << 0 << 0;
        QTest::newRow("untimed: no start") << "memcpy" << int(kCopyHtoD) << int(kMemoryPinned) << int(kMemoryDevice)
                                           << 0ull << t1 << false << 0 << 0;
        QTest::newRow("untimed: end before start") << "kernel" << 0 << 0 << 0 << t1 << t0 << false << 0 << 0;
    }
    void bothCuptiReadersAgree()
    {
        QFETCH(QString, type);
        QFETCH(int, copyKind);
        QFETCH(int, src);
        QFETCH(int, dst);
        QFETCH(qulonglong, start);
        QFETCH(qulonglong, end);
        QFETCH(bool, timed);
        QFETCH(int, kind);
        QFETCH(int, memory);
        const SyntheticRecord synthetic = syntheticRecord(type, copyKind, src, dst, start, end);
        const CUpti_Activity& record = synthetic.header;

        // The CUDA device's collector.
        const auto work = cupti::decodeGpuActivity(record);
        QVERIFY(work);
        const auto engine = CuptiActivityCollector::timedActivity(*work);
        QCOMPARE(engine.has_value(), timed);

        // The injection library's encoder, its stream, and this builder.
        inject::CuptiRecordEncoder encoder(noCallbackNames);
        ProfileStreamEncoder out;
        out.addMagic();
        BeginRecord begin;
        begin.pid = 100;
        out.addWithText(begin, std::string_view("app"));
        out.add(ClockRecord{kCuptiAtZero, kZeroNs, 0});
        encoder.encode(record, out);
        out.add(EndRecord{0, encoder.untimed()});
        ProcessRunBuilder builder(kZeroNs);
        feed(builder, out.bytes());
        const Run run = builder.finish({}, {});
        QCOMPARE(encoder.untimed(), std::uint64_t(timed ? 0 : 1));
        QCOMPARE(run.ops.size(), timed ? std::size_t(1) : std::size_t(0));
        if (!timed)
            return;

        const Op& op = run.ops.front();
        QCOMPARE(int(work->kind), kind);
        QCOMPARE(int(op.kind), kind);
        QCOMPARE(int(engine->memory), memory);
        QCOMPARE(int(op.memory), memory);
        QCOMPARE(op.execStartNs, static_cast<std::int64_t>(engine->startNs - kCuptiAtZero));
        QCOMPARE(op.execEndNs, static_cast<std::int64_t>(engine->endNs - kCuptiAtZero));
        QCOMPARE(op.correlation, work->correlationId);
    }

    // The session's buffer loop (cupti/RecordCursor.h): every record up to
    // the buffer's end, and an error that stops the reading counted once per
    // buffer with CUPTI's words for the first; the end itself is no error.
    void bufferLoopCountsUnreadBuffers_data()
    {
        QTest::addColumn<int>("records");
        QTest::addColumn<int>("end"); // what CUPTI answers after the last record
        QTest::addColumn<int>("buffers");
        QTest::addColumn<int>("unread");
        QTest::newRow("read to the end") << 3 << int(CUPTI_ERROR_MAX_LIMIT_REACHED) << 1 << 0;
        QTest::newRow("empty buffer") << 0 << int(CUPTI_ERROR_MAX_LIMIT_REACHED) << 1 << 0;
        QTest::newRow("error after two records") << 2 << int(CUPTI_ERROR_INVALID_KIND) << 1 << 1;
        QTest::newRow("two buffers in error") << 1 << int(CUPTI_ERROR_INVALID_PARAMETER) << 2 << 2;
    }
    void bufferLoopCountsUnreadBuffers()
    {
        QFETCH(int, records);
        QFETCH(int, end);
        QFETCH(int, buffers);
        QFETCH(int, unread);
        const cupti::Library::Api api = fakeApi();
        cupti::LossTally tally;
        std::uint8_t buffer[8] = {};
        int read = 0;
        for (int b = 0; b < buffers; ++b) {
            fake.records = records;
            fake.handedOut = 0;
            fake.end = static_cast<CUptiResult>(end);
            cupti::RecordCursor cursor(api, buffer, sizeof buffer, tally);
            while (cursor.next())
                ++read;
            QVERIFY(!cursor.next()); // stays at its end
            QCOMPARE(cursor.count(), std::size_t(records));
        }
        QCOMPARE(read, records * buffers);
        const cupti::BufferLoss loss = tally.total();
        QCOMPARE(loss.unreadBuffers, std::uint64_t(unread));
        QCOMPARE(loss.dropped, std::uint64_t(0));
        const std::vector<std::string> words = cupti::lossWords(loss);
        QCOMPARE(words.empty(), unread == 0);
        if (unread > 0)
            QCOMPARE(loss.firstReadError, "cuptiActivityGetNextRecord: CUPTI error " + std::to_string(end));
    }

    // The one kind table, turned on for each client with rollback: an
    // essential kind refused leaves nothing on (turned off in reverse), an
    // optional one refused or skipped is said, a kind on request only when
    // asked.
    void kindsTurnOnWithRollback_data()
    {
        QTest::addColumn<int>("client");
        QTest::addColumn<int>("refused"); // a CUpti_ActivityKind, or -1
        QTest::addColumn<QString>("skip"); // OVERLAPSCOPE_PROFILE_SKIP
        QTest::addColumn<bool>("requested");
        QTest::addColumn<bool>("started");
        QTest::addColumn<QString>("words"); // in whyNot (not started) or the warnings
        const int engine = int(cupti::Client::EngineTiming);
        const int profile = int(cupti::Client::Profile);
        QTest::newRow("engine timing: all on") << engine << -1 << "" << false << true << "";
        QTest::newRow("engine timing: driver records on request") << engine << -1 << "" << true << true << "";
        QTest::newRow("engine timing: memcpy refused")
            << engine << int(CUPTI_ACTIVITY_KIND_MEMCPY) << "" << false << false
            << "cuptiActivityEnable(memcpy): CUPTI error " + QString::number(int(CUPTI_ERROR_NOT_COMPATIBLE));
        QTest::newRow("profile: all on") << profile << -1 << "" << false << true << "";
        QTest::newRow("profile: memset refused, said")
            << profile << int(CUPTI_ACTIVITY_KIND_MEMSET) << "" << false << true
            << "cuptiActivityEnable(memset): CUPTI error " + QString::number(int(CUPTI_ERROR_NOT_COMPATIBLE))
                   + ": memset records are missing";
        QTest::newRow("profile: kernels refused")
            << profile << int(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) << "" << true << false
            << "cuptiActivityEnable(concurrent kernel)";
        QTest::newRow("profile: stream records skipped")
            << profile << -1 << "stream" << false << true << "stream records left off (OVERLAPSCOPE_PROFILE_SKIP)";
    }
    void kindsTurnOnWithRollback()
    {
        QFETCH(int, client);
        QFETCH(int, refused);
        QFETCH(QString, skip);
        QFETCH(bool, requested);
        QFETCH(bool, started);
        QFETCH(QString, words);
        const cupti::Library::Api api = fakeApi();
        if (refused >= 0)
            fake.refused.push_back(static_cast<CUpti_ActivityKind>(refused));
        const QByteArray saved = qgetenv("OVERLAPSCOPE_PROFILE_SKIP");
        qputenv("OVERLAPSCOPE_PROFILE_SKIP", skip.toUtf8());
        const auto who = static_cast<cupti::Client>(client);
        std::vector<CUpti_ActivityKind> wanted = kindsOf(who, requested);
        std::vector<std::string_view> asked;
        if (requested)
            asked = {"driver", "sync"};
        cupti::EnabledKinds kinds;
        std::string whyNot;
        std::vector<std::string> warnings;
        const bool on = kinds.enable(api, who, asked, "OVERLAPSCOPE_PROFILE_SKIP", &whyNot, &warnings);
        if (saved.isNull())
            qunsetenv("OVERLAPSCOPE_PROFILE_SKIP");
        else
            qputenv("OVERLAPSCOPE_PROFILE_SKIP", saved);
        QCOMPARE(on, started);
        QCOMPARE(kinds.empty(), !started);
        QVERIFY(!wanted.empty());

        // Turned on in table order (the skipped ones not asked for), up to a refused essential one.
        std::vector<CUpti_ActivityKind> tried;
        for (CUpti_ActivityKind k : wanted) {
            const cupti::ActivityKind& row = *std::find_if(std::begin(cupti::kActivityKinds),
                                                           std::end(cupti::kActivityKinds),
                                                           [k](const cupti::ActivityKind& r) { return r.kind == k; });
            if (!skip.isEmpty() && skip == row.token)
                continue;
            tried.push_back(k);
            if (!started && int(k) == refused)
                break;
        }
        std::vector<CUpti_ActivityKind> enabled;
        std::vector<CUpti_ActivityKind> disabled;
        for (const auto& [enable, kind] : fake.calls)
            (enable ? enabled : disabled).push_back(kind);
        QCOMPARE(enabled, tried);
        if (started) {
            QVERIFY(disabled.empty());
            const QString said = QString::fromStdString(warnings.empty() ? std::string() : warnings.front());
            QCOMPARE(said, words);
            // And off again in reverse, without the refused one.
            kinds.disable(api);
            disabled.clear();
            for (std::size_t i = enabled.size(); i < fake.calls.size(); ++i)
                disabled.push_back(fake.calls[i].second);
            std::vector<CUpti_ActivityKind> expected(tried.rbegin(), tried.rend());
            std::erase(expected, static_cast<CUpti_ActivityKind>(refused));
            QCOMPARE(disabled, expected);
            QVERIFY(kinds.empty());
        } else {
            // Rolled back: every kind it turned on, off again in reverse.
            std::vector<CUpti_ActivityKind> expected(tried.rbegin() + 1, tried.rend());
            QCOMPARE(disabled, expected);
            QVERIFY2(QString::fromStdString(whyNot).startsWith(words), whyNot.c_str());
        }
    }

    // API records call by call: the calls the chooser picks, switched the
    // way asked, a refusal said with CUPTI's words and the rest still done.
    void apiRecordsSwitchCallByCall()
    {
        const cupti::Library::Api api = fakeApi();
        const auto enqueues = [](std::string_view name) { return apiEnqueuesWork(name); };
        std::string failure;
        QCOMPARE(cupti::switchApiRecords(api, CUPTI_CB_DOMAIN_RUNTIME_API, enqueues, true, &failure), 2);
        QCOMPARE(fake.apiCalls, (std::vector<std::pair<CUpti_CallbackId, bool>>{{1, true}, {3, true}}));
        QVERIFY(failure.empty());

        fake.apiCalls.clear();
        fake.refusedCall = 2;
        const auto quiet = [](std::string_view name) { return !apiEnqueuesWork(name); };
        QCOMPARE(cupti::switchApiRecords(api, CUPTI_CB_DOMAIN_RUNTIME_API, quiet, false, &failure), 0);
        QCOMPARE(fake.apiCalls, (std::vector<std::pair<CUpti_CallbackId, bool>>{{2, false}}));
        QCOMPARE(failure, "cuptiActivityEnableRuntimeApi: CUPTI error " + std::to_string(int(CUPTI_ERROR_INVALID_PARAMETER)));
    }

    // Clock pairing: the CUPTI reading placed between two monotonic
    // readings; a refused reading leaves the pair as it was.
    void clockPairBracketsTheCuptiReading()
    {
        const cupti::Library::Api api = fakeApi();
        fake.timestamp = 123'456'789;
        cupti::ClockPair pair;
        const std::int64_t before = cupti::monotonicNowNs();
        QCOMPARE(cupti::readClockPair(api, &pair), CUPTI_SUCCESS);
        const std::int64_t after = cupti::monotonicNowNs();
        QCOMPARE(pair.cuptiNs, std::uint64_t(123'456'789));
        QVERIFY(pair.monotonicNs >= before && pair.monotonicNs <= after);
        QVERIFY(pair.realtimeNs > 0);

        fake.timestampResult = CUPTI_ERROR_NOT_INITIALIZED;
        fake.timestamp = 1;
        QCOMPARE(cupti::readClockPair(api, &pair), CUPTI_ERROR_NOT_INITIALIZED);
        QCOMPARE(pair.cuptiNs, std::uint64_t(123'456'789));
    }

    // Both users load libcupti through one search, which the variable overrides.
    void cuptiLibraryVariableIsTheOnlyCandidate()
    {
        const QByteArray saved = qgetenv("OVERLAPSCOPE_CUPTI_LIBRARY");
        qunsetenv("OVERLAPSCOPE_CUPTI_LIBRARY");
        const std::vector<std::string> usual = cupti::Library::searchPath();
        qputenv("OVERLAPSCOPE_CUPTI_LIBRARY", "/opt/cupti/libcupti.so.13.0");
        const std::vector<std::string> chosen = cupti::Library::searchPath();
        if (saved.isNull())
            qunsetenv("OVERLAPSCOPE_CUPTI_LIBRARY");
        else
            qputenv("OVERLAPSCOPE_CUPTI_LIBRARY", saved);
        QCOMPARE(chosen, std::vector<std::string>{"/opt/cupti/libcupti.so.13.0"});
        QVERIFY(usual.size() > 1);
        QCOMPARE(usual.front(), "libcupti.so." + std::to_string(CUDA_VERSION / 1000));
    }
#endif

    // NVTX ranges and the profiler range (RangeRecord, API records) become
    // the run's regions: on the lane of the thread that opened them, nested
    // by depth, on the run's time base (a RangeRecord's time is the
    // monotonic clock: run time = monotonic - kZeroNs).
    void nvtxPushPopNestOnTheirThread()
    {
        TestProfileStream s = stream(100);
        s.range(kRangePush, kZeroNs + 100, 100, "step");
        s.range(kRangePush, kZeroNs + 200, 100, "h2d");
        s.api(kCuptiAtZero + 250, kCuptiAtZero + 300, "cudaMemcpyAsync", 100, 1);
        s.range(kRangePop, kZeroNs + 400, 100);
        s.range(kRangePush, kZeroNs + 500, 100, "compute");
        s.range(kRangePop, kZeroNs + 600, 100);
        s.range(kRangePop, kZeroNs + 700, 100);
        s.kernel(kCuptiAtZero + 300, kCuptiAtZero + 900, "k", 13, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.regions.size(), std::size_t(3));
        const Region& step = run.regions[0];
        QCOMPARE(step.name, std::string("step"));
        QCOMPARE(step.beginNs, std::int64_t(100));
        QCOMPARE(step.endNs, std::int64_t(700));
        QCOMPARE(step.depth, std::uint16_t(0));
        QCOMPARE(step.source, RegionSource::Nvtx);
        QCOMPARE(run.lanes.at(step.lane).name, std::string("main thread"));
        QCOMPARE(run.regions[1].name, std::string("h2d"));
        QCOMPARE(run.regions[1].depth, std::uint16_t(1));
        QCOMPARE(run.regions[1].endNs, std::int64_t(400));
        QCOMPARE(run.regions[2].name, std::string("compute"));
        QCOMPARE(run.regions[2].depth, std::uint16_t(1));
        // The lane is the API call's lane, after lanes were reordered.
        const auto call = std::find_if(run.ops.begin(), run.ops.end(),
                                       [](const Op& op) { return op.kind == OpKind::ApiCall; });
        QVERIFY(call != run.ops.end());
        for (const Region& r : run.regions)
            QCOMPARE(r.lane, call->lane);
        QVERIFY(run.error.empty());
    }

    void anUnmatchedPopIsIgnoredAndSaid()
    {
        TestProfileStream s = stream(100);
        s.range(kRangePop, kZeroNs + 50, 100);
        s.range(kRangePush, kZeroNs + 100, 100, "a");
        s.range(kRangePop, kZeroNs + 200, 100);
        s.range(kRangePop, kZeroNs + 300, 100);
        s.range(kRangeEnd, kZeroNs + 300, 100, {}, 77);
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(run.regions.size(), std::size_t(1));
        QCOMPARE(run.regions[0].endNs, std::int64_t(200));
        QVERIFY2(run.error.find("2 NVTX pops without a push") != std::string::npos, run.error.c_str());
        QVERIFY2(run.error.find("1 NVTX range end without a start") != std::string::npos, run.error.c_str());
    }

    void aRangeOpenAtExitEndsWithTheRecording()
    {
        TestProfileStream s = stream(100);
        s.range(kRangePush, kZeroNs + 100, 100, "outer");
        s.range(kRangePush, kZeroNs + 150, 100, "inner");
        s.range(kRangeStart, kZeroNs + 160, 100, "started", 5);
        s.kernel(kCuptiAtZero + 200, kCuptiAtZero + 5'000, "k", 13, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.regions.size(), std::size_t(3));
        for (const Region& r : run.regions)
            QCOMPARE(r.endNs, std::int64_t(5'000)); // the last op's end
        QCOMPARE(run.regions[0].name, std::string("outer"));
        QCOMPARE(run.regions[0].depth, std::uint16_t(0));
        QCOMPARE(run.regions[1].name, std::string("inner"));
        QCOMPARE(run.regions[1].depth, std::uint16_t(1));
        // A start/end range goes below what it overlaps on its thread.
        QCOMPARE(run.regions[2].name, std::string("started"));
        QCOMPARE(run.regions[2].depth, std::uint16_t(2));
    }

    void rangesOnTwoThreadsStayApart()
    {
        TestProfileStream s = stream(100);
        s.range(kRangePush, kZeroNs + 100, 100, "main work");
        s.range(kRangePush, kZeroNs + 150, 101, "loader");
        // Ended on another thread than the one that started it: it stays
        // on the starting thread's lane.
        s.range(kRangeStart, kZeroNs + 160, 101, "batch", 9);
        s.range(kRangePop, kZeroNs + 300, 100);
        s.range(kRangeEnd, kZeroNs + 350, 100, {}, 9);
        s.range(kRangePop, kZeroNs + 400, 101);
        // A pop on thread 100 does not close thread 101's range, and a
        // domain's pop not another domain's.
        s.range(kRangePush, kZeroNs + 500, 101, "in a domain", 0, 3);
        s.range(kRangePop, kZeroNs + 550, 101);
        s.range(kRangePop, kZeroNs + 600, 101, {}, 0, 3);
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 13, 1);
        s.end();
        const Run run = build(s);
        const auto find = [&](const std::string& name) -> const Region& {
            for (const Region& r : run.regions)
                if (r.name == name)
                    return r;
            qFatal("no region %s", name.c_str());
        };
        const Region& main = find("main work");
        const Region& loader = find("loader");
        const Region& batch = find("batch");
        const Region& domain = find("in a domain");
        QCOMPARE(run.lanes.at(main.lane).name, std::string("main thread"));
        QCOMPARE(run.lanes.at(loader.lane).name, std::string("thread 101"));
        QCOMPARE(main.depth, std::uint16_t(0));
        QCOMPARE(loader.depth, std::uint16_t(0));
        QCOMPARE(loader.endNs, std::int64_t(400));
        QCOMPARE(batch.lane, loader.lane);
        QCOMPARE(batch.endNs, std::int64_t(350));
        QCOMPARE(batch.depth, std::uint16_t(1));
        QCOMPARE(domain.beginNs, std::int64_t(500));
        QCOMPARE(domain.endNs, std::int64_t(600));
        QVERIFY2(run.error.find("1 NVTX pop without a push") != std::string::npos, run.error.c_str());
    }

    void profilerStartStopIsAProcessWideRegion()
    {
        TestProfileStream s = stream(100);
        s.api(kCuptiAtZero + 100, kCuptiAtZero + 200, "cudaMalloc", 100, 1);
        s.api(kCuptiAtZero + 300, kCuptiAtZero + 350, "cudaProfilerStart", 100, 2);
        s.api(kCuptiAtZero + 400, kCuptiAtZero + 450, "cudaLaunchKernel", 100, 3);
        s.kernel(kCuptiAtZero + 460, kCuptiAtZero + 2'000, "k", 13, 3);
        s.api(kCuptiAtZero + 500, kCuptiAtZero + 520, "cudaLaunchKernel", 100, 4);
        s.kernel(kCuptiAtZero + 2'000, kCuptiAtZero + 2'100, "k", 13, 4);
        s.api(kCuptiAtZero + 600, kCuptiAtZero + 700, "cudaProfilerStop", 100, 5);
        s.api(kCuptiAtZero + 800, kCuptiAtZero + 850, "cudaLaunchKernel", 100, 6);
        s.kernel(kCuptiAtZero + 2'100, kCuptiAtZero + 2'200, "k", 13, 6);
        s.api(kCuptiAtZero + 900, kCuptiAtZero + 950, "cudaProfilerStart", 100, 7); // never stopped
        s.end();
        Run run = build(s);
        QCOMPARE(run.regions.size(), std::size_t(2));
        QCOMPARE(run.regions[0].source, RegionSource::ProfilerRange);
        QCOMPARE(run.regions[0].lane, Region::kNoLane);
        QCOMPARE(run.regions[0].beginNs, std::int64_t(350));
        QCOMPARE(run.regions[0].endNs, std::int64_t(600));
        QCOMPARE(run.regions[1].beginNs, std::int64_t(950));
        QCOMPARE(run.regions[1].endNs, std::int64_t(2'200)); // open at exit

        // --capture-range cudaProfilerApi keeps the calls made inside (the
        // two launches and the stop; the starts return where the ranges
        // begin) and the kernels they enqueued, one of which runs after the
        // stop; not the allocation nor the launch between the ranges.
        const CaptureOutcome captured = keepProfilerRanges(run);
        QCOMPARE(captured.ranges, std::uint64_t(2));
        std::vector<std::uint32_t> correlations;
        for (const Op& op : run.ops)
            correlations.push_back(op.correlation);
        std::sort(correlations.begin(), correlations.end());
        QCOMPARE(correlations, (std::vector<std::uint32_t>{3, 3, 4, 4, 5}));
        QCOMPARE(captured.droppedOps, std::uint64_t(5));
        QCOMPARE(run.timedBeginNs, std::int64_t(350));
        QCOMPARE(run.timedEndNs, std::int64_t(2'200));
        QVERIFY2(captured.note.find("2 ranges, 5 ops kept, 5 outside dropped") != std::string::npos,
                 captured.note.c_str());
    }

    void withoutAProfilerRangeNothingIsCaptured()
    {
        TestProfileStream s = stream(100);
        s.api(kCuptiAtZero + 100, kCuptiAtZero + 200, "cudaLaunchKernel", 100, 1);
        s.kernel(kCuptiAtZero + 300, kCuptiAtZero + 400, "k", 13, 1);
        s.end();
        Run run = build(s);
        const CaptureOutcome captured = keepProfilerRanges(run);
        QVERIFY(run.ops.empty());
        QVERIFY2(captured.note.find("never called cudaProfilerStart") != std::string::npos, captured.note.c_str());
    }

    // CUPTI's unified-memory counters become unified_memory ops on a lane of
    // their own per device, after the device's streams; no GPU ops, so
    // replay and the stream rules leave them alone.
    void unifiedMemoryCountersGoOnTheirDevicesLane()
    {
        TestProfileStream s = stream();
        s.device(1, "NVIDIA H200");
        s.context(2, 1, 3);
        s.kernel(kCuptiAtZero + 100, kCuptiAtZero + 900, "k", 7, 1);
        s.kernel(kCuptiAtZero + 100, kCuptiAtZero + 900, "k", 3, 2, 1, 2);
        s.unifiedMemory(kUmGpuPageFault, kCuptiAtZero + 110, kCuptiAtZero + 150, 3, 0);
        s.unifiedMemory(kUmBytesHtoD, kCuptiAtZero + 150, kCuptiAtZero + 250, 65536, 0);
        s.unifiedMemory(kUmBytesDtoH, kCuptiAtZero + 950, kCuptiAtZero + 990, 4096, 1);
        s.unifiedMemory(kUmCpuPageFault, kCuptiAtZero + 940, kCuptiAtZero + 940, 1, kUmNoDevice);
        s.unifiedMemory(kUmThrashing, kCuptiAtZero + 300, kCuptiAtZero + 300, 2 << 20, 1);
        s.unifiedMemory(kUmThrottling, kCuptiAtZero + 400, kCuptiAtZero + 420, 0, 1);
        s.unifiedMemory(99, kCuptiAtZero + 400, kCuptiAtZero + 420, 0, 1); // a newer writer's counter
        s.end();
        ProcessRunBuilder builder(kZeroNs);
        feed(builder, s);
        QCOMPARE(builder.unifiedMemoryOps(), std::uint64_t(6));
        QCOMPARE(builder.gpuOps(), std::uint64_t(2));
        const Run run = builder.finish({}, {});
        std::vector<std::string> names;
        for (const Lane& lane : run.lanes)
            names.push_back(lane.name);
        QCOMPARE(names, (std::vector<std::string>{"GPU 0 default stream (legacy)", "GPU 0 \u00b7 unified memory",
                                                  "GPU 1 default stream (legacy)", "GPU 1 \u00b7 unified memory"}));
        QCOMPARE(run.lanes[1].kind, LaneKind::Stream);
        QCOMPARE(run.lanes[1].streamKind, StreamKind::NonBlocking);
        QCOMPARE(int(run.lanes[1].device), 0);
        QCOMPARE(int(run.lanes[3].device), 1);
        struct Seen {
            std::string name;
            std::uint16_t lane;
            std::int64_t startNs;
            std::int64_t endNs;
            std::uint64_t bytes;
            bool operator==(const Seen&) const = default;
        };
        std::vector<Seen> seen;
        for (const Op& op : run.ops) {
            QVERIFY(!isGpuOp(op.kind) || op.kind == OpKind::Kernel);
            if (op.kind != OpKind::UnifiedMemory)
                continue;
            QVERIFY(!op.hasExec());
            QCOMPARE(op.memory, HostMemoryKind::Managed);
            seen.push_back({run.nameOf(op), op.lane, op.startNs, op.endNs, op.bytes});
        }
        // By lane, then time (Run::sortOps); the CPU fault on the first GPU's lane.
        const std::vector<Seen> expected = {
            {"GPU page faults", 1, 110, 150, 3},          {"HtoD migration", 1, 150, 250, 65536},
            {"CPU page fault", 1, 940, 940, 1},           {"thrashing", 3, 300, 300, std::uint64_t(2) << 20},
            {"throttling", 3, 400, 420, 0},               {"DtoH migration", 3, 950, 990, 4096},
        };
        QCOMPARE(seen.size(), expected.size());
        for (std::size_t i = 0; i < seen.size(); ++i)
            QVERIFY2(seen[i] == expected[i], seen[i].name.c_str());
        // The run needs format version 5 to hold them.
        QVERIFY(run.usesUnifiedMemory());
        // Counters alone are no GPU work: the run still says so when there is none.
        TestProfileStream only = stream();
        only.unifiedMemory(kUmCpuPageFault, kCuptiAtZero + 1, kCuptiAtZero + 1, 1, kUmNoDevice);
        only.end();
        const Run faultsOnly = build(only);
        QCOMPARE(faultsOnly.lanes.size(), std::size_t(1));
        QCOMPARE(faultsOnly.lanes[0].name, std::string("GPU 0 \u00b7 unified memory"));
        QVERIFY(faultsOnly.error.find("no GPU work recorded") != std::string::npos);
    }

    // Where CUPTI refuses the counters (MPS, no support), the library says so
    // in a warning note; the profile goes on and the run's message says why.
    void refusedUnifiedMemoryCountersAreSaid()
    {
        TestProfileStream s = stream();
        s.note(kNoteWarning, "cuptiActivityConfigureUnifiedMemoryCounter: CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED: "
                             "unified-memory migrations and page faults are not recorded");
        s.kernel(kCuptiAtZero + 1, kCuptiAtZero + 2, "k", 7, 1);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(run.ops.size(), std::size_t(1));
        QVERIFY2(run.error.find("unified-memory migrations and page faults are not recorded") != std::string::npos,
                 run.error.c_str());
    }

#if OVERLAPSCOPE_TEST_CUPTI
    // The injection library's encoder reads CUPTI's record: which GPU, bytes
    // or counts, and no duration where CUPTI gives none.
    void cuptiUnifiedMemoryRecordsAreEncoded_data()
    {
        QTest::addColumn<int>("counter");
        QTest::addColumn<int>("src");
        QTest::addColumn<int>("dst");
        QTest::addColumn<qulonglong>("value");
        QTest::addColumn<QString>("lane");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qulonglong>("bytes");
        QTest::addColumn<qlonglong>("durationNs");
        QTest::addColumn<int>("flags"); // a migration's cause
        QTest::addColumn<QString>("fields"); // the op's typed counter and cause (trace/UnifiedMemoryOp.h)
        QTest::newRow("HtoD: the destination GPU")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD) << 0 << 1 << 65536ull
            << "GPU 1 \u00b7 unified memory" << "HtoD migration" << 65536ull << 100ll << 0 << "migration-to-gpu unknown";
        QTest::newRow("DtoH: the source GPU")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH) << 1 << 0 << 4096ull
            << "GPU 1 \u00b7 unified memory" << "DtoH migration" << 4096ull << 100ll << 0 << "migration-to-host unknown";
        QTest::newRow("HtoD on a fault: its cause named")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD) << 0 << 1 << 65536ull
            << "GPU 1 \u00b7 unified memory" << "HtoD migration (fault)" << 65536ull << 100ll << 2 << "migration-to-gpu fault";
        QTest::newRow("DtoH by the driver's prefetch: its cause named")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH) << 1 << 0 << 4096ull
            << "GPU 1 \u00b7 unified memory" << "DtoH migration (driver prefetch)" << 4096ull << 100ll << 3 << "migration-to-host driver-prefetch";
        QTest::newRow("HtoD the program asked for")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD) << 0 << 1 << 4096ull
            << "GPU 1 \u00b7 unified memory" << "HtoD migration (requested)" << 4096ull << 100ll << 1 << "migration-to-gpu requested";
        QTest::newRow("GPU fault: its count")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT) << 1 << 0 << 5ull
            << "GPU 1 \u00b7 unified memory" << "GPU page faults" << 5ull << 100ll << 0 << "gpu-page-faults unknown";
        QTest::newRow("CPU fault: one, no duration, not the program counter")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT) << 0 << 0 << 0x401000ull
            << "GPU 0 \u00b7 unified memory" << "CPU page fault" << 1ull << 0ll << 0 << "cpu-page-fault unknown";
        QTest::newRow("thrashing: the lowest GPU of the mask")
            << int(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING) << 0b110 << 0 << 8192ull
            << "GPU 1 \u00b7 unified memory" << "thrashing" << 8192ull << 0ll << 0 << "thrashing unknown";
    }
    void cuptiUnifiedMemoryRecordsAreEncoded()
    {
        QFETCH(int, counter);
        QFETCH(int, src);
        QFETCH(int, dst);
        QFETCH(qulonglong, value);
        QFETCH(QString, lane);
        QFETCH(QString, name);
        QFETCH(qulonglong, bytes);
        QFETCH(qlonglong, durationNs);
        QFETCH(int, flags);
        QFETCH(QString, fields);
        CUpti_ActivityUnifiedMemoryCounter3 record;
        std::memset(&record, 0, sizeof record);
        record.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
        record.counterKind = static_cast<CUpti_ActivityUnifiedMemoryCounterKind>(counter);
        record.value = value;
        record.start = kCuptiAtZero + 100;
        record.end = kCuptiAtZero + 200;
        record.srcId = static_cast<std::uint32_t>(src);
        record.dstId = static_cast<std::uint32_t>(dst);
        record.flags = static_cast<std::uint32_t>(flags);
        inject::CuptiRecordEncoder encoder(noCallbackNames);
        ProfileStreamEncoder out;
        out.addMagic();
        BeginRecord begin;
        begin.pid = 100;
        out.addWithText(begin, std::string_view("app"));
        out.add(ClockRecord{kCuptiAtZero, kZeroNs, 0});
        encoder.encode(reinterpret_cast<const CUpti_Activity&>(record), out);
        out.add(EndRecord{});
        ProcessRunBuilder builder(kZeroNs);
        feed(builder, out.bytes());
        const Run run = builder.finish({}, {});
        QCOMPARE(run.ops.size(), std::size_t(1));
        const Op& op = run.ops.front();
        QCOMPARE(op.kind, OpKind::UnifiedMemory);
        QCOMPARE(QString::fromStdString(run.lanes[op.lane].name), lane);
        QCOMPARE(QString::fromStdString(run.nameOf(op)), name);
        QCOMPARE(op.bytes, std::uint64_t(bytes));
        QCOMPARE(op.startNs, std::int64_t(100));
        QCOMPARE(op.durationNs(), std::int64_t(durationNs));
        // What it counts and why as fields, which the name only shows.
        const UnifiedMemoryOp* typed = run.unifiedMemoryOf(0);
        QVERIFY(typed);
        QCOMPARE(QString(toString(typed->counter)) + " " + toString(typed->cause), fields);
        QCOMPARE(run.countsFaults(0), fields.startsWith("cpu-page-fault") || fields.startsWith("gpu-page-faults"));
    }
#endif

    // Call stacks (profile --stacks; docs/profiling.md, "Call sites").

    void captureAndSymbolizeFindTheCallersLine()
    {
        if (!Symbolizer::available())
            QSKIP("this build reads no call stacks (no libdw)");
        StackCapture capture;
        std::string why;
        if (!capture.start(kStacksSync, {}, &why))
            QSKIP(("libunwind not loadable here: " + why).c_str());
        capture.record(7); const std::uint32_t line = __LINE__;
        ProfileStreamEncoder out;
        capture.take(out);

        // Back through the stream's reader: the modules and the stack it sent.
        ProfileStreamDecoder decoder;
        const std::vector<std::uint8_t> magic(kStreamMagic, kStreamMagic + sizeof kStreamMagic);
        decoder.feed(magic.data(), magic.size());
        decoder.feed(out.bytes().data(), out.bytes().size());
        StackSites sites;
        std::uint32_t stackOfCall = 0;
        int stacks = 0;
        DecodedRecord r;
        while (decoder.next(r)) {
            if (r.type == RecordType::Module) {
                const auto m = r.payload<ModuleRecord>();
                QVERIFY(m);
                NativeModule module;
                module.path = std::string(*r.text(sizeof(ModuleRecord), m->textBytes));
                module.loadBias = m->loadBias;
                module.lowAddress = m->lowAddress;
                module.highAddress = m->highAddress;
                module.buildId.assign(reinterpret_cast<const char*>(m->buildId), m->buildIdBytes);
                sites.addModule(module);
            } else if (r.type == RecordType::Stack) {
                const auto st = r.payload<StackRecord>();
                QVERIFY(st && st->frameCount > 0);
                std::vector<std::uint64_t> frames(st->frameCount);
                std::memcpy(frames.data(), r.body + sizeof(StackRecord), frames.size() * 8);
                sites.addStack(st->stackId, frames);
                ++stacks;
            } else if (r.type == RecordType::CallStack) {
                const auto c = r.payload<CallStackRecord>();
                QCOMPARE(c->correlationId, 7u);
                stackOfCall = c->stackId;
            }
        }
        QVERIFY(decoder.error().empty());
        QCOMPARE(stacks, 1);
        QVERIFY(stackOfCall != 0);
        const std::optional<SourceSite> site = sites.siteOf(stackOfCall);
        QVERIFY(site);
        QVERIFY2(endsWith(site->file, "tst_process_run_builder.cpp"), site->file.c_str());
        QCOMPARE(site->line, line);
        QVERIFY2(site->function.find("captureAndSymbolizeFindTheCallersLine") != std::string::npos,
                 site->function.c_str());
        QCOMPARE(site->lineIs, SiteLine::Call);

        // The same stack again is the same id, sent once.
        capture.record(8);
        capture.record(8);
        ProfileStreamEncoder again;
        capture.take(again);
        ProfileStreamDecoder second;
        second.feed(magic.data(), magic.size());
        second.feed(again.bytes().data(), again.bytes().size());
        int calls = 0;
        while (second.next(r)) {
            QVERIFY(r.type != RecordType::Module);
            calls += r.type == RecordType::CallStack;
        }
        QCOMPARE(calls, 2);
    }

    void callsGetTheSiteOfTheirStack()
    {
        if (!Symbolizer::available())
            QSKIP("this build reads no call stacks (no libdw)");
        const auto modules = thisProcessModules();
        const std::uint64_t at = returnAddressHere(); const std::uint32_t line = __LINE__;
        const ModuleRecord* own = moduleHolding(modules, at);
        QVERIFY(own);
        TestProfileStream s = stream();
        s.stackState(kStacksSync);
        // A library's frame inside the user's: libcudart in a system folder,
        // then the injection library wherever it is.
        s.module("/usr/lib/x86_64-linux-gnu/libcudart.so.13", 0x1000, 0x2000);
        s.module("/opt/overlapscope/lib/liboverlapscope-inject.so", 0x3000, 0x4000);
        for (const auto& [r, path] : modules)
            if (&r == own)
                s.module(r, path);
        s.stack(1, {0x1100, 0x3100, at});
        s.stack(2, {0x1100, 0x3100}); // nothing of the user's
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaDeviceSynchronize", 100, 5);
        s.api(kCuptiAtZero + 30, kCuptiAtZero + 40, "cudaMemcpy", 100, 6);
        s.api(kCuptiAtZero + 50, kCuptiAtZero + 60, "cudaStreamSynchronize", 100, 7);
        s.api(kCuptiAtZero + 70, kCuptiAtZero + 80, "cudaLaunchKernel", 100, 8);
        s.memcpy(kCuptiAtZero + 31, kCuptiAtZero + 39, kCopyDtoH, kMemoryDevice, kMemoryPageable, 7, 6);
        s.callStack(5, 1);
        s.callStack(6, 1);
        s.callStack(7, 2);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.sourceSites.size(), std::size_t(1));
        QVERIFY2(endsWith(run.sourceSites[0].file, "tst_process_run_builder.cpp"), run.sourceSites[0].file.c_str());
        QCOMPARE(run.sourceSites[0].line, line);
        int withSite = 0;
        for (std::size_t i = 0; i < run.ops.size(); ++i) {
            const OpSource* source = run.sourceOf(i);
            const std::string& name = run.nameOf(run.ops[i]);
            if (name == "cudaDeviceSynchronize" || name == "cudaMemcpy") {
                QVERIFY2(source && source->site == 1, name.c_str());
                ++withSite;
            } else {
                // The library-only stack, the call without one, the GPU op (it
                // counts through its call: FindingSources).
                QVERIFY2(!source, name.c_str());
            }
        }
        QCOMPARE(withSite, 2);
        // sync: the launches had no stacks, so a call without a site says nothing.
        QVERIFY(!run.stacksRecorded);
        QCOMPARE(run.status, RunStatus::Completed);
    }

    void stackModeAllMeansEveryCallWasLookedAt()
    {
        TestProfileStream s = stream();
        s.stackState(kStacksAll, 3, 2);
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaLaunchKernel", 100, 5);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.stacksRecorded, Symbolizer::available());
        if (Symbolizer::available()) {
            QVERIFY2(run.error.find("3 calls without a call stack") != std::string::npos, run.error.c_str());
            QVERIFY2(run.error.find("2 call stacks deeper than 32 frames") != std::string::npos, run.error.c_str());
        }
    }

    void damagedStackRecordsAreSkippedAndSaid()
    {
        TestProfileStream s = stream();
        s.stackState(kStacksSync);
        // A stack that claims more frames than it carries, one of none, a
        // module with no room for its path, a module of no size.
        const std::uint64_t one = 0x1234;
        s.rawWithTail(StackRecord{1, 1000}, &one, sizeof one);
        s.rawWithTail(StackRecord{2, 0}, &one, 0);
        ModuleRecord noPath;
        noPath.lowAddress = 1;
        noPath.highAddress = 2;
        noPath.textBytes = 4096;
        s.raw(noPath);
        s.module("/x/app", 5, 5);
        s.callStack(5, 1);
        s.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaDeviceSynchronize", 100, 5);
        s.end();
        const Run run = build(s);
        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY(run.sourceSites.empty());
        if (Symbolizer::available())
            QVERIFY2(run.error.find("4 damaged call stack records (skipped)") != std::string::npos, run.error.c_str());

        // Stacks with no state to say how they were taken are not read.
        TestProfileStream bare = stream();
        bare.stack(1, {one});
        bare.callStack(5, 1);
        bare.api(kCuptiAtZero + 10, kCuptiAtZero + 20, "cudaDeviceSynchronize", 100, 5);
        bare.end();
        const Run unread = build(bare);
        QVERIFY(unread.sourceSites.empty());
        QVERIFY2(unread.error.find("call stack records without the capture's state") != std::string::npos,
                 unread.error.c_str());
    }

    void siteRuleTellsLibrariesFromTheUsersCode_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("library");
        QTest::newRow("the program") << "/home/me/build/app" << false;
        QTest::newRow("its own library") << "/home/me/build/libmodel.so" << false;
        QTest::newRow("in /opt, the user's") << "/opt/myapp/bin/app" << false;
        QTest::newRow("libcudart in the toolkit") << "/usr/local/cuda-13.0/lib64/libcudart.so.13" << true;
        QTest::newRow("libcudart in conda") << "/opt/conda/lib/libcudart.so.12" << true;
        QTest::newRow("libcuda") << "/usr/lib/x86_64-linux-gnu/libcuda.so.1" << true;
        QTest::newRow("libcupti carried") << "/work/build/libcupti.so.13" << true;
        QTest::newRow("the injection library") << "/home/me/overlapscope/build/app/cli/liboverlapscope-inject.so" << true;
        QTest::newRow("libc") << "/lib/x86_64-linux-gnu/libc.so.6" << true;
        QTest::newRow("libstdc++ of conda") << "/opt/conda/lib/libstdc++.so.6" << true;
        QTest::newRow("the loader") << "/lib64/ld-linux-x86-64.so.2" << true;
        QTest::newRow("python") << "/opt/conda/bin/python3.11" << true;
        QTest::newRow("torch") << "/opt/conda/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so" << true;
        QTest::newRow("system program") << "/usr/bin/python3" << true;
    }

    void siteRuleTellsLibrariesFromTheUsersCode()
    {
        QFETCH(QString, path);
        QFETCH(bool, library);
        QCOMPARE(libraryObject(path.toStdString()), library);
    }

    void siteRuleSkipsHeadersAndTheStaticRuntime_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("function");
        QTest::addColumn<bool>("users");
        QTest::newRow("own line") << "/home/me/src/train.cu" << "train" << true;
        QTest::newRow("cudaMalloc<T> of cuda_runtime.h") << "/usr/local/cuda/include/cuda_runtime.h"
                                                           << "cudaMalloc<float>" << false;
        QTest::newRow("conda's toolkit header") << "/opt/conda/targets/x86_64-linux/include/cuda_runtime.h"
                                                << "cudaMalloc<float>" << false;
        QTest::newRow("std::vector") << "/usr/include/c++/12/bits/stl_vector.h" << "std::vector<int>::resize" << false;
        QTest::newRow("own function, no line") << "" << "Model::step" << true;
        QTest::newRow("static cudart, public") << "" << "cudaMemcpy" << false;
        QTest::newRow("static cudart, internal") << "" << "cudart::cudaApiMemcpy" << false;
        QTest::newRow("static cudart, hidden") << "" << "__cudart1234" << false;
        QTest::newRow("cudaMalloc<T>, no line") << "" << "cudaError cudaMalloc<float>" << false;
        QTest::newRow("a user's cudaish name") << "" << "cudacopy" << true;
    }

    void siteRuleSkipsHeadersAndTheStaticRuntime()
    {
        QFETCH(QString, file);
        QFETCH(QString, function);
        QFETCH(bool, users);
        NativeFrame f;
        f.file = file.toStdString();
        f.line = f.file.empty() ? 0 : 12;
        f.function = function.toStdString();
        QCOMPARE(usersFrame(f), users);
    }

    void functionNamesLoseTheirParameters_data()
    {
        QTest::addColumn<QString>("demangled");
        QTest::addColumn<QString>("name");
        QTest::newRow("plain") << "main" << "main";
        QTest::newRow("method") << "ovs::Model::step(int, float) const" << "ovs::Model::step";
        QTest::newRow("template") << "void run<std::function<void (int)> >(int)" << "void run<std::function<void (int)> >";
        QTest::newRow("call operator") << "Functor::operator()(int)" << "Functor::operator()";
        QTest::newRow("anonymous namespace") << "(anonymous namespace)::copyBack(float*)"
                                             << "(anonymous namespace)::copyBack";
    }

    void functionNamesLoseTheirParameters()
    {
        QFETCH(QString, demangled);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(withoutParameters(demangled.toStdString())), name);
    }

    void theStackSetFollowsTheCallRoles_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<bool>("sync");
        QTest::addColumn<bool>("all");
        QTest::newRow("device sync") << "cudaDeviceSynchronize" << true << true;
        QTest::newRow("event sync") << "cuEventSynchronize" << true << true;
        QTest::newRow("cudaMemcpy") << "cudaMemcpy" << true << true;
        QTest::newRow("cudaMemcpyAsync") << "cudaMemcpyAsync" << true << true;
        QTest::newRow("cudaMemsetAsync") << "cudaMemsetAsync" << true << true;
        QTest::newRow("cuMemcpyHtoDAsync") << "cuMemcpyHtoDAsync_v2" << true << true;
        QTest::newRow("cudaMemset") << "cudaMemset" << true << true;
        QTest::newRow("cudaMalloc") << "cudaMalloc" << true << true;
        QTest::newRow("cudaMallocAsync") << "cudaMallocAsync" << false << true;
        QTest::newRow("cudaFreeHost") << "cudaFreeHost" << true << true;
        QTest::newRow("cuMemHostRegister") << "cuMemHostRegister" << true << true;
        QTest::newRow("launch") << "cudaLaunchKernel" << false << true;
        QTest::newRow("stream wait") << "cudaStreamWaitEvent" << false << false;
        QTest::newRow("untraced") << "cudaGetDevice" << false << false;
    }

    void theStackSetFollowsTheCallRoles()
    {
        QFETCH(QString, call);
        QFETCH(bool, sync);
        QFETCH(bool, all);
        QCOMPARE(StackCapture::wants(kStacksSync, call.toStdString()), sync);
        QCOMPARE(StackCapture::wants(kStacksAll, call.toStdString()), all);
        QVERIFY(!StackCapture::wants(kStacksOff, call.toStdString()));
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
