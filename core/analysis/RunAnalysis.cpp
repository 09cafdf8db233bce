#include "analysis/RunAnalysis.h"

#include "analysis/RegionJudgement.h"
#include "base/ParallelWork.h"
#include "base/Saturating.h"
#include "facts/RunIndex.h"
#include "findings/WhatIf.h"

#include <algorithm>
#include <optional>

namespace ovs {

namespace {

std::int64_t wallOf(const Run& run)
{
    return spanNs(run.timedBeginNs, run.timedEndNs);
}

} // namespace

RunAnalysis analyzeSpan(const Run& run, const TransferRates& rates, const JudgedSpan& judged,
                        const std::vector<std::vector<Interval>>& stepGroups, bool keepWhatIf, const SpanScope& scope)
{
    RunAnalysis a;
    a.judged = judged;
    a.rates = rates;
    const std::shared_ptr<const NameRoles> roles =
        scope.roles ? scope.roles : std::make_shared<const NameRoles>(run.names);
    std::size_t ops = run.ops.size();
    if (scope.ops) {
        ops = 0;
        for (const OpRange& r : *scope.ops)
            ops += r.end - r.begin;
    }
    // The run's index (one walk over its ops), its metrics and what the
    // rules find from them are made while the what-if builds and replays the
    // graph: the graph, the larger, on this thread, where it reuses the
    // memory the reader freed. The rules' context refers to the index,
    // which stays where it is made.
    std::optional<RunIndex> index;
    FindingsAhead ahead;
    auto indexed = std::async(launchPolicyFor(ops), [&] {
        index.emplace(scope.ops ? RunIndex::view(run, judged.span, *scope.ops, roles)
                                : RunIndex(run, judged.span, roles));
        a.metrics = computeMetrics(*index, a.rates);
        // As though the what-if replays, as a completed run's nearly
        // always does (findFindings finds them again where it does not).
        ahead = findFindingsAhead(*index, a.metrics, a.rates, run.status == RunStatus::Completed);
    });
    // The unchanged replay is made with the fix sets (findFindings), on
    // both cores where the graph is big.
    auto kept = std::make_shared<WhatIf>(run, rates, judged.span, roles.get(), scope.ops,
                                         WhatIf::Unchanged::WithFixSets);
    WhatIf& whatIf = *kept;
    indexed.get();
    a.collectiveKernels = index->collectiveKernels();
    // The findings, and the verdict among them (judged once: findings/Verdict.h).
    a.findings = findFindings(*index, whatIf, a.metrics, a.rates, stepGroups, std::move(ahead));
    if (keepWhatIf) {
        kept->releaseReplayMemory();
        a.whatIf = std::move(kept);
    }
    return a;
}

RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline)
{
    return analyzeRun(run, sweeps, serializedBaseline, AnalysisOptions{});
}

RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline,
                       const AnalysisOptions& options, std::string* note)
{
    // The run's transfer rates (a walk over its ops) found beside its
    // launches (another), on a big run.
    auto ratesFound = std::async(launchPolicyFor(run.ops.size()), [&] {
        return withGivenPinnedRates(transferRatesFor(run, sweeps), options.pinnedRates);
    });
    // The run's launches, found once, decide the judged span and the
    // steps' spans, and go: a big trace holds millions.
    std::vector<Launch> launches = launchesOf(run);
    const TransferRates rates = ratesFound.get();
    JudgedSpan judged = judgedSpan(run, launches);
    std::vector<RegionGroup> groups;
    if (!options.region.empty()) {
        std::string error;
        groups = regionGroupsMatching(run, options.region, &error);
        if (!groups.empty()) {
            RegionGroup all{groups.size() == 1 ? groups.front().name : options.region, {}};
            for (const RegionGroup& g : groups)
                all.regions.insert(all.regions.end(), g.regions.begin(), g.regions.end());
            std::sort(all.regions.begin(), all.regions.end(), [&](std::uint32_t a, std::uint32_t b) {
                return run.regions[a].beginNs < run.regions[b].beginNs;
            });
            judged = judgedSpanOf(run, all, launches, /*leaveOutWarmUp=*/false);
        } else if (note) {
            *note = run.name + ": " + (error.empty() ? "no region matches '" + options.region + "'" : error)
                    + "; judged by the default rule (" + judged.label + ")";
        }
    } else if (judged.basis == JudgedSpan::Basis::Regions) {
        groups.push_back(judged.group);
    }
    std::erase_if(groups, [](const RegionGroup& g) { return g.regions.size() < 2; });
    // Each group's judged instances: their spans (to the end of their GPU
    // work) for the steps' own judgement, and their host spans, at which the
    // whole span's replays are split too: the steps' savings and the
    // whole's are one computation.
    std::vector<std::vector<Interval>> spans, stepGroups;
    for (const RegionGroup& g : groups) {
        const std::vector<std::uint32_t> instances = judgedInstances(g);
        spans.push_back(regionSpans(run, instances, launches));
        std::vector<Interval>& steps = stepGroups.emplace_back();
        for (std::uint32_t r : instances)
            steps.push_back({run.regions[r].beginNs, run.regions[r].endNs});
    }
    launches = {};
    // The run's names decided once, for the whole span and every step.
    SpanScope scope;
    scope.roles = std::make_shared<const NameRoles>(run.names);
    // The region instances are judged while the whole span is analysed.
    auto regions = std::async(launchPolicyFor(run.ops.size()), [&] {
        std::vector<RegionJudgement> out;
        for (std::size_t g = 0; g < groups.size(); ++g)
            out.push_back(judgeRegionGroup(run, rates, groups[g], spans[g], scope.roles));
        return out;
    });
    RunAnalysis a = analyzeSpan(run, rates, judged, stepGroups, options.keepWhatIf, scope);
    a.speedup = speedupOver(serializedBaseline, run);
    a.regions = regions.get();
    for (std::size_t g = 0; g < a.regions.size(); ++g)
        shareWholeSavings(a.regions[g], a.findings, g);
    return a;
}

std::vector<RunAnalysis> analyzeTrace(const Trace& trace)
{
    return analyzeTrace(trace, AnalysisOptions{});
}

std::vector<RunAnalysis> analyzeTrace(const Trace& trace, const AnalysisOptions& options,
                                      std::vector<std::string>* notes)
{
    std::vector<RunAnalysis> all;
    all.reserve(trace.runs.size());
    for (const Run& run : trace.runs) {
        std::string note;
        all.push_back(analyzeRun(run, trace.sweeps, findSerializedBaseline(trace.runs, run), options, &note));
        if (notes && !note.empty())
            notes->push_back(std::move(note));
    }
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

RunFindings analyzeFindings(const Run& run, const std::vector<BandwidthSweep>& sweeps)
{
    return analyzeRun(run, sweeps, nullptr).findings;
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
