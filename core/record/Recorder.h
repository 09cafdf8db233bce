#pragma once

#include "device/Copies.h"
#include "device/HostRegistration.h"
#include "record/RecordSink.h"
#include "trace/Run.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <source_location>
#include <span>
#include <vector>

namespace ovs {

// Records a timestamp for every operation a pipeline performs, all in one
// time base (ns since the run began on the host clock):
//  - GPU ops (upload, kernel, download) between two events recorded on their
//    stream, converted to host time through an anchor event whose completion
//    the host observed. Events mark when the stream *reached* a point, so an
//    op queued behind a busy engine shows its queue time as part of it.
//    Where the device reports engine intervals (CUPTI, the simulator's
//    model), each GPU op's work is tagged with an op id and the op also gets
//    when the engine really ran it (Op::execStartNs/execEndNs).
//  - host ops (staging copies, waits, allocations, syncs) from the host clock.
// Completed ops go to the sink as soon as they are known, so a UI can draw
// them live.
//
// With `opTiming` off the recorder only does the work: no events around ops,
// no engine tags, no ops; the run keeps its timed region (the wall time) and
// says kWallOnlyTiming in its timing. That is the baseline that measures
// what recording costs (overlapscope-observer-bench, `--no-op-timing`).
class Recorder {
public:
    Recorder(Device& device, RecordSink& sink, Run header, bool opTiming = true);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    Device& device() const { return m_device; }

    // Lanes, in display order. A stream lane collects the GPU ops enqueued on
    // it; its StreamKind is what the stream is (its sync, or which default
    // stream).
    std::uint16_t addStreamLane(const Stream& stream, std::string name);
    std::uint16_t addHostLane(std::string name);
    void setHostLane(std::uint16_t lane) { m_hostLane = lane; }

    // Starts the clock: aligns event time to host time. Ops before this are invalid.
    void begin();
    // The timed region; it is also the run's region "loop" (depth 0, source
    // Pipeline, on the host lane), so views and analysis find the loop as
    // they find a profiled program's NVTX range.
    void markTimedBegin();
    void markTimedEnd();
    // The pipeline's loop iteration for `chunk` begins: region "chunk N"
    // (depth 1, on the host lane) from here to the next beginChunk or
    // endChunks. Only the first kMaxChunkRegions chunks get one: a
    // million-chunk run would otherwise carry a million regions (about
    // 60 bytes each) that no view can show apart.
    static constexpr int kMaxChunkRegions = 10'000;
    void beginChunk(int chunk);
    // The loop has issued its last chunk (what follows is its drain).
    void endChunks();

    // GPU ops. Each returns when the op is enqueued (a pageable copy blocks
    // until the driver has staged it: that host time is recorded too).
    CopyToken upload(Stream& stream, DeviceBuffer<float>& dst, const PinnedHostBuffer<float>& src, int chunk,
                     std::source_location where = std::source_location::current());
    CopyToken upload(Stream& stream, DeviceBuffer<float>& dst, std::span<const float> src, HostMemoryKind kind,
                     int chunk, std::source_location where = std::source_location::current());
    void kernel(Stream& stream, DeviceBuffer<float>& data, int repeats, int chunk,
                std::source_location where = std::source_location::current());
    CopyToken download(Stream& stream, PinnedHostBuffer<float>& dst, const DeviceBuffer<float>& src, int chunk,
                       std::source_location where = std::source_location::current());
    CopyToken download(Stream& stream, std::span<float> dst, const DeviceBuffer<float>& src, HostMemoryKind kind,
                       int chunk, std::source_location where = std::source_location::current());

    // Host ops.
    void hostCopy(OpKind kind, void* dst, const void* src, std::size_t bytes, HostMemoryKind memory, int chunk,
                  std::source_location where = std::source_location::current());
    // The same copy cut into `threads` parts done at once by the device's
    // staging threads: one op per part, part i on lane "staging i+1". The
    // calling thread only waits, so its own lane stays empty meanwhile.
    void hostCopyParallel(OpKind kind, void* dst, const void* src, std::size_t bytes, int threads,
                          HostMemoryKind memory, int chunk,
                          std::source_location where = std::source_location::current());
    // Adds host lanes "staging 1".."staging N" that do not exist yet; a
    // pipeline calls it up front to place them before its stream lanes.
    void ensureStagingLanes(int threads);
    // cudaHostRegister / cudaHostUnregister of the user's memory, each an op
    // of kind Register on the host lane.
    HostRegistration registerHost(void* p, std::size_t bytes,
                                  std::source_location where = std::source_location::current());
    void unregisterHost(HostRegistration& registration,
                        std::source_location where = std::source_location::current());
    void wait(CopyToken& token, int chunk, std::source_location where = std::source_location::current());
    void synchronize(Stream& stream, std::source_location where = std::source_location::current());
    template <typename T>
    DeviceBuffer<T> allocateDevice(std::size_t count, int chunk,
                                   std::source_location where = std::source_location::current())
    {
        at(where);
        const std::int64_t t0 = now();
        DeviceBuffer<T> buffer(m_device, count);
        emitHost(OpKind::Alloc, t0, chunk, count * sizeof(T), HostMemoryKind::None);
        return buffer;
    }
    template <typename T>
    PinnedHostBuffer<T> allocatePinned(std::size_t count, int chunk,
                                       std::source_location where = std::source_location::current())
    {
        at(where);
        const std::int64_t t0 = now();
        PinnedHostBuffer<T> buffer(m_device, count);
        emitHost(OpKind::Alloc, t0, chunk, count * sizeof(T), HostMemoryKind::Pinned);
        return buffer;
    }
    // Frees a buffer (waiting for its work first) and records the time it took.
    template <typename Buffer>
    void release(Buffer& buffer, int chunk, HostMemoryKind memory,
                 std::source_location where = std::source_location::current())
    {
        at(where);
        const std::int64_t t0 = now();
        const auto bytes = buffer.bytes();
        {
            Buffer gone = std::move(buffer);
        }
        emitHost(OpKind::Free, t0, chunk, bytes, memory);
    }

