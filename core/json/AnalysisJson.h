#pragma once

// `overlapscope-cli analyze --json`: the analysis of every run of a trace,
// machine-readable, for CI jobs that fail on an overlap regression. The
// schema is documented in docs/what-if.md ("analyze --json"); a field is only
// ever added, and `schema` says which version a reader gets.

#include "analysis/RunAnalysis.h"
#include "trace/Trace.h"

#include <string>
#include <vector>

namespace ovs {

class JsonWriter;

inline constexpr int kAnalysisJsonSchema = 3;

// `analyses`: analyzeTrace(trace), one per run in the trace's order.
// A finding's call sites as analyze --json writes them (diff --json too).
void writeSourcesJson(JsonWriter& w, const std::vector<FindingSource>& sources);

std::string analysisJson(const Trace& trace, const std::vector<RunAnalysis>& analyses);

} // namespace ovs
