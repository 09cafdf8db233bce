// The findings' rules, one function each: what each looks for, which ops
// it names and how its cost is estimated (the thresholds, with their
// reasons, in base/Thresholds.h).

#include "findings/FindingRules.h"

#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "findings/DemandMigrations.h"
#include "replay/RunGraphBuilder.h" // isLegacyStream
#include "trace/OpTimes.h"

#include <algorithm>
#include <map>
#include <set>

namespace ovs::findings {

using namespace thresholds;

void pageableCopies(const Context& c, std::vector<Finding>& out)
{
    const Run& run = c.run;
    std::vector<std::uint32_t> copies, ops;
    std::vector<Interval> intervals;
    std::int64_t stagingCost = 0, blockedNs = 0;
    bool rateKnown = true;
    int asyncCalls = 0, blockedCalls = 0;
    for (const auto& w : c.devices)
        for (const auto& [lane, laneOps] : w.laneOps())
            for (std::uint32_t i : laneOps) {
                const Op& op = run.ops[i];
                if (!isCopy(op.kind) || op.memory != HostMemoryKind::Pageable)
                    continue;
                copies.push_back(i);
                ops.push_back(i);
                const Interval e = engineInterval(op);
                intervals.push_back(e);
                const double pinned = op.kind == OpKind::Upload ? c.rates.pinnedH2DGBps : c.rates.pinnedD2HGBps;
                if (pinned > 0)
                    stagingCost = saturatingAdd(
                        stagingCost, std::max<std::int64_t>(0, spanNs(e.beginNs, e.endNs)
                                                                   - saturatingCast<std::int64_t>(
                                                                       static_cast<double>(op.bytes) / pinned)));
                else
                    rateKnown = false;
                // The call that issued it: an "async" one that lasted as long
                // as the copy blocked the host.
                if (const std::uint32_t call = c.callOf.find(op.correlation); call != CorrelationMap::kNone) {
                    const Op& api = run.ops[call];
                    ops.push_back(call);
                    if (c.index.isAsyncCall(api)) {
                        ++asyncCalls;
                        const double done = static_cast<double>(e.beginNs)
                                            + kBlockedShare * static_cast<double>(spanNs(e.beginNs, e.endNs));
                        if (static_cast<double>(api.endNs) >= done) {
                            ++blockedCalls;
                            blockedNs = saturatingAdd(blockedNs, spanNs(api.startNs, api.endNs));
                        }
                    }
                }
            }
    if (copies.empty())
        return;
    const IntervalSet pageable = IntervalSet(std::move(intervals)).clipped(c.span.beginNs, c.span.endNs);
    const std::int64_t gpuBusy = c.gpuBusy.length();
    if (gpuBusy <= 0 || static_cast<double>(pageable.length()) < kMinPageableShare * static_cast<double>(gpuBusy))
        return;
    Finding f = makeFinding(FindingKind::PageableCopies, std::move(ops), c.deviceForHost);
    f.cause = plural(copies.size(), "copy", "copies") + " from or to pageable host memory (" + msText(pageable.length())
              + " of copy time): the driver stages them through its own pinned buffer";
    if (blockedCalls > 0)
        f.cause += ", and " + std::to_string(blockedCalls) + " of " + std::to_string(asyncCalls)
                   + " \"async\" calls returned only after their copy was done (host blocked " + msText(blockedNs) + ")";
    if (rateKnown) {
        // Cost: each copy's time beyond what it takes at the pinned rate of
        // its direction (sweep, preset, or the run's own pinned copies).
        f.costNs = capped(stagingCost, c.wallNs);
        if (!c.rates.pinnedBasis.empty())
            f.costRate = "rate " + c.rates.pinnedBasis;
    } else {
        // No pinned rate to compare with: the copies' time during which no
        // kernel ran, what pinned copies on other streams could hide.
        IntervalSet kernels;
        for (const auto& w : c.devices) {
            std::vector<Interval> k;
            for (const auto& [lane, laneOps] : w.laneOps())
                for (std::uint32_t i : laneOps)
                    if (run.ops[i].kind == OpKind::Kernel)
                        k.push_back(engineInterval(run.ops[i]));
            kernels = kernels.united(IntervalSet(std::move(k)));
        }
        f.costNs = capped(pageable.length() - pageable.intersected(kernels).length(), c.wallNs);
        f.cause += " (no pinned rate known: cost is their time not under a kernel)";
    }
    f.fix = "allocate the host buffers pinned (cudaMallocHost / cudaHostAlloc, pin_memory=True in PyTorch) or "
            "register them once with cudaHostRegister; then cudaMemcpyAsync returns at once and copies overlap kernels";
    out.push_back(std::move(f));
}

// Synchronous copies on the legacy default stream next to kernels of other
// streams, in words: how many, and how many ran while such a kernel ran. A
// non-blocking stream's kernel does not wait for legacy-stream work nor it
// for the kernel, so a copy that overlaps a kernel is a race on its data
// unless the program orders them itself; worth saying.
std::string legacyCopyHazards(const Context& c, const std::vector<std::uint32_t>& ops)
{
    const Run& run = c.run;
    std::vector<Interval> kernels;
    for (const auto& w : c.devices)
        for (const auto& [lane, laneOps] : w.laneOps())
            if (!isLegacyStream(run.lanes[static_cast<std::size_t>(lane)]))
                for (std::uint32_t i : laneOps)
                    if (run.ops[i].kind == OpKind::Kernel)
                        kernels.push_back(engineInterval(run.ops[i]));
    const IntervalSet kernelTime(std::move(kernels));
    std::size_t legacy = 0, overlapping = 0;
    for (std::uint32_t i : ops) {
        const Op& op = run.ops[i];
        if (!isGpuOp(op.kind) || !isLegacyStream(run.lanes[op.lane]))
            continue;
        ++legacy;
        const Interval e = engineInterval(op);
        if (IntervalSet({e}).intersected(kernelTime).length() > kClockToleranceNs)
            ++overlapping;
    }
    if (legacy == 0 || kernelTime.isEmpty())
        return "";
    std::string text = "; " + std::to_string(legacy) + " of them on the legacy default stream next to kernels on "
                       "created streams";
    if (overlapping > 0)
        text += ", and " + std::to_string(overlapping) + " ran while such a kernel ran: a race unless the program "
                "orders them itself (legacy-stream work does not wait for non-blocking streams)";
    return text;
}

void syncCopies(const Context& c, std::vector<Finding>& out)
{
    const Run& run = c.run;
    std::vector<std::uint32_t> calls, ops;
    for (std::uint32_t i : c.hostOps) {
        const Op& call = run.ops[i];
        if (!c.index.isSyncCopyCall(call) || !c.interleaved(call))
            continue;
        // Blocking: the call returned only after the GPU op it issued ended.
        const std::uint32_t gpu = c.gpuOpOf.find(call.correlation);
        if (gpu == CorrelationMap::kNone)
            continue;
        const Op& work = run.ops[gpu];
        if (call.endNs < engineInterval(work).endNs)
            continue;
        calls.push_back(i);
        ops.push_back(i);
        ops.push_back(gpu);
    }
    if (static_cast<int>(calls.size()) < kMinRepeats)
        return;
    Finding f = makeFinding(FindingKind::SyncCopies, std::move(ops), c.deviceForHost);
    // The fix: async copies on the streams of the work around them, a chunk
    // per stream (async copies joined to one kernel stream would still run
    // one chunk at a time). cudaMemcpyAsync of pageable memory blocks as
    // cudaMemcpy does: the fix of pageable copies comes with it.
    f.fixes |= fixBit(Fix::StreamPerChunk);
    if (std::any_of(f.ops.begin(), f.ops.end(), [&](std::uint32_t i) {
            return isGpuOp(run.ops[i].kind) && run.ops[i].memory == HostMemoryKind::Pageable;
        }))
        f.fixes |= fixBit(Fix::PinHostMemory);
    f.costNs = capped(idleCostOf(c, calls), c.wallNs);
    f.cause = plural(calls.size(), "synchronous copy or memset call", "synchronous copy or memset calls")
              + " (cudaMemcpy, cudaMemset) returned only after their GPU work ended: the host could not queue "
                "anything meanwhile";
    f.cause += legacyCopyHazards(c, f.ops);
    f.fix = "use cudaMemcpyAsync / cudaMemsetAsync on the streams of the kernels they feed, a chunk per stream (from "
            "pinned memory), and synchronize once, where the result is needed";
    out.push_back(std::move(f));
}

// Time during which two or more of `lanes` ran work at once.
std::int64_t concurrentNs(const Run& run, const std::map<int, std::vector<std::uint32_t>>& lanes)
{
    std::vector<std::pair<std::int64_t, int>> edges;
    for (const auto& [lane, ops] : lanes) {
        std::vector<Interval> v;
        for (std::uint32_t i : ops)
            v.push_back(engineInterval(run.ops[i]));
        const IntervalSet lanePieces(std::move(v));
        for (const Interval& p : lanePieces.pieces()) {
            edges.emplace_back(p.beginNs, +1);
            edges.emplace_back(p.endNs, -1);
        }
    }
    std::sort(edges.begin(), edges.end()); // ends (-1) before starts at the same instant
    std::int64_t total = 0, since = 0;
    int open = 0;
    for (const auto& [t, d] : edges) {
        if (open >= 2)
            total = saturatingAdd(total, t - since);
        open += d;
        since = t;
    }
    return total;
}

void legacyDefaultStream(const Context& c, std::vector<Finding>& out)
{
    for (const DeviceWork& w : c.devices) {
        std::vector<std::uint32_t> legacyOps;
        std::int64_t otherFirst = -1, otherLast = -1;
        for (const auto& [lane, ops] : w.laneOps()) {
            if (isLegacyStream(c.run.lanes[static_cast<std::size_t>(lane)])) {
                legacyOps.insert(legacyOps.end(), ops.begin(), ops.end());
                continue;
            }
            for (std::uint32_t i : ops) {
                const Interval e = engineInterval(c.run.ops[i]);
                otherFirst = otherFirst < 0 ? e.beginNs : std::min(otherFirst, e.beginNs);
                otherLast = std::max(otherLast, e.endNs);
            }
        }
        if (legacyOps.empty() || otherFirst < 0)
            continue;
        // Interleaved with the other streams' work, not before or after it.
        const auto inside = std::count_if(legacyOps.begin(), legacyOps.end(), [&](std::uint32_t i) {
            const std::int64_t s = engineInterval(c.run.ops[i]).beginNs;
            return s > otherFirst && s < otherLast;
        });
        if (inside < kMinRepeats)
            continue;
        // Serialized: the streams hardly ever ran at once (an estimate's
        // gate; a replay judges by what the fix saves).
        const DeviceActivity& a = w.activity;
        const std::int64_t together = concurrentNs(c.run, w.laneOps());
        if (!c.replayed && static_cast<double>(together) >= kSerializedShare * static_cast<double>(a.busyNs))
            continue;
        const std::int64_t headroom = overlapHeadroom(a);
        if (!c.replayed && static_cast<double>(headroom) < kMinHeadroomShare * static_cast<double>(a.busyNs))
            continue;
        Finding f = makeFinding(FindingKind::LegacyDefaultStream, legacyOps, w.device);
        f.costNs = capped(headroom, c.wallNs);
        f.cause = plural(legacyOps.size(), "op", "ops") + " on the legacy default stream among "
                  + std::to_string(a.streams - 1) + " other "
                  + (a.streams - 1 == 1 ? "stream's" : "streams'") + " work: each waits for all blocking streams "
                  + "and holds back their later work, so the " + std::to_string(a.streams)
                  + " streams ran at the same time for " + percentText(together, a.busyNs) + " of the busy time";
        f.fix = "issue that work on the streams it belongs to (cudaMemsetAsync(..., stream), not cudaMemset), create "
                "streams with cudaStreamNonBlocking, or build with --default-stream per-thread";
        out.push_back(std::move(f));
    }
}

// The streams of the device that carry copies and kernels of a loop, each
// with its chunk count. Not replayed: its only stream, when it has one.
// Replayed (which judges the fix): each stream with copies and kernels of
// at least kMinRepeats chunks, the graph's chunks (a chunk begins at an
// upload that follows other work), as the fix's transform picks the
// streams it splits.
std::vector<std::pair<int, int>> loopStreams(const Context& c, const RunGraph* graph, const DeviceWork& w)
{
    if (!c.replayed || !graph)
        return w.laneOps().size() == 1 ? std::vector<std::pair<int, int>>{{w.laneOps().begin()->first, 0}}
                                     : std::vector<std::pair<int, int>>{};
    struct Carried {
        std::vector<int> chunks; // each node's, counted once each at the end
        bool copies = false, kernels = false;
    };
    std::map<int, Carried> byLane;
    for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
        const GraphNode& n = graph->nodes[i];
        const NodeState& s = graph->state[i];
        if (!n.gpu || !w.laneOps().contains(s.lane))
            continue;
        Carried& l = byLane[s.lane];
        if (l.chunks.empty() || l.chunks.back() != s.chunk)
            l.chunks.push_back(s.chunk);
        l.copies = l.copies || n.kind == OpKind::Upload || n.kind == OpKind::Download;
        l.kernels = l.kernels || n.kind == OpKind::Kernel;
    }
    std::vector<std::pair<int, int>> lanes;
    for (auto& [lane, l] : byLane) {
        std::sort(l.chunks.begin(), l.chunks.end());
        l.chunks.erase(std::unique(l.chunks.begin(), l.chunks.end()), l.chunks.end());
    }
    for (const auto& [lane, l] : byLane)
        if (l.copies && l.kernels && static_cast<int>(l.chunks.size()) >= kMinRepeats)
            lanes.emplace_back(lane, static_cast<int>(l.chunks.size()));
    return lanes;
}

