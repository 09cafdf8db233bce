#include "sim/SimDevice.h"

#include "device/HostCopyPool.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <utility>

namespace ovs {

namespace {
std::string mib(std::size_t bytes)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return text;
}
} // namespace

SimDevice::SimDevice(SimPreset preset) : m_preset(std::move(preset))
{
    m_info.name = m_preset.name;
    m_info.simulated = true;
    m_info.preset = m_preset.id;
    m_info.detail = m_preset.detail + "; " + m_preset.source;
    m_info.asyncEngineCount = m_preset.asyncEngineCount;
    m_info.totalMemoryBytes = m_preset.deviceMemoryBytes;
    m_info.smCount = m_preset.smCount;
    m_info.computeCapability = m_preset.computeCapability;
    m_info.model = ModelRates{m_preset.pinnedH2DGBps,   m_preset.pinnedD2HGBps,  m_preset.pageableH2DGBps,
                              m_preset.pageableD2HGBps, m_preset.hostMemcpyGBps, m_preset.hostMemoryGBps,
                              m_preset.kernelGBps};
    m_h2dEngines.resize(static_cast<std::size_t>(std::max(1, m_preset.h2dEngines)));
    m_d2hEngines.resize(static_cast<std::size_t>(std::max(1, m_preset.d2hEngines)));
}

SimDevice::SimDevice(SimPreset preset, std::shared_ptr<SimHost> host, int index, int count)
    : SimDevice(std::move(preset))
{
    m_host = std::move(host);
    m_hostIndex = m_host ? m_host->attach() : -1;
    m_info.detail = "GPU " + std::to_string(index) + " of " + std::to_string(count)
                    + " on one simulated host (host memory traffic " + std::to_string(static_cast<int>(m_preset.hostMemoryTrafficGBps))
                    + " GB/s shared: " + m_preset.hostMemoryTrafficSource + "; peer link "
                    + std::to_string(static_cast<int>(m_preset.peerGBps)) + " GB/s: " + m_preset.peerSource + "); "
                    + m_info.detail;
}

SimDevice::~SimDevice()
{
    if (m_host)
        m_host->leave(m_hostIndex);
}

bool SimDevice::holdsDeviceRange(const void* p, std::size_t bytes) const
{
    return holdsRange(p, bytes, AllocKind::Device);
}

bool SimDevice::holdsRange(const void* p, std::size_t bytes, AllocKind kind) const
{
    auto it = m_allocations.upper_bound(p);
    if (it == m_allocations.begin())
        return false;
    --it;
    const auto* base = static_cast<const std::byte*>(it->first);
    const auto* lo = static_cast<const std::byte*>(p);
    return it->second.kind == kind && lo >= base && lo + bytes <= base + it->second.bytes;
}

bool SimDevice::canAccessPeer(Device& peer)
{
    auto* other = dynamic_cast<SimDevice*>(&peer);
    return other && other != this && m_host && other->m_host == m_host;
}

void SimDevice::setPeerAccess(Device& peer, bool enabled)
{
    if (!canAccessPeer(peer))
        throw DeviceError("simulated cudaDeviceEnablePeerAccess: " + peer.info().label()
                          + " is not another GPU of this simulated host");
    auto* other = static_cast<const SimDevice*>(&peer);
    std::erase(m_peerAccess, other);
    if (enabled)
        m_peerAccess.push_back(other);
    advanceHost(usToNs(m_preset.apiCallUs));
}

