#include "document/RunTimeline.h"

#include "base/Saturating.h"

#include <algorithm>

namespace ovs::ui {

RunTimeline::RunTimeline() : m_run(std::make_shared<Run>())
{
}

RunTimeline::RunTimeline(const Run& run) : RunTimeline(Run(run))
{
}

RunTimeline::RunTimeline(Run&& run) : m_run(std::make_shared<Run>(std::move(run)))
{
    // Core's readers keep ops sorted (Run.h); a run built by hand may not be.
    m_run->sortOps();
    m_regionTracks = RegionTracks::of(*m_run);
    indexLanes();
}

RunTimeline RunTimeline::live(const Run& header)
{
    RunTimeline timeline;
    Run copy = header;
    copy.ops.clear();
    timeline.m_run = std::make_shared<Run>(std::move(copy));
    timeline.m_regionTracks = RegionTracks::of(*timeline.m_run);
    timeline.m_liveLanes.resize(header.lanes.size());
    timeline.m_laneCount = static_cast<int>(header.lanes.size());
    timeline.m_live = true;
    return timeline;
}

std::shared_ptr<const Run> RunTimeline::sharedRun() const
{
    return m_live ? nullptr : std::shared_ptr<const Run>(m_run);
}

void RunTimeline::indexLanes()
{
    const Run& run = *m_run;
    std::size_t lanes = run.lanes.size();
    if (!run.ops.empty())
        lanes = std::max<std::size_t>(lanes, run.ops.back().lane + 1u); // sorted by lane: the last has the highest
    m_laneBegin.assign(lanes + 1, 0);
    m_endNs = 0;
    // Each lane's range found by binary search on the sorted ops: a lane
    // costs a logarithm, not a walk of the run.
    for (std::size_t l = 0; l <= lanes; ++l)
        m_laneBegin[l] = static_cast<std::size_t>(
            std::lower_bound(run.ops.begin(), run.ops.end(), l, [](const Op& op, std::size_t lane) { return op.lane < lane; })
            - run.ops.begin());
    for (const Op& op : run.ops)
        m_endNs = std::max(m_endNs, op.endNs);
    m_laneCount = static_cast<int>(lanes);
}

Run& RunTimeline::ownRun()
{
    if (m_run.use_count() > 1)
        m_run = std::make_shared<Run>(*m_run);
    return *m_run;
}

std::span<const Op> RunTimeline::laneOps(int lane) const
{
    if (lane < 0 || lane >= m_laneCount)
        return {};
    const auto l = static_cast<std::size_t>(lane);
    if (m_live)
        return m_liveLanes[l];
    return std::span<const Op>(m_run->ops).subspan(m_laneBegin[l], m_laneBegin[l + 1] - m_laneBegin[l]);
}

void RunTimeline::addLane(const Lane& lane, int laneIndex)
{
    if (laneIndex < 0)
        return;
    const auto index = static_cast<std::size_t>(laneIndex);
    Run& run = m_live ? *m_run : ownRun();
    if (run.lanes.size() <= index)
        run.lanes.resize(index + 1);
    run.lanes[index] = lane;
    if (m_live) {
        if (m_liveLanes.size() <= index)
            m_liveLanes.resize(index + 1);
        m_laneCount = static_cast<int>(m_liveLanes.size());
    } else {
        indexLanes();
    }
}

void RunTimeline::addOps(std::span<const Op> ops)
{
    if (!m_live) {
        // Ops after a run finished: rare (nothing core records does it);
        // merged into a copy, so the shared run never changes under a reader.
        Run& run = ownRun();
        run.ops.insert(run.ops.end(), ops.begin(), ops.end());
        run.sortOps();
        indexLanes();
        return;
    }
    for (const Op& op : ops) {
        if (op.lane >= m_liveLanes.size())
            m_liveLanes.resize(op.lane + 1u);
        std::vector<Op>& lane = m_liveLanes[op.lane];
        // Batches arrive nearly in order: appending is the common case.
        if (lane.empty() || lane.back().startNs <= op.startNs)
            lane.push_back(op);
        else
            lane.insert(std::upper_bound(lane.begin(), lane.end(), op.startNs,
                                         [](std::int64_t t, const Op& o) { return t < o.startNs; }),
                        op);
        m_endNs = std::max(m_endNs, op.endNs);
        ++m_liveOpCount;
    }
    m_laneCount = static_cast<int>(m_liveLanes.size());
}

void RunTimeline::addNames(std::span<const std::string> names)
{
    Run& run = m_live ? *m_run : ownRun();
    run.names.insert(run.names.end(), names.begin(), names.end());
}

void RunTimeline::finish(const Run& run)
{
    *this = RunTimeline(run);
}

std::pair<std::size_t, std::size_t> RunTimeline::visibleRange(int lane, std::int64_t t0, std::int64_t t1) const
{
    if (lane < 0 || lane >= laneCount() || t1 < t0)
        return {0, 0};
    const std::span<const Op> ops = laneOps(lane);
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
    const std::span<const Op> ops = laneOps(lane);
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

std::pair<int, int> RunTimeline::laneIndexOf(std::size_t opIndex) const
{
    if (m_live || opIndex >= m_run->ops.size())
        return {-1, -1};
    const std::uint16_t lane = m_run->ops[opIndex].lane;
    return {lane, static_cast<int>(opIndex - m_laneBegin[lane])};
}

Run RunTimeline::toRun() const
{
    Run run = *m_run;
    if (!m_live)
        return run;
    run.ops.reserve(m_liveOpCount);
    for (const auto& lane : m_liveLanes)
        run.ops.insert(run.ops.end(), lane.begin(), lane.end());
    run.sortOps();
    return run;
}

int RunTimeline::indexOf(const Op& op) const
{
    if (op.lane >= m_laneCount)
        return -1;
    const std::span<const Op> lane = laneOps(op.lane);
    auto it = std::lower_bound(lane.begin(), lane.end(), op.startNs,
                               [](const Op& o, std::int64_t t) { return o.startNs < t; });
    for (; it != lane.end() && it->startNs == op.startNs; ++it)
        if (it->endNs == op.endNs && it->kind == op.kind)
            return static_cast<int>(it - lane.begin());
    return -1;
}

} // namespace ovs::ui
