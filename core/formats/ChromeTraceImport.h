#pragma once

#include "io/JsonReader.h"
#include "trace/Trace.h"

#include <string>

namespace ovs {

// Imports a Chrome trace (the JSON object with "traceEvents", or a bare
// array of events) as PyTorch's profiler (Kineto) and Nsight-style tools
// write it: GPU kernels, memcpys and memsets, and the CUDA runtime and driver
// calls that launched them, joined by correlation id. The mapping is in
// docs/trace-format.md ("Importing Chrome and PyTorch traces"). CPU-side
// events (operators, Python functions, annotations) are counted and skipped.
// Throws JsonReadError with one line on anything it cannot read.
struct ChromeTraceImport {
    Trace trace;
    // "imported 1200 GPU ops and 1180 API calls; skipped 5400 CPU-side events"
    std::string summary;

    static ChromeTraceImport read(JsonReader& json);
};

// ts/dur text in microseconds ("1234.567", "12", "1.5e3") to exact integer
// nanoseconds, rounding below a nanosecond to the nearest; false when it is
// no number or beyond 64 bits.
bool microsecondsTextToNs(std::string_view text, std::int64_t& ns);

} // namespace ovs