void SimDevice::copyPeerAsync(void* dst, Device& peer, const void* src, std::size_t bytes, StreamId streamId)
{
    StreamState& s = stream(streamId);
    if (!canAccessPeer(peer))
        throw DeviceError("simulated cudaMemcpyPeerAsync: " + peer.info().label()
                          + " is not another GPU of this simulated host");
    auto& other = static_cast<SimDevice&>(peer);
    if (bytes == 0)
        return;
    if (!holdsDeviceRange(src, bytes))
        throw DeviceError("simulated cudaMemcpyPeerAsync: the source is not inside a device allocation of this GPU");
    if (!other.holdsDeviceRange(dst, bytes))
        throw DeviceError("simulated cudaMemcpyPeerAsync: the destination is not inside a device allocation of "
                          + other.info().label());
    const bool direct = std::find(m_peerAccess.begin(), m_peerAccess.end(), &other) != m_peerAccess.end();
    const std::int64_t fixed = usToNs(m_preset.copyLatencyUs);
    advanceHost(usToNs(m_preset.apiCallUs));
    hostTurn();
    const std::int64_t ready = std::max(m_hostNs + usToNs(m_preset.launchLatencyUs), streamReadyNs(streamId));
    std::int64_t duration = 0;
    SimEngine& engine = m_d2hEngines.front();
    if (direct) {
        duration = fixed + transferNs(bytes, m_preset.peerGBps);
    } else {
        // Staged by the driver: down to host memory, then up to the peer.
        duration = 2 * fixed + transferNs(bytes, m_preset.pinnedD2HGBps) + transferNs(bytes, other.m_preset.pinnedH2DGBps);
        const std::int64_t at = engine.earliestStart(ready, duration);
        duration = std::max(duration, hostTraffic(at + fixed, 2.0 * static_cast<double>(bytes),
                                                  2.0 * static_cast<double>(bytes) / static_cast<double>(duration - 2 * fixed),
                                                  false) - at);
    }
    const std::int64_t start = m_preset.copyEngines == 1 ? m_h2dEngines.front().scheduleInOrder(ready, duration)
                                                         : engine.schedule(ready, duration);
    if (!direct)
        hostTraffic(start + fixed, 2.0 * static_cast<double>(bytes),
                    2.0 * static_cast<double>(bytes) / static_cast<double>(std::max<std::int64_t>(1, duration - 2 * fixed)), true);
    const std::int64_t end = start + duration;
    s.readyNs = end;
    std::memcpy(dst, src, bytes);
    if (m_tag)
        m_engineRecords.push_back({m_tag, start, end, HostMemoryKind::Device});
    track(src, bytes, end, false, "a peer copy");
}

void SimDevice::joinSharedClock(std::int64_t startNs)
{
    m_hostNs = std::max(m_hostNs, startNs);
    if (m_host) {
        m_host->join(m_hostIndex, m_hostNs);
        m_joined = true;
    }
}

void SimDevice::leaveSharedClock()
{
    if (m_host)
        m_host->leave(m_hostIndex);
    m_joined = false;
}

void SimDevice::hostTurn()
{
    if (m_host)
        m_host->turn(m_hostIndex, m_hostNs);
}

std::int64_t SimDevice::hostTraffic(std::int64_t startNs, double trafficBytes, double gbps, bool commit)
{
    // Driven alone (a sweep of one device of the set), it has the host to itself.
    if (!m_host || !m_joined)
        return startNs + (gbps > 0 ? static_cast<std::int64_t>(std::llround(trafficBytes / gbps)) : 0);
    return m_host->transfer(startNs, trafficBytes, gbps, commit);
}

std::int64_t SimDevice::usToNs(double us)
{
    return static_cast<std::int64_t>(std::llround(us * 1000.0));
}

std::int64_t SimDevice::transferNs(std::size_t bytes, double gbps)
{
    // bytes / (GB/s * 1e9) seconds = bytes / GB/s nanoseconds
    return gbps > 0 ? static_cast<std::int64_t>(std::llround(static_cast<double>(bytes) / gbps)) : 0;
}

// ---- memory ---------------------------------------------------------------

void* SimDevice::allocate(std::size_t bytes, AllocKind kind)
{
    if (bytes == 0)
        throw DeviceError("simulated allocation of 0 bytes");
    if (kind == AllocKind::Device && bytes > m_preset.deviceMemoryBytes - std::min(m_deviceBytesInUse, m_preset.deviceMemoryBytes))
        throw DeviceError("simulated cudaMalloc of " + std::to_string(bytes) + " bytes failed: out of memory ("
                          + mib(m_preset.deviceMemoryBytes - m_deviceBytesInUse) + " free of "
                          + mib(m_preset.deviceMemoryBytes) + ")");
    // cudaMalloc and cudaMallocHost synchronize implicitly: the call waits
    // until the device is idle (CUDA Programming Guide, "Implicit
    // Synchronization"), which is what makes allocating inside a loop costly.
    synchronizeDevice();
    Allocation allocation;
    allocation.storage.reset(new (std::nothrow) std::byte[bytes]);
    if (!allocation.storage)
        throw DeviceError(std::string(kind == AllocKind::Device ? "simulated cudaMalloc" : "simulated cudaMallocHost")
                          + " of " + std::to_string(bytes) + " bytes failed: the host could not provide the memory "
                          "that backs the simulated buffer");
    allocation.bytes = bytes;
    allocation.kind = kind;
    void* p = allocation.storage.get();
    m_allocations.emplace(p, std::move(allocation));
    if (kind == AllocKind::Device) {
        m_deviceBytesInUse += bytes;
        advanceHost(usToNs(m_preset.deviceAllocUs));
    } else {
        advanceHost(usToNs(m_preset.pinnedAllocUs) + transferNs(bytes, m_preset.pinnedAllocGBps));
    }
    return p;
}

