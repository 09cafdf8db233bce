#include "facts/RunIndex.h"

#include "base/Saturating.h"
#include "base/SortedRuns.h"
#include "trace/OpTimes.h"

#include <algorithm>

namespace ovs {

Interval engineInterval(const Op& op)
{
    return {busyBeginNs(op), busyEndNs(op)};
}

ApiRole RunIndex::roleOf(const Op& op) const
{
    return m_roles->role(op.nameId);
}

bool RunIndex::isAsyncCall(const Op& op) const
{
    return m_roles->isAsync(op.nameId);
}

bool RunIndex::isHostSync(const Op& op) const
{
    if (op.kind == OpKind::Sync || op.kind == OpKind::HostWait)
        return true;
    return op.kind == OpKind::ApiCall && apiSynchronizesHost(roleOf(op));
}

bool RunIndex::isAllocation(const Op& op) const
{
    if (op.kind != OpKind::Alloc && op.kind != OpKind::Free && op.kind != OpKind::Register
        && op.kind != OpKind::ApiCall)
        return false;
    if (isAsyncCall(op))
        return false;
    if (op.kind != OpKind::ApiCall)
        return true;
    const ApiRole role = roleOf(op);
    return role == ApiRole::Alloc || role == ApiRole::Free || role == ApiRole::Register;
}

bool RunIndex::isSyncCopyCall(const Op& op) const
{
    if (op.kind != OpKind::ApiCall)
        return false;
    const ApiRole role = roleOf(op);
    return (role == ApiRole::Copy || role == ApiRole::Memset) && !isAsyncCall(op);
}

RunIndex::RunIndex(const Run& run, Interval span, std::shared_ptr<const NameRoles> roles)
    : RunIndex(run, span, std::move(roles), nullptr)
{
}

RunIndex RunIndex::view(const Run& run, Interval span, const std::vector<OpRange>& ops,
                        std::shared_ptr<const NameRoles> roles)
{
    return RunIndex(run, span, std::move(roles), &ops);
}

RunIndex::RunIndex(const Run& run, Interval span, std::shared_ptr<const NameRoles> roles,
                   const std::vector<OpRange>* ops)
    : m_run(&run), m_span(span), m_timed(ops ? span : Interval{run.timedBeginNs, run.timedEndNs}),
      m_roles(roles ? std::move(roles) : std::make_shared<const NameRoles>(run.names))
{
    const std::size_t lanes = run.lanes.size();
    m_laneDevice.resize(lanes);
    for (std::size_t i = 0; i < lanes; ++i) {
        m_laneDevice[i] = run.lanes[i].device;
        if (m_mainHostLane < 0 && run.lanes[i].kind == LaneKind::HostThread)
            m_mainHostLane = static_cast<int>(i);
    }

    // The GPU's and these kinds' sets are the devices' sets united: made
    // from them, not gathered again.
    const auto deviceHolds = [](OpKind k) {
        return k == OpKind::Upload || k == OpKind::Download || k == OpKind::Kernel || k == OpKind::Memset;
    };

    // The walk: intervals gathered per kind and per device, united after.
    std::array<std::vector<Interval>, kOpKindCount> perKind;
    std::map<int, std::array<std::vector<Interval>, kOpKindCount>> perDevice;
    std::vector<Interval> waits, collectives;
    std::vector<char> gpuLane(lanes, 0), stagingLane(lanes, 0);
    // The whole run's ops, or a view's ranges (lanes in order: op order).
    const std::vector<OpRange> all{{0, static_cast<std::uint32_t>(run.ops.size())}};
    for (const OpRange& range : ops ? *ops : all)
        m_opCount += range.end - range.begin;
    const auto visit = [&](std::uint32_t i) {
        const Op& op = run.ops[i];
        if (op.lane >= lanes)
            return;
        if (op.kind == OpKind::UnifiedMemory && op.startNs >= m_span.beginNs)
            m_unifiedMemoryOps.push_back(i);
        if (op.kind == OpKind::Kernel && m_roles->isCollective(op.nameId))
            collectives.push_back(engineInterval(op));
        if (!inSpan(op))
            return;
        const Interval interval = engineInterval(op);
        const auto k = static_cast<std::size_t>(op.kind);
        KindFacts& t = m_kinds[k];
        ++t.count;
        t.bytes = saturatingAdd(t.bytes, op.bytes);
        t.ns = saturatingAdd(t.ns, spanNs(interval.beginNs, interval.endNs));
        t.memories |= 1u << static_cast<unsigned>(op.memory);
        if (!deviceHolds(op.kind))
            perKind[k].push_back(interval);
        if (isGpuOp(op.kind)) {
            ++m_gpuOps;
            m_gpuOpsWithExec += op.hasExec() ? 1 : 0;
            gpuLane[op.lane] = 1;
            m_gpuOpOf.add(op.correlation, i);

            const int device = m_laneDevice[op.lane];
            perDevice[device][k].push_back(interval);
            DeviceFacts* d = nullptr;
            for (DeviceFacts& known : m_devices)
                if (known.device == device)
                    d = &known;
            if (!d) {
                d = &m_devices.emplace_back();
                d->device = device;
            }
            d->laneOps[op.lane].push_back(i);
            ++d->gpuOps;
            d->gpuOpsWithExec += op.hasExec() ? 1 : 0;
            if ((op.kind == OpKind::Upload || op.kind == OpKind::Download) && op.hasExec()) {
                // Only the wait inside the span counts against its wall time.
                std::int64_t& queued = m_queued[op.kind == OpKind::Download ? 1 : 0][op.lane];
                queued = saturatingAdd(queued, spanNs(op.startNs, std::min(op.execStartNs, m_span.endNs)));
            }
            return;
        }
        if (run.lanes[op.lane].kind == LaneKind::HostThread)
            m_hostOps.push_back(i);
        m_callOf.add(op.correlation, i);
        if (op.kind == OpKind::StageIn || op.kind == OpKind::StageOut)
            stagingLane[op.lane] = 1;
        if ((op.kind == OpKind::HostWait || op.kind == OpKind::Sync) && static_cast<int>(op.lane) == m_mainHostLane)
            waits.push_back(interval);
    };
    for (const OpRange& range : ops ? *ops : all)
        for (std::uint32_t i = range.begin; i < range.end; ++i)
            visit(i);
    m_callOf.finish();
    m_gpuOpOf.finish();
    // Gathered lane by lane, each lane in time order.
    sortSortedRuns(m_hostOps, [&](std::uint32_t a, std::uint32_t b) { return run.ops[a].startNs < run.ops[b].startNs; });
    m_streams = static_cast<int>(std::count(gpuLane.begin(), gpuLane.end(), 1));
    m_stagingThreads = static_cast<int>(std::count(stagingLane.begin(), stagingLane.end(), 1));

    const auto clip = [&](std::vector<Interval> v) {
        return IntervalSet(std::move(v)).clipped(m_span.beginNs, m_span.endNs);
    };
    // The staging kept, since the metrics unite it with others (kindTime);
    // the other kinds measured. (The devices' kinds below.)
    for (std::size_t k = 0; k < kOpKindCount; ++k) {
        const auto kind = static_cast<OpKind>(k);
        if (deviceHolds(kind))
            continue;
        IntervalSet time = clip(std::move(perKind[k]));
        m_kinds[k].unionNs = time.length();
        if (kind == OpKind::StageIn || kind == OpKind::StageOut)
            m_kindTime[k] = std::move(time);
    }

    m_collectiveKernels = IntervalSet(std::move(collectives));
    m_mainThreadWaits = clip(std::move(waits));
    std::sort(m_devices.begin(), m_devices.end(),
              [](const DeviceFacts& a, const DeviceFacts& b) { return a.device < b.device; });
    for (DeviceFacts& d : m_devices) {
        auto& kinds = perDevice[d.device];
        const auto set = [&](OpKind k) { return clip(std::move(kinds[static_cast<std::size_t>(k)])); };
        d.h2d = set(OpKind::Upload);
        d.d2h = set(OpKind::Download);
        // Copies between two GPUs count as device copies of the GPU that issued them.
        auto& both = kinds[static_cast<std::size_t>(OpKind::DeviceCopy)];
        const auto& peer = kinds[static_cast<std::size_t>(OpKind::PeerCopy)];
        both.insert(both.end(), peer.begin(), peer.end());
        d.deviceCopies = set(OpKind::DeviceCopy);
        d.compute = set(OpKind::Kernel);
        d.memset = set(OpKind::Memset);
        d.busy = d.h2d.united(d.d2h).united(d.deviceCopies).united(d.compute).united(d.memset);
    }
    // On one device its sets are the GPU's (kept once); on several, united.
    m_oneDevice = m_devices.size() == 1;
    const auto unitedOver = [&](IntervalSet DeviceFacts::*set) {
        IntervalSet all;
        for (const DeviceFacts& d : m_devices)
            all = all.united(d.*set);
        return all;
    };
    if (!m_oneDevice) {
        m_gpuBusy = unitedOver(&DeviceFacts::busy);
        m_kindTime[static_cast<std::size_t>(OpKind::Upload)] = unitedOver(&DeviceFacts::h2d);
        m_kindTime[static_cast<std::size_t>(OpKind::Download)] = unitedOver(&DeviceFacts::d2h);
        m_kindTime[static_cast<std::size_t>(OpKind::Kernel)] = unitedOver(&DeviceFacts::compute);
    }
    for (const OpKind k : {OpKind::Upload, OpKind::Download, OpKind::Kernel})
        m_kinds[static_cast<std::size_t>(k)].unionNs = kindTime(k).length();
    m_kinds[static_cast<std::size_t>(OpKind::Memset)].unionNs =
        m_oneDevice ? m_devices.front().memset.length() : unitedOver(&DeviceFacts::memset).length();
}

const IntervalSet& RunIndex::kindTime(OpKind k) const
{
    if (m_oneDevice) {
        const DeviceFacts& d = m_devices.front();
        switch (k) {
        case OpKind::Upload: return d.h2d;
        case OpKind::Download: return d.d2h;
        case OpKind::Kernel: return d.compute;
        default: break;
        }
    }
    return m_kindTime[static_cast<std::size_t>(k)];
}

} // namespace ovs
