#pragma once

#include "base/DeviceInfo.h"
#include "base/RunVariant.h"
#include "trace/KernelShape.h"
#include "trace/Op.h"
#include "trace/SourceSite.h"
#include "trace/UnifiedMemoryOp.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ovs {

// What kind of CUDA stream a stream lane is: it decides which implicit
// barriers the stream takes part in (the legacy default stream waits for and
// holds up every blocking stream of its context, the per-thread default
// stream among them; non-blocking streams take none). A typed fact, so analysis never
// parses lane names; traces that do not say are Unknown (treated as a
// created non-blocking stream, except a lane named as the legacy stream).
enum class StreamKind : std::uint8_t {
    Unknown,
    Blocking,         // cudaStreamCreate / flag 1: synchronizes with the legacy default stream
    NonBlocking,      // cudaStreamNonBlocking
    LegacyDefault,    // stream 0 / cudaStreamLegacy
    PerThreadDefault, // cudaStreamPerThread (--default-stream per-thread)
};
const char* toString(StreamKind kind); // "unknown", "blocking", "non-blocking", "legacy-default", "per-thread-default"
std::optional<StreamKind> streamKindFromString(std::string_view name);

struct Lane {
    std::string name; // "stream 0", "host", "GPU 1 \u00b7 stream 2"
    LaneKind kind = LaneKind::Stream;
    // Which of the run's devices (Run::deviceAt) a stream lane belongs to.
    // Host lanes belong to the host, shared by every device: theirs stays 0
    // and means nothing.
    std::uint16_t device = 0;
    // Stream lanes only; host lanes keep Unknown. Last, so that the
    // {name, kind, device} initialisers around the code stay valid.
    StreamKind streamKind = StreamKind::Unknown;
};

// The most lanes a run can have: Op::lane is 16 bits wide.
inline constexpr std::size_t kMaxLanes = 65535;

// The knobs a pipeline run was made with.
struct RunParams {
    int chunks = 0;
    std::uint64_t chunkBytes = 0;
    int slotCount = 0; // not `slots`: Qt defines that word as a macro
    int kernelRepeats = 1;
    int stagingThreads = 1;
    // The rotating-stream variants (see PipelineConfig); the defaults are
    // what a trace without them means.
    IssueOrder issueOrder = IssueOrder::DepthFirst;
    StreamSync streamSync = StreamSync::NonBlocking;
    DefaultStreamOp defaultStreamOp = DefaultStreamOp::None;
    LoopAllocation loopAllocation = LoopAllocation::None;
};

struct Verification {
    bool checked = false;
    bool passed = false;
    std::uint64_t mismatches = 0;
    std::string message; // "verified: 67108864 of 67108864 floats equal input + 1"
};

// Run::timing of a run recorded without op timing: only its timed region
// (wall time) is known, it has no ops (see Recorder).
inline constexpr const char* kWallOnlyTiming = "wall-only";

// Where a region came from: the program's own annotations, the profiler's
// ranges, or our pipelines' structure.
enum class RegionSource : std::uint8_t {
    Nvtx,          // an NVTX push/pop or start/end range of a profiled program
    ProfilerRange, // between cudaProfilerStart and cudaProfilerStop
    Annotation,    // Kineto's user_annotation (torch record_function) on a host thread
    GpuAnnotation, // Kineto's gpu_user_annotation: the GPU span of an annotation
    ProfilerStep,  // Kineto's ProfilerStep#N
    Pipeline,      // our pipelines: the run's timed loop and its chunks
};
const char* toString(RegionSource source); // "nvtx", "profiler-range", "annotation", "gpu-annotation", "profiler-step", "pipeline"
std::optional<RegionSource> regionSourceFromString(std::string_view name);

