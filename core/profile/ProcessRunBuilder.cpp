#include "profile/ProcessRunBuilder.h"

#include "cupti/OpKinds.h"
#include "trace/ApiNames.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>

namespace ovs::profile {
namespace {

// A program that opens ranges by the million (an NVTX range per small op)
// keeps the first this many as regions (about 60 bytes each) and says how
// many more there were.
constexpr std::size_t kMaxRegions = 1'000'000;
constexpr std::uint16_t kMaxDepth = std::numeric_limits<std::uint16_t>::max() - 1;
// Marks a region still open when the records ended (finishRegions closes it).
constexpr std::int64_t kOpenEnd = -1;
constexpr const char* kProfilerRangeName = "cudaProfilerStart/Stop";
constexpr std::size_t kMaxRunNameChars = 80;

// The words Kineto uses too ("Memcpy HtoD (Pageable -> Device)"), so that a
// profile and a PyTorch trace of the same program read alike.
const char* memoryWord(std::uint32_t cuptiKind)
{
    switch (cuptiKind) {
    case kMemoryPageable: return "Pageable";
    case kMemoryPinned: return "Pinned";
    case kMemoryDevice: return "Device";
    case kMemoryArray: return "Array";
    case kMemoryManaged: return "Managed";
    case kMemoryDeviceStatic: return "Static";
    case kMemoryManagedStatic: return "ManagedStatic";
    default: return "Unknown";
    }
}

const char* copyWord(std::uint8_t copyKind)
{
    switch (copyKind) {
    case kCopyHtoD: return "HtoD";
    case kCopyDtoH: return "DtoH";
    case kCopyHtoA: return "HtoA";
    case kCopyAtoH: return "AtoH";
    case kCopyAtoA: return "AtoA";
    case kCopyAtoD: return "AtoD";
    case kCopyDtoA: return "DtoA";
    case kCopyDtoD: return "DtoD";
    case kCopyHtoH: return "HtoH";
    case kCopyPtoP: return "PtoP";
    default: return "Unknown";
    }
}

OpKind apiOpKind(std::string_view name)
{
    switch (apiRole(name)) {
    case ApiRole::DeviceSync:
    case ApiRole::StreamSync:
    case ApiRole::EventSync: return OpKind::Sync;
    case ApiRole::Alloc: return OpKind::Alloc;
    case ApiRole::Free: return OpKind::Free;
    case ApiRole::Register: return OpKind::Register;
    default: return OpKind::ApiCall;
    }
}

std::string shortCommandLine(std::string_view commandLine)
{
    std::string text(commandLine);
    std::replace(text.begin(), text.end(), '\0', ' ');
    // The program by its file name: the folder it came from is noise here.
    const std::size_t programEnd = std::min(text.find(' '), text.size());
    const std::size_t slash = text.rfind('/', programEnd);
    if (slash != std::string::npos && slash < programEnd)
        text.erase(0, slash + 1);
    if (text.size() > kMaxRunNameChars)
        text = text.substr(0, kMaxRunNameChars - 3) + "...";
    return text;
}

} // namespace

ProcessRunBuilder::ProcessRunBuilder(std::int64_t zeroNs) : m_zeroNs(zeroNs)
{
    m_run.pipeline = "profile";
    m_run.timing = "cupti";
    m_run.verification.message = "not verified: a profiled program checks its own results";
}

void ProcessRunBuilder::add(const DecodedRecord& record)
{
    switch (record.type) {
    case RecordType::Begin:
        if (const auto r = record.payload<BeginRecord>())
            begin(*r, record.text(sizeof(BeginRecord), r->textBytes).value_or(""));
        return;
    case RecordType::Clock:
        if (const auto r = record.payload<ClockRecord>())
            m_clock.add(r->cuptiNs, r->monotonicNs);
        return;
    case RecordType::String:
        if (const auto r = record.payload<StringRecord>())
            if (const auto t = record.text(sizeof(StringRecord), r->textBytes))
                m_strings[r->id] = std::string(*t);
        return;
    case RecordType::Device:
        if (const auto r = record.payload<DeviceRecord>()) {
            m_devices[r->deviceId] = *r;
            fillDevice();
        }
        return;
    case RecordType::Context:
        if (const auto r = record.payload<ContextRecord>())
            m_contexts[r->contextId] = *r;
        return;
    case RecordType::Stream:
        if (const auto r = record.payload<StreamRecord>())
            m_streamFlags[{r->contextId, r->streamId}] = r->flag;
        return;
    case RecordType::Thread:
        if (const auto r = record.payload<ThreadRecord>()) {
            m_threadNames[r->threadId] = r->nameId;
            // A lane made before the name arrived gets it now.
            if (const auto lane = m_threadLanes.find(r->threadId); lane != m_threadLanes.end())
                m_run.lanes[static_cast<std::size_t>(lane->second)].name = threadLaneName(r->threadId);
        }
        return;
    case RecordType::Memcpy:
        if (const auto r = record.payload<MemcpyRecord>())
            addMemcpy(*r);
        return;
    case RecordType::Memset:
        if (const auto r = record.payload<MemsetRecord>())
            addMemset(*r);
        return;
    case RecordType::Kernel:
        if (const auto r = record.payload<KernelRecord>())
            addKernel(*r);
        return;
    case RecordType::Api:
        if (const auto r = record.payload<ApiRecord>())
            addApi(*r);
        return;
    case RecordType::Sync:
        if (const auto r = record.payload<SyncRecord>())
            addSync(*r);
        return;
    case RecordType::Loss:
        if (const auto r = record.payload<LossRecord>()) {
            m_loss.dropped = r->dropped;
            m_untimed = r->untimed;
        }
        return;
    case RecordType::UnreadBuffers:
        if (const auto r = record.payload<UnreadBuffersRecord>()) {
            m_loss.unreadBuffers = r->buffers;
            m_loss.firstReadError = record.text(sizeof(UnreadBuffersRecord), r->textBytes).value_or("");
        }
        return;
    case RecordType::Note:
        if (const auto r = record.payload<NoteRecord>())
            addNote(*r, record.text(sizeof(NoteRecord), r->textBytes).value_or(""));
        return;
    case RecordType::Range:
        if (const auto r = record.payload<RangeRecord>())
            addRange(*r, record.text(sizeof(RangeRecord), r->textBytes).value_or(""));
        return;
    case RecordType::Rank:
        // Named by its rank too, so that the runs of a job read apart, and
        // a diff pairs each rank with itself (by name without the pid).
        if (const auto r = record.payload<RankRecord>(); r && r->rank >= 0 && m_run.rank < 0) {
            m_run.rank = r->rank;
            m_run.name = "rank " + std::to_string(r->rank) + ": " + m_run.name;
        }
        return;
    case RecordType::UnifiedMemory:
        if (const auto r = record.payload<UnifiedMemoryRecord>())
            addUnifiedMemory(*r);
        return;
    case RecordType::StackState:
        if (const auto r = record.payload<StackStateRecord>())
            m_stackState = *r;
        return;
    case RecordType::Module:
        if (const auto r = record.payload<ModuleRecord>()) {
            if (const auto path = record.text(sizeof(ModuleRecord), r->textBytes))
                addModule(*r, *path);
            else
                ++m_badStackRecords;
        }
        return;
    case RecordType::Stack:
        if (const auto r = record.payload<StackRecord>())
            addStack(*r, record);
        return;
    case RecordType::CallStack:
        if (const auto r = record.payload<CallStackRecord>())
            m_callStacks.try_emplace(r->correlationId, r->stackId);
        return;
    case RecordType::End:
        if (const auto r = record.payload<EndRecord>()) {
            m_ended = true;
            m_loss.dropped = std::max(m_loss.dropped, r->dropped);
            m_untimed = std::max(m_untimed, r->untimed);
        }
        return;
    }
    // A record type of a newer writer: skipped (see ProfileRecord.h).
}

void ProcessRunBuilder::begin(const BeginRecord& begin, std::string_view commandLine)
{
    m_begun = true;
    m_pid = begin.pid;
    m_parentPid = begin.parentPid;
    m_run.name = shortCommandLine(commandLine) + " (pid " + std::to_string(begin.pid) + ")";
}

const std::string& ProcessRunBuilder::text(std::uint32_t stringId) const
{
    static const std::string kNone;
    const auto it = m_strings.find(stringId);
    return it == m_strings.end() ? kNone : it->second;
}

std::uint32_t ProcessRunBuilder::nameId(const std::string& name)
{
    if (name.empty())
        return 0;
    const auto [it, added] = m_nameIds.try_emplace(name, static_cast<std::uint32_t>(m_run.names.size()));
    if (added)
        m_run.names.push_back(name);
    return it->second;
}

int ProcessRunBuilder::addLane(std::string name, LaneKind kind, StreamKind streamKind)
{
    m_run.lanes.push_back({std::move(name), kind, 0, streamKind});
    m_laneIsStream.push_back(kind == LaneKind::Stream);
    return static_cast<int>(m_run.lanes.size() - 1);
}

StreamKind ProcessRunBuilder::streamKindOf(const StreamLane& s) const
{
    const auto context = m_contexts.find(s.contextId);
    const auto flag = m_streamFlags.find({s.contextId, s.streamId});
    if ((context != m_contexts.end() && context->second.nullStreamId == s.streamId)
        || (flag != m_streamFlags.end() && flag->second == kStreamFlagNull))
        return StreamKind::LegacyDefault;
    // CUPTI's flags have no word for the per-thread default stream
    // (docs/profiling.md): it reads as the flag CUPTI gives it.
    if (flag == m_streamFlags.end())
        return StreamKind::Unknown;
    switch (flag->second) {
    case kStreamFlagBlocking: return StreamKind::Blocking;
    case kStreamFlagNonBlocking: return StreamKind::NonBlocking;
    default: return StreamKind::Unknown;
    }
}

std::string ProcessRunBuilder::streamLaneName(const StreamLane& s, bool withDevice) const
{
    const std::string prefix = withDevice ? "GPU " + std::to_string(s.deviceId) + " " : "";
    if (streamKindOf(s) == StreamKind::LegacyDefault)
        return prefix + "default stream (legacy)";
    return prefix + "stream " + std::to_string(s.streamId);
}

std::string ProcessRunBuilder::unifiedMemoryLaneName(std::uint32_t deviceId)
{
    return "GPU " + std::to_string(deviceId) + " \u00b7 unified memory";
}

std::string ProcessRunBuilder::threadLaneName(std::uint32_t threadId) const
{
    std::string name = threadId == m_pid ? "main thread" : "thread " + std::to_string(threadId);
    if (const auto known = m_threadNames.find(threadId); known != m_threadNames.end() && !text(known->second).empty())
        name += " (" + text(known->second) + ")";
    return name;
}

int ProcessRunBuilder::streamLane(std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId)
{
    const auto key = std::make_pair(contextId, streamId);
    if (const auto known = m_streamLanes.find(key); known != m_streamLanes.end())
        return known->second.lane;
    if (m_run.lanes.size() >= kMaxLanes)
        return -1;
    StreamLane s{deviceId, contextId, streamId, 0};
    s.lane = addLane(streamLaneName(s, false), LaneKind::Stream, streamKindOf(s));
    m_streamLanes.emplace(key, s);
    return s.lane;
}

int ProcessRunBuilder::threadLane(std::uint32_t threadId)
{
    if (const auto known = m_threadLanes.find(threadId); known != m_threadLanes.end())
        return known->second;
    if (m_run.lanes.size() >= kMaxLanes)
        return -1;
    const int lane = addLane(threadLaneName(threadId), LaneKind::HostThread);
    m_threadLanes.emplace(threadId, lane);
    return lane;
}

void ProcessRunBuilder::addGpuOp(Op op, std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId,
                                 std::uint64_t startNs, std::uint64_t endNs)
{
    const int lane = streamLane(deviceId, contextId, streamId);
    if (lane < 0)
        return;
    if (m_firstDevice == UINT32_MAX) {
        m_firstDevice = deviceId;
        fillDevice();
    }
    // CUPTI's times are when the engine ran the op, so they are the
    // engine-true interval as well as the only one there is. Kept on CUPTI's
    // clock until the run is made (see runTime).
    op.startNs = op.execStartNs = static_cast<std::int64_t>(startNs);
    op.endNs = op.execEndNs = static_cast<std::int64_t>(endNs);
    op.lane = static_cast<std::uint16_t>(lane);
    m_run.ops.push_back(op);
    ++m_gpuOps;
}

int ProcessRunBuilder::unifiedMemoryLane(std::uint32_t deviceId)
{
    if (const auto known = m_unifiedMemoryLanes.find(deviceId); known != m_unifiedMemoryLanes.end())
        return known->second;
    if (m_run.lanes.size() >= kMaxLanes)
        return -1;
    // A stream lane, so that it sits with its device, but non-blocking: it
    // takes part in no legacy-stream barrier, and its ops are no GPU ops
    // (isGpuOp), so replay and the stream rules skip it (docs/profiling.md).
    const int lane = addLane(unifiedMemoryLaneName(deviceId), LaneKind::Stream, StreamKind::NonBlocking);
    m_unifiedMemoryLanes.emplace(deviceId, lane);
    return lane;
}

namespace {

// CUPTI's counter and cause as the run's typed fields (trace/UnifiedMemoryOp.h):
// the managed-migration finding counts the migrations that faults caused,
// directly or by the driver's prefetching around them
// (findings/DemandMigrations.h). CUPTI 13 on an H200 gives a program's own
// cudaMemPrefetchAsync the cause "user": Requested.
std::optional<UmCounter> umCounter(std::uint32_t counter)
{
    switch (counter) {
    case kUmBytesHtoD: return UmCounter::MigrationToGpu;
    case kUmBytesDtoH: return UmCounter::MigrationToHost;
    case kUmCpuPageFault: return UmCounter::CpuPageFault;
    case kUmGpuPageFault: return UmCounter::GpuPageFaults;
    case kUmThrashing: return UmCounter::Thrashing;
    case kUmThrottling: return UmCounter::Throttling;
    default: return std::nullopt; // a counter of a newer writer
    }
}

UmCause umCause(std::uint32_t cause)
{
    switch (cause) {
    case kUmCauseUser: return UmCause::Requested;
    case kUmCauseCoherence: return UmCause::Fault;
    case kUmCausePrefetch: return UmCause::DriverPrefetch;
    case kUmCauseEviction: return UmCause::Eviction;
    case kUmCauseAccessCounters: return UmCause::AccessCounters;
    default: return UmCause::Unknown;
    }
}

} // namespace

void ProcessRunBuilder::addUnifiedMemory(const UnifiedMemoryRecord& r)
{
    const std::optional<UmCounter> counter = umCounter(r.counter);
    if (!counter)
        return;
    UnifiedMemoryOp facts{*counter, UmCause::Unknown};
    if (facts.isMigration())
        facts.cause = umCause(r.cause);
    // CPU page faults name no GPU: they go on the lane of the GPU the
    // process used first, where the migrations they cause appear.
    std::uint32_t device = r.deviceId;
    if (device == kUmNoDevice)
        device = m_firstDevice != UINT32_MAX ? m_firstDevice : m_devices.empty() ? 0u : m_devices.begin()->first;
    const int lane = unifiedMemoryLane(device);
    if (lane < 0)
        return;
    Op op;
    op.kind = OpKind::UnifiedMemory;
    op.memory = HostMemoryKind::Managed;
    op.nameId = nameId(unifiedMemoryName(facts));
    // Bytes for migrations and thrashing, the fault count for faults (Op.h).
    op.bytes = r.value;
    // On CUPTI's clock until the run is made (runTime); no engine times:
    // the driver's work, not an engine's op.
    op.startNs = static_cast<std::int64_t>(r.startNs);
    op.endNs = static_cast<std::int64_t>(std::max(r.startNs, r.endNs));
    op.lane = static_cast<std::uint16_t>(lane);
    m_run.ops.push_back(op);
    m_run.setUnifiedMemory(m_run.ops.size() - 1, facts);
    ++m_unifiedMemoryOps;
}

void ProcessRunBuilder::addMemcpy(const MemcpyRecord& r)
{
    Op op;
    op.bytes = r.bytes;
    op.correlation = r.correlationId;
    const cupti::CopyOp kinds = cupti::copyOp(r.copyKind, r.srcKind, r.dstKind, (r.flags & kMemcpyFlagPeer) != 0);
    op.kind = kinds.kind;
    op.memory = kinds.memory;
    // A peer copy, between two GPUs, sits on the issuing GPU's lane.
    op.nameId = nameId(op.kind == OpKind::PeerCopy
                           ? "Memcpy PtoP (GPU " + std::to_string(r.srcDeviceId) + " -> GPU "
                                 + std::to_string(r.dstDeviceId) + ")"
                           : std::string("Memcpy ") + copyWord(r.copyKind) + " (" + memoryWord(r.srcKind) + " -> "
                                 + memoryWord(r.dstKind) + ")");
    addGpuOp(op, r.deviceId, r.contextId, r.streamId, r.startNs, r.endNs);
}

void ProcessRunBuilder::addMemset(const MemsetRecord& r)
{
    Op op;
    op.kind = OpKind::Memset;
    op.bytes = r.bytes;
    op.correlation = r.correlationId;
    op.memory = cupti::memoryKind(r.memoryKind);
    op.nameId = nameId(std::string("Memset (") + memoryWord(r.memoryKind) + ")");
    addGpuOp(op, r.deviceId, r.contextId, r.streamId, r.startNs, r.endNs);
}

void ProcessRunBuilder::addKernel(const KernelRecord& r)
{
    Op op;
    op.kind = OpKind::Kernel;
    op.correlation = r.correlationId;
    const std::string& kernel = text(r.nameId);
    const auto dims = [](const std::int32_t (&d)[3]) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    op.nameId = nameId((kernel.empty() ? std::string("kernel") : kernel) + " [grid " + dims(r.grid) + ", block "
                       + dims(r.block) + "]");
    const std::size_t index = m_run.ops.size();
    addGpuOp(op, r.deviceId, r.contextId, r.streamId, r.startNs, r.endNs);
    if (m_run.ops.size() == index)
        return;
    KernelShape shape;
    for (int d = 0; d < 3; ++d) {
        shape.grid[d] = static_cast<std::uint32_t>(std::max(0, r.grid[d]));
        shape.block[d] = static_cast<std::uint32_t>(std::max(0, r.block[d]));
    }
    shape.sharedMemoryBytes = r.sharedMemoryBytes;
    shape.registersPerThread = r.registersPerThread;
    m_run.setShape(index, m_shapes.add(shape));
}

void ProcessRunBuilder::addApi(const ApiRecord& r)
{
    const int lane = threadLane(r.threadId);
    if (lane < 0)
        return;
    const std::string& name = text(r.nameId);
    Op op;
    op.kind = apiOpKind(name);
    op.startNs = static_cast<std::int64_t>(r.startNs);
    op.endNs = static_cast<std::int64_t>(r.endNs);
    op.lane = static_cast<std::uint16_t>(lane);
    op.correlation = r.correlationId;
    op.nameId = nameId(name);
    const std::size_t index = m_run.ops.size();
    if (r.domain == kApiRuntime) {
        m_runtimeCalls[r.correlationId] = index;
        if (const auto pending = m_pendingSyncs.find(r.correlationId); pending != m_pendingSyncs.end()) {
            nameSync(op, pending->second);
            m_pendingSyncs.erase(pending);
        }
    } else {
        m_driverCalls.push_back(index);
    }
    m_run.ops.push_back(op);
    ++m_apiCalls;
}

void ProcessRunBuilder::addSync(const SyncRecord& r)
{
    // The call that waited is an op already (or soon): the record says what
    // it waited for, which goes into that op's name.
    if (const auto call = m_runtimeCalls.find(r.correlationId); call != m_runtimeCalls.end())
        nameSync(m_run.ops[call->second], r);
    else if (m_pendingSyncs.size() < 4096)
        m_pendingSyncs.emplace(r.correlationId, r);
}

void ProcessRunBuilder::nameSync(Op& op, const SyncRecord& r)
{
    const std::string call = m_run.names[op.nameId];
    const std::string stream = "stream " + std::to_string(r.streamId);
    const std::string event = "event " + std::to_string(r.eventId);
    switch (r.type) {
    case kSyncStream: op.nameId = nameId(call + " (" + stream + ")"); break;
    case kSyncEvent: op.nameId = nameId(call + " (" + event + ")"); break;
    case kSyncStreamWaitEvent: op.nameId = nameId(call + " (" + stream + " waits for " + event + ")"); break;
    default: break;
    }
}

void ProcessRunBuilder::addNote(const NoteRecord& r, std::string_view text)
{
    if (r.severity == kNoteNotRecorded)
        m_notRecorded = std::string(text);
    else if (r.severity == kNoteWarning)
        m_warnings.emplace_back(text);
}

void ProcessRunBuilder::addModule(const ModuleRecord& r, std::string_view path)
{
    NativeModule m;
    m.path = std::string(path);
    m.loadBias = r.loadBias;
    m.lowAddress = r.lowAddress;
    m.highAddress = r.highAddress;
    m.buildId.assign(reinterpret_cast<const char*>(r.buildId), std::min<std::size_t>(r.buildIdBytes, sizeof r.buildId));
    if (m.path.empty() || m.lowAddress >= m.highAddress)
        ++m_badStackRecords;
    else
        m_stackSites.addModule(std::move(m));
}

void ProcessRunBuilder::addStack(const StackRecord& r, const DecodedRecord& record)
{
    // The frames follow the payload; a count the record cannot hold is a
    // damaged record, not a reason to read past it.
    constexpr std::size_t kFrame = sizeof(std::uint64_t);
    const std::size_t room = record.bodyBytes - sizeof(StackRecord);
    if (r.stackId == 0 || r.frameCount == 0 || r.frameCount > room / kFrame) {
        ++m_badStackRecords;
        return;
    }
    std::vector<std::uint64_t> frames(r.frameCount);
    std::memcpy(frames.data(), record.body + sizeof(StackRecord), r.frameCount * kFrame);
    m_stackSites.addStack(r.stackId, std::move(frames));
}

void ProcessRunBuilder::attachSites()
{
    if (!m_stackState && m_stackSites.empty() && m_callStacks.empty())
        return;
    if (!m_stackState || m_stackState->mode == kStacksOff) {
        // Stacks without the state that says how they were taken: a damaged
        // or foreign stream. Nothing is attributed from half a story.
        m_warnings.push_back("call stack records without the capture's state: not read");
        return;
    }
    const StackStateRecord& state = *m_stackState;
    if (!Symbolizer::available()) {
        m_warnings.push_back("call stacks were recorded but this build cannot read them (built without libdw)");
        return;
    }
    // Every call the capture looked at got a stack (--stacks all): a call
    // without a site had none of the user's code on it. With sync, the
    // launches got none, so nothing is said of calls without a site.
    m_run.stacksRecorded = state.mode == kStacksAll;
    std::map<SourceSite, std::uint32_t> siteIds;
    std::unordered_map<std::uint32_t, std::uint32_t> siteOfStack;
    for (std::size_t i = 0; i < m_run.ops.size(); ++i) {
        const Op& op = m_run.ops[i];
        if (isStreamLaneOp(op.kind))
            continue;
        const auto stack = m_callStacks.find(op.correlation);
        if (stack == m_callStacks.end())
            continue;
        auto [known, added] = siteOfStack.try_emplace(stack->second, 0);
        if (added) {
            if (const std::optional<SourceSite> site = m_stackSites.siteOf(stack->second)) {
                const auto [id, fresh] = siteIds.try_emplace(*site, static_cast<std::uint32_t>(m_run.sourceSites.size() + 1));
                if (fresh)
                    m_run.sourceSites.push_back(*site);
                known->second = id->second;
            }
        }
        if (known->second != 0)
            m_run.setSource(i, OpSource{known->second, 0, 0});
    }
    for (const std::string& problem : m_stackSites.problems())
        m_warnings.push_back("call stacks: " + problem);
    if (state.callsWithoutStack > 0)
        m_warnings.push_back(std::to_string(state.callsWithoutStack) + " call" + (state.callsWithoutStack == 1 ? "" : "s")
                             + " without a call stack (more than " + std::to_string(state.maxStacks)
                             + " distinct stacks, the stack could not be unwound, or the writer fell behind)");
    if (state.truncatedStacks > 0)
        m_warnings.push_back(std::to_string(state.truncatedStacks) + " call stack"
                             + (state.truncatedStacks == 1 ? "" : "s") + " deeper than "
                             + std::to_string(state.maxFrames) + " frames (their innermost "
                             + std::to_string(state.maxFrames) + " kept)");
    if (m_badStackRecords > 0)
        m_warnings.push_back(std::to_string(m_badStackRecords) + " damaged call stack record"
                             + (m_badStackRecords == 1 ? "" : "s") + " (skipped)");
}

void ProcessRunBuilder::addRange(const RangeRecord& r, std::string_view text)
{
    // On CLOCK_MONOTONIC already (RangeRecord): only the profile's zero to take off.
    const std::int64_t t = std::max<std::int64_t>(0, r.monotonicNs - m_zeroNs);
    m_lastRangeNs = std::max(m_lastRangeNs, t);
    const auto addRegion = [&](const OpenRange& open, std::int64_t endNs, std::size_t depth) {
        if (m_run.regions.size() >= kMaxRegions) {
            ++m_droppedRanges;
            return false;
        }
        m_run.regions.push_back({open.name, open.beginNs, endNs, static_cast<std::uint16_t>(open.lane),
                                 static_cast<std::uint16_t>(std::min<std::size_t>(depth, kMaxDepth)),
                                 RegionSource::Nvtx});
        return true;
    };
    switch (r.action) {
    case kRangePush:
    case kRangeStart: {
        const int lane = threadLane(r.threadId);
        if (lane < 0)
            return;
        OpenRange open{t, std::string(text), lane};
        if (r.action == kRangePush)
            m_pushed[{r.threadId, r.domainId}].push_back(std::move(open));
        else
            m_started[r.rangeId] = std::move(open);
        return;
    }
    case kRangePop: {
        // A pop with nothing pushed on its thread (in its domain) is the
        // program's bug, or a push made before the library was loaded.
        const auto stack = m_pushed.find({r.threadId, r.domainId});
        if (stack == m_pushed.end() || stack->second.empty()) {
            ++m_unmatchedPops;
            return;
        }
        const OpenRange open = std::move(stack->second.back());
        stack->second.pop_back();
        addRegion(open, std::max(open.beginNs, t), stack->second.size());
        return;
    }
    case kRangeEnd: {
        const auto started = m_started.find(r.rangeId);
        if (started == m_started.end()) {
            ++m_unmatchedEnds;
            return;
        }
        if (addRegion(started->second, std::max(started->second.beginNs, t), 0))
            m_startEndRegions.push_back(m_run.regions.size() - 1);
        m_started.erase(started);
        return;
    }
    default: return; // an action of a newer writer
    }
}

void ProcessRunBuilder::closeOpenRanges()
{
    // Outermost first, each at its depth; the end is set once the run's
    // time base is known (finishRegions).
    for (auto& [key, stack] : m_pushed) {
        for (std::size_t depth = 0; depth < stack.size() && m_run.regions.size() < kMaxRegions; ++depth)
            m_run.regions.push_back({stack[depth].name, stack[depth].beginNs, kOpenEnd,
                                     static_cast<std::uint16_t>(stack[depth].lane),
                                     static_cast<std::uint16_t>(std::min<std::size_t>(depth, kMaxDepth)),
                                     RegionSource::Nvtx});
        stack.clear();
    }
    for (auto& [id, open] : m_started) {
        if (m_run.regions.size() >= kMaxRegions)
            break;
        m_run.regions.push_back(
            {open.name, open.beginNs, kOpenEnd, static_cast<std::uint16_t>(open.lane), 0, RegionSource::Nvtx});
        m_startEndRegions.push_back(m_run.regions.size() - 1);
    }
    m_started.clear();
}

void ProcessRunBuilder::placeStartEndRanges()
{
    // A start/end range need not nest with anything: it goes on its thread's
    // lane at the lowest depth where it overlaps no other region of the lane,
    // so regions of one lane and depth never overlap (docs/trace-format.md).
    std::vector<bool> isStartEnd(m_run.regions.size(), false);
    for (std::size_t i : m_startEndRegions)
        isStartEnd[i] = true;
    std::map<std::pair<std::uint16_t, std::uint16_t>, std::map<std::int64_t, std::int64_t>> taken;
    const auto overlaps = [](const std::map<std::int64_t, std::int64_t>& row, std::int64_t begin, std::int64_t end) {
        auto next = row.upper_bound(begin);
        if (next != row.end() && next->first < end)
            return true;
        if (next == row.begin())
            return false;
        const auto before = std::prev(next);
        return before->second > begin || (before->first == begin && end > begin);
    };
    const auto take = [&taken](const Region& r) {
        const auto [at, added] = taken[{r.lane, r.depth}].emplace(r.beginNs, r.endNs);
        if (!added)
            at->second = std::max(at->second, r.endNs);
    };
    for (std::size_t i = 0; i < m_run.regions.size(); ++i)
        if (!isStartEnd[i] && m_run.regions[i].lane != Region::kNoLane)
            take(m_run.regions[i]);
    std::vector<std::size_t> order = m_startEndRegions;
    std::sort(order.begin(), order.end(),
              [this](std::size_t a, std::size_t b) { return m_run.regions[a].beginNs < m_run.regions[b].beginNs; });
    for (std::size_t i : order) {
        Region& r = m_run.regions[i];
        std::uint16_t depth = 0;
        while (depth < kMaxDepth && overlaps(taken[{r.lane, depth}], r.beginNs, r.endNs))
            ++depth;
        r.depth = depth;
        take(r);
    }
}

void ProcessRunBuilder::addProfilerRanges(std::int64_t endNs)
{
    // cudaProfilerStart/Stop (or the driver's) are process-wide: the range
    // names no thread. It runs from the end of the start call to the start
    // of the stop call; a second start while one is open and a stop with
    // none open change nothing, as for the profilers that honour them.
    struct Call {
        std::int64_t startNs;
        std::int64_t endNs;
        bool start;
    };
    std::vector<Call> calls;
    for (const Op& op : m_run.ops) {
        const ApiRole role = op.kind == OpKind::ApiCall ? apiRole(m_run.nameOf(op)) : ApiRole::Untraced;
        if (role == ApiRole::ProfilerStart || role == ApiRole::ProfilerStop)
            calls.push_back({op.startNs, op.endNs, role == ApiRole::ProfilerStart});
    }
    std::sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) { return a.startNs < b.startNs; });
    std::int64_t openedAt = kOpenEnd;
    for (const Call& call : calls) {
        if (call.start && openedAt == kOpenEnd) {
            openedAt = call.endNs;
        } else if (!call.start && openedAt != kOpenEnd) {
            m_run.regions.push_back({kProfilerRangeName, openedAt, std::max(openedAt, call.startNs), Region::kNoLane,
                                     0, RegionSource::ProfilerRange});
            openedAt = kOpenEnd;
        }
    }
    if (openedAt != kOpenEnd)
        m_run.regions.push_back({kProfilerRangeName, openedAt, std::max(openedAt, endNs), Region::kNoLane, 0,
                                 RegionSource::ProfilerRange});
}