SimDevice::Allocation* SimDevice::findAllocation(const void* p, AllocKind kind)
{
    auto it = m_allocations.find(p);
    return (it != m_allocations.end() && it->second.kind == kind) ? &it->second : nullptr;
}

void SimDevice::release(void* p, AllocKind kind)
{
    if (!p)
        return;
    Allocation* allocation = findAllocation(p, kind);
    if (!allocation)
        throw DeviceError("simulated free of an address this device did not allocate");
    const auto* lo = static_cast<const std::byte*>(p);
    const std::int64_t busyUntil = inFlightEnd(lo, lo + allocation->bytes);
    if (busyUntil > m_hostNs)
        hazard("freed a " + std::string(kind == AllocKind::Device ? "device" : "pinned host") + " buffer of "
               + mib(allocation->bytes) + " while a copy on it was in flight (until "
               + std::to_string(busyUntil) + " ns); drained first");
    // Like cudaFree and cudaFreeHost, a free synchronizes the whole device.
    synchronizeDevice();
    if (kind == AllocKind::Device) {
        m_deviceBytesInUse -= allocation->bytes;
        advanceHost(usToNs(m_preset.deviceFreeUs));
    } else {
        advanceHost(usToNs(m_preset.pinnedFreeUs));
    }
    m_allocations.erase(p);
}

void* SimDevice::allocateDevice(std::size_t bytes)
{
    return allocate(bytes, AllocKind::Device);
}

void SimDevice::freeDevice(void* p)
{
    release(p, AllocKind::Device);
}

void* SimDevice::allocatePinned(std::size_t bytes)
{
    return allocate(bytes, AllocKind::Pinned);
}

void SimDevice::freePinned(void* p)
{
    release(p, AllocKind::Pinned);
}

void SimDevice::registerHost(void* p, std::size_t bytes)
{
    if (!p || bytes == 0)
        throw DeviceError("simulated cudaHostRegister of an empty range");
    const auto* lo = static_cast<const std::byte*>(p);
    for (const auto& [base, allocation] : m_allocations) {
        const auto* b = static_cast<const std::byte*>(base);
        if (lo < b + allocation.bytes && b < lo + bytes)
            throw DeviceError("simulated cudaHostRegister: range overlaps memory already registered or pinned");
    }
    Allocation allocation;
    allocation.bytes = bytes;
    allocation.kind = AllocKind::Registered;
    m_allocations.emplace(p, std::move(allocation));
    advanceHost(usToNs(m_preset.registerUs) + transferNs(bytes, m_preset.registerGBps));
}

void SimDevice::unregisterHost(void* p)
{
    Allocation* allocation = findAllocation(p, AllocKind::Registered);
    if (!allocation)
        throw DeviceError("simulated cudaHostUnregister of memory that is not registered");
    const auto* lo = static_cast<const std::byte*>(p);
    if (inFlightEnd(lo, lo + allocation->bytes) > m_hostNs)
        hazard("unregistered host memory while a copy on it was in flight; drained first");
    synchronizeDevice();
    advanceHost(usToNs(m_preset.registerUs) + transferNs(allocation->bytes, m_preset.unregisterGBps));
    m_allocations.erase(p);
}

void SimDevice::waitForBuffer(const void* p)
{
    auto it = m_allocations.find(p);
    const auto* lo = static_cast<const std::byte*>(p);
    const std::size_t bytes = it != m_allocations.end() ? it->second.bytes : 1;
    waitHostUntil(inFlightEnd(lo, lo + bytes));
}

// ---- streams and events ---------------------------------------------------

SimDevice::StreamState& SimDevice::stream(StreamId id)
{
    if (id == kLegacyDefaultStream)
        return m_legacyStream;
    if (id == kPerThreadDefaultStream)
        return m_perThreadStream;
    if (id >= m_streams.size() || !m_streams[id].alive)
        throw DeviceError("simulated device: stream " + std::to_string(id) + " does not exist");
    return m_streams[id];
}