void oneStream(const Context& c, const RunGraph* graph, std::vector<Finding>& out)
{
    for (const DeviceWork& w : c.devices) {
        const std::vector<std::pair<int, int>> lanes = loopStreams(c, graph, w);
        if (lanes.empty())
            continue;
        std::vector<std::uint32_t> ops;
        for (const auto& [lane, chunks] : lanes)
            ops.insert(ops.end(), w.laneOps().at(lane).begin(), w.laneOps().at(lane).end());
        std::sort(ops.begin(), ops.end());
        const bool copies = std::any_of(ops.begin(), ops.end(), [&](std::uint32_t i) { return isCopy(c.run.ops[i].kind); });
        const bool kernels =
            std::any_of(ops.begin(), ops.end(), [&](std::uint32_t i) { return c.run.ops[i].kind == OpKind::Kernel; });
        if (!copies || !kernels)
            continue;
        const DeviceActivity& a = w.activity;
        const std::int64_t headroom = overlapHeadroom(a);
        if (!c.replayed && static_cast<double>(headroom) < kMinHeadroomShare * static_cast<double>(a.busyNs))
            continue;
        const std::string busy = "copies (" + msText(saturatingAdd(a.h2dNs, a.d2hNs)) + ") and kernels ("
                                 + msText(a.computeNs) + ")";
        std::string names;
        for (const auto& [lane, chunks] : lanes)
            names += (names.empty() ? "" : ", ") + c.run.lanes[static_cast<std::size_t>(lane)].name;
        const std::size_t count = ops.size();
        Finding f = makeFinding(FindingKind::OneStream, std::move(ops), w.device);
        f.costNs = capped(headroom, c.wallNs);
        if (lanes.size() == 1) {
            f.cause = (w.laneOps().size() == 1 ? "all " : "") + plural(count, "GPU op", "GPU ops")
                      + (w.laneOps().size() == 1 ? "" : " of " + std::to_string(a.gpuOps)) + " on one stream (" + names
                      + "): a stream runs in order, so " + busy + " cannot overlap";
            f.fix = "split the work into chunks on two or three streams (each with its own buffers, copies from pinned "
                    "memory), so one chunk's kernel runs while the next uploads and the previous downloads";
        } else {
            // Several streams already, each carrying chunks in turn: say what
            // is there, not "one stream". The replay (which splits each of
            // them) decides whether more streams gain anything.
            int fewest = lanes.front().second, most = fewest;
            for (const auto& [lane, chunks] : lanes) {
                fewest = std::min(fewest, chunks);
                most = std::max(most, chunks);
            }
            f.cause = std::to_string(lanes.size()) + " streams carry "
                      + (fewest == most ? std::to_string(most) + " chunks each"
                                        : std::to_string(fewest) + " to " + std::to_string(most) + " chunks each")
                      + " (" + names + "; " + plural(count, "GPU op", "GPU ops") + "): each stream runs in order, so "
                      + "with a chunk's upload, kernel and download on one stream " + busy
                      + " overlap only as far as the streams take turns";
            f.fix = "spread the chunks over more streams (each with its own buffers, copies from pinned memory), so "
                    "one chunk's kernel runs while the next uploads and the previous downloads";
        }
        out.push_back(std::move(f));
    }
}

