#pragma once

// What a unified-memory op (OpKind::UnifiedMemory) counts, and why its pages
// moved: typed facts beside the op (Run::opUnifiedMemory), as a kernel's
// launch shape is, so the analysis never reads them back from the op's name.
// Beside the op rather than in it: Op is kept at 56 bytes (Op.h), and only
// the runs with unified-memory ops pay for the table, 2 bytes an op.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// CUPTI's unified-memory counters that a profile records.
enum class UmCounter : std::uint8_t {
    Unknown,         // the trace does not say (a hand-made run)
    MigrationToGpu,  // pages moved host -> GPU: `bytes` their size
    MigrationToHost, // pages moved GPU -> host
    CpuPageFault,    // the host faulted: `bytes` the fault count (1 a record)
    GpuPageFaults,   // a GPU's fault group: `bytes` its fault count
    Thrashing,       // `bytes` the thrashed region's size
    Throttling,
};
const char* toString(UmCounter counter); // "unknown", "migration-to-gpu", "migration-to-host", "cpu-page-fault",
                                         // "gpu-page-faults", "thrashing", "throttling"
std::optional<UmCounter> umCounterFromString(std::string_view name);

// Why a migration moved pages, as CUPTI says (migrations only; Unknown for
// the other counters and where the source recorded no cause).
enum class UmCause : std::uint8_t {
    Unknown,
    Requested,      // the program asked (cudaMemPrefetchAsync): CUPTI's "user"
    Fault,          // a page fault moved them: CUPTI's "coherence"
    DriverPrefetch, // the driver's speculative prefetch around a fault
    Eviction,
    AccessCounters,
};
const char* toString(UmCause cause); // "unknown", "requested", "fault", "driver-prefetch", "eviction", "access-counters"
std::optional<UmCause> umCauseFromString(std::string_view name);

struct UnifiedMemoryOp {
    UmCounter counter = UmCounter::Unknown;
    UmCause cause = UmCause::Unknown;

    bool empty() const { return counter == UmCounter::Unknown && cause == UmCause::Unknown; }
    bool isMigration() const { return counter == UmCounter::MigrationToGpu || counter == UmCounter::MigrationToHost; }
    // The op's `bytes` holds a fault count, not bytes (Op.h).
    bool countsFaults() const { return counter == UmCounter::CpuPageFault || counter == UmCounter::GpuPageFaults; }
    // Moved because a page faulted, directly or by the driver's prefetching
    // around the fault: what a program's own prefetch would have saved.
    bool onDemand() const { return cause == UmCause::Fault || cause == UmCause::DriverPrefetch; }
    friend bool operator==(const UnifiedMemoryOp&, const UnifiedMemoryOp&) = default;
};
static_assert(sizeof(UnifiedMemoryOp) == 2, "one per op of a run with unified-memory ops");

// The op's name the timeline and the exports show ("HtoD migration
// (fault)", "GPU page faults"): words for the user, made from the fields,
// never read back by the analysis.
std::string unifiedMemoryName(UnifiedMemoryOp counter);

} // namespace ovs