SimDevice::EventState& SimDevice::event(EventId id)
{
    if (id >= m_events.size() || !m_events[id].alive)
        throw DeviceError("simulated device: event " + std::to_string(id) + " does not exist");
    return m_events[id];
}

StreamId SimDevice::createStream(StreamSync sync)
{
    m_streams.push_back({true, m_hostNs, sync == StreamSync::Blocking});
    advanceHost(usToNs(m_preset.apiCallUs));
    return static_cast<StreamId>(m_streams.size() - 1);
}

StreamId SimDevice::defaultStream(DefaultStreamOp which)
{
    switch (which) {
    case DefaultStreamOp::Legacy: return kLegacyDefaultStream;
    case DefaultStreamOp::PerThread: return kPerThreadDefaultStream;
    case DefaultStreamOp::None: break;
    }
    throw DeviceError("simulated device: name the legacy or the per-thread default stream");
}

std::int64_t SimDevice::streamReadyNs(StreamId id)
{
    const StreamState& s = stream(id);
    std::int64_t ready = s.readyNs;
    if (id == kLegacyDefaultStream) {
        for (const auto& other : m_streams)
            if (other.alive && other.blocking)
                ready = std::max(ready, other.readyNs);
        ready = std::max(ready, m_perThreadStream.readyNs);
    } else if (s.blocking) {
        ready = std::max(ready, m_legacyStream.readyNs);
    }
    return ready;
}

void SimDevice::destroyStream(StreamId id)
{
    if (isDefaultStream(id))
        throw DeviceError("simulated device: a default stream cannot be destroyed");
    synchronizeStream(id);
    m_streams[id].alive = false;
}

void SimDevice::waitHostUntil(std::int64_t ns)
{
    if (ns > m_hostNs)
        m_hostNs = ns + usToNs(m_preset.syncWakeUs);
    pruneFinished();
}

void SimDevice::synchronizeStream(StreamId id)
{
    waitHostUntil(streamReadyNs(id));
}

std::int64_t SimDevice::allDeviceWorkEnd() const
{
    std::int64_t end = 0;
    for (const auto& s : m_streams)
        if (s.alive)
            end = std::max(end, s.readyNs);
    return std::max({end, m_legacyStream.readyNs, m_perThreadStream.readyNs});
}

void SimDevice::synchronizeDevice()
{
    waitHostUntil(allDeviceWorkEnd());
}

EventId SimDevice::createEvent()
{
    if (!m_freeEvents.empty()) {
        const EventId id = m_freeEvents.back();
        m_freeEvents.pop_back();
        m_events[id] = {true, -1};
        return id;
    }
    m_events.push_back({true, -1});
    return static_cast<EventId>(m_events.size() - 1);
}

void SimDevice::destroyEvent(EventId id)
{
    event(id).alive = false;
    m_freeEvents.push_back(id);
}

void SimDevice::recordEvent(EventId id, StreamId streamId)
{
    EventState& e = event(id);
    StreamState& s = stream(streamId);
    advanceHost(usToNs(m_preset.apiCallUs));
    // The event completes when the stream reaches it: after the work before
    // it, and no earlier than the GPU could see the record command.
    e.timeNs = std::max(m_hostNs + usToNs(m_preset.launchLatencyUs), streamReadyNs(streamId));
    s.readyNs = e.timeNs;
}

void SimDevice::streamWaitEvent(StreamId streamId, EventId id)
{
    EventState& e = event(id);
    StreamState& s = stream(streamId);
    if (e.timeNs < 0)
        return; // like CUDA: waiting on a never-recorded event is a no-op
    advanceHost(usToNs(m_preset.apiCallUs));
    s.readyNs = std::max(s.readyNs, e.timeNs);
}

void SimDevice::synchronizeEvent(EventId id)
{
    const EventState& e = event(id);
    if (e.timeNs < 0)
        return;
    waitHostUntil(e.timeNs);
}

bool SimDevice::eventDone(EventId id)
{
    const EventState& e = event(id);
    advanceHost(usToNs(m_preset.apiCallUs) / 3);
    return e.timeNs <= m_hostNs;
}

std::int64_t SimDevice::eventElapsedNs(EventId from, EventId to)
{
    const EventState& a = event(from);
    const EventState& b = event(to);
    if (a.timeNs < 0 || b.timeNs < 0)
        throw DeviceError("simulated cudaEventElapsedTime: an event was never recorded");
    if (a.timeNs > m_hostNs || b.timeNs > m_hostNs)
        throw DeviceError("simulated cudaEventElapsedTime: an event has not completed yet (wait on it first)");
    return b.timeNs - a.timeNs;
}

