#include "analysis/RegionJudgement.h"

#include "analysis/RunAnalysis.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace ovs {

namespace {

// A finding's identity across instances: its kind and the kinds combined
// with it ("one-stream+host-sync" is not "one-stream").
using FindingKey = std::pair<FindingKind, std::vector<FindingKind>>;

struct Seen {
    std::vector<std::int64_t> costs;
    std::vector<const Finding*> findings;
    CostSource source = CostSource::Estimate;
};

template <typename T>
std::size_t medianIndex(const std::vector<T>& values, std::vector<std::size_t>& order)
{
    order.resize(values.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    return order[order.size() / 2];
}

} // namespace

RegionJudgement judgeRegionGroup(const Run& run, const TransferRates& rates, const RegionGroup& group)
{
    RegionJudgement j;
    j.group.name = group.name;
    j.instancesFound = group.regions.size();
    const std::size_t count = std::min(group.regions.size(), kMaxJudgedInstances);
    j.group.regions.assign(group.regions.begin(), group.regions.begin() + static_cast<std::ptrdiff_t>(count));
    if (count == 0)
        return j;

    std::vector<RunAnalysis> analyses;
    analyses.reserve(count);
    std::vector<std::int64_t> durations;
    j.spans = regionSpans(run, j.group.regions);
    for (std::size_t i = 0; i < count; ++i) {
        durations.push_back(spanNs(j.spans[i].beginNs, j.spans[i].endNs));
        analyses.push_back(judgeRegionInstance(run, rates, j.group.regions[i], j.spans[i]));
    }
    std::vector<std::size_t> order;
    const std::size_t median = medianIndex(durations, order);
    j.medianNs = durations[median];
    j.medianRegion = j.group.regions[median];
    const std::size_t slowest = order.back();
    j.slowestNs = durations[slowest];
    j.slowestRegion = j.group.regions[slowest];

    std::map<FindingKey, Seen> seen;
    std::map<DiagnosisKind, int> bounds;
    std::vector<std::int64_t> savings;
    for (const RunAnalysis& a : analyses) {
        ++bounds[a.findings.boundDiagnosis.kind];
        if (const WhatIfSummary& w = a.findings.whatIf; w.replayed)
            savings.push_back(std::max<std::int64_t>(0, w.replaySpanNs - w.allFixesSpanNs));
        for (const Finding& f : a.findings.findings) {
            if (f.kind == FindingKind::Bound)
                continue;
            Seen& s = seen[{f.kind, f.alsoKinds}];
            s.costs.push_back(f.costNs);
            s.findings.push_back(&f);
            if (f.costSource == CostSource::Replay)
                s.source = CostSource::Replay;
        }
    }
    for (auto& [key, s] : seen) {
        // "Holds in most": at least kCommonFindingShare of the instances judged.
        if (static_cast<double>(s.costs.size()) < thresholds::kCommonFindingShare * static_cast<double>(count))
            continue;
        const std::size_t m = medianIndex(s.costs, order);
        CommonFinding c;
        c.kind = key.first;
        c.alsoKinds = key.second;
        c.instances = static_cast<int>(s.costs.size());
        c.medianCostNs = s.costs[m];
        c.costSource = s.source;
        c.cause = s.findings[m]->cause;
        c.fix = s.findings[m]->fix;
        j.common.push_back(std::move(c));
    }
    if (!savings.empty())
        j.medianAllFixesSavingNs = savings[medianIndex(savings, order)];
    std::stable_sort(j.common.begin(), j.common.end(),
                     [](const CommonFinding& a, const CommonFinding& b) { return a.medianCostNs > b.medianCostNs; });
    for (const auto& [kind, n] : bounds)
        if (n > j.boundInstances) {
            j.bound = kind;
            j.boundInstances = n;
        }
    return j;
}

RunAnalysis judgeRegionInstance(const Run& run, const TransferRates& rates, std::uint32_t region, Interval span,
                                Run* slice)
{
    JudgedSpan one;
    one.basis = JudgedSpan::Basis::Regions;
    one.span = span;
    one.label = "region '" + (region < run.regions.size() ? run.regions[region].name : std::string()) + "'";
    // Each instance on a slice of the run: a thousand steps of a big trace
    // cost what they hold, not a thousand times the trace.
    Run part = sliceOf(run, span);
    RunAnalysis a = analyzeSpan(part, rates, one);
    if (slice)
        *slice = std::move(part);
    return a;
}

} // namespace ovs
