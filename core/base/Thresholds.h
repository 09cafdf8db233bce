#pragma once

// Every threshold the analysis and the replay judge by, with the reason for
// its value, in one place (docs/profiling.md "Findings" and docs/what-if.md
// list them too). A change here changes what the tool says about every run.

#include <cstddef>
#include <cstdint>

namespace ovs::thresholds {

// ---- Findings (core/findings/FindingRules.cpp)

// A pattern seen this many times between GPU work is a loop, not a one-time
// step (one cudaMalloc while a model loads is not a finding; one per
// iteration is).
inline constexpr int kMinRepeats = 3;
// Structural findings (one stream, legacy default stream) report only when
// what overlap could save is at least this share of the device's busy time:
// below it the copies are too short next to the kernels (or the reverse) for
// overlap to matter. (Estimates only: a replayed cost needs no such gate.)
inline constexpr double kMinHeadroomShare = 0.05;
// Streams that run at the same time for less than this share of the device's
// busy time are serialized: clock alignment (about 1 us) can leave slivers
// of overlap in strictly sequential work.
inline constexpr double kSerializedShare = 0.05;
// Pageable copies are worth a finding once they take this share of the
// device's busy time; a stray 4-byte pageable copy is not.
inline constexpr double kMinPageableShare = 0.01;
// An "async" call returned only after its copy was this far done: the host
// was blocked for the copy (the driver staged it with the calling thread).
inline constexpr double kBlockedShare = 0.9;
// Copies below this size are dominated by the fixed cost of a copy (launch
// and link latency, a few microseconds): at the H200's ~55 GB/s a 1 MiB copy
// takes 19 us, so a 5 us fixed cost is already a fifth of it.
inline constexpr std::uint64_t kSmallCopyBytes = std::uint64_t(1) << 20;
// A copy reaching less than this share of the link's rate for its memory
// kind is slow; "many" small slow copies make a finding.
inline constexpr double kSlowCopyShare = 0.5;
inline constexpr int kMinSmallCopies = 10;
// Copies that stood in line for an engine this share of the wall time make
// a finding (the same share the diagnosis names queueing at).
inline constexpr double kQueueShare = 0.05;
// Within this factor of its bound a run has nothing left to gain from its
// copies queueing (the same 15% the diagnosis calls "within N% of").
inline constexpr double kNearBound = 1.15;
// The GPU idle over this share of the timed region: the host sets the pace.
inline constexpr double kHostBoundIdleShare = 0.5;
// A finding whose cost is under this share of the GPU's active span (first
// GPU work to last) is left out: it would change the run by less than the
// noise between two runs. The active span, not the wall time, because a
// profiled program's timed region holds its setup too (cudaHostAlloc of a
// large buffer can take most of it), which would hide a loop's problems.
inline constexpr double kMinCostShare = 0.02;
// A host-bound run's bound names the CUDA calls the host was in while the
// GPU idled; a call that holds less than this share of the idle time is not
// where it went.
inline constexpr double kIdleCallShare = 0.1;

// ---- The ranks of a folder (core/ranks)

// A rank whose median step is this share slower than the median of the
// other ranks' median steps is a straggler: steps of one job wait for each other
// at every collective, so a few percent between ranks is noise (launch
// jitter, the allreduce's own order) and more is a rank holding the others.
inline constexpr double kStragglerShare = 0.05;

// ---- The replay (core/replay, core/findings/WhatIf.cpp)

// The replay of the unchanged run must reproduce the measured active span
// within this share, or its costs are not used (the estimates are, labelled).
inline constexpr double kReplayTolerance = 0.05;
// Host and GPU clocks agree within about a microsecond (ClockMap, CUPTI);
// a call "returned after" a GPU op that ended up to this much later.
inline constexpr std::int64_t kClockToleranceNs = 2'000;
// A GPU op that began more than this after everything it is known to wait
// for (its stream, its call, its engine) waited for something the trace
// does not name; the graph infers what.
inline constexpr std::int64_t kUnexplainedWaitNs = 10'000;
// A host thread's gap between two CUDA calls longer than this, with another
// thread's call ending inside it, is taken as that thread handing it work
// (RunGraphBuilder's hand-offs): longer than the interpreter's own time
// between two calls of a PyTorch step (some tens of microseconds).
inline constexpr std::int64_t kHandOffGapNs = 100'000;
// What an async launch or copy call costs the host when the run has none to
// measure it by (a few microseconds on current drivers).
inline constexpr std::int64_t kDefaultAsyncCallNs = 5'000;
// Fixes that only help together: a pair is reported as one finding when it
// saves at least this much more than its better half alone.
inline constexpr double kSynergyFactor = 1.5;
// The steps' shares of a saving (each step's part of the whole span's
// replay) must add up to the whole span's saving within this share, or the
// report says why (analysis/RegionJudgement.cpp). They add up exactly where
// the steps cover the judged span's GPU work; 10% leaves room for the work
// between steps (a step's host span ends before its last GPU op).
inline constexpr double kStepsAgreeShare = 0.10;
// ... and a difference under this many nanoseconds is never a disagreement:
// a whole saving near zero makes any share of it smaller than the
// nanoseconds each step's replayed length rounds to.
inline constexpr std::int64_t kStepsAgreeMinNs = 1000;
// One stream -> this many streams, a chunk each in turn (two copy engines
// and the kernels: three streams keep all three busy).
inline constexpr int kWhatIfStreams = 3;

// ---- Our pipelines' verdict (core/findings/PipelineVerdict.cpp) and host shares

// Below this share of the other, copies or kernels are too short for their
// overlap to matter: "0% overlap" then means nothing to overlap, not a
// pipeline that failed to overlap (core/judgement/OverlapWords.cpp).
inline constexpr double kTooShortToOverlap = 0.05;

// Below this share of the wall time two activities count as never
// overlapping: host and GPU clocks are aligned to about a microsecond, so a
// recording of strictly sequential work can still show slivers of overlap.
inline constexpr double kNoOverlapShare = 0.005;
// Under this, no resource is busy enough to be what limits the run.
inline constexpr double kBusyEnough = 0.5;
// Queueing worth a clause: copies waited this share of the wall time.
inline constexpr double kQueueWorthSaying = 0.05;
// The most staging threads worth suggesting: host memory bandwidth runs out
// well before the core count does.
inline constexpr int kMaxSuggestedThreads = 8;
// A run this close to its bound (wall / bound) is at it: one that reads a
// little below it beat the rates it was judged by (a sweep median its copies
// bettered), not the bound.
inline constexpr double kAtBound = 1.005;
// Up to this distance the run is "within N%" of its bound, in words.
inline constexpr double kNearBoundWords = 1.15;
// A pageable download this much slower than into warm memory is paying for
// the OS to map and zero the fresh pages it writes.
inline constexpr double kColdPageShare = 0.5;
// A transfer bound whose fill and drain (the part that is not the steady
// state) is over this share has too few chunks for its pipeline's depth.
inline constexpr double kFillDrainShare = 0.25;
// A latency-bound run with fewer than this many chunks per slot of its
// pipeline never fills it: each slot needs one chunk in flight while the
// next is queued.
inline constexpr std::int64_t kMinChunksPerSlot = 2;
// Together at this share of alone or better, a GPU was not held back by the
// host (HostShare.cpp). Not closer to 1: a GPU alone also loses some of its
// one-way rate to its own downloads (the link's two directions share it) and
// to per-copy latency, which the single-device rate does not include.
inline constexpr double kUnhindered = 0.7;
// Uploads that ran beside downloads under this share of the copy time, on
// several streams, leave the link's second direction idle: more slots would
// use it. From this share on, the link itself is the limit.
inline constexpr double kBothWaysShare = 0.5;
// Copies that overlap kernels for at least this share of their time hide
// under them: only faster kernels help a compute-bound run. Below it, more
// slots would hide more copies.
inline constexpr double kCopiesHiddenShare = 0.5;
// Beyond this distance from its bound (wall / bound) the figure says nothing
// a reader can use, and a trace with inconsistent parameters can make it
// absurd: "over 1000x".
inline constexpr double kFarFromBound = 1000;
// A stream's copies count as queued when their waits add up to one part in
// this many of the wall time: every op waits a launch latency, and a stream
// counts only when its waits are something a user would see (1%).
inline constexpr std::int64_t kQueuedStreamParts = 100;

// ---- What is judged (core/judgement/JudgedSpan.cpp)

// The steady state needs a GPU op that recurs at least this often (a loop of
// three chunks); less is no loop to find.
inline constexpr int kSteadyStateMinRepeats = 3;
// An op belongs to the loop when it recurs at least a quarter as often as the
// most frequent op (a loop's upload, kernel and download recur alike; a
// setup memset or warm-up kernel once or twice).
inline constexpr int kSteadyStateShareOfMost = 4;
// ... and recurs at all: an op seen once is setup whatever the most frequent
// op's count.
inline constexpr int kSteadyStateMinOpRepeats = 2;
// A steady state this close to the whole timed region is the whole region:
// there is no setup worth leaving out.
inline constexpr double kSteadyStateWholeShare = 0.97;
// An outermost range group (NVTX, record_function) is judged by default when
// at least this share of the GPU ops were enqueued inside it.
inline constexpr double kRegionShareOfGpuOps = 0.5;
// A first step this many times slower than the median of the others is
// warm-up (allocations, lazy loading), counted with the setup.
inline constexpr double kWarmUpStepFactor = 1.5;
// ... judged only where at least this many steps leave a median of at least
// two others to compare the first with.
inline constexpr std::size_t kWarmUpMinSteps = 3;
// The setup before the judged span names the call that took the most of it
// when that call took at least one part in this many of it.
inline constexpr std::int64_t kSetupCallParts = 10;
// A finding "holds in most" instances of a region (the steps' summary) when
// it was found in at least this share of them.
inline constexpr double kCommonFindingShare = 0.5;
// Instances judged per region group at most (core/analysis/RegionJudgement.cpp):
// each is a full analysis with its replays; a run of 10,000 steps is judged
// on its first steps after warm-up.
inline constexpr std::size_t kMaxJudgedInstances = 64;

// ---- Call sites (core/findings/FindingSources.cpp)

// A finding lists this many of its call sites (and of the PyTorch ops around
// its calls), most calls first: the lines to change, not every line of a
// program that made the same call.
inline constexpr std::size_t kMaxFindingSources = 3;
// How far back on a host thread a synchronizing call looks, among calls of
// the same aten op, for the copy that tells its direction (aten::copy_
// issues cudaMemcpyAsync and then cudaStreamSynchronize).
inline constexpr std::size_t kSameOpCallsBack = 4;

} // namespace ovs::thresholds