// ---- work -------------------------------------------------------------------

void SimDevice::copyAsync(void* dst, const void* src, std::size_t bytes, CopyDirection direction,
                          HostMemoryKind hostKind, StreamId streamId)
{
    StreamState& s = stream(streamId);
    if (bytes == 0)
        return;
    const bool toDevice = direction == CopyDirection::HostToDevice;
    const void* hostSide = toDevice ? src : dst;
    const void* deviceSide = toDevice ? dst : src;
    checkCopyRanges(hostSide, deviceSide, bytes, hostKind);
    const bool pageable = hostKind == HostMemoryKind::Pageable;
    const double gbps = toDevice ? (pageable ? m_preset.pageableH2DGBps : m_preset.pinnedH2DGBps)
                                 : (pageable ? m_preset.pageableD2HGBps : m_preset.pinnedD2HGBps);
    // A pageable destination still unmapped faults its pages in as it is written.
    const std::int64_t faults = (!toDevice && pageable) ? faultInNs(dst, bytes) : 0;
    const std::int64_t fixed = usToNs(m_preset.copyLatencyUs) + faults;

    advanceHost(usToNs(m_preset.apiCallUs));
    hostTurn();
    const std::int64_t ready = std::max(m_hostNs + usToNs(m_preset.launchLatencyUs), streamReadyNs(streamId));
    // On a host shared with other GPUs the copy's host side draws on the
    // host's memory: once for a DMA of pinned memory, three times for a
    // pageable copy (the driver's memcpy into its pinned buffer reads and
    // writes, then the DMA reads). It goes no faster than the host allows.
    const double hostTrafficBytes = (pageable ? 3.0 : 1.0) * static_cast<double>(bytes);
    const auto [start, duration] = scheduleCopy(ready, bytes, gbps, fixed, toDevice, hostTrafficBytes);
    const std::int64_t end = start + duration;
    s.readyNs = end;

    std::memcpy(dst, src, bytes);
    m_activities.push_back({toDevice ? SimActivity::Kind::CopyHtoD : SimActivity::Kind::CopyDtoH, streamId, hostKind,
                            bytes, ready, start, end});
    if (m_tag) {
        // CUPTI reports registered pages as pinned, which is what they are to the engine.
        const HostMemoryKind seen = hostKind == HostMemoryKind::Registered ? HostMemoryKind::Pinned : hostKind;
        m_engineRecords.push_back({m_tag, start, end, seen});
    }

    if (pageable) {
        // The driver stages pageable memory through its own pinned buffer
        // with the host thread: the call returns only when it is done.
        waitHostUntil(end);
    } else {
        track(hostSide, bytes, end, !toDevice, toDevice ? "an upload" : "a download");
    }
    track(deviceSide, bytes, end, toDevice, toDevice ? "an upload" : "a download");
}

void SimDevice::checkCopyRanges(const void* hostSide, const void* deviceSide, std::size_t bytes,
                                HostMemoryKind hostKind) const
{
    if (!holdsRange(deviceSide, bytes, AllocKind::Device))
        throw DeviceError("simulated cudaMemcpyAsync: the device side is not inside a device allocation of "
                          + std::to_string(bytes) + " bytes");
    if (hostKind != HostMemoryKind::Pinned && hostKind != HostMemoryKind::Registered)
        return;
    const AllocKind want = hostKind == HostMemoryKind::Pinned ? AllocKind::Pinned : AllocKind::Registered;
    if (!holdsRange(hostSide, bytes, want))
        throw DeviceError(std::string("simulated cudaMemcpyAsync: host memory described as ") + toString(hostKind)
                          + " is not a " + toString(hostKind) + " range of this device");
}

std::int64_t SimDevice::withHostTraffic(std::int64_t startNs, std::int64_t durationNs, std::int64_t fixedNs,
                                        double trafficBytes, bool commit)
{
    if (!m_host)
        return durationNs;
    const std::int64_t wire = durationNs - fixedNs;
    if (wire <= 0)
        return durationNs;
    const std::int64_t end = hostTraffic(startNs + fixedNs, trafficBytes, trafficBytes / static_cast<double>(wire), commit);
    return std::max(durationNs, end - startNs);
}

