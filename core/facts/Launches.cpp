#include "facts/Launches.h"

#include "base/ParallelWork.h"
#include "base/SortedRuns.h"
#include "trace/CorrelationMap.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <future>

namespace ovs {

std::vector<Launch> launchesOf(const Run& run)
{
    CorrelationMap callOf;
    std::vector<std::uint32_t> gpuOps;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (isGpuOp(op.kind))
            gpuOps.push_back(i);
        else if (op.correlation != 0 && op.lane < run.lanes.size() && run.lanes[op.lane].kind == LaneKind::HostThread)
            callOf.add(op.correlation, i);
    }
    callOf.finish();
    // Each GPU op's launch, in op order, written in place; the second half
    // on the second core where the run is big (a lookup of its call and a
    // read of the call's op each: most of this function's time on a big
    // trace).
    std::vector<Launch> launches(gpuOps.size());
    const auto findLaunches = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const std::uint32_t i = gpuOps[k];
            const Op& op = run.ops[i];
            Launch& l = launches[k];
            l = {op.startNs, std::max(op.endNs, busyEndNs(op)), Region::kNoLane, i};
            if (const std::uint32_t call = callOf.find(op.correlation); call != CorrelationMap::kNone) {
                l.enqueuedNs = run.ops[call].startNs;
                l.lane = run.ops[call].lane;
            }
        }
    };
    const std::size_t half = gpuOps.size() / 2;
    auto later = std::async(launchPolicyFor(gpuOps.size()), findLaunches, half, gpuOps.size());
    findLaunches(0, half);
    later.get();
    // Each stream's ops were enqueued in its order nearly always: merged by
    // sorted runs, not sorted whole (std::sort was some 13% of this
    // function's time on the 2 GB trace). Equal enqueue times may come in
    // another order than std::sort's; no reader of the launches looks at
    // that order.
    sortSortedRuns(launches, [](const Launch& a, const Launch& b) { return a.enqueuedNs < b.enqueuedNs; });
    return launches;
}

} // namespace ovs
