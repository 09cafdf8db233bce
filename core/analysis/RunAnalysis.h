#pragma once

#include "analysis/Bounds.h"
#include "analysis/Diagnosis.h"
#include "analysis/Findings.h"
#include "analysis/RunMetrics.h"
#include "analysis/TransferRates.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"
#include "trace/Trace.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ovs {

// How much faster a run went than the serialized run of the same workload.
// The one rule every view uses (console tables, analyze, the window's
// summary), so they never disagree.
struct Speedup {
    std::optional<double> value; // baseline wall time / this run's wall time
    std::string why;             // how the value was computed, or why there is none
};

// Everything the analysis says about one run; the CLI and the GUI both show
// this, so they never disagree.
struct RunAnalysis {
    TransferRates rates;
    RunMetrics metrics;
    Bounds bounds; // empty (distance 0) for runs that did not complete
    Diagnosis diagnosis;
    // Per device activity and the findings; for our pipelines the Bound
    // finding is `diagnosis`.
    RunFindings findings;
    Speedup speedup;
};

// `sweeps`: the trace's bandwidth sweeps (rates of the same device come from
// there); `serializedBaseline`: see findSerializedBaseline.
RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline);
// Every run of the trace, each against its own baseline, in the trace's order.
std::vector<RunAnalysis> analyzeTrace(const Trace& trace);

// True when `candidate` is a completed serialized run of the same workload as
// `run` (device, chunk count and size, kernel repeats): a speedup never mixes
// devices or sizes.
bool isSerializedBaselineFor(const Run& candidate, const Run& run);
// The last such run in `runs`, or nullptr. The second form serves callers
// that hold runs elsewhere than in one vector (the window's document).
const Run* findSerializedBaseline(const std::vector<Run>& runs, const Run& run);
const Run* findSerializedBaseline(std::span<const Run* const> runs, const Run& run);
// The speedup of `run` over `baseline` (nullptr: none found).
Speedup speedupOver(const Run* baseline, const Run& run);

} // namespace ovs
