#pragma once

// Unified memory moved on demand: kernels that touched managed pages living
// on the host stalled on GPU page faults while the driver migrated them a
// few pages at a time, and the host's reads faulted them back the same way.
// A prefetch (cudaMemPrefetchAsync) moves the same bytes in bulk at the
// link's rate, ahead of the kernel, where it can overlap other work: what the
// managed-migration finding costs and what Fix::PrefetchManaged replays.
//
// Read from CUPTI's unified-memory counters (OpKind::UnifiedMemory on a
// device's "unified memory" lane), by their typed fields
// (Run::unifiedMemoryOf): migrations with their cause (fault, driver
// prefetch; unknown where an older trace recorded none) and GPU page-fault
// groups, where CUPTI gives them; and through the run's index
// (facts/RunIndex.h), which holds those ops and each device's kernels.

#include "facts/IntervalSet.h"
#include "trace/Run.h"

#include <cstdint>
#include <vector>

namespace ovs {

class RunIndex;

// One kernel that faulted: how long it waited and for how many bytes.
struct FaultedKernel {
    std::uint32_t op = 0;       // the kernel, an index into Run::ops
    std::int64_t stallNs = 0;   // its engine time from its first fault or on-demand migration to its last
    std::uint64_t bytesIn = 0;  // the bytes migrated to its GPU on faults while it ran
};

struct DemandMigrations {
    std::vector<FaultedKernel> kernels; // in the span, in op order
    std::vector<std::uint32_t> ops;     // the counters behind them: fault groups and migrations on faults
    std::int64_t stallNs = 0;           // the kernels' stalls, summed
    std::uint64_t bytesIn = 0;          // migrated to a GPU on its faults
    std::uint64_t bytesOut = 0;         // migrated back to the host on CPU faults
    bool hostReadsBack() const { return cpuFaults > 0 || bytesOut > 0; }
    std::uint64_t gpuFaultGroups = 0;
    std::uint64_t cpuFaults = 0;
    std::int64_t hostFaultNs = 0;       // union of the migrations back to the host on CPU faults

};

// The demand migrations of the index's run over its span: kernels and
// migrations to a GPU that begin in it; the host's faults and the
// migrations back from the span's start on (the host reads results after
// the loop). A migration counts when its cause is a fault or the driver's prefetching
// around one, or, with no cause recorded, when it overlaps a GPU fault
// group of its device (a program's own prefetch faults nothing). A kernel
// counts when such a migration or a fault group of its device falls in it.
DemandMigrations demandMigrations(const RunIndex& index);

} // namespace ovs
