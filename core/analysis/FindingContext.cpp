// The findings' context: the run's work in the judged span gathered once
// (per device: busy time by engine, stream lanes, activity; host calls;
// correlation maps), and the helpers and shared cost rules of the rules.

#include "analysis/FindingContext.h"

#include "analysis/NumberText.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "trace/ApiNames.h"
#include "trace/OpTimes.h"

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

// The interval an op held its engine: engine times where known (OpTimes.h).
Interval engineInterval(const Op& op)
{
    return {busyBeginNs(op), busyEndNs(op)};
}

// The CUDA ordinal a lane's name gives ("GPU 1 stream 7", "GPU 0 default
// stream (legacy)"); 0 when it names none (a one-device run).
int deviceOfLane(const Lane& lane)
{
    if (!startsWith(lane.name, "GPU "))
        return 0;
    int device = 0;
    std::size_t i = 4;
    for (; i < lane.name.size() && lane.name[i] >= '0' && lane.name[i] <= '9' && device < 1'000'000; ++i)
        device = device * 10 + (lane.name[i] - '0');
    return i > 4 ? device : 0;
}

// Host calls by what they do. Profiles give Sync/Alloc/Free/Register ops;
// imported traces give every call as ApiCall with its name; our pipelines
// give HostWait for the host waiting on an event.
bool isHostSync(const Run& run, const Op& op)
{
    if (op.kind == OpKind::Sync || op.kind == OpKind::HostWait)
        return true;
    return op.kind == OpKind::ApiCall && apiRole(run.nameOf(op)) == ApiRole::Sync;
}

bool isAllocation(const Run& run, const Op& op)
{
    if (op.kind != OpKind::Alloc && op.kind != OpKind::Free && op.kind != OpKind::Register
        && op.kind != OpKind::ApiCall)
        return false;
    const std::string& name = run.nameOf(op);
    // Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) is the fix,
    // not the problem: it does not synchronize.
    if (name.find("Async") != std::string::npos)
        return false;
    if (op.kind != OpKind::ApiCall)
        return true;
    const ApiRole role = apiRole(name);
    return role == ApiRole::Alloc || role == ApiRole::Free || role == ApiRole::Register;
}

bool isSyncCopyCall(const Run& run, const Op& op)
{
    if (op.kind != OpKind::ApiCall)
        return false;
    const std::string& name = run.nameOf(op);
    const ApiRole role = apiRole(name);
    return (role == ApiRole::Copy || role == ApiRole::Memset) && name.find("Async") == std::string::npos;
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

Context gather(const Run& run, const RunMetrics& metrics, const TransferRates& rates, Interval span)
{
    Context c(run, metrics, rates, span);
    c.wallNs = spanNs(span.beginNs, span.endNs);
    c.laneDevice.resize(run.lanes.size());
    // A run that knows its devices says on each lane; imported ones only in names.
    for (std::size_t i = 0; i < run.lanes.size(); ++i)
        c.laneDevice[i] = run.deviceCount() > 1 ? run.lanes[i].device : deviceOfLane(run.lanes[i]);

    std::map<int, std::array<std::vector<Interval>, kOpKindCount>> perKind;
    std::map<int, int> withExec;
    std::map<int, std::map<int, std::vector<std::uint32_t>>> lanesOf; // device -> stream lane -> GPU ops
    std::vector<Interval> all;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (op.lane >= run.lanes.size() || !c.inRegion(op))
            continue;
        if (!isGpuOp(op.kind)) {
            if (run.lanes[op.lane].kind == LaneKind::HostThread)
                c.hostOps.push_back(i);
            c.callOf.add(op.correlation, i);
            continue;
        }
        c.gpuOpOf.add(op.correlation, i);
        const int device = c.laneDevice[op.lane];
        const Interval interval = engineInterval(op);
        perKind[device][static_cast<std::size_t>(op.kind)].push_back(interval);
        withExec[device] += op.hasExec() ? 1 : 0;
        all.push_back(interval);
        lanesOf[device][op.lane].push_back(i);
    }
    c.callOf.finish();
    c.gpuOpOf.finish();
    std::sort(c.hostOps.begin(), c.hostOps.end(), [&](std::uint32_t a, std::uint32_t b) {
        return run.ops[a].startNs < run.ops[b].startNs;
    });

    const auto clip = [&](std::vector<Interval> v) {
        return IntervalSet(std::move(v)).clipped(span.beginNs, span.endNs);
    };
    c.gpuBusy = clip(std::move(all));
    c.gpuIdle = complement(c.gpuBusy, span.beginNs, span.endNs);
    for (auto& [device, kinds] : perKind) {
        DeviceWork w;
        w.device = device;
        DeviceActivity& a = w.activity;
        a.device = device;
        a.label = perKind.size() == 1   ? run.device.label()
                  : run.deviceCount() > 1 ? "GPU " + std::to_string(device) + ": " + run.deviceAt(device).label()
                                          : "GPU " + std::to_string(device);
        const auto set = [&](OpKind k) { return clip(kinds[static_cast<std::size_t>(k)]); };
        const IntervalSet h2d = set(OpKind::Upload), d2h = set(OpKind::Download), dtod = clip([&] {
            // Copies between two GPUs count as device copies of the GPU that issued them.
            auto both = kinds[static_cast<std::size_t>(OpKind::DeviceCopy)];
            const auto& peer = kinds[static_cast<std::size_t>(OpKind::PeerCopy)];
            both.insert(both.end(), peer.begin(), peer.end());
            return both;
        }());
        const IntervalSet compute = set(OpKind::Kernel), memset = set(OpKind::Memset);
        const IntervalSet copies = h2d.united(d2h).united(dtod);
        w.busy = copies.united(compute).united(memset);
        a.h2dNs = h2d.length();
        a.d2hNs = d2h.length();
        a.deviceCopyNs = dtod.length();
        a.computeNs = compute.length();
        a.memsetNs = memset.length();
        a.busyNs = w.busy.length();
        a.copyWithComputeNs = copies.intersected(compute).length();
        a.h2dWithD2hNs = h2d.intersected(d2h).length();
        a.idleNs = saturatingSub(c.wallNs, a.busyNs);
        w.laneOps = std::move(lanesOf[device]);
        a.streams = static_cast<int>(w.laneOps.size());
        for (const auto& [lane, ops] : w.laneOps)
            a.gpuOps += static_cast<int>(ops.size());
        const int exec = withExec[device];
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
// minus the busiest single engine (uploads, downloads, device copies,
// kernels with memsets). The cost rule of the structural findings.
std::int64_t overlapHeadroom(const DeviceActivity& a)
{
    const std::int64_t busiest = std::max({a.h2dNs, a.d2hNs, a.deviceCopyNs, saturatingAdd(a.computeNs, a.memsetNs)});
    return std::max<std::int64_t>(0, saturatingSub(a.busyNs, busiest));
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
