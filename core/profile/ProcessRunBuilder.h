#pragma once

#include "cupti/BufferLoss.h"
#include "cupti/ClockMap.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamDecoder.h"
#include "symbols/StackSites.h"
#include "trace/KernelShapeTable.h"
#include "trace/Run.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ovs::profile {

// How a traced process ended, as far as the profiler knows.
struct ProcessEnding {
    bool cancelled = false; // the user stopped the program
    // For the program profile launched (not its children): "exit status 3",
    // "killed by signal 9 (Killed)"; empty when not known.
    std::string exitStatus;
    bool exitedCleanly = false; // exit status 0
};

// Turns one process's record stream into a Run: lanes per device and stream,
// then per host thread; copies, memsets and kernels on the stream lanes with
// CUPTI's engine times; the runtime and driver calls that matter on the
// thread lanes, joined to their GPU work by correlation id; unified-memory
// migrations and faults on a "GPU N · unified memory" lane per device; NVTX ranges and
// the cudaProfilerStart/Stop range as the run's regions; where call stacks
// were captured, each call's site, symbolized when the run is finished
// (symbols/StackSites.h). Ops can be taken
// while the stream is still growing (a live view); finish() makes the run.
class ProcessRunBuilder {
public:
    // `zeroNs`: the monotonic instant that is time 0 of every run of the
    // profile, so that the processes of one profile share a time axis.
    explicit ProcessRunBuilder(std::int64_t zeroNs);

    void add(const DecodedRecord& record);

    bool begun() const { return m_begun; }
    bool ended() const { return m_ended; }
    std::uint32_t pid() const { return m_pid; }
    std::uint32_t parentPid() const { return m_parentPid; }
    std::uint64_t gpuOps() const { return m_gpuOps; }
    std::uint64_t apiCalls() const { return m_apiCalls; }
    std::uint64_t unifiedMemoryOps() const { return m_unifiedMemoryOps; }

    // The run so far: header, lanes in order of appearance, names. Its ops
    // are not on the run's time base yet; take them with takeNewOps().
    const Run& live() const { return m_run; }
    // Lanes added since the last call, with their indices.
    std::vector<std::pair<int, Lane>> takeNewLanes();
    // Ops added since the last call, on the profile's time base.
    std::vector<Op> takeNewOps();

    // The finished run. `streamProblem`: what was wrong with the stream's
    // bytes (corrupt, cut off inside a record), empty when nothing.
    Run finish(const ProcessEnding& ending, const std::string& streamProblem);
    // The lane of a host thread in the run (in the finished run's order
    // once finish() has ordered the lanes); -1 when the thread has none.
    int threadLaneOf(std::uint32_t threadId) const;

private:
    struct StreamLane {
        std::uint32_t deviceId = 0;
        std::uint32_t contextId = 0;
        std::uint32_t streamId = 0;
        int lane = 0;
    };

    void begin(const BeginRecord& begin, std::string_view commandLine);
    int streamLane(std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId);
    int threadLane(std::uint32_t threadId);
    std::string streamLaneName(const StreamLane& s, bool withDevice) const;
    // From the context's null stream and the stream's CUPTI flag.
    StreamKind streamKindOf(const StreamLane& s) const;
    // What the profile's records say about CUDA device `id`.
    DeviceInfo deviceInfoOf(std::uint32_t id) const;
    std::string threadLaneName(std::uint32_t threadId) const;
    static std::string unifiedMemoryLaneName(std::uint32_t deviceId);
    int addLane(std::string name, LaneKind kind, StreamKind streamKind = StreamKind::Unknown);
    std::uint32_t nameId(const std::string& name);
    const std::string& text(std::uint32_t stringId) const;
    void addGpuOp(Op op, std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId,
                  std::uint64_t startNs, std::uint64_t endNs);
    void addMemcpy(const MemcpyRecord& r);
    void addMemset(const MemsetRecord& r);
    void addKernel(const KernelRecord& r);
    void addApi(const ApiRecord& r);
    void addSync(const SyncRecord& r);
    void nameSync(Op& op, const SyncRecord& r);
    void addUnifiedMemory(const UnifiedMemoryRecord& r);
    int unifiedMemoryLane(std::uint32_t deviceId);
    void addNote(const NoteRecord& r, std::string_view text);
    void addModule(const ModuleRecord& r, std::string_view path);
    void addStack(const StackRecord& r, const DecodedRecord& record);
    // At the end: each call with a stack gets its stack's site (Run::opSources).
    void attachSites();
    void addRange(const RangeRecord& r, std::string_view text);
    // At the end: ranges still open close where the recording ended, NVTX
    // start/end ranges get their depth, and the profiler range is found.
    void closeOpenRanges();
    void finishRegions(std::int64_t endNs);
    void placeStartEndRanges();
    void addProfilerRanges(std::int64_t endNs);
    std::int64_t runTime(std::int64_t cuptiNs) const;
    void fillDevice();
    void orderLanes(bool multiDevice);
    void dropNestedDriverCalls();
    void dropOverlappingOps();
    // Removes the ops marked in `drop` from the run and counts its calls again.
    void removeOps(const std::vector<bool>& drop);
    std::string endingText(const ProcessEnding& ending, const std::string& streamProblem) const;

