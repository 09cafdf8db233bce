#pragma once

// The index of a run over a judged span: its ops walked once, and what every
// analysis asks of them kept as typed facts (issue 29). The metrics
// (RunMetrics), the findings' context (FindingContext) and the rules read
// it; none walks the ops for these facts on its own, and none works out a
// lane's device or a call's role in its own way.
//
// An op is in the span when it begins in it (an op that began before the
// loop belongs to the setup); its engine interval is then clipped to the
// span in the time sets, since a drain can straddle the span's end.

#include "base/Saturating.h"
#include "facts/IntervalSet.h"
#include "trace/ApiNames.h"
#include "trace/CorrelationMap.h"
#include "trace/NameRoles.h"
#include "trace/Run.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ovs {

// The interval an op held its engine or thread: for GPU ops the engine's own
// (exec) times where the recording has them, since event times include the
// wait behind another stream's op (OpTimes.h).
Interval engineInterval(const Op& op);

// The ops of one kind in the span, over every device and lane.
struct KindFacts {
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;   // as recorded (a kernel's: the bytes it touched once)
    std::int64_t ns = 0;       // the ops' engine intervals' lengths, summed (unclipped)
    std::uint32_t memories = 0; // a bit per HostMemoryKind seen
    std::int64_t unionNs = 0;  // their engine intervals united, clipped to the span: its length
};

// One device's GPU work in the span.
struct DeviceFacts {
    int device = 0;
    // Engine time, clipped to the span: uploads, downloads, copies within a
    // device or between two (the issuing GPU's), kernels, memsets, and all.
    IntervalSet h2d, d2h, deviceCopies, compute, memset, busy;
    std::map<int, std::vector<std::uint32_t>> laneOps; // stream lane -> its GPU ops, in op order
    int gpuOps = 0;
    int gpuOpsWithExec = 0; // of them, with engine times
};

// What the analyses of one run's spans share, and what one of them reads:
// the run's names decided once (NameRoles.h), and for a view (a step
// judged on its own) its span's op ranges (opRangesIn); nullptr: the whole
// run's ops.
struct SpanScope {
    std::shared_ptr<const NameRoles> roles;
    const std::vector<OpRange>* ops = nullptr;
};

class RunIndex {
public:
    // `roles`: the run's names decided once (NameRoles.h), shared by every
    // index of the run; made here where not given.
    RunIndex(const Run& run, Interval span, std::shared_ptr<const NameRoles> roles = {});
    // A view: the index of the span's ops alone, its lanes' ranges (the
    // ops that begin in the span: opRangesIn) walked and nothing else, as a
    // slice of the run over the span would index (sliceOf): its
    // unified-memory ops end with the span too. What each step of a big
    // trace is judged on.
    static RunIndex view(const Run& run, Interval span, const std::vector<OpRange>& ops,
                         std::shared_ptr<const NameRoles> roles);

    const Run& run() const { return *m_run; }
    Interval span() const { return m_span; }
    std::int64_t wallNs() const { return spanNs(m_span.beginNs, m_span.endNs); }
    // The ops the index was built from: the run's, or a view's (its span's).
    std::size_t opCount() const { return m_opCount; }
    // The run's timed region; a view's is its span, as a slice's is (sliceOf).
    Interval timed() const { return m_timed; }
    bool inSpan(const Op& op) const { return op.startNs >= m_span.beginNs && op.startNs < m_span.endNs; }

    // Lanes' typed facts: the device a lane's ops ran on, an index into the
    // run's devices (Run::deviceAt), as every reader fills it (Lane::device).
    int laneDevice(std::size_t lane) const { return m_laneDevice[lane]; }
    // The first host thread lane (the one that launches and waits); -1 when none.
    int mainHostLane() const { return m_mainHostLane; }
    // Lanes holding GPU ops or staging in the span, counted.
    int streams() const { return m_streams; }
    int stagingThreads() const { return m_stagingThreads; }

