#pragma once

#include "trace/Trace.h"

#include <string>

namespace ovs {

// Chrome Trace Event Format (JSON object form), which Perfetto and
// chrome://tracing open. Each run is a process, each lane a thread, each op a
// complete ("X") event; all runs share one time axis starting at each run's
// own zero, as in our timeline. Times are microseconds with three decimals, so
// nanoseconds survive exactly. Sweeps and the trace's own metadata go into
// "otherData", which those viewers show but do not draw.
std::string traceToChromeJson(const Trace& trace);

// Writes the same text to `path`, streamed through the atomic writer.
bool exportChromeTrace(const Trace& trace, const std::string& path, std::string* error);

} // namespace ovs
