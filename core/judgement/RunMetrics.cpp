#include "judgement/RunMetrics.h"

#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "facts/IntervalSet.h"
#include "facts/RunIndex.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace ovs {

namespace {

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

QueueWait queueWait(const RunIndex& index, OpKind kind, std::int64_t wallNs)
{
    QueueWait wait;
    for (const auto& [lane, ns] : index.queuedNs(kind)) {
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
    return computeMetrics(RunIndex(run, span), rates);
}

RunMetrics computeMetrics(const RunIndex& index, const TransferRates& rates)
{
    const Run& run = index.run();
    RunMetrics m;
    m.wallNs = index.wallNs();
    m.gpuOps = index.gpuOps();
    m.gpuOpsWithExec = index.gpuOpsWithExec();
    m.engineTimes = describeEngineTimes(m.gpuOps, m.gpuOpsWithExec);
    m.streams = index.streams();
    m.stagingThreads = index.stagingThreads();
    const double repeats = std::max(1, run.params.kernelRepeats);
    for (std::size_t k = 0; k < m.kinds.size(); ++k) {
        const KindFacts& facts = index.kind(static_cast<OpKind>(k));
        KindThroughput& t = m.kinds[k];
        t.count = facts.count;
        // A kernel reads and writes each byte it touches, kernelRepeats times.
        t.bytes = static_cast<OpKind>(k) == OpKind::Kernel
                      ? saturatingCast<std::uint64_t>(2 * repeats * static_cast<double>(facts.bytes))
                      : facts.bytes;
        t.ns = facts.ns;
        t.unionNs = facts.unionNs;
        if (std::has_single_bit(facts.memories))
            t.memory = static_cast<HostMemoryKind>(std::countr_zero(facts.memories));
        const double available = availableRate(static_cast<OpKind>(k), t.memory, rates, m.stagingThreads);
        if (available > 0 && t.ns > 0)
            t.ofRate = t.gbps() / available;
    }
    const IntervalSet& h2d = index.kindTime(OpKind::Upload);
    const IntervalSet& d2h = index.kindTime(OpKind::Download);
    const IntervalSet copies = h2d.united(d2h);
    const IntervalSet& compute = index.kindTime(OpKind::Kernel);
    const IntervalSet stage = index.kindTime(OpKind::StageIn).united(index.kindTime(OpKind::StageOut));
    m.stagingThreadNs = saturatingAdd(index.kind(OpKind::StageIn).ns, index.kind(OpKind::StageOut).ns);
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
    m.hostWaitNs = index.mainThreadWaits().length();
    m.h2dQueue = queueWait(index, OpKind::Upload, m.wallNs);
    m.d2hQueue = queueWait(index, OpKind::Download, m.wallNs);
    return m;
}

} // namespace ovs