std::pair<std::int64_t, std::int64_t> SimDevice::scheduleCopy(std::int64_t ready, std::size_t bytes, double gbps,
                                                              std::int64_t fixed, bool toDevice,
                                                              double hostTrafficBytes)
{
    std::int64_t start = 0;
    std::int64_t duration = fixed + transferNs(bytes, gbps);
    if (m_preset.copyEngines == 1) {
        // One engine for both directions, in issue order: a download queued
        // before an upload holds the upload back even when the upload is
        // ready first (the false dependency breadth-first issue avoids).
        duration = withHostTraffic(std::max(ready, m_h2dEngines.front().busyUntil()), duration, fixed,
                                   hostTrafficBytes, false);
        start = m_h2dEngines.front().scheduleInOrder(ready, duration);
        withHostTraffic(start, duration, fixed, hostTrafficBytes, true);
        return {start, duration};
    }
    auto& engines = toDevice ? m_h2dEngines : m_d2hEngines;
    const auto& opposite = toDevice ? m_d2hEngines : m_h2dEngines;
    SimEngine* best = &engines.front();
    // Where the copy meets copies in the other direction it goes slower,
    // which makes it longer and can move where it fits: settle both.
    for (int round = 0; round < 3; ++round) {
        best = &engines.front();
        for (auto& engine : engines)
            if (engine.earliestStart(ready, duration) < best->earliestStart(ready, duration))
                best = &engine;
        const std::int64_t at = best->earliestStart(ready, duration);
        const std::int64_t settled =
            withHostTraffic(at, copyDurationNs(bytes, gbps, fixed, at, opposite), fixed, hostTrafficBytes, false);
        if (settled == duration)
            break;
        duration = settled;
    }
    start = best->schedule(ready, duration);
    withHostTraffic(start, duration, fixed, hostTrafficBytes, true);
    return {start, duration};
}

void SimDevice::launchIncrement(float* data, std::size_t count, int repeats, StreamId streamId)
{
    StreamState& s = stream(streamId);
    if (repeats < 1)
        throw DeviceError("simulated kernel launch: repeats must be at least 1");
    const std::size_t bytes = count * sizeof(float);
    auto it = m_allocations.upper_bound(data);
    bool ok = false;
    if (it != m_allocations.begin()) {
        --it;
        const auto* base = static_cast<const std::byte*>(it->first);
        ok = it->second.kind == AllocKind::Device && reinterpret_cast<const std::byte*>(data) >= base
             && reinterpret_cast<const std::byte*>(data) + bytes <= base + it->second.bytes;
    }
    if (!ok)
        throw DeviceError("simulated kernel launch: the data is not inside a device allocation");

    for (int r = 0; r < repeats; ++r) {
        // Each repeat is its own launch, a full pass reading and writing the data.
        const std::int64_t duration = usToNs(m_preset.kernelFixedUs) + transferNs(2 * bytes, m_preset.kernelGBps);
        advanceHost(usToNs(m_preset.apiCallUs));
        const std::int64_t ready = std::max(m_hostNs + usToNs(m_preset.launchLatencyUs), streamReadyNs(streamId));
        const std::int64_t start = m_compute.schedule(ready, duration);
        s.readyNs = start + duration;
        m_activities.push_back({SimActivity::Kind::Kernel, streamId, HostMemoryKind::None, bytes, ready, start,
                                s.readyNs});
        if (m_tag)
            m_engineRecords.push_back({m_tag, start, s.readyNs, HostMemoryKind::None});
    }
    for (std::size_t i = 0; i < count; ++i)
        data[i] += static_cast<float>(repeats);
    track(data, bytes, s.readyNs, true, "a kernel");
}

