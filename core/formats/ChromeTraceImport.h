#pragma once

#include "formats/ReadProgress.h"
#include "io/JsonReader.h"
#include "trace/Trace.h"

#include <cstdint>
#include <optional>
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
    std::size_t events = 0; // the events read, imported or skipped

    // Windows of this size keep a reader's memory small whatever the file's size.
    static constexpr std::size_t kWindowBytes = std::size_t(16) << 20;

    static ChromeTraceImport read(JsonReader& json);
    // Reads the trace file at `path` a window at a time (the text of one
    // window, and simdjson's index of it, held at once): the same result as
    // read() over the whole text, in memory that does not grow with the
    // file. Nothing when it cannot: the file is no regular file, is larger
    // than maxBytes or fits one window, is not a Chrome trace, has an event
    // larger than what remains of the file in a window (a one-line file),
    // or has an error anywhere: then read() over the whole text decides,
    // and words the error as it always has. `progress` hears of each
    // window; its raised cancel flag ends the read with RunCancelled.
    static std::optional<ChromeTraceImport> readFile(const std::string& path, std::uint64_t maxBytes,
                                                     std::size_t windowBytes = kWindowBytes,
                                                     const ReadProgress& progress = {});
};

// ts/dur text in microseconds ("1234.567", "12", "1.5e3") to exact integer
// nanoseconds, rounding below a nanosecond to the nearest; false when it is
// no number or beyond 64 bits.
bool microsecondsTextToNs(std::string_view text, std::int64_t& ns);

} // namespace ovs
