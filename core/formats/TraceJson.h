#pragma once

#include "formats/ReadProgress.h"
#include "trace/Trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// The native trace format: versioned JSON, described in docs/trace-format.md.

// Its "format" member, which tells it from the other traces loadTrace reads.
inline constexpr std::string_view kNativeFormatName = "overlapscope-trace";

// Compact JSON text of the whole trace.
std::string traceToJson(const Trace& trace);

// Writes traceToJson()'s text to `path`, streamed through the atomic writer
// (io/AtomicFileWriter.h), so a failed save leaves an existing file as it was. On failure
// returns false and, when `error` is given, says why.
bool saveTrace(const Trace& trace, const std::string& path, std::string* error);

struct TraceLoadResult {
    std::optional<Trace> trace;
    std::string error; // one line for the user; empty on success
    // On success, what an import took and left out ("imported from a PyTorch
    // profiler (Kineto) trace: 1200 GPU ops ...; skipped ..."); empty for
    // native traces.
    std::string note;
    // The read was cancelled (ReadProgress::cancel): no trace, and `error`
    // says so.
    bool cancelled = false;
};

// Traces above this size are not read unless the caller raises the limit
// (loadTrace's maxBytes; meant for a CLI/window option).
inline constexpr std::uint64_t kDefaultMaxTraceBytes = std::uint64_t(2) << 30; // 2 GiB
// The largest document the JSON reader takes (4 GiB - 1): no limit goes beyond.
inline constexpr std::uint64_t kMaxTraceBytesCeiling = 0xFFFFFFFFu;

// Checks everything (see docs/trace-format.md); a trace that loads is one the
// views can draw without further checks. Ops come back sorted (Run::sortOps).
// The format is told by content: the native format has "format":
// "overlapscope-trace"; a Chrome or PyTorch profiler trace has "traceEvents"
// or is a bare array of events (imported, see ChromeTraceImport); an
// Nsight Systems report exported as SQLite is told by its first 16 bytes
// (imported, see NsightSqliteImport; loadTrace only).
// Errors are one line of at most 300 characters; loadTrace's start with the
// path. Only regular files up to maxBytes are read. `progress` hears of the
// bytes read as a Chrome or Kineto trace's windows, or a whole file's
// blocks, are read, and its cancel flag is checked as often (and once more
// after a whole text is parsed); an Nsight SQLite export is read in one go,
// its cancel flag checked every SqliteDatabase::kStepsPerCheck steps.
TraceLoadResult traceFromJson(std::string_view text);
TraceLoadResult loadTrace(const std::string& path, std::uint64_t maxBytes = kDefaultMaxTraceBytes,
                          const ReadProgress& progress = {});

// Kept for its callers: writeFileAtomically (io/AtomicFileWriter.h).
bool writeTextFileAtomically(const std::string& path, std::string_view text, std::string* error);

} // namespace ovs
