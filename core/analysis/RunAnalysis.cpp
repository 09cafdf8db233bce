#include "analysis/RunAnalysis.h"

namespace ovs {

RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline)
{
    RunAnalysis a;
    a.rates = transferRatesFor(run, sweeps);
    a.metrics = computeMetrics(run, a.rates, serializedBaseline);
    // A partial run's ops say nothing about how fast the whole would go.
    if (run.status == RunStatus::Completed)
        a.bounds = computeBounds(run, a.metrics, a.rates);
    a.diagnosis = diagnose(run, a.metrics, a.bounds, a.rates);
    return a;
}

bool isSerializedBaselineFor(const Run& candidate, const Run& run)
{
    return candidate.pipeline == "serialized" && candidate.status == RunStatus::Completed && candidate.wallNs() > 0
           && candidate.device.label() == run.device.label() && candidate.params.chunks == run.params.chunks
           && candidate.params.chunkBytes == run.params.chunkBytes
           && candidate.params.kernelRepeats == run.params.kernelRepeats;
}

const Run* findSerializedBaseline(const std::vector<Run>& runs, const Run& run)
{
    const Run* baseline = nullptr;
    for (const Run& candidate : runs)
        if (isSerializedBaselineFor(candidate, run))
            baseline = &candidate;
    return baseline;
}

} // namespace ovs
