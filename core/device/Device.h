#pragma once

#include "base/DeviceInfo.h"
#include "device/DeviceTypes.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// The one seam between the pipelines and a GPU. A CUDA device and the
// simulated device implement it; pipelines, the benchmark and the recorder
// only ever talk to this, so one implementation runs everywhere.
//
// The raw interface is deliberately untyped and handle-based; code should use
// the RAII wrappers (Stream, Event, DeviceBuffer, PinnedHostBuffer, CopyToken)
// which enforce the drain-before-free and wait-before-touch contracts.
//
// Not thread-safe: one host thread drives a device at a time.
class Device {
public:
    virtual ~Device() = default;

    virtual const DeviceInfo& info() const = 0;

    // Memory. Failures throw DeviceError with the sizes in the message.
    virtual void* allocateDevice(std::size_t bytes) = 0;
    // Never frees under a copy: work still using `p` is drained first (the
    // simulator also reports that as a hazard, since the caller should have
    // waited; the RAII wrappers do).
    virtual void freeDevice(void* p) = 0;
    virtual void* allocatePinned(std::size_t bytes) = 0;
    virtual void freePinned(void* p) = 0;
    // Page-locks memory the caller owns (cudaHostRegister).
    virtual void registerHost(void* p, std::size_t bytes) = 0;
    virtual void unregisterHost(void* p) = 0;
    // Blocks the host until no queued work reads or writes `p`.
    virtual void waitForBuffer(const void* p) = 0;

    // Non-blocking streams never synchronize with the legacy default stream;
    // blocking ones (cudaStreamCreate's default) do: an op on the legacy
    // default stream waits for all their earlier work, and their later work
    // waits for it. The pipelines use non-blocking streams unless a lesson
    // asks for the other kind.
    virtual StreamId createStream(StreamSync sync) = 0;
    StreamId createStream() { return createStream(StreamSync::NonBlocking); }
    // The legacy (cudaStreamLegacy, "stream 0") or per-thread
    // (cudaStreamPerThread) default stream: kLegacyDefaultStream or
    // kPerThreadDefaultStream, usable wherever a stream is, never destroyed.
    // The per-thread one is a blocking stream of the calling thread.
    virtual StreamId defaultStream(DefaultStreamOp which) = 0;
    // Drains the stream first. A default stream cannot be destroyed.
    virtual void destroyStream(StreamId stream) = 0;
    virtual void synchronizeStream(StreamId stream) = 0;
    virtual void synchronizeDevice() = 0;

    virtual EventId createEvent() = 0;
    virtual void destroyEvent(EventId event) = 0;
    // The event completes when the stream reaches it.
    virtual void recordEvent(EventId event, StreamId stream) = 0;
    // Later work on `stream` waits for `event`.
    virtual void streamWaitEvent(StreamId stream, EventId event) = 0;
    virtual void synchronizeEvent(EventId event) = 0;
    virtual bool eventDone(EventId event) = 0;
    // Nanoseconds from `from` to `to`; both must have completed.
    virtual std::int64_t eventElapsedNs(EventId from, EventId to) = 0;

    // Enqueues a copy on `stream`. `hostKind` says what the host side is; a
    // pageable copy is staged by the driver and returns only when the host
    // side is consumed, so it does not overlap with host work.
    virtual void copyAsync(void* dst, const void* src, std::size_t bytes, CopyDirection direction,
                           HostMemoryKind hostKind, StreamId stream) = 0;
    // data[i] += 1.0f, `repeats` times, for i < count.
    virtual void launchIncrement(float* data, std::size_t count, int repeats, StreamId stream) = 0;

    // Host-side work the timing model must see: a staging memcpy on this host
    // thread. The simulator charges it at the host memcpy rate and reports a
    // hazard if either range is in flight in a copy.
    virtual void hostCopy(void* dst, const void* src, std::size_t bytes) = 0;
    // Declares that the host is about to read or write [p, p+bytes). The
    // simulator reports a hazard if a copy on that range is still in flight.
    virtual void checkHostAccess(const void* p, std::size_t bytes) = 0;