void ProcessRunBuilder::finishRegions(std::int64_t endNs)
{
    for (Region& r : m_run.regions)
        if (r.endNs == kOpenEnd)
            r.endNs = std::max(r.beginNs, endNs);
    placeStartEndRanges();
    addProfilerRanges(endNs);
    m_run.sortRegions();
    if (m_unmatchedPops > 0)
        m_warnings.push_back(std::to_string(m_unmatchedPops) + " NVTX pop" + (m_unmatchedPops == 1 ? "" : "s")
                             + " without a push on its thread (ignored)");
    if (m_unmatchedEnds > 0)
        m_warnings.push_back(std::to_string(m_unmatchedEnds) + " NVTX range end" + (m_unmatchedEnds == 1 ? "" : "s")
                             + " without a start (ignored)");
    if (m_droppedRanges > 0)
        m_warnings.push_back("NVTX ranges beyond the first " + std::to_string(kMaxRegions) + " not kept ("
                             + std::to_string(m_droppedRanges) + " more)");
}

DeviceInfo ProcessRunBuilder::deviceInfoOf(std::uint32_t id) const
{
    DeviceInfo info;
    const auto known = m_devices.find(id);
    if (known == m_devices.end()) {
        info.name = "CUDA device " + std::to_string(id);
    } else {
        const DeviceRecord& d = known->second;
        info.name = text(d.nameId).empty() ? "CUDA device " + std::to_string(id) : text(d.nameId);
        info.detail = "GPU " + std::to_string(id) + ", compute capability " + std::to_string(d.computeMajor) + "."
                      + std::to_string(d.computeMinor) + ", " + std::to_string(d.multiprocessors) + " SMs, "
                      + std::to_string(d.copyEngines) + " copy engines (CUPTI)";
        info.asyncEngineCount = static_cast<int>(d.copyEngines);
        info.totalMemoryBytes = d.memoryBytes;
        info.smCount = static_cast<int>(std::min<std::uint32_t>(d.multiprocessors, 1u << 20));
        if (d.computeMajor > 0 && d.computeMajor < 100 && d.computeMinor < 10)
            info.computeCapability = static_cast<int>(d.computeMajor * 10 + d.computeMinor);
    }
    return info;
}

