#include "analysis/RunAnalysis.h"

#include "base/Saturating.h"

namespace ovs {

namespace {

std::int64_t wallOf(const Run& run)
{
    return spanNs(run.timedBeginNs, run.timedEndNs);
}

} // namespace

RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline)
{
    RunAnalysis a;
    a.rates = transferRatesFor(run, sweeps);
    a.metrics = computeMetrics(run, a.rates);
    // A partial run's ops say nothing about how fast the whole would go, and
    // the pipeline model (chunks, slots) fits only our pipelines: any other
    // run is bounded by the general analysis (its Bound finding).
    if (run.status == RunStatus::Completed && isPipelineRun(run))
        a.bounds = computeBounds(run, a.metrics, a.rates);
    a.diagnosis = diagnose(run, a.metrics, a.bounds, a.rates);
    a.findings = findFindings(run, a.metrics, a.rates, a.bounds, a.diagnosis);
    // One path: the diagnosis is the findings' bound (for our pipelines the
    // same diagnosis; for any other run the general bound).
    a.diagnosis = a.findings.boundDiagnosis;
    a.speedup = speedupOver(serializedBaseline, run);
    return a;
}

std::vector<RunAnalysis> analyzeTrace(const Trace& trace)
{
    std::vector<RunAnalysis> all;
    all.reserve(trace.runs.size());
    for (const Run& run : trace.runs)
        all.push_back(analyzeRun(run, trace.sweeps, findSerializedBaseline(trace.runs, run)));
    return all;
}

bool isSerializedBaselineFor(const Run& candidate, const Run& run)
{
    return candidate.pipeline == "serialized" && candidate.status == RunStatus::Completed && wallOf(candidate) > 0
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

const Run* findSerializedBaseline(std::span<const Run* const> runs, const Run& run)
{
    const Run* baseline = nullptr;
    for (const Run* candidate : runs)
        if (candidate && isSerializedBaselineFor(*candidate, run))
            baseline = candidate;
    return baseline;
}

Speedup speedupOver(const Run* baseline, const Run& run)
{
    Speedup s;
    if (run.status != RunStatus::Completed || wallOf(run) <= 0) {
        s.why = "only completed runs are compared";
        return s;
    }
    if (!baseline || !isSerializedBaselineFor(*baseline, run)) {
        s.why = "no completed serialized run of the same workload on this device";
        return s;
    }
    s.value = static_cast<double>(wallOf(*baseline)) / static_cast<double>(wallOf(run));
    s.why = "serialized wall time / this run's wall time";
    return s;
}

} // namespace ovs
