#include "CuptiRecordEncoder.h"

#include "SmallFile.h"
#include "cupti/GpuActivityDecoder.h"
#include "trace/ApiNames.h"

#include <cxxabi.h>

#include <cstdlib>

namespace ovs::inject {

using namespace ovs::profile;

namespace {

MemcpyRecord memcpyRecord(const cupti::GpuActivity& a)
{
    MemcpyRecord r;
    r.startNs = a.startNs;
    r.endNs = a.endNs;
    r.bytes = a.bytes;
    r.deviceId = a.deviceId;
    r.contextId = a.contextId;
    r.streamId = a.streamId;
    r.correlationId = a.correlationId;
    r.srcDeviceId = a.srcDeviceId;
    r.dstDeviceId = a.dstDeviceId;
    r.graphId = a.graphId;
    r.copyKind = a.copyKind;
    r.srcKind = a.srcKind;
    r.dstKind = a.dstKind;
    r.flags = static_cast<std::uint8_t>((a.peer ? kMemcpyFlagPeer : 0)
                                        | (a.async ? kMemcpyFlagAsync : 0));
    return r;
}

MemsetRecord memsetRecord(const cupti::GpuActivity& a)
{
    MemsetRecord r;
    r.startNs = a.startNs;
    r.endNs = a.endNs;
    r.bytes = a.bytes;
    r.deviceId = a.deviceId;
    r.contextId = a.contextId;
    r.streamId = a.streamId;
    r.correlationId = a.correlationId;
    r.graphId = a.graphId;
    r.memoryKind = a.memsetMemoryKind;
    r.flags = a.memsetFlags;
    return r;
}

KernelRecord kernelRecord(const cupti::GpuActivity& a, std::uint32_t nameId)
{
    KernelRecord r;
    r.startNs = a.startNs;
    r.endNs = a.endNs;
    r.deviceId = a.deviceId;
    r.contextId = a.contextId;
    r.streamId = a.streamId;
    r.correlationId = a.correlationId;
    r.nameId = nameId;
    for (int i = 0; i < 3; ++i) {
        r.grid[i] = a.grid[i];
        r.block[i] = a.block[i];
    }
    r.sharedMemoryBytes = a.sharedMemoryBytes;
    r.graphId = a.graphId;
    r.registersPerThread = a.registersPerThread;
    return r;
}

ContextRecord contextRecord(const CUpti_ActivityContext3& c)
{
    ContextRecord r;
    r.contextId = c.contextId;
    r.deviceId = c.deviceId;
    r.nullStreamId = c.nullStreamId;
    return r;
}

StreamRecord streamRecord(const CUpti_ActivityStream& s)
{
    StreamRecord r;
    r.contextId = s.contextId;
    r.streamId = s.streamId;
    r.flag = static_cast<std::uint32_t>(s.flag);
    r.priority = static_cast<std::int32_t>(s.priority);
    return r;
}

} // namespace

void CuptiRecordEncoder::encode(const CUpti_Activity& record, ProfileStreamEncoder& out)
{
    if (const auto work = cupti::decodeGpuActivity(record)) {
        encodeGpuWork(*work, out);
        return;
    }
    // The layouts are those of the headers we built with; libcupti of the
    // same major version writes them.
    switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        encodeApi(reinterpret_cast<const CUpti_ActivityAPI&>(record), kApiRuntime, out);
        return;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        encodeApi(reinterpret_cast<const CUpti_ActivityAPI&>(record), kApiDriver, out);
        return;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        encodeSync(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record), out);
        return;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        encodeDevice(reinterpret_cast<const CUpti_ActivityDevice5&>(record), out);
        return;
    case CUPTI_ACTIVITY_KIND_CONTEXT:
        out.add(contextRecord(reinterpret_cast<const CUpti_ActivityContext3&>(record)));
        return;
    case CUPTI_ACTIVITY_KIND_STREAM:
        out.add(streamRecord(reinterpret_cast<const CUpti_ActivityStream&>(record)));
        return;
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER:
        encodeUnifiedMemory(reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3&>(record), out);
        return;
    default:
        return;
    }
}

namespace {

// A migration's flags hold its CUpti_ActivityUnifiedMemoryMigrationCause;
// a value this build does not know is unknown, not a guess.
std::uint32_t migrationCause(std::uint32_t flags)
{
    return flags <= kUmCauseAccessCounters ? flags : kUmCauseUnknown;
}

} // namespace

void CuptiRecordEncoder::encodeUnifiedMemory(const CUpti_ActivityUnifiedMemoryCounter3& u, ProfileStreamEncoder& out)
{
    UnifiedMemoryRecord r;
    r.counter = static_cast<std::uint32_t>(u.counterKind);
    r.startNs = u.start;
    r.value = u.value;
    r.address = u.address;
    // Which GPU a record concerns, by the header's notes on srcId and dstId.
    switch (u.counterKind) {
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
        r.deviceId = u.dstId;
        r.endNs = u.end;
        r.cause = migrationCause(u.flags);
        break;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
        r.deviceId = u.srcId;
        r.endNs = u.end;
        r.cause = migrationCause(u.flags);
        break;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING:
        r.deviceId = u.srcId;
        r.endNs = u.end;
        break;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
        // One fault per record; value is its program counter, of no use here.
        r.deviceId = kUmNoDevice;
        r.endNs = u.start;
        r.value = 1;
        break;
    case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING:
        // srcId is a mask of the GPUs fighting: the lowest one carries it.
        r.deviceId = u.srcId == 0 ? 0 : static_cast<std::uint32_t>(__builtin_ctz(u.srcId));
        r.endNs = u.start;
        break;
    default:
        return; // remote maps, device-to-device: not asked for
    }
    if (r.endNs < r.startNs)
        r.endNs = r.startNs;
    out.add(r);
}