    // What a call op does, from the one table (trace/ApiNames.h), decided
    // once per name.
    ApiRole roleOf(const Op& op) const;
    bool isAsyncCall(const Op& op) const;
    // Host calls by what they do. Profiles give Sync/Alloc/Free/Register
    // ops; imported traces give every call as ApiCall with its name; our
    // pipelines give HostWait for the host waiting on an event.
    bool isHostSync(const Op& op) const;
    // An allocation, free or registration that is not stream-ordered
    // (cudaMallocAsync is the fix, not the problem: it does not synchronize).
    bool isAllocation(const Op& op) const;
    // A copy or memset call that is not Async: the host waits for it.
    bool isSyncCopyCall(const Op& op) const;

    // In the span: per op kind, per device (in ordinal order), all GPU work.
    const KindFacts& kind(OpKind k) const { return m_kinds[static_cast<std::size_t>(k)]; }
    // The ops of kind `k` in the span, their engine intervals united and
    // clipped to it, for the kinds the metrics unite with others: uploads,
    // downloads, kernels, staging. (The other kinds' union is measured,
    // KindFacts::unionNs, not kept: a big trace's calls are millions.)
    // On one device, its own sets: the same instants, kept once.
    const IntervalSet& kindTime(OpKind k) const;
    const std::vector<DeviceFacts>& devices() const { return m_devices; }
    // The GPU's busy time, all devices together: on one device, its own.
    const IntervalSet& gpuBusy() const { return m_oneDevice ? m_devices.front().busy : m_gpuBusy; }
    int gpuOps() const { return m_gpuOps; }
    int gpuOpsWithExec() const { return m_gpuOpsWithExec; }
    // Host ops (calls, waits, staging) on host lanes, by start time.
    const std::vector<std::uint32_t>& hostOps() const { return m_hostOps; }
    // The main host lane's waits (HostWait, Sync), united and clipped.
    const IntervalSet& mainThreadWaits() const { return m_mainThreadWaits; }
    // Per lane, the time its ops of kind Upload or Download waited from their
    // event start to their engine start (within the span), summed; only ops
    // with engine times.
    const std::map<int, std::int64_t>& queuedNs(OpKind copyKind) const
    {
        return m_queued[copyKind == OpKind::Download ? 1 : 0];
    }

    // The unified-memory ops that begin at the span's start or after, to
    // the run's end, in op order (each says what it counts:
    // Run::unifiedMemoryOf): the host reads results back after the loop, so
    // its faults count past the span (DemandMigrations.h).
    const std::vector<std::uint32_t>& unifiedMemoryOps() const { return m_unifiedMemoryOps; }
    // The engine intervals of the kernels named as collectives (NCCL's:
    // NameRoles::isCollective), in the span or not: the ranks clip them to
    // each step, and a step's GPU work may have begun before the span did.
    const IntervalSet& collectiveKernels() const { return m_collectiveKernels; }

    // correlation -> the GPU op it enqueued / the call (any non-GPU op) that carries it.
    const CorrelationMap& gpuOpOf() const { return m_gpuOpOf; }
    const CorrelationMap& callOf() const { return m_callOf; }

private:
    RunIndex(const Run& run, Interval span, std::shared_ptr<const NameRoles> roles, const std::vector<OpRange>* ops);

    const Run* m_run;
    Interval m_span;
    Interval m_timed;
    std::size_t m_opCount = 0;
    std::shared_ptr<const NameRoles> m_roles;
    std::vector<int> m_laneDevice;
    int m_mainHostLane = -1;
    int m_streams = 0;
    int m_stagingThreads = 0;
    std::array<KindFacts, kOpKindCount> m_kinds;
    std::array<IntervalSet, kOpKindCount> m_kindTime; // the kinds kindTime keeps, where not a device's
    std::vector<DeviceFacts> m_devices;
    // The span's GPU work is on one device (m_devices holds it): the GPU
    // kinds' sets and the GPU's busy time are that device's.
    bool m_oneDevice = false;
    IntervalSet m_gpuBusy;
    int m_gpuOps = 0;
    int m_gpuOpsWithExec = 0;
    std::vector<std::uint32_t> m_hostOps;
    IntervalSet m_mainThreadWaits;
    std::vector<std::uint32_t> m_unifiedMemoryOps;
    IntervalSet m_collectiveKernels;
    std::array<std::map<int, std::int64_t>, 2> m_queued;
    CorrelationMap m_gpuOpOf;
    CorrelationMap m_callOf;
};

} // namespace ovs