    // Copies with `threads` host threads, each a contiguous part, and returns
    // when all are done, with each part's interval on the host clock (in
    // part order). The simulator charges each thread the host memcpy rate,
    // capped by the host's aggregate memory bandwidth.
    virtual std::vector<HostInterval> hostCopyParallel(void* dst, const void* src, std::size_t bytes, int threads) = 0;

    // ---- Engine-true timing -------------------------------------------------
    // Events say when a stream reached a point; these say when an engine ran
    // the work (CUPTI activity records on CUDA, the engine model in the
    // simulator). Work enqueued after tagWork(id) carries `id` until the next
    // tagWork; tagWork(0) stops tagging.
    virtual void tagWork(std::uint64_t opId) { (void)opId; }
    // Engine intervals of tagged work completed since the last call, on the
    // host clock. An op made of several launches has several records.
    virtual std::vector<EngineRecord> takeEngineRecords() { return {}; }
    // Readies engine timing for a timed region: runs, untagged, whatever the
    // tracer needs to have seen once since it last handed records over, and
    // waits for it. CUPTI sets up its state lazily at the first traced copy
    // and kernel after a flush; on the H200 that held the first upload of
    // every recorded run back by about 0.45 ms (docs/measurements.md).
    virtual void primeEngineTiming() {}
    // What the engine records lack since the last call, in words the user
    // sees: records the tracer dropped or could not read, kinds of records
    // it would not collect. A loss never fails a run (its ops keep their
    // event times); the Recorder asks at a run's start, so only the run's
    // own losses count, and adds them to its message at the end.
    virtual std::vector<std::string> takeEngineTimingLoss() { return {}; }
    // Where engine intervals come from ("cupti", "simulated engine model"),
    // or empty with `whyNot` saying why there are none.
    virtual std::string engineTimingSource(std::string* whyNot = nullptr) const
    {
        if (whyNot)
            *whyNot = "this device reports no engine activity";
        return {};
    }

    // Declares [p, p+bytes) as freshly allocated pageable memory whose pages
    // the OS has not mapped yet, so the first write into it page-faults. Real
    // devices pay that for real and ignore this; the simulator charges it.
    virtual void noteFreshHostMemory(void* p, std::size_t bytes) { (void)p, (void)bytes; }

    // Contract violations detected since the last call (an in-flight host
    // buffer touched or freed). The simulator detects them; real hardware
    // cannot, so the default is none.
    virtual std::vector<std::string> takeHazards() { return {}; }

    // Monotonic host clock in ns (virtual in the simulator). Events are aligned
    // to it by the recorder.
    virtual std::int64_t hostNowNs() = 0;

    // ---- Peer copies between two GPUs of one host ---------------------------
    // Whether this device can map `peer`'s memory (cudaDeviceCanAccessPeer).
    virtual bool canAccessPeer(Device& peer) { (void)peer; return false; }
    // Turns direct access to `peer`'s memory on or off for copies this device
    // issues (cudaDeviceEnablePeerAccess / DisablePeerAccess). Off, a peer
    // copy still works, staged by the driver through host memory.
    virtual void setPeerAccess(Device& peer, bool enabled)
    {
        (void)peer, (void)enabled;
        throw DeviceError(info().label() + " cannot copy to another GPU");
    }
    // Enqueues a copy of `bytes` from this device's `src` to `dst`, device
    // memory of `peer`, on `stream` of this device (cudaMemcpyPeerAsync).
    virtual void copyPeerAsync(void* dst, Device& peer, const void* src, std::size_t bytes, StreamId stream)
    {
        (void)dst, (void)peer, (void)src, (void)bytes, (void)stream;
        throw DeviceError(info().label() + " cannot copy to another GPU");
    }

    // ---- Several devices of one host driven at once -------------------------
    // runPipelineOnDevices drives each device from a host thread of its own.
    // Real devices share the host's real clock and need nothing. Simulated
    // devices of one simulated host (sim:h200x2) share its memory bandwidth
    // and one virtual clock: every device joins at the common start before
    // any thread runs, and leaves when its thread is done (see SimHost).
    virtual void joinSharedClock(std::int64_t startNs) { (void)startNs; }
    virtual void leaveSharedClock() {}
};

} // namespace ovs