    // Emits every op whose end event has completed.
    void poll();
    // Waits for every pending op, emits it, and returns the finished run.
    Run finish(RunStatus status = RunStatus::Completed, std::string error = {});

    // ns since begin() on the host clock.
    std::int64_t now();

private:
    struct Pending {
        std::shared_ptr<Event> start;
        std::shared_ptr<Event> end;
        Op op;
        std::uint64_t opId = 0; // the device work's tag (see Device::tagWork); 0: untagged
        int launches = 0;       // engine records to expect: one per copy or kernel pass
        std::uint32_t site = 0; // its call's line (Run::sourceSites), 0: none
        std::int64_t doneNs = -1; // run time its end event was first seen complete
    };
    // The engine interval of one op so far, host clock; min start, max end
    // over its records.
    struct EngineSpan {
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        int records = 0;
    };

    template <typename Enqueue>
    CopyToken recordCopy(OpKind kind, Stream& stream, std::size_t bytes, HostMemoryKind memory, int chunk,
                         Enqueue&& enqueue)
    {
        if (!m_opTiming)
            return enqueue();
        auto start = startEvent(stream);
        const std::int64_t t0 = now();
        const std::uint64_t opId = nextOpId();
        m_device.tagWork(opId);
        CopyToken token;
        try {
            token = enqueue();
        } catch (...) {
            untagAfterFailure();
            throw;
        }
        m_device.tagWork(0);
        if (memory == HostMemoryKind::Pageable)
            emitHost(OpKind::HostWait, t0, chunk, bytes, memory); // the driver staged it with this thread
        addPending(kind, stream, std::move(start), token.completion(), bytes, memory, chunk, opId, bytes > 0 ? 1 : 0);
        return token;
    }
    std::shared_ptr<Event> startEvent(Stream& stream);
    // `launches` engine records are expected for `opId` (0: none).
    void addPending(OpKind kind, const Stream& stream, std::shared_ptr<Event> start, std::shared_ptr<Event> end,
                    std::uint64_t bytes, HostMemoryKind memory, int chunk, std::uint64_t opId = 0, int launches = 0);
    std::uint64_t nextOpId();
    void untagAfterFailure();
    // Joins the device's engine records to their ops; an op already emitted
    // gets them in the finished run.
    void collectEngineRecords();
    void applyExec(Op& op, const EngineSpan& span);
    // Emits completed ops; with `waitForEngine`, an op whose engine records
    // have not all arrived stays pending a while (see kEngineRecordWaitNs).
    void emitCompleted(bool waitForEngine);
    void emitHost(OpKind kind, std::int64_t startNs, int chunk, std::uint64_t bytes, HostMemoryKind memory);
    // The pipeline's line that asked for the ops recorded next (`where`,
    // its call of ours): kept once per line in the run's sourceSites, and
    // each op it records points at it (Run::opSources), as a profiled
    // program's calls point at their stacks' lines. A pipeline's finding
    // then names the line of core/pipeline that does it (docs/profiling.md,
    // "Call sites"), and a lesson's takeaway can quote it.
    void at(const std::source_location& where);
    // The op just appended to m_run.ops was asked for at `site`.
    void keepSite(std::uint32_t site);
    std::int64_t eventTimeNs(Event& event);
    std::uint16_t laneOf(const Stream& stream) const;
    void flush();
    void closeChunkRegion();

    Device& m_device;
    RecordSink& m_sink;
    Run m_run;
    bool m_opTiming = true;
    std::map<StreamId, std::uint16_t> m_streamLanes;
    std::uint16_t m_hostLane = 0;
    std::vector<std::uint16_t> m_stagingLanes; // lane of staging thread i
    bool m_begun = false;
    std::int64_t m_hostStartNs = 0;   // host clock at the run's t = 0
    std::int64_t m_anchorHostNs = 0;  // run time at which the anchor event completed
    std::unique_ptr<Stream> m_anchorStream;
    std::unique_ptr<Event> m_anchor;
    std::deque<Pending> m_pending;
    std::vector<Op> m_batch;
    bool m_engineTiming = false;   // the device reports engine intervals
    std::int64_t m_lastFetchNs = 0; // run time engine records were last fetched
    bool m_engineJoined = false;   // some op got one
    std::vector<EngineSpan> m_engineSpans; // indexed by op id - 1
    std::vector<std::size_t> m_opIndex;     // indexed by op id - 1: its place in m_run.ops once emitted
    bool m_timedBegun = false;
    int m_openChunk = -1;              // chunk whose region is open, -1 if none
    std::int64_t m_chunkBeginNs = 0;
    std::uint32_t m_site = 0; // of the current call (at)
    std::map<std::pair<const char*, std::uint32_t>, std::uint32_t> m_siteIds; // (file, line) -> site
};

} // namespace ovs