std::int64_t SimDevice::copyDurationNs(std::size_t bytes, double gbps, std::int64_t extraNs, std::int64_t startNs,
                                      const std::vector<SimEngine>& opposite) const
{
    const std::int64_t alone = extraNs + transferNs(bytes, gbps);
    if (m_preset.bidirectionalGBps <= 0 || gbps <= 0 || bytes == 0)
        return alone;
    // While a copy runs the other way, this one goes at `shared` of its rate.
    // The model books each copy when it is issued and never revisits it, so
    // only the later copy slows down; the factor is chosen so that a pinned
    // upload and download issued together end when the measured
    // bidirectional rate says: r (2 - 2r / bidir) for equal rates r.
    const double oneWay = m_preset.pinnedH2DGBps + m_preset.pinnedD2HGBps;
    const double shared = std::clamp(2.0 - oneWay / m_preset.bidirectionalGBps, 0.1, 1.0);
    if (shared >= 1.0)
        return alone;
    std::vector<SimEngine::Interval> busy;
    for (const auto& engine : opposite)
        busy.insert(busy.end(), engine.busy().begin(), engine.busy().end());
    std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    // Walk the transfer from its start (after the fixed latency): full rate
    // in the gaps, the shared rate inside the other direction's intervals.
    double t = static_cast<double>(startNs + extraNs);
    double left = static_cast<double>(bytes);
    for (const auto& interval : busy) {
        if (left <= 0)
            break;
        const auto is = static_cast<double>(interval.start);
        const auto ie = static_cast<double>(interval.end);
        if (ie <= t)
            continue;
        if (is > t) { // a gap at the full rate
            const double gapBytes = (is - t) * gbps;
            if (gapBytes >= left) {
                t += left / gbps;
                left = 0;
                break;
            }
            left -= gapBytes;
            t = is;
        }
        const double sharedBytes = (ie - t) * gbps * shared;
        if (sharedBytes >= left) {
            t += left / (gbps * shared);
            left = 0;
            break;
        }
        left -= sharedBytes;
        t = ie;
    }
    t += left / gbps;
    return std::max(alone, static_cast<std::int64_t>(std::llround(t)) - startNs);
}

// ---- host side ----------------------------------------------------------------

void SimDevice::hostCopy(void* dst, const void* src, std::size_t bytes)
{
    checkRange(dst, bytes, true, "written by a host copy");
    checkRange(src, bytes, false, "read by a host copy");
    std::memcpy(dst, src, bytes);
    hostTurn();
    // A memcpy reads and writes: twice its bytes of host memory traffic.
    const std::int64_t copied =
        hostTraffic(m_hostNs, 2.0 * static_cast<double>(bytes), 2.0 * hostCopyRate(1), true) - m_hostNs;
    advanceHost(std::max(copied, transferNs(bytes, hostCopyRate(1))) + faultInNs(dst, bytes));
}

double SimDevice::hostCopyRate(int active) const
{
    const double perThread = m_preset.hostMemcpyGBps;
    if (m_preset.hostMemoryGBps <= 0)
        return perThread;
    return std::min(perThread, m_preset.hostMemoryGBps / active);
}

std::vector<HostInterval> SimDevice::hostCopyParallel(void* dst, const void* src, std::size_t bytes, int threads)
{
    if (threads < 1 || threads > HostCopyPool::kMaxThreads)
        throw DeviceError("simulated host copy with " + std::to_string(threads) + " threads: use 1 to "
                          + std::to_string(HostCopyPool::kMaxThreads));
    checkRange(dst, bytes, true, "written by a host copy");
    checkRange(src, bytes, false, "read by a host copy");
    if (bytes != 0)
        std::memcpy(dst, src, bytes);

    const auto parts = HostCopyPool::split(bytes, threads);
    // Every running thread advances at the same rate, so parts finish in
    // order of size: walk them smallest first, each step at the rate of the
    // threads still copying.
    std::vector<std::size_t> bySize(parts.size());
    for (std::size_t i = 0; i < bySize.size(); ++i)
        bySize[i] = i;
    std::stable_sort(bySize.begin(), bySize.end(),
                     [&](std::size_t a, std::size_t b) { return parts[a].bytes < parts[b].bytes; });
    const std::int64_t t0 = m_hostNs;
    std::vector<HostInterval> intervals(parts.size(), HostInterval{t0, t0});
    double elapsedNs = 0;
    double progressBytes = 0;
    for (std::size_t rank = 0; rank < bySize.size(); ++rank) {
        const std::size_t i = bySize[rank];
        const double rate = hostCopyRate(static_cast<int>(parts.size() - rank));
        const auto size = static_cast<double>(parts[i].bytes);
        if (rate > 0)
            elapsedNs += (size - progressBytes) / rate;
        progressBytes = size;
        intervals[i].endNs = t0 + static_cast<std::int64_t>(std::llround(elapsedNs));
    }
    // On a host shared with other GPUs the threads together go no faster
    // than the host's memory allows: stretch every part alike.
    if (m_host && m_joined && bytes != 0) {
        hostTurn();
        std::int64_t together = 0;
        for (const auto& interval : intervals)
            together = std::max(together, interval.endNs - t0);
        if (together > 0) {
            const double traffic = 2.0 * static_cast<double>(bytes);
            const std::int64_t shared = hostTraffic(t0, traffic, traffic / static_cast<double>(together), true) - t0;
            if (shared > together) {
                const double stretch = static_cast<double>(shared) / static_cast<double>(together);
                for (auto& interval : intervals)
                    interval.endNs = t0 + static_cast<std::int64_t>(std::llround(static_cast<double>(interval.endNs - t0) * stretch));
            }
        }
    }
    // Fresh destination pages fault in on the thread that first writes them;
    // their cost is added to that thread (the others do not speed up meanwhile).
    std::int64_t last = t0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        intervals[i].endNs += faultInNs(static_cast<std::byte*>(dst) + parts[i].offset, parts[i].bytes);
        last = std::max(last, intervals[i].endNs);
    }
    m_hostNs = last;
    return intervals;
}