void ProcessRunBuilder::fillDevice()
{
    // The run's device is the first one the process used; any others are
    // named in the detail (their lanes say "GPU N").
    std::uint32_t id = m_firstDevice;
    if (id == UINT32_MAX) {
        if (m_devices.empty())
            return;
        id = m_devices.begin()->first;
    }
    DeviceInfo info = deviceInfoOf(id);
    for (const auto& [otherId, other] : m_devices)
        if (otherId != id)
            info.detail += "; also GPU " + std::to_string(otherId) + " " + text(other.nameId);
    m_run.device = info;
}

std::int64_t ProcessRunBuilder::runTime(std::int64_t cuptiNs) const
{
    // Ops recorded before the profile's zero cannot happen (the program
    // starts after it); clamping covers a clock read a hair apart.
    return std::max<std::int64_t>(0, m_clock.toMonotonic(static_cast<std::uint64_t>(cuptiNs)) - m_zeroNs);
}

std::vector<std::pair<int, Lane>> ProcessRunBuilder::takeNewLanes()
{
    std::vector<std::pair<int, Lane>> lanes;
    for (; m_lanesTaken < m_run.lanes.size(); ++m_lanesTaken)
        lanes.emplace_back(static_cast<int>(m_lanesTaken), m_run.lanes[m_lanesTaken]);
    return lanes;
}

