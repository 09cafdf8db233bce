#include "facts/Launches.h"

#include "base/SortedRuns.h"
#include "trace/CorrelationMap.h"
#include "trace/OpTimes.h"

#include <algorithm>

namespace ovs {

std::vector<Launch> launchesOf(const Run& run)
{
    CorrelationMap callOf;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (op.correlation != 0 && !isGpuOp(op.kind) && op.lane < run.lanes.size()
            && run.lanes[op.lane].kind == LaneKind::HostThread)
            callOf.add(op.correlation, i);
    }
    callOf.finish();
    std::vector<Launch> launches;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (!isGpuOp(op.kind))
            continue;
        Launch l{op.startNs, std::max(op.endNs, busyEndNs(op)), Region::kNoLane, i};
        if (const std::uint32_t call = callOf.find(op.correlation); call != CorrelationMap::kNone) {
            l.enqueuedNs = run.ops[call].startNs;
            l.lane = run.ops[call].lane;
        }
        launches.push_back(l);
    }
    // Each stream's ops were enqueued in its order nearly always: merged by
    // sorted runs (a tenth of this function's time on a big trace, where
    // std::sort took a third). Equal enqueue times may come in another
    // order than std::sort's; no reader of the launches looks at that order.
    sortSortedRuns(launches, [](const Launch& a, const Launch& b) { return a.enqueuedNs < b.enqueuedNs; });
    return launches;
}

} // namespace ovs