// Host waits between GPU work. Estimated (no replay): the ones that drained
// the GPU, charged the idle time they left. Replayed: every wait inside the
// loop, drained or not: a wait per chunk also costs the overlap it prevents
// while other streams still run (an event wait per chunk on two streams).
void syncInLoop(const Context& c, std::vector<Finding>& out)
{
    const Run& run = c.run;
    std::vector<std::uint32_t> calls;
    std::set<std::string> names;
    int drained = 0;
    for (std::uint32_t i : c.hostOps) {
        const Op& op = run.ops[i];
        if (!c.index.isHostSync(op))
            continue;
        const bool drains = drainedTheGpu(c, op);
        if (drains || (c.replayed && c.interleaved(op))) {
            calls.push_back(i);
            drained += drains ? 1 : 0;
            if (!run.nameOf(op).empty() && names.size() < 3)
                names.insert(run.nameOf(op));
        }
    }
    if (static_cast<int>(calls.size()) < kMinRepeats)
        return;
    Finding f = makeFinding(FindingKind::SyncInLoop, calls, c.deviceForHost);
    f.costNs = capped(idleCostOf(c, calls), c.wallNs);
    std::string called;
    for (const std::string& n : names)
        called += (called.empty() ? " (" : ", ") + n;
    if (!called.empty())
        called += ")";
    f.cause = plural(calls.size(), "host wait", "host waits") + called + " between GPU work: the host queues the next "
              "chunk only after the wait returns, so chunks cannot overlap each other";
    if (drained > 0)
        f.cause += "; " + std::to_string(drained) + " of them left the GPU with nothing to do";
    f.fix = "keep work queued while the host waits: wait on a per-chunk event for an older chunk (cudaEventSynchronize) "
            "instead of synchronizing on the newest, queue the next chunks before using a result, and synchronize "
            "once at the end";
    out.push_back(std::move(f));
}

