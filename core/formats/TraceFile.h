#pragma once

#include "formats/ReadProgress.h"
#include "formats/TraceJson.h"

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// A trace file's bytes, read whole into a buffer padded as simdjson needs.
// Only regular files are read: a FIFO, a device or a folder gets a message
// instead of blocking or filling memory (the file is checked before it is
// opened, and opened non-blocking, so a FIFO never blocks). The first bytes
// are looked at before the rest is read (whyNotJsonTrace), so a file that
// is no JSON is refused at once, whatever its size. A file whose size the
// system gives as 0 (/proc/self/status) is read by streaming, up to the limit.
struct TraceFile {
    std::optional<simdjson::padded_string> text;
    std::string error; // one line, without the path; empty on success
    // The file is an SQLite database (an Nsight Systems export): not read
    // here, whatever its size, but by NsightSqliteImport from its path.
    bool sqlite = false;

    // `progress` hears of each block read (16 MiB); its raised cancel flag
    // ends the read with RunCancelled.
    static TraceFile read(const std::string& path, std::uint64_t maxBytes = kDefaultMaxTraceBytes,
                          const ReadProgress& progress = {});
};

// How much of a file whyNotJsonTrace is given.
inline constexpr std::size_t kTraceHeadBytes = 64 * 1024;

// Why a file whose first bytes are `head` cannot be a trace we read, in one
// line without the path, or empty when it may be: a JSON trace starts with
// '{' or '[' after white space. An SQLite database (an Nsight Systems
// export, which loadTrace reads from its file) is named as such, as are gzip, UTF-16 text and a UTF-8 byte order
// mark. `whole`: `head` is the whole file; a file of white space
// alone is then left to the parser ("the trace is empty"), while a longer
// one whose first kTraceHeadBytes are white space is refused.
std::string whyNotJsonTrace(std::string_view head, bool whole);

} // namespace ovs
