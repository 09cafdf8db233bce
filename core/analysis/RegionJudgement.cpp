#include "analysis/RegionJudgement.h"

#include "analysis/RunAnalysis.h"
#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <cmath>
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

std::vector<std::uint32_t> judgedInstances(const RegionGroup& group)
{
    const std::size_t count = std::min(group.regions.size(), thresholds::kMaxJudgedInstances);
    return {group.regions.begin(), group.regions.begin() + static_cast<std::ptrdiff_t>(count)};
}

RegionJudgement judgeRegionGroup(const Run& run, const TransferRates& rates, const RegionGroup& group)
{
    return judgeRegionGroup(run, rates, group, regionSpans(run, judgedInstances(group)),
                            std::make_shared<const NameRoles>(run.names));
}

RegionJudgement judgeRegionGroup(const Run& run, const TransferRates& rates, const RegionGroup& group,
                                 std::vector<Interval> spans, std::shared_ptr<const NameRoles> roles)
{
    RegionJudgement j;
    j.group.name = group.name;
    j.instancesFound = group.regions.size();
    j.group.regions = judgedInstances(group);
    const std::size_t count = j.group.regions.size();
    if (count == 0)
        return j;

    std::vector<RunAnalysis> analyses;
    analyses.reserve(count);
    std::vector<std::int64_t> durations;
    j.spans = std::move(spans);
    for (std::size_t i = 0; i < count; ++i) {
        durations.push_back(spanNs(j.spans[i].beginNs, j.spans[i].endNs));
        analyses.push_back(judgeRegionInstance(run, rates, j.group.regions[i], j.spans[i], nullptr, roles));
    }
    std::vector<std::size_t> order;
    const std::size_t median = medianIndex(durations, order);
    j.medianNs = durations[median];
    j.medianRegion = j.group.regions[median];
    const std::size_t slowest = order.back();
    j.slowestNs = durations[slowest];
    j.slowestRegion = j.group.regions[slowest];

    std::map<FindingKey, Seen> seen;
    std::map<VerdictKind, int> bounds;
    std::vector<std::int64_t> savings;
    for (const RunAnalysis& a : analyses) {
        ++bounds[a.findings.verdict.kind];
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

void shareWholeSavings(RegionJudgement& j, const RunFindings& whole, std::size_t group)
{
    if (group >= whole.allFixesStepSavingsNs.size())
        return;
    const std::size_t steps = j.group.regions.size();
    std::vector<std::size_t> order;
    // The steps that have GPU work, and what `savings` says of them.
    const auto present = [&](const WhatIf::StepSavings& savings) {
        std::vector<std::int64_t> values;
        for (const auto& s : savings)
            if (s)
                values.push_back(*s);
        return values;
    };
    const auto sum = [](const std::vector<std::int64_t>& values) {
        std::int64_t total = 0;
        for (std::int64_t v : values)
            total += v;
        return total;
    };
    for (const Finding& f : whole.findings) {
        if (f.kind == FindingKind::Bound || group >= f.stepSavingsNs.size())
            continue;
        const WhatIf::StepSavings& perStep = f.stepSavingsNs[group];
        const std::vector<std::int64_t> savings = present(perStep);
        if (savings.empty())
            continue;
        CommonFinding c;
        c.kind = f.kind;
        c.alsoKinds = f.alsoKinds;
        c.costSource = CostSource::Replay;
        c.fromWholeSpan = true;
        c.medianCostNs = std::max<std::int64_t>(0, savings[medianIndex(savings, order)]);
        c.stepsSumNs = sum(savings);
        c.wholeCostNs = f.costNs;
        // "Holds in" a step: its share there is worth a finding of its own.
        for (std::size_t i = 0; i < std::min(steps, perStep.size()); ++i)
            if (perStep[i] && i < j.spans.size()
                && static_cast<double>(*perStep[i])
                       >= thresholds::kMinCostShare * static_cast<double>(spanNs(j.spans[i].beginNs, j.spans[i].endNs)))
                ++c.instances;
        // The steps judged alone may name it too, with their own cost: the
        // whole span's share replaces it (its words carry the whole's numbers).
        const auto alone = std::find_if(j.common.begin(), j.common.end(), [&](const CommonFinding& a) {
            return !a.fromWholeSpan && a.kind == f.kind && a.alsoKinds == f.alsoKinds;
        });
        c.cause = "over the whole span: " + f.cause;
        c.fix = f.fix;
        if (alone != j.common.end())
            j.common.erase(alone);
        j.common.push_back(std::move(c));
    }
    const std::vector<std::int64_t> all = present(whole.allFixesStepSavingsNs[group]);
    if (!all.empty()) {
        j.medianAllFixesSavingNs = std::max<std::int64_t>(0, all[medianIndex(all, order)]);
        // Never negative, as the whole span's saving is not: fixes that
        // make the replay a little slower (the waits a fix adds) save nothing.
        j.allFixesStepsSumNs = std::max<std::int64_t>(0, sum(all));
        j.wholeAllFixesSavingNs = std::max<std::int64_t>(0, whole.whatIf.replaySpanNs - whole.whatIf.allFixesSpanNs);
        const double off = std::abs(static_cast<double>(j.allFixesStepsSumNs - j.wholeAllFixesSavingNs));
        if (off > thresholds::kStepsAgreeShare * static_cast<double>(j.wholeAllFixesSavingNs) && off >= static_cast<double>(thresholds::kStepsAgreeMinNs))
            j.disagreement = "the steps' savings add up to " + msText(j.allFixesStepsSumNs, 3) + " of the whole span's "
                             + msText(j.wholeAllFixesSavingNs, 3) + ": the judged span holds GPU work outside these steps, whose saving no step's share holds";
    }
    std::stable_sort(j.common.begin(), j.common.end(),
                     [](const CommonFinding& a, const CommonFinding& b) { return a.medianCostNs > b.medianCostNs; });
}

RunAnalysis judgeRegionInstance(const Run& run, const TransferRates& rates, std::uint32_t region, Interval span,
                                Run* slice, std::shared_ptr<const NameRoles> roles)
{
    JudgedSpan one;
    one.basis = JudgedSpan::Basis::Regions;
    one.span = span;
    one.label = "region '" + (region < run.regions.size() ? run.regions[region].name : std::string()) + "'";
    if (slice) {
        *slice = sliceOf(run, span);
        return analyzeSpan(*slice, rates, one);
    }
    // A view: a thousand steps of a big trace cost what they hold, not a
    // thousand times the trace, and no step's ops are copied.
    const std::vector<OpRange> ops = opRangesIn(run, span.beginNs, span.endNs);
    SpanScope scope;
    scope.roles = roles ? std::move(roles) : std::make_shared<const NameRoles>(run.names);
    scope.ops = &ops;
    return analyzeSpan(run, rates, one, {}, false, scope);
}

} // namespace ovs
