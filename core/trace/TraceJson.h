#pragma once

#include "trace/Trace.h"

#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// The native trace format: versioned JSON, described in docs/trace-format.md.

// Compact JSON text of the whole trace.
std::string traceToJson(const Trace& trace);

// Writes traceToJson()'s text to `path`, streamed through the atomic writer
// (io/AtomicFileWriter.h), so a failed save leaves an existing file as it was. On failure
// returns false and, when `error` is given, says why.
bool saveTrace(const Trace& trace, const std::string& path, std::string* error);

struct TraceLoadResult {
    std::optional<Trace> trace;
    std::string error; // one line for the user; empty on success
};

// Checks everything (see docs/trace-format.md); a trace that loads is one the
// views can draw without further checks. Ops come back sorted (Run::sortOps).
TraceLoadResult traceFromJson(std::string_view text);
TraceLoadResult loadTrace(const std::string& path);

// Kept for its callers: writeFileAtomically (io/AtomicFileWriter.h).
bool writeTextFileAtomically(const std::string& path, std::string_view text, std::string* error);

} // namespace ovs
