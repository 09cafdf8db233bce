#pragma once

#include "trace/Trace.h"

#include <string>

namespace ovs::cli {

// Whether a recording's trace should not be written to `path`, which is
// left as it was: the recording was cancelled (Ctrl-C) before any run or
// sweep finished, and `path` already holds a file, which the trace would
// replace with a cancelled run and nothing else of worth (record -o
// old.json). Where there is no file yet, what was recorded is written.
bool leavesOutputAsItWas(const Trace& trace, bool cancelled, const std::string& path);

} // namespace ovs::cli