void allocInLoop(const Context& c, std::vector<Finding>& out)
{
    const Run& run = c.run;
    std::vector<std::uint32_t> calls;
    int draining = 0;
    for (std::uint32_t i : c.hostOps) {
        const Op& op = run.ops[i];
        if (c.index.isAllocation(op) && c.interleaved(op)) {
            calls.push_back(i);
            draining += drainedTheGpu(c, op) ? 1 : 0;
        }
    }
    if (static_cast<int>(calls.size()) < kMinRepeats)
        return;
    Finding f = makeFinding(FindingKind::AllocInLoop, calls, c.deviceForHost);
    f.costNs = capped(idleCostOf(c, calls, true), c.wallNs);
    f.cause = plural(calls.size(), "allocation, free or registration call", "allocation, free or registration calls")
              + " between GPU work";
    if (draining > 0)
        f.cause += "; " + std::to_string(draining) + " of them waited for the GPU to drain (cudaFree and "
                   "cudaFreeHost synchronize the device)";
    f.fix = "allocate (and register) buffers once before the loop and reuse them, or use stream-ordered "
            "cudaMallocAsync / cudaFreeAsync";
    out.push_back(std::move(f));
}

// Kernels that stalled on managed memory migrated on their page faults
// (DemandMigrations.h). Estimated: each kernel's stall less the time its
// bytes take as one bulk copy at the pinned rate (a prefetch still moves
// them, though it can overlap other work); the replay moves that copy ahead
// of the kernel on its stream.
void managedMigration(const Context& c, const DemandMigrations& demand, std::vector<Finding>& out)
{
    if (demand.kernels.empty())
        return;
    std::vector<std::uint32_t> ops = demand.ops;
    std::int64_t estimate = 0;
    for (const FaultedKernel& k : demand.kernels) {
        ops.push_back(k.op);
        const std::int64_t bulk = c.rates.pinnedH2DGBps > 0
                                      ? static_cast<std::int64_t>(static_cast<double>(k.bytesIn) / c.rates.pinnedH2DGBps)
                                      : 0;
        estimate += std::max<std::int64_t>(0, k.stallNs - bulk);
    }
    Finding f = makeFinding(FindingKind::ManagedMigration, std::move(ops), c.deviceForHost);
    f.costNs = capped(estimate, c.wallNs);
    f.cause = plural(demand.kernels.size(), "kernel", "kernels") + " stalled " + msText(demand.stallNs)
              + " on managed memory migrated on their page faults (" + formatted("%.1f MB", demand.bytesIn / 1e6)
              + " to the GPU a few pages at a time"
              + (demand.gpuFaultGroups > 0 ? ", " + std::to_string(demand.gpuFaultGroups) + " GPU fault groups" : "")
              + ")";
    if (demand.bytesOut > 0)
        f.cause += "; the host's reads faulted " + formatted("%.1f MB", demand.bytesOut / 1e6) + " back ("
                   + std::to_string(demand.cpuFaults) + " CPU page faults, " + msText(demand.hostFaultNs) + ")";
    f.fix = "prefetch managed memory before the kernels that use it (cudaMemPrefetchAsync to the GPU on the "
            "kernel's stream, a chunk ahead on other streams so migrations overlap compute) and back to the host "
            "before the host reads it; cudaMemAdvise (preferred location, accessed by) where the data should stay put; "
            "or device memory and cudaMemcpyAsync from pinned buffers";
    out.push_back(std::move(f));
}

