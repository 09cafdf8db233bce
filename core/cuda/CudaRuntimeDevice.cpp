#include "cuda/CudaRuntimeDevice.h"

#include "cuda/CudaCheck.h"
#include "cuda/IncrementKernel.h"
#if OVERLAPSCOPE_HAVE_CUPTI
#include "cuda/CuptiActivityCollector.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace ovs {
namespace {

std::string formatPointer(const void* p)
{
    char text[32];
    std::snprintf(text, sizeof text, "%p", p);
    return text;
}

std::string bytesText(std::size_t bytes)
{
    return std::to_string(bytes) + " bytes (" + formatGiB(bytes) + ")";
}

} // namespace

CudaRuntimeDevice::CudaRuntimeDevice(int ordinal) : m_ordinal(ordinal)
{
    makeCurrent();
    // Forces the primary context into existence now (freeing null is the usual
    // idiom), so its creation cost lands here, not in the first timed op.
    checkCuda(cudaFree(nullptr), "cudaFree(nullptr) to create the CUDA context");

    cudaDeviceProp properties{};
    checkCuda(cudaGetDeviceProperties(&properties, ordinal), "cudaGetDeviceProperties");
    int driverVersion = 0;
    checkCuda(cudaDriverGetVersion(&driverVersion), "cudaDriverGetVersion");
    int runtimeVersion = 0;
    checkCuda(cudaRuntimeGetVersion(&runtimeVersion), "cudaRuntimeGetVersion");
    char busId[32] = {};
    checkCuda(cudaDeviceGetPCIBusId(busId, sizeof busId, ordinal), "cudaDeviceGetPCIBusId");

    m_multiProcessorCount = properties.multiProcessorCount;
    m_info.name = properties.name;
    m_info.simulated = false;
    m_info.detail = "sm_" + std::to_string(properties.major) + std::to_string(properties.minor) + ", "
        + std::to_string(properties.multiProcessorCount) + " SMs, PCI " + busId + ", driver "
        + formatCudaVersion(driverVersion) + ", runtime " + formatCudaVersion(runtimeVersion) + ", "
        + formatGiB(properties.totalGlobalMem);
    m_info.asyncEngineCount = properties.asyncEngineCount;
    m_info.totalMemoryBytes = properties.totalGlobalMem;
    m_info.smCount = properties.multiProcessorCount;
    m_info.computeCapability = properties.major * 10 + properties.minor;

    // Last, so nothing after it can throw and leave the collector attached
    // (CUPTI traces work enqueued after enabling, whenever the context was made).
#if OVERLAPSCOPE_HAVE_CUPTI
    m_cuptiOwner = CuptiActivityCollector::instance().attach(&m_whyNoCupti);
#else
    m_whyNoCupti = "built without the CUPTI headers";
#endif
}

CudaRuntimeDevice::~CudaRuntimeDevice()
{
    // Nothing here can report a failure, and after a sticky error the handles
    // went with the context anyway, so the statuses are deliberately dropped.
    static_cast<void>(cudaSetDevice(m_ordinal));
    static_cast<void>(cudaDeviceSynchronize());
    for (cudaStream_t stream : m_streams) {
        if (stream)
            static_cast<void>(cudaStreamDestroy(stream));
    }
    for (const EventSlot& slot : m_events)
        static_cast<void>(cudaEventDestroy(slot.handle));
    static_cast<void>(cudaGetLastError());
#if OVERLAPSCOPE_HAVE_CUPTI
    if (m_cuptiOwner) {
        try {
            if (m_tagPushed)
                CuptiActivityCollector::instance().popOpId();
        } catch (const DeviceError&) {
            // The id stack is per thread and this may be another one; nothing to report to.
        }
        CuptiActivityCollector::instance().detach(m_cuptiOwner);
    }
#endif
}

void CudaRuntimeDevice::makeCurrent()
{
    checkCuda(cudaSetDevice(m_ordinal), "cudaSetDevice");
}

cudaStream_t CudaRuntimeDevice::streamHandle(StreamId id) const
{
    // Explicit handles, so the meaning does not depend on how this file was
    // compiled (--default-stream per-thread turns plain 0 into the other one).
    if (id == kLegacyDefaultStream)
        return cudaStreamLegacy;
    if (id == kPerThreadDefaultStream)
        return cudaStreamPerThread;
    if (id >= m_streams.size() || !m_streams[id])
        throw DeviceError("invalid stream id " + std::to_string(id) + " (never created or already destroyed)");
    return m_streams[id];
}

