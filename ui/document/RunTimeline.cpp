#include "document/RunTimeline.h"

#include "base/Saturating.h"

#include <algorithm>

namespace ovs::ui {

RunTimeline::RunTimeline(const Run& run)
{
    finish(run);
}

RunTimeline::RunTimeline(Run&& run)
{
    const std::vector<Op> ops = std::move(run.ops);
    run.ops.clear();
    m_header = std::move(run);
    m_regionTracks = RegionTracks::of(m_header);
    m_lanes.assign(m_header.lanes.size(), {});
    addOps(ops);
}

RunTimeline RunTimeline::live(const Run& header)
{
    RunTimeline timeline;
    timeline.m_header = header;
    timeline.m_header.ops.clear();
    timeline.m_regionTracks = RegionTracks::of(header);
    timeline.m_lanes.resize(header.lanes.size());
    timeline.m_live = true;
    return timeline;
}

void RunTimeline::addLane(const Lane& lane, int laneIndex)
{
    if (laneIndex < 0)
        return;
    const auto index = static_cast<std::size_t>(laneIndex);
    if (m_header.lanes.size() <= index)
        m_header.lanes.resize(index + 1);
    m_header.lanes[index] = lane;
    if (m_lanes.size() <= index)
        m_lanes.resize(index + 1);
}

void RunTimeline::insertSorted(std::vector<Op>& lane, const Op& op)
{
    // Batches arrive nearly in order: appending is the common case.
    if (lane.empty() || lane.back().startNs <= op.startNs) {
        lane.push_back(op);
        return;
    }
    auto at = std::upper_bound(lane.begin(), lane.end(), op.startNs,
                               [](std::int64_t t, const Op& o) { return t < o.startNs; });
    lane.insert(at, op);
}

void RunTimeline::addOps(std::span<const Op> ops)
{
    for (const Op& op : ops) {
        if (op.lane >= m_lanes.size())
            m_lanes.resize(op.lane + 1u);
        insertSorted(m_lanes[op.lane], op);
        m_endNs = std::max(m_endNs, op.endNs);
        ++m_opCount;
    }
}

void RunTimeline::addNames(std::span<const std::string> names)
{
    m_header.names.insert(m_header.names.end(), names.begin(), names.end());
}

void RunTimeline::finish(const Run& run)
{
    m_header = run;
    m_header.ops.clear();
    m_regionTracks = RegionTracks::of(m_header);
    m_lanes.assign(run.lanes.size(), {});
    m_opCount = 0;
    m_endNs = 0;
    m_live = false;
    addOps(run.ops);
}

std::pair<std::size_t, std::size_t> RunTimeline::visibleRange(int lane, std::int64_t t0, std::int64_t t1) const
{
    if (lane < 0 || lane >= laneCount() || t1 < t0)
        return {0, 0};
    const auto& ops = laneOps(lane);
    auto first = std::lower_bound(ops.begin(), ops.end(), t0, [](const Op& o, std::int64_t t) { return o.endNs < t; });
    auto last = std::upper_bound(first, ops.end(), t1, [](std::int64_t t, const Op& o) { return t < o.startNs; });
    return {static_cast<std::size_t>(first - ops.begin()), static_cast<std::size_t>(last - ops.begin())};
}

int RunTimeline::opIndexAt(int lane, std::int64_t t, std::int64_t toleranceNs) const
{
    toleranceNs = std::max<std::int64_t>(toleranceNs, 0);
    auto [first, last] =
        visibleRange(lane, saturatingSub<std::int64_t>(t, toleranceNs), saturatingAdd<std::int64_t>(t, toleranceNs));
    int best = -1;
    std::int64_t bestDistance = saturatingAdd<std::int64_t>(toleranceNs, 1);
    const auto& ops = laneOps(lane);
    for (std::size_t i = first; i < last; ++i) {
        const Op& op = ops[i];
        const std::int64_t distance =
            t < op.startNs ? saturatingSub<std::int64_t>(op.startNs, t)
                           : (t > op.endNs ? saturatingSub<std::int64_t>(t, op.endNs) : 0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

Run RunTimeline::toRun() const
{
    Run run = m_header;
    run.ops.reserve(m_opCount);
    for (const auto& lane : m_lanes)
        run.ops.insert(run.ops.end(), lane.begin(), lane.end());
    run.sortOps();
    return run;
}

int RunTimeline::indexOf(const Op& op) const
{
    if (op.lane >= m_lanes.size())
        return -1;
    const std::vector<Op>& lane = laneOps(op.lane);
    auto it = std::lower_bound(lane.begin(), lane.end(), op.startNs,
                               [](const Op& o, std::int64_t t) { return o.startNs < t; });
    for (; it != lane.end() && it->startNs == op.startNs; ++it)
        if (it->endNs == op.endNs && it->kind == op.kind)
            return static_cast<int>(it - lane.begin());
    return -1;
}

} // namespace ovs::ui