void smallCopies(const Context& c, std::vector<Finding>& out)
{
    const Run& run = c.run;
    std::vector<std::uint32_t> small;
    std::int64_t overhead = 0;
    std::uint64_t bytes = 0;
    for (const auto& w : c.devices)
        for (const auto& [lane, ops] : w.laneOps())
            for (std::uint32_t i : ops) {
                const Op& op = run.ops[i];
                if (!isCopy(op.kind) || op.bytes == 0 || op.bytes >= kSmallCopyBytes)
                    continue;
                const double rate = op.kind == OpKind::Upload ? c.rates.h2dGBps(op.memory) : c.rates.d2hGBps(op.memory);
                const Interval e = engineInterval(op);
                const std::int64_t ns = spanNs(e.beginNs, e.endNs);
                if (rate <= 0 || ns <= 0)
                    continue;
                const double achieved = static_cast<double>(op.bytes) / static_cast<double>(ns);
                if (achieved >= kSlowCopyShare * rate)
                    continue;
                small.push_back(i);
                bytes += op.bytes;
                // Cost: each copy's time beyond what its bytes take at the rate.
                overhead = saturatingAdd(
                    overhead,
                    std::max<std::int64_t>(0, ns - saturatingCast<std::int64_t>(static_cast<double>(op.bytes) / rate)));
            }
    if (static_cast<int>(small.size()) < kMinSmallCopies)
        return;
    Finding f = makeFinding(FindingKind::SmallCopies, small, c.deviceForHost);
    f.costNs = capped(overhead, c.wallNs);
    f.cause = plural(small.size(), "copy", "copies") + " under " + std::to_string(kSmallCopyBytes >> 10)
              + " KiB (" + formatted("%.1f", static_cast<double>(bytes) / small.size() / 1024.0)
              + " KiB on average) reached under " + formatted("%.0f%%", 100 * kSlowCopyShare)
              + " of the link's rate (" + c.rates.source + "): each pays a fixed cost of microseconds";
    f.fix = "batch small transfers into one buffer and copy it at once (or keep the data on the device)";
    out.push_back(std::move(f));
}