CudaRuntimeDevice::EventSlot& CudaRuntimeDevice::eventSlot(EventId id)
{
    if (id >= m_events.size() || !m_events[id].alive)
        throw DeviceError("invalid event id " + std::to_string(id) + " (never created or already destroyed)");
    return m_events[id];
}

void CudaRuntimeDevice::drainBeforeRelease(const char* release)
{
    // Real hardware does not tell us which queued copy or kernel uses which
    // buffer, and cudaFree/cudaFreeHost/cudaHostUnregister are not documented
    // to wait for work on non-blocking streams. A DMA engine still reading
    // freed or unpinned pages corrupts memory silently, so wait for the whole
    // device; pipelines release buffers only at setup and teardown, where
    // the cost is invisible.
    const cudaError_t error = cudaDeviceSynchronize();
    if (error != cudaSuccess)
        throwCudaError(error, std::string("cudaDeviceSynchronize before ") + release);
}

void* CudaRuntimeDevice::allocateDevice(std::size_t bytes)
{
    if (bytes == 0)
        return nullptr;
    makeCurrent();
    void* p = nullptr;
    const cudaError_t error = cudaMalloc(&p, bytes);
    if (error != cudaSuccess) {
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        std::string note;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
            note = formatGiB(freeBytes) + " free of " + formatGiB(totalBytes);
        throwCudaError(error, "cudaMalloc of " + bytesText(bytes), note);
    }
    return p;
}

void CudaRuntimeDevice::freeDevice(void* p)
{
    if (!p)
        return;
    makeCurrent();
    drainBeforeRelease("cudaFree");
    const cudaError_t error = cudaFree(p);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaFree(" + formatPointer(p) + ")");
}

void* CudaRuntimeDevice::allocatePinned(std::size_t bytes)
{
    if (bytes == 0)
        return nullptr;
    makeCurrent();
    void* p = nullptr;
    const cudaError_t error = cudaMallocHost(&p, bytes);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaMallocHost of " + bytesText(bytes));
    return p;
}

void CudaRuntimeDevice::freePinned(void* p)
{
    if (!p)
        return;
    makeCurrent();
    drainBeforeRelease("cudaFreeHost");
    const cudaError_t error = cudaFreeHost(p);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaFreeHost(" + formatPointer(p) + ")");
}

void CudaRuntimeDevice::registerHost(void* p, std::size_t bytes)
{
    makeCurrent();
    const cudaError_t error = cudaHostRegister(p, bytes, cudaHostRegisterDefault);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaHostRegister of " + bytesText(bytes) + " at " + formatPointer(p));
}

void CudaRuntimeDevice::unregisterHost(void* p)
{
    makeCurrent();
    drainBeforeRelease("cudaHostUnregister");
    const cudaError_t error = cudaHostUnregister(p);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaHostUnregister(" + formatPointer(p) + ")");
}

void CudaRuntimeDevice::waitForBuffer(const void*)
{
    makeCurrent();
    drainBeforeRelease("releasing a buffer");
}

StreamId CudaRuntimeDevice::defaultStream(DefaultStreamOp which)
{
    switch (which) {
    case DefaultStreamOp::Legacy: return kLegacyDefaultStream;
    case DefaultStreamOp::PerThread: return kPerThreadDefaultStream;
    case DefaultStreamOp::None: break;
    }
    throw DeviceError("defaultStream: name the legacy or the per-thread default stream");
}

StreamId CudaRuntimeDevice::createStream(StreamSync sync)
{
    makeCurrent();
    cudaStream_t stream = nullptr;
    checkCuda(cudaStreamCreateWithFlags(&stream, sync == StreamSync::Blocking ? cudaStreamDefault
                                                                              : cudaStreamNonBlocking),
              "cudaStreamCreateWithFlags");
    // The lowest free id, so a run's streams are 0..n-1 again after the last
    // run's were destroyed and lanes keep their names from run to run.
    const auto freeSlot = std::find(m_streams.begin(), m_streams.end(), nullptr);
    if (freeSlot != m_streams.end()) {
        *freeSlot = stream;
        return static_cast<StreamId>(freeSlot - m_streams.begin());
    }
    m_streams.push_back(stream);
    return static_cast<StreamId>(m_streams.size() - 1);
}

