#pragma once

#include "trace/Trace.h"

#include <functional>
#include <string>
#include <string_view>

namespace ovs {

// One row per op of every run, for spreadsheets and pandas; the layout is in
// docs/csv-format.md. Names (of runs, devices and lanes) are written once, in
// a "# run N: {json}" line per run before the header, so rows hold only
// numbers and fixed words and a long name costs its length once, not per op.
//
// The text goes to `sink` in pieces of about 64 KiB, so a trace of any size
// is exported through a small buffer.
void writeCsv(const Trace& trace, const std::function<void(std::string_view)>& sink);

// The same text in one string (tests, clipboard).
std::string traceToCsv(const Trace& trace);

// Streams writeCsv() to `path` through the atomic writer
// (io/AtomicFileWriter.h). On failure returns false and, when `error` is
// given, says why in one line.
bool exportCsv(const Trace& trace, const std::string& path, std::string* error);

} // namespace ovs