// A named span of a run: a step, an NVTX range, a record_function. Regions
// let the analysis judge the loop rather than the process (setup, warm-up
// and teardown outside them). Times in the run's time base; `lane` is the
// host-thread lane that opened it (the GPU lane for a GPU annotation), or
// kNoLane where the source names no thread.
struct Region {
    static constexpr std::uint16_t kNoLane = 0xFFFF;
    std::string name; // "ProfilerStep#3", "h2d", "loop"
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;
    std::uint16_t lane = kNoLane;
    std::uint16_t depth = 0; // nesting level on its thread: 0 outermost
    RegionSource source = RegionSource::Nvtx;

    std::int64_t durationNs() const { return endNs - beginNs; }
};

enum class RunStatus : std::uint8_t { Completed, Cancelled, Failed };
const char* toString(RunStatus status);

// One recorded pipeline run. Ops are sorted by (lane, startNs).
struct Run {
    std::string name;     // "serialized pageable"
    std::string pipeline; // pipeline id: "serialized", "overlapped", ...
    DeviceInfo device; // device 0: the only one of a single-GPU run
    // Devices 1 ... N-1 of a run spread over several GPUs of one host; empty
    // for a single-GPU run (the usual case, and every trace before format 3).
    std::vector<DeviceInfo> moreDevices;
    RunParams params;
    std::string timing;   // "cuda-events", "cuda-events+cupti", "simulated", or kWallOnlyTiming
    RunStatus status = RunStatus::Completed;
    std::string error;    // why it failed or was cancelled
    // The region the seed times (wall time), in the run's time base. Setup
    // before it (allocations) is recorded too and shown, but not counted.
    std::int64_t timedBeginNs = 0;
    std::int64_t timedEndNs = 0;
    Verification verification;
    std::vector<Lane> lanes;
    // Op names (kernels, API calls), shared by the ops that carry them:
    // Op::nameId indexes here, and names[0] is always "" (no name).
    std::vector<std::string> names{std::string()};
    std::vector<Op> ops;
    // Named spans (steps, NVTX ranges, annotations), sorted by (begin, depth);
    // empty where the source had none (every trace before format 4).
    std::vector<Region> regions;
    // One process of a distributed job: its rank as the source says it
    // (Kineto's distributedInfo.rank; a profiled process's launcher, RANK);
    // -1 where it says none. Native traces store it from format 6.
    int rank = -1;
    // The run's time 0 on a clock that the processes of one job share, in
    // ns (Kineto: wall-clock time, baseTimeNanoseconds + the first event's
    // ts); unset where the source's clock is its own. The ranks of a folder
    // are aligned on it (core/ranks).
    std::optional<std::int64_t> sharedClockOriginNs;
    // Kernels' launch shapes (native traces store them from format 7):
    // each distinct shape once, and per op the id of its shape, 1 + its
    // index in kernelShapes, 0 for an op without one. Beside the ops, not in
    // them, so Op stays compact. opShapes is empty where the run has no
    // shapes, else as long as ops or shorter (the ops after its end have
    // none): setShape grows it, sortOps keeps it in step with the ops.
    std::vector<KernelShape> kernelShapes;
    std::vector<std::uint32_t> opShapes;
    // Where the CUDA calls came from (native traces store them from format
    // 8): the user's lines, each once, and per op what the trace says of its
    // call (OpSource), kept as opShapes is (empty where no op has one, else
    // as long as ops or shorter; setSource grows it, sortOps keeps it in
    // step). stacksRecorded: the source recorded call stacks at all (Kineto's
    // with_stack), so a call without a site had none of the user's code
    // above it, rather than no stack.
    std::vector<SourceSite> sourceSites;
    std::vector<OpSource> opSources;
    bool stacksRecorded = false;
    // What each unified-memory op counts and why its pages moved (native
    // traces store them from format 9; older ones have them read from the
    // ops' names by the reader), kept as opShapes is: empty where the run
    // has no unified-memory op, else as long as ops or shorter;
    // setUnifiedMemory grows it, sortOps keeps it in step.
    std::vector<UnifiedMemoryOp> opUnifiedMemory;