std::vector<Op> ProcessRunBuilder::takeNewOps()
{
    std::vector<Op> ops(m_run.ops.begin() + static_cast<std::ptrdiff_t>(m_opsTaken), m_run.ops.end());
    m_opsTaken = m_run.ops.size();
    for (Op& op : ops) {
        op.startNs = runTime(op.startNs);
        op.endNs = runTime(op.endNs);
        if (op.execStartNs >= 0) {
            op.execStartNs = op.startNs;
            op.execEndNs = op.endNs;
        }
    }
    return ops;
}

void ProcessRunBuilder::dropNestedDriverCalls()
{
    // A runtime call that calls the driver's public API may show up twice,
    // once per API, with one correlation id: the runtime call is the one the
    // program made, so the driver call inside it goes.
    std::vector<bool> drop(m_run.ops.size(), false);
    bool any = false;
    for (const std::size_t index : m_driverCalls) {
        const Op& driver = m_run.ops[index];
        const auto runtime = m_runtimeCalls.find(driver.correlation);
        if (runtime == m_runtimeCalls.end())
            continue;
        const Op& outer = m_run.ops[runtime->second];
        if (outer.lane == driver.lane && outer.startNs <= driver.startNs && driver.endNs <= outer.endNs) {
            drop[index] = true;
            any = true;
        }
    }
    if (!any)
        return;
    removeOps(drop);
}

