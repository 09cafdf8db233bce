#pragma once

#include "analysis/Bounds.h"
#include "analysis/Diagnosis.h"
#include "analysis/RunMetrics.h"
#include "analysis/TransferRates.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <vector>

namespace ovs {

// Everything the analysis says about one run; the CLI and the GUI both show
// this, so they never disagree.
struct RunAnalysis {
    TransferRates rates;
    RunMetrics metrics;
    Bounds bounds; // empty (distance 0) for runs that did not complete
    Diagnosis diagnosis;
};

// `sweeps`: the trace's bandwidth sweeps (rates of the same device come from
// there); `serializedBaseline`: see findSerializedBaseline.
RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline);

// True when `candidate` is a completed serialized run of the same workload as
// `run` (device, chunk count and size, kernel repeats): a speedup never mixes
// devices or sizes.
bool isSerializedBaselineFor(const Run& candidate, const Run& run);
// The last such run in `runs`, or nullptr.
const Run* findSerializedBaseline(const std::vector<Run>& runs, const Run& run);

} // namespace ovs