void SimDevice::noteFreshHostMemory(void* p, std::size_t bytes)
{
    const auto* lo = static_cast<const std::byte*>(p);
    // An address can come back from the allocator after a free: whatever was
    // recorded for it before no longer holds.
    faultInNs(p, bytes);
    m_freshHost.emplace_back(lo, lo + bytes);
}

std::int64_t SimDevice::faultInNs(const void* p, std::size_t bytes)
{
    const auto* lo = static_cast<const std::byte*>(p);
    const auto* hi = lo + bytes;
    std::size_t faulted = 0;
    std::vector<std::pair<const std::byte*, const std::byte*>> remaining;
    for (const auto& [a, b] : m_freshHost) {
        if (hi <= a || b <= lo) {
            remaining.emplace_back(a, b);
            continue;
        }
        faulted += static_cast<std::size_t>(std::min(b, hi) - std::max(a, lo));
        if (a < lo)
            remaining.emplace_back(a, lo);
        if (hi < b)
            remaining.emplace_back(hi, b);
    }
    m_freshHost = std::move(remaining);
    return transferNs(faulted, m_preset.pageFaultGBps);
}

void SimDevice::checkHostAccess(const void* p, std::size_t bytes)
{
    checkRange(p, bytes, true, "touched by the host");
}

std::vector<std::string> SimDevice::takeHazards()
{
    return std::exchange(m_hazards, {});
}

std::vector<EngineRecord> SimDevice::takeEngineRecords()
{
    // Only work the engines finished by now on the virtual host clock, as CUPTI
    // delivers records of completed work only.
    std::vector<EngineRecord> done;
    std::vector<EngineRecord> running;
    for (const EngineRecord& record : m_engineRecords)
        (record.endNs <= m_hostNs ? done : running).push_back(record);
    m_engineRecords = std::move(running);
    return done;
}

std::string SimDevice::engineTimingSource(std::string*) const
{
    return "simulated engine model";
}

void SimDevice::hazard(std::string message)
{
    m_hazards.push_back("at " + std::to_string(m_hostNs) + " ns: " + std::move(message));
}

void SimDevice::track(const void* p, std::size_t bytes, std::int64_t endNs, bool writes, std::string what)
{
    const auto* lo = static_cast<const std::byte*>(p);
    m_inFlight.push_back({lo, lo + bytes, endNs, writes, std::move(what)});
}

void SimDevice::checkRange(const void* p, std::size_t bytes, bool hostWrites, const char* action)
{
    pruneFinished();
    const auto* lo = static_cast<const std::byte*>(p);
    const auto* hi = lo + bytes;
    for (const auto& f : m_inFlight) {
        if (f.endNs <= m_hostNs || hi <= f.lo || f.hi <= lo)
            continue;
        // Two readers never race; anything involving a write does.
        if (!hostWrites && !f.writes)
            continue;
        hazard("host buffer " + std::string(action) + " while " + f.what + " on it was in flight (until "
               + std::to_string(f.endNs) + " ns): wait on its token or event first");
        return;
    }
}

std::int64_t SimDevice::inFlightEnd(const void* lo, const void* hi) const
{
    std::int64_t end = 0;
    for (const auto& f : m_inFlight)
        if (static_cast<const std::byte*>(lo) < f.hi && f.lo < static_cast<const std::byte*>(hi))
            end = std::max(end, f.endNs);
    return end;
}

void SimDevice::pruneFinished()
{
    std::erase_if(m_inFlight, [this](const InFlight& f) { return f.endNs <= m_hostNs; });
    for (auto& engine : m_h2dEngines)
        engine.forgetBefore(m_hostNs);
    for (auto& engine : m_d2hEngines)
        engine.forgetBefore(m_hostNs);
    m_compute.forgetBefore(m_hostNs);
}

} // namespace ovs
