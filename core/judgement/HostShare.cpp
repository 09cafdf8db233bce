#include "judgement/HostShare.h"

#include "base/Thresholds.h"

#include "facts/IntervalSet.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace ovs {

namespace {

using thresholds::kUnhindered; // base/Thresholds.h

std::string gbpsText(double gbps)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", gbps);
    return text;
}

bool pageable(HostMemoryKind kind)
{
    return kind == HostMemoryKind::Pageable;
}

void aloneRate(DeviceUploads& d, const DeviceInfo& info, HostMemoryKind memory,
               const std::vector<BandwidthSweep>& sweeps)
{
    if (info.model) {
        d.aloneGBps = pageable(memory) ? info.model->pageableH2DGBps : info.model->pinnedH2DGBps;
        d.aloneSource = "simulator preset " + info.preset;
        return;
    }
    const HostMemoryKind want = pageable(memory) ? HostMemoryKind::Pageable : HostMemoryKind::Pinned;
    std::uint64_t largest = 0;
    for (const auto& sweep : sweeps) {
        if (sweep.device.name != info.name || sweep.device.detail != info.detail)
            continue;
        for (const auto& point : sweep.points)
            if (point.direction == "HtoD" && point.memory == want && point.bytes >= largest && point.gbps > 0) {
                largest = point.bytes;
                d.aloneGBps = point.gbps;
                d.aloneSource = "its bandwidth sweep, " + std::to_string(point.bytes >> 20) + " MiB";
            }
    }
}

} // namespace

const char* toString(SharedBound bound)
{
    switch (bound) {
    case SharedBound::Unknown: return "unknown";
    case SharedBound::Links: return "links";
    case SharedBound::HostMemory: return "host memory";
    }
    return "?";
}

HostShare analyseHostShare(const Run& run, const std::vector<BandwidthSweep>& sweeps)
{
    HostShare share;
    const int n = run.deviceCount();
    if (n < 2)
        return share;
    std::vector<std::vector<Interval>> busy(static_cast<std::size_t>(n));
    std::vector<Interval> all;
    std::map<HostMemoryKind, std::uint64_t> bytesByMemory;
    share.devices.resize(static_cast<std::size_t>(n));
    for (const Op& op : run.ops) {
        if (op.kind != OpKind::Upload || op.lane >= run.lanes.size())
            continue;
        const Lane& lane = run.lanes[op.lane];
        if (lane.device >= n)
            continue;
        const Interval interval{busyBeginNs(op), busyEndNs(op)};
        busy[lane.device].push_back(interval);
        all.push_back(interval);
        share.devices[lane.device].bytes += op.bytes;
        bytesByMemory[op.memory] += op.bytes;
    }
    if (all.empty())
        return share;
    share.applies = true;
    share.memory = std::max_element(bytesByMemory.begin(), bytesByMemory.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; })
                       ->first;
    std::uint64_t totalBytes = 0;
    bool allKnown = true;
    bool allUnhindered = true;
    for (int d = 0; d < n; ++d) {
        DeviceUploads& u = share.devices[static_cast<std::size_t>(d)];
        u.device = d;
        u.label = run.deviceAt(d).label();
        u.busyNs = IntervalSet(busy[static_cast<std::size_t>(d)]).length();
        u.gbps = u.busyNs > 0 ? static_cast<double>(u.bytes) / static_cast<double>(u.busyNs) : 0;
        aloneRate(u, run.deviceAt(d), share.memory, sweeps);
        totalBytes += u.bytes;
        allKnown = allKnown && u.aloneGBps > 0;
        if (u.aloneGBps > 0 && u.gbps < kUnhindered * u.aloneGBps)
            allUnhindered = false;
        share.sumAloneGBps += u.aloneGBps;
    }
    const std::int64_t unionNs = IntervalSet(all).length();
    share.aggregateGBps = unionNs > 0 ? static_cast<double>(totalBytes) / static_cast<double>(unionNs) : 0;
    if (!allKnown) {
        share.sumAloneGBps = 0;
        share.diagnosis = "uploads reach " + gbpsText(share.aggregateGBps) + " GB/s on " + std::to_string(n)
                          + " GPUs together; what each reaches alone is unknown (record a sweep: each device alone)";
        return share;
    }
    const double ofAlone = share.aggregateGBps / share.sumAloneGBps;
    const std::string together = std::to_string(n) + " GPUs upload " + gbpsText(share.aggregateGBps)
                                 + " GB/s together, " + gbpsText(100 * ofAlone) + "% of the "
                                 + gbpsText(share.sumAloneGBps) + " GB/s they reach one at a time";
    if (allUnhindered) {
        share.bound = SharedBound::Links;
        share.diagnosis = "link bound: " + together
                          + "; each GPU's own link is the limit, the host's memory keeps up";
    } else {
        share.bound = SharedBound::HostMemory;
        share.diagnosis = "host memory bound: " + together
                          + "; the shared resource is the host's memory bandwidth, which every GPU's "
                          + (pageable(share.memory) ? "driver staging and DMA" : "DMA and the staging memcpys")
                          + " draw on";
    }
    return share;
}

} // namespace ovs
