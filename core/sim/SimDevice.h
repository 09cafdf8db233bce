#pragma once

#include "device/Device.h"
#include "base/SimEngine.h"
#include "sim/SimHost.h"
#include "sim/SimPreset.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ovs {

// What an engine actually executed, as CUPTI would report it on real hardware.
struct SimActivity {
    enum class Kind : std::uint8_t { CopyHtoD, CopyDtoH, Kernel };
    Kind kind = Kind::Kernel;
    StreamId stream = 0;
    HostMemoryKind memory = HostMemoryKind::None;
    std::uint64_t bytes = 0;
    std::int64_t readyNs = 0; // stream reached it and the launch latency passed
    std::int64_t startNs = 0; // the engine started it
    std::int64_t endNs = 0;
};

// A deterministic discrete-event model of a GPU behind PCIe (see SimPreset for
// the figures). It really moves and increments the data, so pipelines verify
// their output here exactly as on a GPU, while time is virtual: the host has
// a clock that advances by what the host does (API calls, memcpy, waits), and
// each engine books intervals in its own timeline.
//
// Unlike real hardware it sees every buffer access, so it reports the misuse
// the async contract forbids (touching or freeing a host buffer while a copy
// on it is in flight) as hazards.
class SimDevice final : public Device {
public:
    explicit SimDevice(SimPreset preset);
    // GPU `index` of `count` on a simulated host shared with the others: its
    // host memory traffic and virtual clock are the host's (see SimHost).
    SimDevice(SimPreset preset, std::shared_ptr<SimHost> host, int index, int count);
    ~SimDevice() override;
    SimDevice(const SimDevice&) = delete;
    SimDevice& operator=(const SimDevice&) = delete;

    const DeviceInfo& info() const override { return m_info; }
    const SimPreset& preset() const { return m_preset; }

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

    void hostCopy(void* dst, const void* src, std::size_t bytes) override;
    // Each part at the per-thread memcpy rate while the threads together stay
    // under the host's memory bandwidth; beyond it they share that bandwidth
    // evenly, and the rest speed up as parts finish.
    std::vector<HostInterval> hostCopyParallel(void* dst, const void* src, std::size_t bytes, int threads) override;
    void checkHostAccess(const void* p, std::size_t bytes) override;
    void noteFreshHostMemory(void* p, std::size_t bytes) override;
    std::vector<std::string> takeHazards() override;
    // The engine model's interval of each tagged copy and kernel pass.
    void tagWork(std::uint64_t opId) override { m_tag = opId; }
    std::vector<EngineRecord> takeEngineRecords() override;
    std::string engineTimingSource(std::string* whyNot = nullptr) const override;
    std::int64_t hostNowNs() override { return m_hostNs; }
    // Peers are the other simulated GPUs of the same simulated host.
    bool canAccessPeer(Device& peer) override;
    void setPeerAccess(Device& peer, bool enabled) override;
    // With access on, at the preset's peerGBps on this GPU's outbound copy
    // engine; off, staged through host memory (a download then an upload at
    // the pinned rates, twice its bytes of host memory traffic).
    void copyPeerAsync(void* dst, Device& peer, const void* src, std::size_t bytes, StreamId stream) override;
    void joinSharedClock(std::int64_t startNs) override;
    void leaveSharedClock() override;

    // Engine-true intervals of everything executed so far, in issue order.
    const std::vector<SimActivity>& activities() const { return m_activities; }
    std::uint64_t deviceBytesInUse() const { return m_deviceBytesInUse; }

private:
    enum class AllocKind : std::uint8_t { Device, Pinned, Registered };
    struct Allocation {
        std::unique_ptr<std::byte[]> storage; // empty for registered user memory
        std::size_t bytes = 0;
        AllocKind kind = AllocKind::Device;
    };
    // A range some queued op reads or writes until endNs.
    struct InFlight {
        const std::byte* lo;
        const std::byte* hi;
        std::int64_t endNs;
        bool writes; // the op writes the range (a download's destination)
        std::string what;
    };
    struct StreamState {
        bool alive = false;
        std::int64_t readyNs = 0;
        bool blocking = false; // synchronizes with the legacy default stream
    };
    struct EventState {
        bool alive = false;
        std::int64_t timeNs = -1; // -1: never recorded
    };