void copyEngineQueue(const Context& c, const Verdict& verdict, std::vector<Finding>& out)
{
    const RunMetrics& m = c.metrics;
    if (c.wallNs <= 0)
        return;
    const bool up = static_cast<double>(m.h2dQueue.ns) >= kQueueShare * static_cast<double>(c.wallNs);
    const bool down = static_cast<double>(m.d2hQueue.ns) >= kQueueShare * static_cast<double>(c.wallNs);
    if (!up && !down)
        return;
    // The copies that stood in line, and how long: the union of their waits
    // (stream reached them, engine had not started them).
    // The span's GPU ops, from the run's index (each lane's, every device).
    std::vector<std::uint32_t> ops;
    std::vector<Interval> waits;
    for (const DeviceFacts& device : c.index.devices())
        for (const auto& [lane, laneOps] : device.laneOps)
            for (const std::uint32_t i : laneOps) {
                const Op& op = c.run.ops[i];
                const bool kind = (up && op.kind == OpKind::Upload) || (down && op.kind == OpKind::Download);
                if (kind && op.hasExec() && op.execStartNs > op.startNs) {
                    ops.push_back(i);
                    waits.push_back({op.startNs, op.execStartNs});
                }
            }
    std::sort(ops.begin(), ops.end()); // in the run's order, as every finding lists its ops
    Finding f = makeFinding(FindingKind::CopyEngineQueue, std::move(ops), c.deviceForHost);
    // Cost: the time some copy stood in line (union of the waits), but no
    // more than the run's distance from its bound: waiting behind a busy
    // engine cannot cost more than what separates the run from the fastest
    // it could go (the verdict's bound; where it has none, as a partial run,
    // the busiest engine's busy time).
    const std::int64_t bound = verdict.boundNs > 0 ? verdict.boundNs : verdict.engineBoundNs;
    // A run this close to its bound has nothing left to gain: its copies
    // queue because the link is busy, which is the bound itself.
    if (bound > 0 && static_cast<double>(c.wallNs) < kNearBound * static_cast<double>(bound))
        return;
    const std::int64_t waited =
        IntervalSet(std::move(waits)).clipped(c.span.beginNs, c.span.endNs).length();
    f.costNs = capped(std::min(waited, saturatingSub(c.wallNs, bound)), c.wallNs);
    std::string what;
    if (up)
        what = plural(static_cast<std::size_t>(m.h2dQueue.streams), "stream's uploads", "streams' uploads");
    if (down)
        what += (what.empty() ? "" : " and ")
                + plural(static_cast<std::size_t>(m.d2hQueue.streams), "stream's downloads", "streams' downloads");
    f.cause = what + " waited for a copy engine another stream held (event time vs engine time): same-direction "
                     "copies run one at a time on one engine";
    f.fix = "the time is the link's, not lost to a mistake: keep uploads and downloads both in flight so the two "
            "directions' engines work at once, or move fewer bytes; event-timed copy durations include this wait";
    out.push_back(std::move(f));
}

} // namespace ovs::findings
