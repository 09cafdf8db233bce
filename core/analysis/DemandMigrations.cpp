#include "analysis/DemandMigrations.h"

#include "base/Saturating.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace ovs {

namespace {

// What a unified-memory op's name says (ProcessRunBuilder names them).
struct UnifiedMemoryCounterName {
    bool migrationIn = false;  // to a GPU
    bool migrationOut = false; // to the host
    bool gpuFaults = false;
    bool cpuFault = false;
    bool onDemand = false;     // "(fault)", "(driver prefetch)": a fault moved it, or the driver's guess around one
    bool causeKnown = false;   // "(...)" follows a migration's name
};

UnifiedMemoryCounterName readCounterName(std::string_view name)
{
    UnifiedMemoryCounterName n;
    n.migrationIn = name.starts_with("HtoD migration");
    n.migrationOut = name.starts_with("DtoH migration");
    n.gpuFaults = name == "GPU page faults";
    n.cpuFault = name == "CPU page fault";
    n.causeKnown = (n.migrationIn || n.migrationOut) && name.ends_with(")");
    n.onDemand = n.causeKnown && (name.ends_with("(fault)") || name.ends_with("(driver prefetch)"));
    return n;
}

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
// `span` asks for them.
struct Counters {
    std::map<int, DeviceCounters> devices;
    std::vector<TimedBytes> migrationsOut; // on demand
    std::vector<TimedBytes> unknownOut;    // of no recorded cause
};

// Reads the counters, and counts the host's faults and the GPUs' fault
// groups into `result` on the way.
Counters readCounters(const Run& run, Interval span, DemandMigrations& result)
{
    Counters counters;
    auto& devices = counters.devices;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        // The host reads results after the loop: its faults count from the
        // span's start to the run's end.
        if (op.lane >= run.lanes.size() || op.startNs < span.beginNs)
            continue;
        const bool inSpan = op.startNs < span.endNs;
        const int device = run.lanes[op.lane].device;
        if (op.kind == OpKind::Kernel) {
            if (inSpan)
                devices[device].kernels.push_back(i);
            continue;
        }
        if (op.kind != OpKind::UnifiedMemory)
            continue;
        const UnifiedMemoryCounterName n = readCounterName(run.nameOf(op));
        const TimedBytes timed{{op.startNs, op.endNs}, op.bytes, i};
        if (n.cpuFault) {
            result.cpuFaults += op.bytes;
            result.ops.push_back(i);
        } else if (n.migrationOut && (n.onDemand || !n.causeKnown)) {
            (n.onDemand ? counters.migrationsOut : counters.unknownOut).push_back(timed);
        } else if (!inSpan) {
            continue;
        } else if (n.gpuFaults) {
            devices[device].faultGroups.push_back(timed);
            result.gpuFaultGroups += op.bytes;
            result.ops.push_back(i);
        } else if (n.migrationIn && (n.onDemand || !n.causeKnown)) {
            devices[device].migrationsIn.push_back(timed);
            devices[device].inOnDemand.push_back(n.onDemand);
        }
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

DemandMigrations demandMigrations(const Run& run, Interval span)
{
    DemandMigrations result;
    Counters counters = readCounters(run, span, result);
    countMigrationsOut(counters, result);
    for (const auto& [device, d] : counters.devices)
        judgeDevice(run, d, result);
    std::sort(result.kernels.begin(), result.kernels.end(),
              [](const FaultedKernel& a, const FaultedKernel& b) { return a.op < b.op; });
    std::sort(result.ops.begin(), result.ops.end());
    return result;
}

} // namespace ovs
