#pragma once

// Unified memory moved on demand: kernels that touched managed pages living
// on the host stalled on GPU page faults while the driver migrated them a
// few pages at a time, and the host's reads faulted them back the same way.
// A prefetch (cudaMemPrefetchAsync) moves the same bytes in bulk at the
// link's rate, ahead of the kernel, where it can overlap other work: what the
// managed-migration finding costs and what Fix::PrefetchManaged replays.
//
// Read from CUPTI's unified-memory counters (OpKind::UnifiedMemory on a
// device's "unified memory" lane): migrations named with their cause
// ("HtoD migration (fault)"; no cause where an older trace has none) and
// GPU page-fault groups with the time the driver spent on them.

#include "analysis/IntervalSet.h"
#include "trace/Run.h"

#include <cstdint>
#include <vector>

namespace ovs {

// One kernel that faulted: how long it waited and for how many bytes.
struct FaultedKernel {
    std::uint32_t op = 0;       // the kernel, an index into Run::ops
    std::int64_t stallNs = 0;   // its engine time under fault handling and on-demand migrations to its GPU
    std::uint64_t bytesIn = 0;  // the bytes migrated to its GPU on faults while it ran
};

struct DemandMigrations {
    std::vector<FaultedKernel> kernels; // in the span, in op order
    std::vector<std::uint32_t> ops;     // the counters behind them: fault groups and migrations on faults
    std::int64_t stallNs = 0;           // the kernels' stalls, summed
    std::uint64_t bytesIn = 0;          // migrated to a GPU on its faults
    std::uint64_t bytesOut = 0;         // migrated back to the host on CPU faults
    std::uint64_t gpuFaultGroups = 0;
    std::uint64_t cpuFaults = 0;
    std::int64_t hostFaultNs = 0;       // union of the migrations back to the host on CPU faults

    bool isEmpty() const { return kernels.empty() && bytesOut == 0; }
};

// The demand migrations of `run` over `span` (ops that begin in it). A
// migration counts when its cause is a fault, or, where the trace names no
// cause, when it overlaps a GPU fault group of its device (a prefetch faults
// nothing). A kernel counts when a fault group of its device overlaps it.
DemandMigrations demandMigrations(const Run& run, Interval span);

} // namespace ovs
