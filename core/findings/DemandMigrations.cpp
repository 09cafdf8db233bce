#include "findings/DemandMigrations.h"

#include "base/Saturating.h"
#include "facts/RunIndex.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <map>
#include <optional>

namespace ovs {

namespace {

struct TimedBytes {
    Interval at;
    std::uint64_t bytes = 0;
    std::uint32_t op = 0;
};

// One device's counters, as read from its unified-memory lane.
struct DeviceCounters {
    std::vector<TimedBytes> faultGroups;
    std::vector<TimedBytes> migrationsIn; // on demand, or of unknown cause until checked
    std::vector<bool> inOnDemand;
    std::vector<std::uint32_t> kernels;
};

bool overlapsAny(const IntervalSet& set, Interval at)
{
    const auto& pieces = set.pieces();
    const auto it = std::upper_bound(pieces.begin(), pieces.end(), at.beginNs,
                                     [](std::int64_t t, const Interval& p) { return t < p.endNs; });
    return it != pieces.end() && it->beginNs < std::max(at.endNs, at.beginNs + 1);
}

// From the first instant of `set` inside `at` to its last.
std::int64_t windowWithin(const IntervalSet& set, Interval at)
{
    const auto& pieces = set.pieces();
    auto it = std::upper_bound(pieces.begin(), pieces.end(), at.beginNs,
                               [](std::int64_t t, const Interval& p) { return t < p.endNs; });
    if (it == pieces.end() || it->beginNs >= at.endNs)
        return 0;
    const std::int64_t first = std::max(it->beginNs, at.beginNs);
    std::int64_t last = first;
    for (; it != pieces.end() && it->beginNs < at.endNs; ++it)
        last = std::min(it->endNs, at.endNs);
    return last - first;
}

// The run's unified-memory counters and kernels, per device, as far as
// the index's span asks for them.
struct Counters {
    std::map<int, DeviceCounters> devices;
    std::vector<TimedBytes> migrationsOut; // on demand
    std::vector<TimedBytes> unknownOut;    // of no recorded cause
};

// Reads the counters, and counts the host's faults and the GPUs' fault
// groups into `result` on the way.
Counters readCounters(const RunIndex& index, DemandMigrations& result)
{
    const Run& run = index.run();
    Counters counters;
    auto& devices = counters.devices;
    for (const std::uint32_t i : index.unifiedMemoryOps()) {
        const Op& op = run.ops[i];
        const UnifiedMemoryOp* counter = run.unifiedMemoryOf(i);
        if (!counter)
            continue;
        // The host reads results after the loop: its faults count from the
        // span's start to the run's end (the index keeps them so).
        const bool inSpan = index.inSpan(op);
        const int device = index.laneDevice(op.lane);
        // A migration of no recorded cause counts only where faults show it
        // was on demand (below).
        const bool maybeOnDemand = counter->onDemand() || counter->cause == UmCause::Unknown;
        const TimedBytes timed{{op.startNs, op.endNs}, op.bytes, i};
        if (counter->counter == UmCounter::CpuPageFault) {
            result.cpuFaults += op.bytes;
            result.ops.push_back(i);
        } else if (counter->counter == UmCounter::MigrationToHost && maybeOnDemand) {
            (counter->onDemand() ? counters.migrationsOut : counters.unknownOut).push_back(timed);
        } else if (!inSpan) {
            continue;
        } else if (counter->counter == UmCounter::GpuPageFaults) {
            devices[device].faultGroups.push_back(timed);
            result.gpuFaultGroups += op.bytes;
            result.ops.push_back(i);
        } else if (counter->counter == UmCounter::MigrationToGpu && maybeOnDemand) {
            devices[device].migrationsIn.push_back(timed);
            devices[device].inOnDemand.push_back(counter->onDemand());
        }
    }
    // The kernels of each device that has counters, from its GPU ops in the span.
    for (const DeviceFacts& d : index.devices()) {
        const auto it = devices.find(d.device);
        if (it == devices.end())
            continue;
        for (const auto& [lane, ops] : d.laneOps)
            for (const std::uint32_t i : ops)
                if (run.ops[i].kind == OpKind::Kernel)
                    it->second.kernels.push_back(i);
    }
    return counters;
}

// The migrations back to the host on the host's faults: it waited for them.
// Without causes, the migrations back count where the host faulted at all.
void countMigrationsOut(Counters& counters, DemandMigrations& result)
{
    std::vector<TimedBytes>& out = counters.migrationsOut;
    if (result.cpuFaults > 0)
        out.insert(out.end(), counters.unknownOut.begin(), counters.unknownOut.end());
    std::vector<Interval> hostFaultMigrations;
    for (const TimedBytes& m : out) {
        hostFaultMigrations.push_back(m.at);
        result.bytesOut += m.bytes;
        result.ops.push_back(m.op);
    }
    result.hostFaultNs = IntervalSet(std::move(hostFaultMigrations)).length();
}

// `kernel`'s stall on faults and the bytes migrated in for it; none where
// it did not wait. `demand` is sorted by start; `longest` is its longest.
std::optional<FaultedKernel> faultedKernel(const Run& run, std::uint32_t kernel, const IntervalSet& stalledTimes,
                                           const std::vector<TimedBytes>& demand, std::int64_t longest)
{
    const Op& op = run.ops[kernel];
    const Interval ran{busyBeginNs(op), busyEndNs(op)};
    if (ran.endNs <= ran.beginNs)
        return std::nullopt;
    // A faulting kernel waits between its faults as well as for their
    // migrations: the stall is its time from its first fault or migration
    // to its last. (On the H200, managed_memory's migrations filled a third
    // of its kernels' time; prefetched, the same kernels took 0.4% of it.)
    FaultedKernel f;
    f.op = kernel;
    f.stallNs = windowWithin(stalledTimes, ran);
    if (f.stallNs <= 0)
        return std::nullopt;
    // Each migration's bytes in the share of it that fell in the kernel.
    auto it = std::lower_bound(demand.begin(), demand.end(), saturatingSub(ran.beginNs, longest),
                               [](const TimedBytes& m, std::int64_t t) { return m.at.beginNs < t; });
    for (; it != demand.end() && it->at.beginNs < ran.endNs; ++it) {
        const std::int64_t length = it->at.endNs - it->at.beginNs;
        const std::int64_t inside = std::min(it->at.endNs, ran.endNs) - std::max(it->at.beginNs, ran.beginNs);
        if (length <= 0)
            f.bytesIn += it->at.beginNs >= ran.beginNs ? it->bytes : 0;
        else if (inside > 0)
            f.bytesIn += static_cast<std::uint64_t>(static_cast<double>(it->bytes) * static_cast<double>(inside)
                                                    / static_cast<double>(length));
    }
    return f;
}

// One device's on-demand migrations in, and the kernels that stalled on
// them or on the faults.
void judgeDevice(const Run& run, const DeviceCounters& d, DemandMigrations& result)
{
    std::vector<Interval> faultTimes;
    for (const TimedBytes& f : d.faultGroups)
        faultTimes.push_back(f.at);
    const IntervalSet faults(faultTimes);
    // On-demand migrations: named so, or of no recorded cause and during a
    // fault group (a program's own prefetch faults nothing).
    std::vector<TimedBytes> demand;
    std::vector<Interval> stalled = faultTimes;
    for (std::size_t m = 0; m < d.migrationsIn.size(); ++m) {
        const TimedBytes& migration = d.migrationsIn[m];
        if (!d.inOnDemand[m] && !overlapsAny(faults, migration.at))
            continue;
        demand.push_back(migration);
        stalled.push_back(migration.at);
        result.bytesIn += migration.bytes;
        result.ops.push_back(migration.op);
    }
    if (stalled.empty())
        return;
    const IntervalSet stalledTimes(stalled);
    std::sort(demand.begin(), demand.end(),
              [](const TimedBytes& a, const TimedBytes& b) { return a.at.beginNs < b.at.beginNs; });
    std::int64_t longest = 0;
    for (const TimedBytes& m : demand)
        longest = std::max(longest, m.at.endNs - m.at.beginNs);
    for (std::uint32_t k : d.kernels) {
        const std::optional<FaultedKernel> f = faultedKernel(run, k, stalledTimes, demand, longest);
        if (!f)
            continue;
        result.stallNs = saturatingAdd(result.stallNs, f->stallNs);
        result.kernels.push_back(*f);
    }
}

} // namespace

DemandMigrations demandMigrations(const RunIndex& index)
{
    DemandMigrations result;
    if (index.unifiedMemoryOps().empty())
        return result;
    const Run& run = index.run();
    Counters counters = readCounters(index, result);
    countMigrationsOut(counters, result);
    for (const auto& [device, d] : counters.devices)
        judgeDevice(run, d, result);
    std::sort(result.kernels.begin(), result.kernels.end(),
              [](const FaultedKernel& a, const FaultedKernel& b) { return a.op < b.op; });
    std::sort(result.ops.begin(), result.ops.end());
    return result;
}

} // namespace ovs
