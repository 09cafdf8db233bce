#pragma once

#include "analysis/RunMetrics.h"
#include "analysis/TransferRates.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>

namespace ovs {

enum class BoundKind : std::uint8_t {
    None,        // nothing to bound: no GPU work in the timed region
    Transfer,    // the copy engines, at the link's rate
    HostStaging, // the host threads' memcpy into and out of staging buffers
    Compute,     // the kernels
    Serial,      // nothing may overlap, so the parts add up
};
const char* toString(BoundKind kind); // "transfer", "host staging", ...

// The fastest the run's pipeline could go at the given rates, and how far
// the run is from it.
struct Bounds {
    std::int64_t transferNs = 0; // copies (see computeBounds for the model)
    std::int64_t stagingNs = 0;  // 0 when the run stages nothing on the host, or its rate is unknown
    std::int64_t computeNs = 0;  // the union of the run's kernel intervals (engine time where known)
    std::int64_t boundNs = 0;    // the binding one
    BoundKind binding = BoundKind::None;
    double distance = 0;         // wall / bound: 1.0 is at the bound; 0 when unknown

    // Inputs, for the reader who checks the arithmetic.
    int chunks = 0;
    int devices = 1;                  // GPUs the chunks were split over (the terms count one GPU's share)
    std::int64_t uploadChunkNs = 0;   // one chunk's upload at the rate
    std::int64_t downloadChunkNs = 0;
    std::int64_t kernelChunkNs = 0;   // one chunk's kernel: computeNs over the kernels
    int stagingThreads = 0;
    double stagingGBps = 0;           // what those threads copy at together; 0: unknown
    std::string transferModel;        // which formula transferNs used, in words
};

Bounds computeBounds(const Run& run, const RunMetrics& metrics, const TransferRates& rates);

} // namespace ovs
