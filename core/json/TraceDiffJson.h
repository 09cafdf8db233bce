#pragma once

// `overlapscope-cli diff --json`: two traces compared, machine-readable, for
// CI jobs that fail on an overlap regression. The schema is documented in
// docs/what-if.md ("diff --json"); a field is only ever added, and `schema`
// says which version a reader gets.

#include "analysis/TraceDiff.h"

#include <string>

namespace ovs {

inline constexpr int kTraceDiffJsonSchema = 2;

// `beforePath`, `afterPath`: the files compared, as given.
std::string traceDiffJson(const TraceDiff& diff, const std::string& beforePath, const std::string& afterPath);

} // namespace ovs
