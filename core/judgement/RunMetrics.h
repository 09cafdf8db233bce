#pragma once

#include "facts/IntervalSet.h"
#include "judgement/TransferRates.h"
#include "trace/Run.h"

namespace ovs {
class RunIndex;
}

#include <array>
#include <cstdint>
#include <string>

namespace ovs {

// What one engine (or set of host threads) did in the timed region.
struct EngineBusy {
    std::int64_t busyNs = 0; // length of the union of its intervals
    double utilisation = 0;  // busyNs / wall time; 0 when there is no wall time
};

// All ops of one kind in the timed region.
struct KindThroughput {
    int count = 0;
    // Kernels count bytes read + written over all passes (as SimPreset's
    // kernel rate does); the rest count the bytes they moved.
    std::uint64_t bytes = 0;
    std::int64_t ns = 0; // summed durations, engine time where known
    std::int64_t unionNs = 0; // length of their union: time during which one ran
    // The host memory kind all of them used; None when mixed or none.
    HostMemoryKind memory = HostMemoryKind::None;
    // Achieved over what TransferRates says the kind can reach; 0 when unknown.
    double ofRate = 0;

    double gbps() const { return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0; }
};

// Copies that waited for an engine another stream held: the stream reached
// them (event time) before the engine started them (exec time).
struct QueueWait {
    std::int64_t ns = 0;
    int streams = 0; // streams whose copies waited at least 1% of the wall time
};

// The numbers a run is judged by, over its timed region (the seed's wall time).
struct RunMetrics {
    std::int64_t wallNs = 0;

    // GPU ops timed by their engine interval (exec times: CUPTI, or the
    // simulator's engine model) versus by events, which include queueing.
    int gpuOps = 0;
    int gpuOpsWithExec = 0;
    std::string engineTimes; // says which of the two the busy times below use
    int streams = 0;         // stream lanes that ran GPU ops

    EngineBusy h2d;         // uploads
    EngineBusy d2h;         // downloads
    EngineBusy copies;      // either direction
    EngineBusy compute;     // kernels
    EngineBusy staging;     // StageIn/StageOut on any host lane
    std::int64_t copyWithKernelNs = 0; // some copy and some kernel at once
    std::int64_t h2dWithD2hNs = 0;     // an upload and a download at once
    std::int64_t stagingWithGpuNs = 0; // host staging while a copy or kernel runs
    double overlapPercent = 0;         // copyWithKernelNs / copy busy, in %
    // The most copies and kernels could have run at once: the shorter of the
    // two busy times. Overlap of possible = copyWithKernelNs over it, in %:
    // 100% when the shorter one hid entirely under the other.
    std::int64_t overlapPossibleNs = 0;
    double overlapOfPossiblePercent = 0;
    double h2dWithD2hPercent = 0;      // h2dWithD2hNs / copy busy, in %

    std::int64_t stagingThreadNs = 0; // staging time summed over threads
    int stagingThreads = 0;           // host lanes that staged
    std::int64_t hostWaitNs = 0;      // HostWait and Sync on the main host lane, union

    std::array<KindThroughput, kOpKindCount> kinds{};
    QueueWait h2dQueue;
    QueueWait d2hQueue;

    const KindThroughput& kind(OpKind k) const { return kinds[static_cast<std::size_t>(k)]; }
};

// The speedup over a baseline is not here: RunAnalysis holds it (speedupOver).
// Over the run's timed region, or over `span` (the judged span: JudgedSpan.h):
// ops that begin in it, their intervals clipped to it.
RunMetrics computeMetrics(const Run& run, const TransferRates& rates);
RunMetrics computeMetrics(const Run& run, const TransferRates& rates, Interval span);
// The same, from the run's index over the span (what analyzeSpan builds once).
RunMetrics computeMetrics(const RunIndex& index, const TransferRates& rates);

} // namespace ovs
