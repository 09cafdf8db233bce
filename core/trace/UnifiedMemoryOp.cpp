#include "trace/UnifiedMemoryOp.h"

namespace ovs {

const char* toString(UmCounter counter)
{
    switch (counter) {
    case UmCounter::Unknown: return "unknown";
    case UmCounter::MigrationToGpu: return "migration-to-gpu";
    case UmCounter::MigrationToHost: return "migration-to-host";
    case UmCounter::CpuPageFault: return "cpu-page-fault";
    case UmCounter::GpuPageFaults: return "gpu-page-faults";
    case UmCounter::Thrashing: return "thrashing";
    case UmCounter::Throttling: return "throttling";
    }
    return "unknown";
}

std::optional<UmCounter> umCounterFromString(std::string_view name)
{
    for (UmCounter c : {UmCounter::Unknown, UmCounter::MigrationToGpu, UmCounter::MigrationToHost,
                        UmCounter::CpuPageFault, UmCounter::GpuPageFaults, UmCounter::Thrashing,
                        UmCounter::Throttling})
        if (name == toString(c))
            return c;
    return std::nullopt;
}

const char* toString(UmCause cause)
{
    switch (cause) {
    case UmCause::Unknown: return "unknown";
    case UmCause::Requested: return "requested";
    case UmCause::Fault: return "fault";
    case UmCause::DriverPrefetch: return "driver-prefetch";
    case UmCause::Eviction: return "eviction";
    case UmCause::AccessCounters: return "access-counters";
    }
    return "unknown";
}

std::optional<UmCause> umCauseFromString(std::string_view name)
{
    for (UmCause c : {UmCause::Unknown, UmCause::Requested, UmCause::Fault, UmCause::DriverPrefetch,
                      UmCause::Eviction, UmCause::AccessCounters})
        if (name == toString(c))
            return c;
    return std::nullopt;
}

namespace {

// " (fault)": a migration's cause in the words its name has always had.
std::string causeWords(UmCause cause)
{
    switch (cause) {
    case UmCause::Requested: return " (requested)";
    case UmCause::Fault: return " (fault)";
    case UmCause::DriverPrefetch: return " (driver prefetch)";
    case UmCause::Eviction: return " (eviction)";
    case UmCause::AccessCounters: return " (access counters)";
    case UmCause::Unknown: break;
    }
    return {};
}

} // namespace

std::string unifiedMemoryName(UnifiedMemoryOp c)
{
    switch (c.counter) {
    case UmCounter::MigrationToGpu: return "HtoD migration" + causeWords(c.cause);
    case UmCounter::MigrationToHost: return "DtoH migration" + causeWords(c.cause);
    case UmCounter::CpuPageFault: return "CPU page fault";
    case UmCounter::GpuPageFaults: return "GPU page faults";
    case UmCounter::Thrashing: return "thrashing";
    case UmCounter::Throttling: return "throttling";
    case UmCounter::Unknown: break;
    }
    return "unified memory";
}

} // namespace ovs