void ProcessRunBuilder::removeOps(const std::vector<bool>& drop)
{
    m_run.removeOps(drop);
    // The calls left, by the run's own lanes (orderLanes renumbers them
    // after m_laneIsStream was filled).
    m_apiCalls = 0;
    for (const Op& op : m_run.ops)
        if (m_run.lanes[op.lane].kind == LaneKind::HostThread)
            ++m_apiCalls;
}

void ProcessRunBuilder::dropOverlappingOps()
{
    // A stream runs one op at a time, and a thread makes one call at a time
    // (the driver calls inside runtime calls are gone by now), so on one
    // lane an op that begins before the one before it ended has damaged
    // times: a recording CUPTI wrote never has one, a report edited or
    // damaged on disk may. It goes, and the run says how many went; keeping
    // it would make a trace no reader accepts (docs/trace-format.md).
    // Unified-memory ops overlap on their lane by nature and stay.
    const std::vector<std::uint32_t> order = opsInLaneOrder(m_run);
    std::vector<bool> drop(m_run.ops.size(), false);
    std::size_t dropped = 0;
    std::size_t kept = SIZE_MAX; // the lane's last op kept
    for (const std::uint32_t i : order) {
        const Op& op = m_run.ops[i];
        if (kept != SIZE_MAX && m_run.ops[kept].lane == op.lane && op.startNs < m_run.ops[kept].endNs) {
            drop[i] = true;
            ++dropped;
            continue;
        }
        kept = i;
    }
    if (dropped == 0)
        return;
    removeOps(drop);
    m_warnings.push_back(std::to_string(dropped) + (dropped == 1 ? " op was" : " ops were")
                         + " left out: each began before the op before it on its stream or thread had ended "
                           "(damaged times)");
}

