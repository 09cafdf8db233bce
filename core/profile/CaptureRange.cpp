#include "profile/CaptureRange.h"

#include <algorithm>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ovs::profile {

namespace {

using Span = std::pair<std::int64_t, std::int64_t>;

// Ranges sorted by begin, touching or overlapping ones merged.
std::vector<Span> rangesOf(const Run& run)
{
    std::vector<Span> spans;
    for (const Region& region : run.regions)
        if (region.source == RegionSource::ProfilerRange)
            spans.emplace_back(region.beginNs, region.endNs);
    std::sort(spans.begin(), spans.end());
    std::vector<Span> merged;
    for (const Span& s : spans) {
        if (!merged.empty() && s.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, s.second);
        else
            merged.push_back(s);
    }
    return merged;
}

bool inside(const std::vector<Span>& ranges, std::int64_t t)
{
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), Span{t, INT64_MAX});
    return after != ranges.begin() && t <= std::prev(after)->second;
}

bool overlaps(const std::vector<Span>& ranges, std::int64_t begin, std::int64_t end)
{
    for (const Span& s : ranges)
        if (begin <= s.second && s.first <= end)
            return true;
    return false;
}

} // namespace

CaptureOutcome keepProfilerRanges(Run& run)
{
    CaptureOutcome outcome;
    const std::vector<Span> ranges = rangesOf(run);
    outcome.ranges = ranges.size();
    std::vector<bool> host(run.lanes.size(), false);
    for (std::size_t l = 0; l < run.lanes.size(); ++l)
        host[l] = run.lanes[l].kind == LaneKind::HostThread;
    std::unordered_set<std::uint32_t> keptCalls;
    for (const Op& op : run.ops)
        if (op.lane < host.size() && host[op.lane] && op.correlation != 0 && inside(ranges, op.startNs))
            keptCalls.insert(op.correlation);
    const auto keep = [&](const Op& op) {
        const bool onHost = op.lane < host.size() && host[op.lane];
        if (onHost || op.correlation == 0)
            return inside(ranges, op.startNs);
        return keptCalls.count(op.correlation) > 0;
    };
    const std::size_t before = run.ops.size();
    std::erase_if(run.ops, [&](const Op& op) { return !keep(op); });
    outcome.keptOps = run.ops.size();
    outcome.droppedOps = before - run.ops.size();
    std::erase_if(run.regions, [&](const Region& r) { return !overlaps(ranges, r.beginNs, r.endNs); });
    if (ranges.empty()) {
        run.timedBeginNs = run.timedEndNs = 0;
        outcome.note = "capture range cudaProfilerApi: the program never called cudaProfilerStart, so nothing was "
                       "captured ("
                       + std::to_string(outcome.droppedOps) + " ops dropped)";
        return outcome;
    }
    run.timedBeginNs = ranges.front().first;
    run.timedEndNs = ranges.back().second;
    outcome.note = "capture range cudaProfilerApi: " + std::to_string(ranges.size())
                   + (ranges.size() == 1 ? " range, " : " ranges, ") + std::to_string(outcome.keptOps)
                   + " ops kept, " + std::to_string(outcome.droppedOps) + " outside dropped";
    return outcome;
}

} // namespace ovs::profile