    std::int64_t m_zeroNs;
    Run m_run;
    cupti::ClockMap m_clock;
    bool m_begun = false;
    bool m_ended = false;
    std::uint32_t m_pid = 0;
    std::uint32_t m_parentPid = 0;
    std::string m_notRecorded; // why tracing did not start
    std::vector<std::string> m_warnings;
    cupti::BufferLoss m_loss; // from LossRecord, UnreadBuffersRecord and EndRecord
    std::uint64_t m_untimed = 0;
    std::uint64_t m_gpuOps = 0;
    std::uint64_t m_apiCalls = 0;
    std::uint64_t m_unifiedMemoryOps = 0;

    std::unordered_map<std::uint32_t, std::string> m_strings; // the stream's string ids
    std::unordered_map<std::string, std::uint32_t> m_nameIds; // into m_run.names
    std::map<std::uint32_t, DeviceRecord> m_devices;
    KernelShapeTable m_shapes; // the kernels' launch shapes, into m_run.kernelShapes at the end
    std::unordered_map<std::uint32_t, ContextRecord> m_contexts;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> m_streamFlags; // (context, stream)
    std::map<std::pair<std::uint32_t, std::uint32_t>, StreamLane> m_streamLanes;    // (context, stream)
    std::map<std::uint32_t, int> m_threadLanes;
    std::map<std::uint32_t, int> m_unifiedMemoryLanes; // CUDA device id -> lane
    std::unordered_map<std::uint32_t, std::uint32_t> m_threadNames; // thread -> string id
    std::vector<bool> m_laneIsStream;
    // Correlation id -> index of the runtime call's op, to name synchronizations
    // and to drop driver calls made inside a runtime call.
    std::unordered_map<std::uint32_t, std::size_t> m_runtimeCalls;
    std::vector<std::size_t> m_driverCalls;
    std::unordered_map<std::uint32_t, SyncRecord> m_pendingSyncs;
    // NVTX: push/pop ranges open per (thread, domain), start/end ranges open
    // by range id; times are already on the run's time base (RangeRecord).
    struct OpenRange {
        std::int64_t beginNs = 0;
        std::string name;
        int lane = 0;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<OpenRange>> m_pushed;
    std::unordered_map<std::uint64_t, OpenRange> m_started;
    // Regions of start/end ranges, whose depth is set at the end (they need
    // not nest with anything): indices into m_run.regions.
    std::vector<std::size_t> m_startEndRegions;
    std::uint64_t m_unmatchedPops = 0;
    std::uint64_t m_unmatchedEnds = 0;
    std::uint64_t m_droppedRanges = 0;
    std::int64_t m_lastRangeNs = 0;
    // Call stacks: what the capture was set to (none: no StackState came),
    // the stacks and objects, and each call's stack by correlation id.
    std::optional<StackStateRecord> m_stackState;
    StackSites m_stackSites;
    std::unordered_map<std::uint32_t, std::uint32_t> m_callStacks;
    std::uint64_t m_badStackRecords = 0;
    std::uint32_t m_firstDevice = UINT32_MAX;
    // Lane index before finish() ordered the lanes -> after; empty before.
    std::vector<std::uint16_t> m_orderedLane;
    std::size_t m_lanesTaken = 0;
    std::size_t m_opsTaken = 0;
};

} // namespace ovs::profile
