#pragma once

#include "device/Device.h"
#include "device/HostCopyPool.h"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace ovs {

// The Device on the CUDA runtime, for one GPU. Internal to core/cuda: others
// get it as a Device from createCudaDevice(), so the CUDA headers stay here.
class CudaRuntimeDevice final : public Device {
public:
    explicit CudaRuntimeDevice(int ordinal);
    ~CudaRuntimeDevice() override;
    CudaRuntimeDevice(const CudaRuntimeDevice&) = delete;
    CudaRuntimeDevice& operator=(const CudaRuntimeDevice&) = delete;

    const DeviceInfo& info() const override { return m_info; }

    void* allocateDevice(std::size_t bytes) override;
    void freeDevice(void* p) override;
    void* allocatePinned(std::size_t bytes) override;
    void freePinned(void* p) override;
    void registerHost(void* p, std::size_t bytes) override;
    void unregisterHost(void* p) override;
    void waitForBuffer(const void* p) override;

    using Device::createStream;
    StreamId createStream(StreamSync sync) override;
    StreamId defaultStream(DefaultStreamOp which) override;
    void destroyStream(StreamId stream) override;
    void synchronizeStream(StreamId stream) override;
    void synchronizeDevice() override;

    EventId createEvent() override;
    void destroyEvent(EventId event) override;
    void recordEvent(EventId event, StreamId stream) override;
    void streamWaitEvent(StreamId stream, EventId event) override;
    void synchronizeEvent(EventId event) override;
    bool eventDone(EventId event) override;
    std::int64_t eventElapsedNs(EventId from, EventId to) override;

    void copyAsync(void* dst, const void* src, std::size_t bytes, CopyDirection direction, HostMemoryKind hostKind,
                   StreamId stream) override;
    void launchIncrement(float* data, std::size_t count, int repeats, StreamId stream) override;
    // Peers are other CUDA GPUs of this process (cudaDeviceCanAccessPeer).
    bool canAccessPeer(Device& peer) override;
    void setPeerAccess(Device& peer, bool enabled) override;
    void copyPeerAsync(void* dst, Device& peer, const void* src, std::size_t bytes, StreamId stream) override;

    void hostCopy(void* dst, const void* src, std::size_t bytes) override;
    std::vector<HostInterval> hostCopyParallel(void* dst, const void* src, std::size_t bytes, int threads) override;
    void checkHostAccess(const void* p, std::size_t bytes) override;
    std::int64_t hostNowNs() override;

    // CUPTI activity records where libcupti loads (see CuptiActivityCollector).
    void tagWork(std::uint64_t opId) override;
    std::vector<EngineRecord> takeEngineRecords() override;
    std::vector<std::string> takeEngineTimingLoss() override;
    void primeEngineTiming() override;
    std::string engineTimingSource(std::string* whyNot = nullptr) const override;

private:
    // Destroyed events keep their CUDA handle for the next createEvent: the
    // recorder makes events per op, and cudaEventCreate/Destroy there would
    // show up as host time between ops.
    struct EventSlot {
        cudaEvent_t handle = nullptr;
        bool alive = false;
        // False until recorded since its (re)creation: a reused handle still
        // carries its previous life's record, which must not leak into this one.
        bool recorded = false;
    };

    // The runtime's current device is per host thread, and a device is often
    // created on one thread and driven from a worker, so every entry point
    // that reaches CUDA selects this GPU first.
    void makeCurrent();
    cudaStream_t streamHandle(StreamId id) const;
    EventSlot& eventSlot(EventId id);
    // Host memory and device memory are freed only once nothing queued can
    // still touch them; see freeDevice.
    void drainBeforeRelease(const char* release);

    int m_ordinal;
    int m_multiProcessorCount = 0;
    DeviceInfo m_info;
    std::vector<cudaStream_t> m_streams; // indexed by StreamId; nullptr: free
    std::vector<EventSlot> m_events;     // indexed by EventId
    std::vector<EventId> m_freeEvents;
    // Our owner id with the CUPTI collector; 0: no engine records, and why.
    std::uint16_t m_cuptiOwner = 0;
    std::string m_whyNoCupti;
    bool m_tagPushed = false; // an op id is on this thread's CUPTI stack
    // Staging threads, kept from copy to copy; its clock is hostNowNs's.
    HostCopyPool m_copyPool;
};

} // namespace ovs
