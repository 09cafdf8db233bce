#include "analysis/RunMetrics.h"

#include "analysis/IntervalSet.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <bit>
#include <map>
#include <vector>

namespace ovs {

namespace {

// The interval an op occupied its engine or thread: for GPU ops the engine's
// own (exec) times where the recording has them, since event times include
// the wait behind another stream's op.
Interval busyInterval(const Op& op)
{
    return {busyBeginNs(op), busyEndNs(op)};
}

bool inSpan(Interval span, const Op& op)
{
    return op.startNs >= span.beginNs && op.startNs < span.endNs;
}

double percentOf(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

EngineBusy busy(const IntervalSet& set, std::int64_t wallNs)
{
    EngineBusy b;
    b.busyNs = set.length();
    b.utilisation = wallNs > 0 ? static_cast<double>(b.busyNs) / static_cast<double>(wallNs) : 0.0;
    return b;
}

std::string describeEngineTimes(int gpuOps, int withExec)
{
    if (gpuOps == 0)
        return "no GPU ops";
    if (withExec == gpuOps)
        return "engine execution intervals";
    if (withExec == 0)
        return "event intervals (they include time queued behind other streams)";
    return "engine execution intervals for " + std::to_string(withExec) + " of " + std::to_string(gpuOps)
           + " GPU ops, event intervals for the rest";
}

// What one op of the kind could reach. A staging op is one thread's part:
// the threads share what they reach together.
double availableRate(OpKind kind, HostMemoryKind memory, const TransferRates& rates, int stagingThreads)
{
    const int threads = std::max(1, stagingThreads);
    switch (kind) {
    case OpKind::Upload: return rates.h2dGBps(memory);
    case OpKind::Download: return rates.d2hGBps(memory);
    case OpKind::Kernel: return rates.kernelGBps;
    case OpKind::StageIn:
    case OpKind::StageOut: return rates.hostCopyGBps(threads) / threads;
    default: return 0;
    }
}

QueueWait queueWait(const Run& run, Interval span, OpKind kind, std::int64_t wallNs)
{
    std::map<int, std::int64_t> perStream;
    for (const Op& op : run.ops)
        if (op.kind == kind && op.hasExec() && inSpan(span, op))
            // Only the wait inside the timed region counts against its wall time.
            perStream[op.lane] = saturatingAdd(perStream[op.lane],
                                               spanNs(op.startNs, std::min(op.execStartNs, span.endNs)));
    QueueWait wait;
    for (const auto& [lane, ns] : perStream) {
        wait.ns = saturatingAdd(wait.ns, ns);
        // Every op waits a launch latency; a stream counts as queued only
        // when its waits add up to something a user would see.
        if (wallNs > 0 && saturatingMul<std::int64_t>(ns, thresholds::kQueuedStreamParts) >= wallNs)
            ++wait.streams;
    }
    return wait;
}

} // namespace

RunMetrics computeMetrics(const Run& run, const TransferRates& rates)
{
    return computeMetrics(run, rates, {run.timedBeginNs, run.timedEndNs});
}

RunMetrics computeMetrics(const Run& run, const TransferRates& rates, Interval span)
{
    RunMetrics m;
    m.wallNs = spanNs(span.beginNs, span.endNs);

    int mainHostLane = -1;
    for (std::size_t i = 0; i < run.lanes.size() && mainHostLane < 0; ++i)
        if (run.lanes[i].kind == LaneKind::HostThread)
            mainHostLane = static_cast<int>(i);

    std::vector<Interval> uploads, downloads, kernels, staging, waits;
    std::array<std::vector<Interval>, kOpKindCount> perKind;
    // Per kind, a bit per host memory kind seen; per lane, whether it holds
    // GPU ops or staging (a set insert per op cost a few percent of a
    // gigabyte trace's analysis).
    std::array<std::uint32_t, kOpKindCount> memories{};
    std::vector<char> streams(run.lanes.size(), 0), stagingLanes(run.lanes.size(), 0);
    const double repeats = std::max(1, run.params.kernelRepeats);
    for (const Op& op : run.ops) {
        if (!inSpan(span, op))
            continue;
        const Interval interval = busyInterval(op);
        const auto k = static_cast<std::size_t>(op.kind);
        KindThroughput& t = m.kinds[k];
        ++t.count;
        const std::uint64_t bytes = op.kind == OpKind::Kernel
                                        ? saturatingCast<std::uint64_t>(2 * repeats * static_cast<double>(op.bytes))
                                        : op.bytes;
        t.bytes = saturatingAdd(t.bytes, bytes);
        t.ns = saturatingAdd(t.ns, spanNs(interval.beginNs, interval.endNs));
        perKind[k].push_back(interval);
        memories[k] |= 1u << static_cast<unsigned>(op.memory);
        if (isGpuOp(op.kind)) {
            ++m.gpuOps;
            if (op.hasExec())
                ++m.gpuOpsWithExec;
            if (op.lane < streams.size())
                streams[op.lane] = 1;
        }
        switch (op.kind) {
        case OpKind::Upload: uploads.push_back(interval); break;
        case OpKind::Download: downloads.push_back(interval); break;
        case OpKind::Kernel: kernels.push_back(interval); break;
        case OpKind::StageIn:
        case OpKind::StageOut:
            staging.push_back(interval);
            m.stagingThreadNs = saturatingAdd(m.stagingThreadNs, spanNs(interval.beginNs, interval.endNs));
            if (op.lane < stagingLanes.size())
                stagingLanes[op.lane] = 1;
            break;
        case OpKind::HostWait:
        case OpKind::Sync:
            if (op.lane == mainHostLane)
                waits.push_back(interval);
            break;
        default: break;
        }
    }
    m.engineTimes = describeEngineTimes(m.gpuOps, m.gpuOpsWithExec);
    m.streams = static_cast<int>(std::count(streams.begin(), streams.end(), 1));
    m.stagingThreads = static_cast<int>(std::count(stagingLanes.begin(), stagingLanes.end(), 1));

    // Intervals may reach past the timed region (a copy the timer's end
    // waited for is inside it, but a drain can straddle it): clip them.
    const auto clip = [&](std::vector<Interval> v) {
        return IntervalSet(std::move(v)).clipped(span.beginNs, span.endNs);
    };
    const IntervalSet h2d = clip(std::move(uploads));
    const IntervalSet d2h = clip(std::move(downloads));
    const IntervalSet copies = h2d.united(d2h);
    const IntervalSet compute = clip(std::move(kernels));
    const IntervalSet stage = clip(std::move(staging));
    m.h2d = busy(h2d, m.wallNs);
    m.d2h = busy(d2h, m.wallNs);
    m.copies = busy(copies, m.wallNs);
    m.compute = busy(compute, m.wallNs);
    m.staging = busy(stage, m.wallNs);
    m.copyWithKernelNs = copies.intersected(compute).length();
    m.h2dWithD2hNs = h2d.intersected(d2h).length();
    m.stagingWithGpuNs = stage.intersected(copies.united(compute)).length();
    m.overlapPercent = percentOf(m.copyWithKernelNs, m.copies.busyNs);
    m.overlapPossibleNs = std::min(m.copies.busyNs, m.compute.busyNs);
    m.overlapOfPossiblePercent = percentOf(m.copyWithKernelNs, m.overlapPossibleNs);
    m.h2dWithD2hPercent = percentOf(m.h2dWithD2hNs, m.copies.busyNs);
    m.hostWaitNs = clip(std::move(waits)).length();

    for (std::size_t k = 0; k < m.kinds.size(); ++k) {
        KindThroughput& t = m.kinds[k];
        t.unionNs = clip(std::move(perKind[k])).length();
        if (std::has_single_bit(memories[k]))
            t.memory = static_cast<HostMemoryKind>(std::countr_zero(memories[k]));
        const double available = availableRate(static_cast<OpKind>(k), t.memory, rates, m.stagingThreads);
        if (available > 0 && t.ns > 0)
            t.ofRate = t.gbps() / available;
    }

    m.h2dQueue = queueWait(run, span, OpKind::Upload, m.wallNs);
    m.d2hQueue = queueWait(run, span, OpKind::Download, m.wallNs);
    return m;
}

} // namespace ovs