void ProcessRunBuilder::orderLanes(bool multiDevice)
{
    // Devices, then their streams (the legacy default stream first), then
    // host threads (the main thread first).
    struct Key {
        int group = 0; // 0 stream, 1 host thread
        std::uint32_t device = 0;
        int notLegacy = 0;
        std::uint32_t id = 0; // stream id or thread id (0 for the main thread)
        int lane = 0;
    };
    std::vector<Key> keys(m_run.lanes.size());
    std::vector<std::string> names(m_run.lanes.size());
    // What the records said by the end: a stream's record may come after
    // its first op made the lane.
    std::vector<StreamKind> streamKinds(m_run.lanes.size(), StreamKind::Unknown);
    for (const auto& [key, s] : m_streamLanes) {
        names[static_cast<std::size_t>(s.lane)] = streamLaneName(s, multiDevice);
        streamKinds[static_cast<std::size_t>(s.lane)] = streamKindOf(s);
        const bool legacy = streamKinds[static_cast<std::size_t>(s.lane)] == StreamKind::LegacyDefault;
        keys[static_cast<std::size_t>(s.lane)] = {0, s.deviceId, legacy ? 0 : 1, s.streamId, s.lane};
    }
    // A device's unified-memory lane after its streams.
    for (const auto& [device, lane] : m_unifiedMemoryLanes) {
        names[static_cast<std::size_t>(lane)] = unifiedMemoryLaneName(device);
        streamKinds[static_cast<std::size_t>(lane)] = StreamKind::NonBlocking;
        keys[static_cast<std::size_t>(lane)] = {0, device, 2, 0, lane};
    }
    for (const auto& [thread, lane] : m_threadLanes) {
        names[static_cast<std::size_t>(lane)] = threadLaneName(thread);
        keys[static_cast<std::size_t>(lane)] = {1, 0, 0, thread == m_pid ? 0 : thread, lane};
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return std::tie(a.group, a.device, a.notLegacy, a.id) < std::tie(b.group, b.device, b.notLegacy, b.id);
    });
    std::vector<std::uint16_t> newIndex(keys.size());
    std::vector<Lane> lanes;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto old = static_cast<std::size_t>(keys[i].lane);
        newIndex[old] = static_cast<std::uint16_t>(i);
        lanes.push_back({names[old], m_run.lanes[old].kind, 0, streamKinds[old]});
    }
    m_run.lanes = std::move(lanes);
    for (Op& op : m_run.ops)
        op.lane = newIndex[op.lane];
    for (Region& region : m_run.regions)
        if (region.lane != Region::kNoLane)
            region.lane = newIndex[region.lane];
    m_orderedLane = newIndex;
    if (!multiDevice)
        return;
    // A program on several GPUs: device 0 of the run is the first one it
    // used, the others follow by CUDA device id; each stream lane says which.
    std::vector<std::uint32_t> ids;
    if (m_firstDevice != UINT32_MAX)
        ids.push_back(m_firstDevice);
    std::vector<std::uint32_t> others;
    for (const auto& [key, s] : m_streamLanes)
        others.push_back(s.deviceId);
    for (const auto& [device, lane] : m_unifiedMemoryLanes)
        others.push_back(device);
    for (const auto& [id, record] : m_devices)
        others.push_back(id);
    std::sort(others.begin(), others.end());
    for (std::uint32_t id : others)
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    m_run.moreDevices.clear();
    for (std::size_t i = 1; i < ids.size() && i < 65535; ++i)
        m_run.moreDevices.push_back(deviceInfoOf(ids[i]));
    for (const auto& [key, s] : m_streamLanes) {
        const auto at = std::find(ids.begin(), ids.end(), s.deviceId);
        m_run.lanes[newIndex[static_cast<std::size_t>(s.lane)]].device = static_cast<std::uint16_t>(at - ids.begin());
    }
    for (const auto& [device, lane] : m_unifiedMemoryLanes) {
        const auto at = std::find(ids.begin(), ids.end(), device);
        m_run.lanes[newIndex[static_cast<std::size_t>(lane)]].device = static_cast<std::uint16_t>(at - ids.begin());
    }
}

