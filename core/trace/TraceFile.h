#pragma once

#include "trace/TraceJson.h"

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ovs {


// A trace file's bytes, read whole into a buffer padded as simdjson needs.
// Only regular files are read: a FIFO, a device or a folder gets a message
// instead of blocking or filling memory (the file is checked before it is
// opened, and opened non-blocking, so a FIFO never blocks).
struct TraceFile {
    std::optional<simdjson::padded_string> text;
    std::string error; // one line, without the path; empty on success

    static TraceFile read(const std::string& path, std::uint64_t maxBytes = kDefaultMaxTraceBytes);
};

} // namespace ovs