void CuptiRecordEncoder::encodeGpuWork(const cupti::GpuActivity& work, ProfileStreamEncoder& out)
{
    if (!work.timed) {
        ++m_untimed;
        return;
    }
    switch (work.kind) {
    case OpKind::Kernel: out.add(kernelRecord(work, kernelName(work.name, out))); return;
    case OpKind::Memset: out.add(memsetRecord(work)); return;
    default: out.add(memcpyRecord(work)); return;
    }
}

void CuptiRecordEncoder::encodeApi(const CUpti_ActivityAPI& a, std::uint8_t domain, ProfileStreamEncoder& out)
{
    ApiRecord r;
    r.startNs = a.start;
    r.endNs = a.end;
    r.threadId = a.threadId;
    r.correlationId = a.correlationId;
    r.domain = domain;
    r.callbackId = a.cbid;
    r.nameId = apiName(domain, a.cbid, out);
    r.returnValue = a.returnValue;
    noteThread(a.threadId, out);
    out.add(r);
}

void CuptiRecordEncoder::encodeSync(const CUpti_ActivitySynchronization2& s, ProfileStreamEncoder& out)
{
    // Event and stream queries come as records too (PyTorch queries events
    // constantly); only the four waits say what waited for what.
    if (s.type < CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE
        || s.type > CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE)
        return;
    SyncRecord r;
    r.startNs = s.start;
    r.endNs = s.end;
    r.type = static_cast<std::uint32_t>(s.type);
    r.correlationId = s.correlationId;
    r.contextId = s.contextId;
    r.streamId = s.streamId;
    r.eventId = s.cudaEventId;
    out.add(r);
}

void CuptiRecordEncoder::encodeDevice(const CUpti_ActivityDevice5& d, ProfileStreamEncoder& out)
{
    DeviceRecord r;
    r.deviceId = d.id;
    r.nameId = d.name ? intern(d.name, out) : 0;
    r.computeMajor = d.computeCapabilityMajor;
    r.computeMinor = d.computeCapabilityMinor;
    r.copyEngines = d.numMemcpyEngines;
    r.multiprocessors = d.numMultiprocessors;
    r.memoryBytes = d.globalMemorySize;
    out.add(r);
}

std::uint32_t CuptiRecordEncoder::intern(std::string_view text, ProfileStreamEncoder& out)
{
    const auto [it, added] = m_strings.try_emplace(std::string(text), m_nextStringId);
    if (added) {
        StringRecord r;
        r.id = m_nextStringId++;
        out.addWithText(r, text);
    }
    return it->second;
}

std::uint32_t CuptiRecordEncoder::kernelName(const char* mangled, ProfileStreamEncoder& out)
{
    if (!mangled)
        return 0;
    // The pointer is checked against the text too: a module unloaded and
    // another loaded may reuse an address for a different kernel.
    if (const auto known = m_kernelNames.find(mangled);
        known != m_kernelNames.end() && known->second.mangled == mangled)
        return known->second.id;
    int status = 0;
    char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    const std::uint32_t id = intern(status == 0 && demangled ? demangled : mangled, out);
    std::free(demangled);
    m_kernelNames[mangled] = {mangled, id};
    return id;
}

std::uint32_t CuptiRecordEncoder::apiName(std::uint8_t domain, std::uint32_t callbackId, ProfileStreamEncoder& out)
{
    const std::uint64_t key = (std::uint64_t(domain) << 32) | callbackId;
    if (const auto known = m_apiNames.find(key); known != m_apiNames.end())
        return known->second;
    const char* name = nullptr;
    const CUpti_CallbackDomain cuptiDomain = domain == kApiRuntime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    std::string text;
    if (m_callbackName(cuptiDomain, callbackId, &name) == CUPTI_SUCCESS && name)
        text = std::string(apiDisplayName(name));
    else
        text = std::string(domain == kApiRuntime ? "runtime call " : "driver call ") + std::to_string(callbackId);
    const std::uint32_t id = intern(text, out);
    m_apiNames.emplace(key, id);
    return id;
}

void CuptiRecordEncoder::noteThread(std::uint32_t threadId, ProfileStreamEncoder& out)
{
    if (!m_threads.insert(threadId).second)
        return;
    // Read when the thread's first record arrives; a thread that already
    // ended keeps only its id.
    const std::string path = "/proc/self/task/" + std::to_string(threadId) + "/comm";
    std::string name = readSmallFile(path.c_str());
    while (!name.empty() && (name.back() == '\n' || name.back() == '\0'))
        name.pop_back();
    if (name.empty())
        return;
    ThreadRecord r;
    r.threadId = threadId;
    r.nameId = intern(name, out);
    out.add(r);
}

} // namespace ovs::inject