int ProcessRunBuilder::threadLaneOf(std::uint32_t threadId) const
{
    const auto known = m_threadLanes.find(threadId);
    if (known == m_threadLanes.end())
        return -1;
    const auto lane = static_cast<std::size_t>(known->second);
    return lane < m_orderedLane.size() ? m_orderedLane[lane] : known->second;
}

std::string ProcessRunBuilder::endingText(const ProcessEnding& ending, const std::string& streamProblem) const
{
    std::vector<std::string> parts;
    if (!m_notRecorded.empty())
        parts.push_back(m_notRecorded);
    else if (!m_ended)
        parts.push_back(ending.cancelled
                            ? "stopped by the user before its exit handlers ran: the trace holds what was flushed"
                            : "incomplete: the process ended without running its exit handlers (it crashed, was "
                              "killed or called _exit): the trace holds what was flushed before");
    if (!streamProblem.empty())
        parts.push_back(streamProblem);
    if (!ending.exitStatus.empty() && !ending.exitedCleanly)
        parts.push_back(ending.exitStatus);
    parts.insert(parts.end(), m_warnings.begin(), m_warnings.end());
    for (std::string& loss : cupti::lossWords(m_loss))
        parts.push_back(std::move(loss));
    if (m_untimed > 0)
        parts.push_back(std::to_string(m_untimed)
                        + " records came back without times (work still running when the process ended)");
    if (m_notRecorded.empty() && m_gpuOps == 0)
        parts.push_back("no GPU work recorded");
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : "; ") + part;
    return text;
}

