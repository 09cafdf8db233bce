// The findings' context: the run's work in the judged span gathered once
// (per device: busy time by engine, stream lanes, activity; host calls;
// correlation maps), and the helpers and shared cost rules of the rules.

#include "findings/FindingContext.h"

#include "base/NumberText.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <array>

namespace ovs::findings {

using namespace thresholds;

// ---- Small helpers.


std::string percentText(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? formatted("%.0f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "0%";
}

std::string plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool isCopy(OpKind kind)
{
    return kind == OpKind::Upload || kind == OpKind::Download;
}

// The parts of [beginNs, endNs) outside `busy`.
IntervalSet complement(const IntervalSet& busy, std::int64_t beginNs, std::int64_t endNs)
{
    std::vector<Interval> gaps;
    std::int64_t at = beginNs;
    for (const Interval& piece : busy.pieces()) {
        if (piece.beginNs > at)
            gaps.push_back({at, std::min(piece.beginNs, endNs)});
        at = std::max(at, piece.endNs);
        if (at >= endNs)
            break;
    }
    if (at < endNs)
        gaps.push_back({at, endNs});
    return IntervalSet(std::move(gaps));
}

// The piece of `set` holding instant t, or nullptr.
const Interval* pieceAt(const IntervalSet& set, std::int64_t t)
{
    const auto& pieces = set.pieces();
    auto it = std::upper_bound(pieces.begin(), pieces.end(), t,
                               [](std::int64_t v, const Interval& p) { return v < p.beginNs; });
    if (it == pieces.begin())
        return nullptr;
    --it;
    return t < it->endNs ? &*it : nullptr;
}

// The start of the first piece beginning after t; -1 when none does.
std::int64_t nextStartAfter(const IntervalSet& set, std::int64_t t)
{
    const auto& pieces = set.pieces();
    auto it = std::upper_bound(pieces.begin(), pieces.end(), t,
                               [](std::int64_t v, const Interval& p) { return v < p.beginNs; });
    return it == pieces.end() ? -1 : it->beginNs;
}

std::int64_t capped(std::int64_t ns, std::int64_t wallNs)
{
    return std::clamp<std::int64_t>(ns, 0, std::max<std::int64_t>(0, wallNs));
}

// The fix of each kind, as the replay applies it (0: none to replay).
FixSet fixOf(FindingKind kind)
{
    switch (kind) {
    case FindingKind::PageableCopies: return fixBit(Fix::PinHostMemory);
    case FindingKind::SyncCopies: return fixBit(Fix::AsyncCopies);
    case FindingKind::LegacyDefaultStream: return fixBit(Fix::NonBlockingStreams);
    case FindingKind::OneStream: return fixBit(Fix::StreamPerChunk);
    case FindingKind::SyncInLoop: return fixBit(Fix::RemoveHostSync);
    case FindingKind::AllocInLoop: return fixBit(Fix::HoistAllocations);
    case FindingKind::ManagedMigration: return fixBit(Fix::PrefetchManaged);
    default: return 0;
    }
}

Finding makeFinding(FindingKind kind, std::vector<std::uint32_t> ops, int device)
{
    Finding f;
    f.kind = kind;
    f.fixes = fixOf(kind);
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    f.opCount = ops.size();
    if (ops.size() > kMaxFindingOps)
        ops.resize(kMaxFindingOps);
    f.ops = std::move(ops);
    f.device = device;
    return f;
}

Context gather(const RunIndex& index, const RunMetrics& metrics, const TransferRates& rates)
{
    Context c(index, metrics, rates);
    const Run& run = index.run();
    c.gpuIdle = complement(c.gpuBusy, c.span.beginNs, c.span.endNs);
    const std::size_t deviceCount = index.devices().size();
    for (const DeviceFacts& d : index.devices()) {
        DeviceWork w;
        w.facts = &d;
        w.device = d.device;
        DeviceActivity& a = w.activity;
        a.device = d.device;
        a.label = deviceCount == 1            ? run.device.label()
                  : run.deviceCount() > 1 ? "GPU " + std::to_string(d.device) + ": " + run.deviceAt(d.device).label()
                                          : "GPU " + std::to_string(d.device);
        const IntervalSet copies = d.h2d.united(d.d2h).united(d.deviceCopies);
        a.h2dNs = d.h2d.length();
        a.d2hNs = d.d2h.length();
        a.deviceCopyNs = d.deviceCopies.length();
        a.computeNs = d.compute.length();
        a.memsetNs = d.memset.length();
        a.busyNs = d.busy.length();
        a.copyWithComputeNs = copies.intersected(d.compute).length();
        a.h2dWithD2hNs = d.h2d.intersected(d.d2h).length();
        a.idleNs = saturatingSub(c.wallNs, a.busyNs);
        a.streams = static_cast<int>(d.laneOps.size());
        a.gpuOps = d.gpuOps;
        const int exec = d.gpuOpsWithExec;
        a.engineTimes = exec == a.gpuOps ? "engine execution intervals"
                        : exec == 0      ? "event intervals (they include time queued behind other streams)"
                                         : "engine execution intervals for " + std::to_string(exec) + " of "
                                               + std::to_string(a.gpuOps) + " GPU ops, event intervals for the rest";
        c.devices.push_back(std::move(w));
    }
    c.deviceForHost = c.devices.size() == 1 ? c.devices.front().device : -1;
    return c;
}

// What perfect overlap of the device's engines would save: its busy time
// minus the busiest single engine (DeviceActivity::busiestEngineNs). The
// cost rule of the structural findings.
std::int64_t overlapHeadroom(const DeviceActivity& a)
{
    return std::max<std::int64_t>(0, saturatingSub(a.busyNs, a.busiestEngineNs()));
}

// A host call that drained the GPU: the GPU was busy when it began and idle
// when it returned, and more GPU work came after it (inside the loop).
bool drainedTheGpu(const Context& c, const Op& call)
{
    const std::int64_t nextStart = nextStartAfter(c.gpuBusy, call.startNs);
    const bool busyAtStart = pieceAt(c.gpuBusy, call.startNs) != nullptr || (nextStart >= 0 && nextStart < call.endNs);
    return busyAtStart && pieceAt(c.gpuBusy, call.endNs) == nullptr && nextStartAfter(c.gpuBusy, call.endNs) >= 0;
}

// The host-blocking cost rule (sync copies, sync in the loop, allocation in
// the loop): the GPU's idle time from each call's start until the first GPU
// work that starts after the call returned. The windows are united first, so
// two calls in one gap count it once. With `onlyDraining` (allocation, which
// need not wait for the GPU) the time after the call counts only for calls
// that drained the GPU.
std::int64_t idleCostOf(const Context& c, const std::vector<std::uint32_t>& calls, bool onlyDraining)
{
    std::vector<Interval> windows;
    for (std::uint32_t i : calls) {
        const Op& op = c.run.ops[i];
        // A call that did not leave the GPU empty is charged only for the
        // GPU's idle time while it ran: what the host did after it is not
        // the call's doing.
        const std::int64_t next = !onlyDraining || drainedTheGpu(c, op) ? nextStartAfter(c.gpuBusy, op.endNs) : -1;
        windows.push_back({op.startNs, next >= 0 ? next : op.endNs});
    }
    return IntervalSet(std::move(windows)).intersected(c.gpuIdle).length();
}

} // namespace ovs::findings
