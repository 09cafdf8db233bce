#include "ranks/RankSummary.h"

#include "base/Median.h"
#include "base/Saturating.h"
#include "facts/IntervalSet.h"

#include <algorithm>
#include <charconv>

namespace ovs {

const char* toString(RankSource source)
{
    switch (source) {
    case RankSource::Trace: return "trace";
    case RankSource::FileName: return "file name";
    case RankSource::None: return "none";
    }
    return "?";
}

namespace {

// A step's number: the digits that end its name (ProfilerStep#k's k, an
// NVTX range "step 12"'s 12); nothing for a name that ends otherwise.
std::optional<std::int64_t> stepNumber(const std::string& name)
{
    std::size_t first = name.size();
    while (first > 0 && name[first - 1] >= '0' && name[first - 1] <= '9')
        --first;
    if (first == name.size())
        return std::nullopt;
    std::int64_t number = 0;
    const char* end = name.data() + name.size();
    const auto [at, error] = std::from_chars(name.data() + first, end, number);
    if (error != std::errc() || at != end)
        return std::nullopt;
    return number;
}

// The median over `steps` of the time inside collectives within each: the
// run's collective ranges and its collective kernels (which the run's index
// gathered: RunAnalysis::collectiveKernels); -1 where the run shows no
// collective at all.
std::int64_t collectiveMedian(const Run& run, const RunAnalysis& analysis, const std::vector<Interval>& steps)
{
    std::vector<Interval> inside;
    for (const Region& region : run.regions)
        if (region.source != RegionSource::GpuAnnotation && isCollectiveName(region.name))
            inside.push_back({region.beginNs, region.endNs});
    if ((inside.empty() && analysis.collectiveKernels.isEmpty()) || steps.empty())
        return -1;
    const IntervalSet all = IntervalSet(std::move(inside)).united(analysis.collectiveKernels);
    std::vector<std::int64_t> perStep;
    for (const Interval& step : steps)
        perStep.push_back(all.clipped(step.beginNs, step.endNs).length());
    return upperMedian(std::move(perStep));
}

double percent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

RankSummary summarizeRank(const Run& run, const RunAnalysis& analysis)
{
    RankSummary row;
    row.runName = run.name;
    row.rank = run.rank;
    row.rankSource = run.rank >= 0 ? RankSource::Trace : RankSource::None;
    row.device = run.device.label();
    row.clockOriginNs = run.sharedClockOriginNs;
    for (const Region& region : run.regions)
        if (region.source == RegionSource::ProfilerStep)
            if (const auto number = stepNumber(region.name))
                row.steps.push_back({*number, region.beginNs});
    // A profiled program has no profiler steps, but may name its steps
    // itself (an NVTX range per step): those the judgement took as steps.
    if (row.steps.empty() && !analysis.regions.empty())
        for (const std::uint32_t r : analysis.regions.front().group.regions)
            if (const auto number = stepNumber(run.regions[r].name))
                row.steps.push_back({*number, run.regions[r].beginNs});
    row.judged = analysis.judged.label;

    const std::int64_t judgedNs = spanNs(analysis.judged.span.beginNs, analysis.judged.span.endNs);
    std::int64_t busiest = 0;
    for (const DeviceActivity& device : analysis.findings.devices)
        busiest = std::max(busiest, device.busyNs);
    row.gpuBusyPercent = percent(busiest, analysis.findings.wallNs);
    row.overlapPercent = analysis.metrics.overlapPercent;
    row.overlapOfPossiblePercent = analysis.metrics.overlapOfPossiblePercent;

    if (!analysis.regions.empty() && !analysis.regions.front().group.regions.empty()) {
        // The steps, as `analyze` judges them instance by instance.
        const RegionJudgement& steps = analysis.regions.front();
        row.hasSteps = true;
        row.stepsJudged = static_cast<int>(steps.group.regions.size());
        row.stepMedianNs = steps.medianNs;
        row.stepSlowestNs = steps.slowestNs;
        row.slowestStep = run.regions[steps.slowestRegion].name;
        for (const CommonFinding& c : steps.common)
            row.findings.push_back({c.kind, c.alsoKinds, c.medianCostNs, c.costSource, c.fix});
        row.bound = toString(steps.bound);
    } else {
        row.stepsJudged = 1;
        row.stepMedianNs = judgedNs;
        row.stepSlowestNs = judgedNs;
        for (const Finding& f : analysis.findings.findings)
            if (f.kind != FindingKind::Bound)
                row.findings.push_back({f.kind, f.alsoKinds, f.costNs, f.costSource, f.fix});
        row.bound = toString(analysis.findings.verdict.kind);
    }
    std::vector<Interval> steps;
    if (row.hasSteps)
        for (const std::uint32_t r : analysis.regions.front().group.regions)
            steps.push_back({run.regions[r].beginNs, run.regions[r].endNs});
    else
        steps.push_back(analysis.judged.span);
    row.collectiveMedianNs = collectiveMedian(run, analysis, steps);
    std::stable_sort(row.findings.begin(), row.findings.end(),
                     [](const RankFinding& x, const RankFinding& y) { return x.costNs > y.costNs; });
    return row;
}

} // namespace ovs