Run ProcessRunBuilder::finish(const ProcessEnding& ending, const std::string& streamProblem)
{
    for (auto& [correlation, sync] : m_pendingSyncs)
        if (const auto call = m_runtimeCalls.find(correlation); call != m_runtimeCalls.end())
            nameSync(m_run.ops[call->second], sync);
    m_pendingSyncs.clear();
    dropNestedDriverCalls();
    closeOpenRanges();
    orderLanes(m_devices.size() > 1 || [&] {
        std::uint32_t first = UINT32_MAX;
        for (const auto& [key, s] : m_streamLanes) {
            if (first != UINT32_MAX && s.deviceId != first)
                return true;
            first = s.deviceId;
        }
        for (const auto& [device, lane] : m_unifiedMemoryLanes) {
            if (first != UINT32_MAX && device != first)
                return true;
            first = device;
        }
        return false;
    }());

    for (Op& op : m_run.ops) {
        op.startNs = runTime(op.startNs);
        op.endNs = std::max(op.startNs, runTime(op.endNs));
        if (op.execStartNs >= 0) {
            op.execStartNs = op.startNs;
            op.execEndNs = op.endNs;
        }
    }
    dropOverlappingOps();
    std::int64_t begin = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = 0;
    for (const Op& op : m_run.ops) {
        begin = std::min(begin, op.startNs);
        end = std::max(end, op.endNs);
    }
    // The timed region is the span of what was recorded: CUDA's first call
    // to its last op, not the program's start-up (imports, data loading).
    m_run.timedBeginNs = m_run.ops.empty() ? 0 : begin;
    m_run.timedEndNs = m_run.ops.empty() ? 0 : end;
    m_run.kernelShapes = m_shapes.shapes();
    m_run.sortOps();
    attachSites();
    // A range open at exit ends where the recording did.
    finishRegions(std::max(m_run.timedEndNs, m_lastRangeNs));

    const bool incomplete = !m_ended || !streamProblem.empty();
    if (!m_notRecorded.empty())
        m_run.status = RunStatus::Failed;
    else if (incomplete)
        m_run.status = ending.cancelled ? RunStatus::Cancelled : RunStatus::Failed;
    else
        m_run.status = RunStatus::Completed;
    m_run.error = endingText(ending, streamProblem);
    if (m_run.name.empty())
        m_run.name = "process (no begin record)";
    m_opsTaken = m_run.ops.size();
    return m_run;
}

} // namespace ovs::profile
