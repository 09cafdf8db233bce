#pragma once

#include "analysis/Bounds.h"
#include "analysis/RunMetrics.h"
#include "analysis/TransferRates.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

enum class DiagnosisKind : std::uint8_t {
    Cancelled,
    Failed,
    NoWork,           // no GPU copies or kernels in the timed region
    Serialized,       // copies, kernels and host copies took turns
    HostStagingBound, // the host threads' staging memcpy sets the pace
    TransferBound,    // the copy engines do
    ComputeBound,     // the kernels do
    LatencyBound,     // nothing is busy most of the time: fixed costs, too few chunks
    SetupBound,       // allocation or host memory registration takes most of the run
    // Runs we did not build (profiled programs, imported traces), judged by
    // the general analysis (Findings.h): the GPU idles most of the timed
    // region, so the host sets the pace.
    HostBound,
};
// The words a diagnosis sentence starts with: "host staging bound", ...
const char* toString(DiagnosisKind kind);

// Where the timed region's time went, one activity at a time.
struct Cause {
    std::string what; // "pageable downloads", "host staging memcpy", ...
    std::int64_t ns = 0; // time during which it ran (union of its ops)
    double share = 0;    // ns / wall time
    double gbps = 0;     // the rate it moved data at; 0 where that means nothing
};

struct Diagnosis {
    DiagnosisKind kind = DiagnosisKind::NoWork;
    // One sentence: "<kind>: <the numbers that say so>; <the fix>".
    std::string sentence;
    // Largest share first; ties keep the order uploads, downloads, kernels,
    // host staging, allocation, registration.
    std::vector<Cause> causes;
};

// Deterministic: the same numbers give the same sentence.
Diagnosis diagnose(const Run& run, const RunMetrics& metrics, const Bounds& bounds, const TransferRates& rates);

} // namespace ovs