    StreamState& stream(StreamId id);
    // When work enqueued on the stream now may start, as far as the stream
    // is concerned: after its earlier work, and by the legacy default
    // stream's rules (an op on it waits for every blocking stream; work on a
    // blocking stream waits for it).
    std::int64_t streamReadyNs(StreamId id);
    // Engine time of a copy of `bytes` starting at `startNs`, at `gbps` alone
    // and slower where it meets copies in the other direction (see copyAsync).
    std::int64_t copyDurationNs(std::size_t bytes, double gbps, std::int64_t extraNs, std::int64_t startNs,
                                const std::vector<SimEngine>& opposite) const;
    EventState& event(EventId id);
    void advanceHost(std::int64_t ns) { m_hostNs += ns; }
    void waitHostUntil(std::int64_t ns);
    void track(const void* p, std::size_t bytes, std::int64_t endNs, bool writes, std::string what);
    // Reports a hazard if the host touching [p, p+bytes) races an in-flight op.
    void checkRange(const void* p, std::size_t bytes, bool hostWrites, const char* action);
    void hazard(std::string message);
    std::int64_t inFlightEnd(const void* lo, const void* hi) const;
    void pruneFinished();
    // Page-fault time for writing [p, p+bytes), forgetting those pages as fresh.
    std::int64_t faultInNs(const void* p, std::size_t bytes);
    std::int64_t allDeviceWorkEnd() const;
    // Bytes per ns one of `active` host threads copying at once gets.
    double hostCopyRate(int active) const;
    Allocation* findAllocation(const void* p, AllocKind kind);
    // Whether [p, p+bytes) lies inside one device allocation of this device.
    bool holdsDeviceRange(const void* p, std::size_t bytes) const;
    // ... inside one allocation of `kind`.
    bool holdsRange(const void* p, std::size_t bytes, AllocKind kind) const;
    // copyAsync's parts. Throws DeviceError unless the device side is in a
    // device allocation and pinned or registered host memory is what it says.
    void checkCopyRanges(const void* hostSide, const void* deviceSide, std::size_t bytes,
                         HostMemoryKind hostKind) const;
    // Where the copy runs on the engines: its start and duration, booked.
    // `fixed`: its latency and page faults; `hostTrafficBytes`: what it
    // draws from a host shared with other GPUs.
    std::pair<std::int64_t, std::int64_t> scheduleCopy(std::int64_t ready, std::size_t bytes, double gbps,
                                                       std::int64_t fixed, bool toDevice, double hostTrafficBytes);
    // `durationNs` from `startNs`, made longer where the shared host's
    // memory cannot carry the copy's traffic that fast (booked if `commit`).
    std::int64_t withHostTraffic(std::int64_t startNs, std::int64_t durationNs, std::int64_t fixedNs,
                                 double trafficBytes, bool commit);
    void* allocate(std::size_t bytes, AllocKind kind);
    void release(void* p, AllocKind kind);
    // With a shared host: waits for this device's turn on the shared clock
    // (SimHost::turn). Every booking of host memory comes after one.
    void hostTurn();
    // When host memory traffic of `trafficBytes` wanted at `gbps` from
    // `startNs` ends on the shared host; startNs + bytes/gbps without one.
    std::int64_t hostTraffic(std::int64_t startNs, double trafficBytes, double gbps, bool commit);
    static std::int64_t usToNs(double us);
    static std::int64_t transferNs(std::size_t bytes, double gbps);

    SimPreset m_preset;
    DeviceInfo m_info;
    std::shared_ptr<SimHost> m_host; // null for a GPU alone
    int m_hostIndex = -1;
    bool m_joined = false; // running beside the host's other GPUs now
    std::vector<const SimDevice*> m_peerAccess; // peers with access on
    std::int64_t m_hostNs = 0;
    std::map<const void*, Allocation> m_allocations;
    std::uint64_t m_deviceBytesInUse = 0;
    std::vector<StreamState> m_streams;
    StreamState m_legacyStream{true, 0, false};
    StreamState m_perThreadStream{true, 0, true};
    std::vector<EventState> m_events;
    std::vector<EventId> m_freeEvents;
    std::vector<SimEngine> m_h2dEngines;
    std::vector<SimEngine> m_d2hEngines;
    SimEngine m_compute;
    std::vector<InFlight> m_inFlight;
    std::vector<std::pair<const std::byte*, const std::byte*>> m_freshHost;
    std::vector<std::string> m_hazards;
    std::vector<SimActivity> m_activities;
    std::uint64_t m_tag = 0;
    std::vector<EngineRecord> m_engineRecords; // tagged, not yet taken
};

} // namespace ovs