    std::int64_t wallNs() const { return timedEndNs - timedBeginNs; }
    int deviceCount() const { return 1 + static_cast<int>(moreDevices.size()); }
    // Device i (0 ... deviceCount()-1); a bad index answers device 0.
    const DeviceInfo& deviceAt(int i) const
    {
        return i >= 1 && i < deviceCount() ? moreDevices[static_cast<std::size_t>(i - 1)] : device;
    }
    // Whether anything in the run needs format version 3: several devices,
    // a lane on a device other than 0, or a peer copy.
    bool usesSeveralDevices() const;
    // Has unified-memory ops (format version 5; their counters' fields, 9).
    bool usesUnifiedMemory() const;
    // What the unified-memory op ops[opIndex] counts; null where the run
    // does not say (any other op).
    const UnifiedMemoryOp* unifiedMemoryOf(std::size_t opIndex) const
    {
        return opIndex < opUnifiedMemory.size() && !opUnifiedMemory[opIndex].empty() ? &opUnifiedMemory[opIndex]
                                                                                      : nullptr;
    }
    void setUnifiedMemory(std::size_t opIndex, UnifiedMemoryOp counter);
    // ops[opIndex] is a unified-memory fault op, whose `bytes` is its fault count (Op.h).
    bool countsFaults(std::size_t opIndex) const;
    // The op's name; "" when it has none (or, defensively, a bad id).
    const std::string& nameOf(const Op& op) const;
    // The launch shape of ops[opIndex]; null where it has none.
    const KernelShape* shapeOf(std::size_t opIndex) const
    {
        const std::uint32_t id = opIndex < opShapes.size() ? opShapes[opIndex] : 0;
        return id > 0 && id <= kernelShapes.size() ? &kernelShapes[id - 1] : nullptr;
    }
    // Gives ops[opIndex] the shape kernelShapes[shapeId - 1] (0: none).
    void setShape(std::size_t opIndex, std::uint32_t shapeId);
    // Has kernel shapes (format version 7).
    bool usesKernelShapes() const;
    // What the trace says of where ops[opIndex] came from; null where nothing.
    const OpSource* sourceOf(std::size_t opIndex) const
    {
        return opIndex < opSources.size() && !opSources[opIndex].empty() ? &opSources[opIndex] : nullptr;
    }
    // The site of an OpSource::site id; null for 0 or a bad id.
    const SourceSite* siteAt(std::uint32_t siteId) const
    {
        return siteId > 0 && siteId <= sourceSites.size() ? &sourceSites[siteId - 1] : nullptr;
    }
    void setSource(std::size_t opIndex, const OpSource& source);
    // Has call sources or recorded stacks (format version 8).
    bool usesSources() const;
    // Sorts ops by (lane, start, end), their shapes, sources and counters
    // with them; the loader and recorder both rely on it.
    void sortOps();
    // Removes the ops whose `drop` is true (drop as long as ops), their
    // shapes, sources and counters with them; the rest keep their order.
    void removeOps(const std::vector<bool>& drop);
    // Sorts regions by (begin, depth, end descending), so an enclosing region
    // comes before what it holds.
    void sortRegions();
};

// One lane's ops that begin in a span: Run::ops[begin, end). Ops are sorted
// by (lane, start) (Run::sortOps), so a span of a run is one such range per
// lane, found by binary search, not by a walk of every op: what lets an
// analysis of one step of a big trace cost what the step holds (a view of
// the run, judgement/JudgedSpan.h's sliceOf and facts/RunIndex.h).
struct OpRange {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};
// The ranges of the ops that begin in [beginNs, endNs), one per lane that
// holds ops (lanes in order), empty ones included.
std::vector<OpRange> opRangesIn(const Run& run, std::int64_t beginNs, std::int64_t endNs);

// The run's ops by lane, then start, end and index, leaving out the
// unified-memory ops (they overlap on their lane by nature): the order in
// which no op may begin before the one before it on its lane ended. The
// native reader refuses a run where one does, the profile's builder drops
// it (a stream runs one op at a time, a thread makes one call at a time).
std::vector<std::uint32_t> opsInLaneOrder(const Run& run);

} // namespace ovs