void CudaRuntimeDevice::destroyStream(StreamId id)
{
    if (isDefaultStream(id))
        throw DeviceError("a default stream cannot be destroyed");
    cudaStream_t stream = streamHandle(id);
    makeCurrent();
    // The id is released even if draining fails, so a lost context does not
    // also leak the slot; the first failure is the one reported.
    const cudaError_t drained = cudaStreamSynchronize(stream);
    m_streams[id] = nullptr;
    const cudaError_t destroyed = cudaStreamDestroy(stream);
    if (drained != cudaSuccess)
        throwCudaError(drained, "cudaStreamSynchronize before cudaStreamDestroy of stream " + std::to_string(id));
    if (destroyed != cudaSuccess)
        throwCudaError(destroyed, "cudaStreamDestroy of stream " + std::to_string(id));
}

void CudaRuntimeDevice::synchronizeStream(StreamId id)
{
    cudaStream_t stream = streamHandle(id);
    makeCurrent();
    checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void CudaRuntimeDevice::synchronizeDevice()
{
    makeCurrent();
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

EventId CudaRuntimeDevice::createEvent()
{
    if (!m_freeEvents.empty()) {
        const EventId id = m_freeEvents.back();
        m_freeEvents.pop_back();
        m_events[id].alive = true;
        m_events[id].recorded = false;
        return id;
    }
    makeCurrent();
    cudaEvent_t event = nullptr;
    // Default flags keep timing on; the spin wait they imply costs a host core
    // while waiting but adds no wake-up latency to the waits we measure.
    checkCuda(cudaEventCreateWithFlags(&event, cudaEventDefault), "cudaEventCreateWithFlags");
    m_events.push_back(EventSlot{event, true, false});
    return static_cast<EventId>(m_events.size() - 1);
}

void CudaRuntimeDevice::destroyEvent(EventId id)
{
    EventSlot& slot = eventSlot(id);
    // Recording a handle again is legal while its previous record is still
    // pending, so the handle is free for reuse at once.
    slot.alive = false;
    slot.recorded = false;
    m_freeEvents.push_back(id);
}

void CudaRuntimeDevice::recordEvent(EventId event, StreamId stream)
{
    EventSlot& slot = eventSlot(event);
    cudaStream_t handle = streamHandle(stream);
    makeCurrent();
    checkCuda(cudaEventRecord(slot.handle, handle), "cudaEventRecord");
    slot.recorded = true;
}

void CudaRuntimeDevice::streamWaitEvent(StreamId stream, EventId event)
{
    cudaStream_t handle = streamHandle(stream);
    const EventSlot& slot = eventSlot(event);
    // CUDA treats waiting on a never-recorded event as a no-op; a reused
    // handle would instead wait for its previous life's record.
    if (!slot.recorded)
        return;
    makeCurrent();
    checkCuda(cudaStreamWaitEvent(handle, slot.handle, 0), "cudaStreamWaitEvent");
}

void CudaRuntimeDevice::synchronizeEvent(EventId event)
{
    const EventSlot& slot = eventSlot(event);
    if (!slot.recorded)
        return;
    makeCurrent();
    checkCuda(cudaEventSynchronize(slot.handle), "cudaEventSynchronize");
}

bool CudaRuntimeDevice::eventDone(EventId event)
{
    const EventSlot& slot = eventSlot(event);
    if (!slot.recorded)
        return true;
    makeCurrent();
    const cudaError_t status = cudaEventQuery(slot.handle);
    if (status == cudaSuccess)
        return true;
    if (status == cudaErrorNotReady)
        return false;
    throwCudaError(status, "cudaEventQuery");
}

std::int64_t CudaRuntimeDevice::eventElapsedNs(EventId from, EventId to)
{
    const EventSlot& start = eventSlot(from);
    const EventSlot& end = eventSlot(to);
    if (!start.recorded || !end.recorded)
        throw DeviceError("eventElapsedNs: event " + std::to_string(start.recorded ? to : from)
                          + " was never recorded");
    makeCurrent();
    float ms = 0.0f;
    const cudaError_t error = cudaEventElapsedTime(&ms, start.handle, end.handle);
    if (error != cudaSuccess)
        throwCudaError(error,
                       "cudaEventElapsedTime from event " + std::to_string(from) + " to event " + std::to_string(to),
                       error == cudaErrorNotReady ? "both events must have completed" : "");
    return std::llround(static_cast<double>(ms) * 1e6);
}

void CudaRuntimeDevice::copyAsync(void* dst, const void* src, std::size_t bytes, CopyDirection direction,
                                  HostMemoryKind hostKind, StreamId stream)
{
    cudaStream_t handle = streamHandle(stream);
    if (bytes == 0)
        return;
    makeCurrent();
    // One call for every host memory kind: the runtime recognises pinned and
    // registered pages itself and stages pageable ones (blocking the host
    // until they are consumed), so `hostKind` only labels failures.
    const cudaMemcpyKind kind =
        direction == CopyDirection::HostToDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    const cudaError_t error = cudaMemcpyAsync(dst, src, bytes, kind, handle);
    if (error != cudaSuccess)
        throwCudaError(error, std::string("cudaMemcpyAsync ") + toString(direction) + " of " + bytesText(bytes)
                                  + " on stream " + std::to_string(stream),
                       std::string(toString(hostKind)) + " host memory, dst " + formatPointer(dst) + ", src "
                           + formatPointer(src));
}

bool CudaRuntimeDevice::canAccessPeer(Device& peer)
{
    auto* other = dynamic_cast<CudaRuntimeDevice*>(&peer);
    if (!other || other->m_ordinal == m_ordinal)
        return false;
    int can = 0;
    checkCuda(cudaDeviceCanAccessPeer(&can, m_ordinal, other->m_ordinal), "cudaDeviceCanAccessPeer");
    return can != 0;
}

void CudaRuntimeDevice::setPeerAccess(Device& peer, bool enabled)
{
    auto* other = dynamic_cast<CudaRuntimeDevice*>(&peer);
    if (!other || other->m_ordinal == m_ordinal)
        throw DeviceError("peer access: " + peer.info().label() + " is not another CUDA GPU of this process");
    makeCurrent();
    const cudaError_t error =
        enabled ? cudaDeviceEnablePeerAccess(other->m_ordinal, 0) : cudaDeviceDisablePeerAccess(other->m_ordinal);
    // Asking for the state it already has is not a failure.
    if (error == cudaErrorPeerAccessAlreadyEnabled || error == cudaErrorPeerAccessNotEnabled) {
        static_cast<void>(cudaGetLastError());
        return;
    }
    if (error != cudaSuccess)
        throwCudaError(error, std::string(enabled ? "cudaDeviceEnablePeerAccess" : "cudaDeviceDisablePeerAccess")
                                  + " from GPU " + std::to_string(m_ordinal) + " to GPU "
                                  + std::to_string(other->m_ordinal));
}

void CudaRuntimeDevice::copyPeerAsync(void* dst, Device& peer, const void* src, std::size_t bytes, StreamId stream)
{
    cudaStream_t handle = streamHandle(stream);
    auto* other = dynamic_cast<CudaRuntimeDevice*>(&peer);
    if (!other)
        throw DeviceError("cudaMemcpyPeerAsync: " + peer.info().label() + " is not a CUDA GPU");
    if (bytes == 0)
        return;
    makeCurrent();
    const cudaError_t error = cudaMemcpyPeerAsync(dst, other->m_ordinal, src, m_ordinal, bytes, handle);
    if (error != cudaSuccess)
        throwCudaError(error, "cudaMemcpyPeerAsync of " + bytesText(bytes) + " from GPU " + std::to_string(m_ordinal)
                                  + " to GPU " + std::to_string(other->m_ordinal),
                       "dst " + formatPointer(dst) + ", src " + formatPointer(src));
}

void CudaRuntimeDevice::launchIncrement(float* data, std::size_t count, int repeats, StreamId stream)
{
    cudaStream_t handle = streamHandle(stream);
    if (repeats < 0)
        throw DeviceError("launchIncrement: repeats must be >= 0, got " + std::to_string(repeats));
    if (count == 0 || repeats == 0)
        return;
    // A kernel dereferencing null would lose the whole context, not just fail.
    if (!data)
        throw DeviceError("launchIncrement: null data pointer for " + std::to_string(count) + " floats");
    makeCurrent();
    // Separate launches, not a loop inside one kernel: each repeat is then a
    // real pass over device memory that the timeline can show.
    for (int pass = 0; pass < repeats; ++pass) {
        const cudaError_t error = enqueueIncrement(data, count, m_multiProcessorCount, handle);
        if (error != cudaSuccess)
            throwCudaError(error,
                           "increment kernel launch " + std::to_string(pass + 1) + " of " + std::to_string(repeats)
                               + " on stream " + std::to_string(stream),
                           std::to_string(count) + " floats at " + formatPointer(data));
    }
}

void CudaRuntimeDevice::hostCopy(void* dst, const void* src, std::size_t bytes)
{
    if (bytes != 0)
        std::memcpy(dst, src, bytes);
}

std::vector<HostInterval> CudaRuntimeDevice::hostCopyParallel(void* dst, const void* src, std::size_t bytes,
                                                             int threads)
{
    return m_copyPool.copy(dst, src, bytes, threads);
}

void CudaRuntimeDevice::checkHostAccess(const void*, std::size_t)
{
    // Real hardware cannot see host accesses; the simulator checks them.
}

std::int64_t CudaRuntimeDevice::hostNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void CudaRuntimeDevice::tagWork(std::uint64_t opId)
{
#if OVERLAPSCOPE_HAVE_CUPTI
    if (!m_cuptiOwner)
        return;
    CuptiActivityCollector& collector = CuptiActivityCollector::instance();
    if (m_tagPushed) {
        m_tagPushed = false;
        collector.popOpId();
    }
    if (opId != 0) {
        collector.pushOpId(m_cuptiOwner, opId);
        m_tagPushed = true;
    }
#else
    static_cast<void>(opId);
#endif
}

std::vector<EngineRecord> CudaRuntimeDevice::takeEngineRecords()
{
#if OVERLAPSCOPE_HAVE_CUPTI
    if (m_cuptiOwner) {
        // A forced flush hands over records of work still running with their
        // times unset, and those are lost; force it only when every stream is
        // idle (seen on the H200: an upload in flight lost its record).
        bool idle = true;
        for (cudaStream_t stream : m_streams) {
            if (stream && cudaStreamQuery(stream) != cudaSuccess) {
                idle = false;
                static_cast<void>(cudaGetLastError()); // cudaErrorNotReady is not an error
                break;
            }
        }
        return CuptiActivityCollector::instance().take(m_cuptiOwner, idle);
    }
#endif
    return {};
}

std::vector<std::string> CudaRuntimeDevice::takeEngineTimingLoss()
{
#if OVERLAPSCOPE_HAVE_CUPTI
    if (m_cuptiOwner)
        return CuptiActivityCollector::instance().takeLoss(m_cuptiOwner);
#endif
    return {};
}

void CudaRuntimeDevice::primeEngineTiming()
{
#if OVERLAPSCOPE_HAVE_CUPTI
    if (!m_cuptiOwner)
        return;
    // One small copy each way and one kernel, on a stream of its own, with
    // no op id: their records join nothing and are dropped. Every status is
    // checked, but a failure here only costs the priming, never the run, so
    // it is reported by the run's own calls if the device is really broken.
    makeCurrent();
    constexpr std::size_t kCount = 256;
    void* deviceMemory = nullptr;
    void* hostMemory = nullptr;
    cudaStream_t stream = nullptr;
    if (cudaMalloc(&deviceMemory, kCount * sizeof(float)) == cudaSuccess
        && cudaMallocHost(&hostMemory, kCount * sizeof(float)) == cudaSuccess
        && cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess) {
        float* device = static_cast<float*>(deviceMemory);
        float* host = static_cast<float*>(hostMemory);
        std::fill(host, host + kCount, 0.0f);
        static_cast<void>(cudaMemcpyAsync(device, host, kCount * sizeof(float), cudaMemcpyHostToDevice, stream));
        static_cast<void>(enqueueIncrement(device, kCount, m_multiProcessorCount, stream));
        static_cast<void>(cudaMemcpyAsync(host, device, kCount * sizeof(float), cudaMemcpyDeviceToHost, stream));
        static_cast<void>(cudaStreamSynchronize(stream));
    }
    if (stream)
        static_cast<void>(cudaStreamDestroy(stream));
    static_cast<void>(cudaFreeHost(hostMemory));
    static_cast<void>(cudaFree(deviceMemory));
    static_cast<void>(cudaGetLastError());
#endif
}

std::string CudaRuntimeDevice::engineTimingSource(std::string* whyNot) const
{
    if (m_cuptiOwner)
        return "cupti";
    if (whyNot)
        *whyNot = m_whyNoCupti;
    return {};
}

} // namespace ovs
