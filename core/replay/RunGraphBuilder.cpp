#include "replay/RunGraphBuilder.h"

#include "base/ParallelWork.h"
#include "base/Thresholds.h"
#include "trace/ApiNames.h"
#include "replay/GraphCycles.h"
#include "base/Saturating.h"
#include "base/SortedRuns.h"
#include "trace/CorrelationMap.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <array>
#include <future>
#include <map>
#include <utility>

namespace ovs {

using namespace thresholds;

namespace {

EngineClass engineOf(OpKind kind)
{
    switch (kind) {
    case OpKind::Upload: return EngineClass::CopyH2D;
    case OpKind::Download: return EngineClass::CopyD2H;
    case OpKind::DeviceCopy:
    case OpKind::PeerCopy: return EngineClass::CopyDtoD;
    case OpKind::Kernel:
    case OpKind::Memset: return EngineClass::Compute;
    default: return EngineClass::None;
    }
}

constexpr std::size_t kEngineClasses = static_cast<std::size_t>(EngineClass::Compute) + 1;
std::size_t engineIndex(EngineClass e)
{
    return static_cast<std::size_t>(e);
}

CallRole roleOf(const NameRoles& names, const Op& op, bool* async)
{
    switch (op.kind) {
    case OpKind::HostWait:
    case OpKind::Sync: return CallRole::Sync;
    case OpKind::Alloc:
    case OpKind::Free:
    case OpKind::Register:
        // Stream-ordered allocation does not synchronize.
        return names.isAsync(op.nameId) ? CallRole::Launch : CallRole::Alloc;
    case OpKind::ApiCall: break;
    default: return CallRole::Work;
    }
    *async = names.isAsync(op.nameId);
    switch (names.role(op.nameId)) {
    case ApiRole::Copy:
    case ApiRole::Memset: return *async ? CallRole::Launch : CallRole::SyncCopy;
    case ApiRole::Launch:
    case ApiRole::Prefetch:
    case ApiRole::StreamWait: return CallRole::Launch;
    case ApiRole::DeviceSync:
    case ApiRole::StreamSync:
    case ApiRole::EventSync: return CallRole::Sync;
    case ApiRole::Alloc:
    case ApiRole::Free:
    case ApiRole::Register: return *async ? CallRole::Launch : CallRole::Alloc;
    default: return CallRole::Work;
    }
}

bool isDeviceWideSync(const NameRoles& names, const Op& op)
{
    return (op.kind == OpKind::ApiCall || op.kind == OpKind::Sync) && names.role(op.nameId) == ApiRole::DeviceSync;
}

std::int64_t percentile(std::vector<std::int64_t> v, double p, std::int64_t fallback)
{
    if (v.empty())
        return fallback;
    const auto at = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(at), v.end());
    return v[at];
}

class Builder {
public:
    Builder(const Run& run, std::int64_t beginNs, std::int64_t endNs, const NameRoles& roles,
            const std::vector<OpRange>* ops)
        : m_run(run), m_begin(beginNs), m_end(endNs), m_roles(roles), m_ops(ops)
    {
    }

    GraphBuild build(const std::function<void(RunGraph&)>& meanwhile)
    {
        GraphBuild out;
        m_g.lanes = m_run.lanes;
        addNodes();
        if (m_g.gpuNodes == 0) {
            out.why = "no GPU work in the judged span";
            return out;
        }
        // Edges: one to two per node in the traces we have; reserved once.
        m_g.edges.reserve(2 * m_nodes.size());
        m_explained.assign(m_nodes.size(), INT64_MIN);
        addHostOrder();
        addStreamOrder();
        assignChunks();
        addLaunches();
        indexEnqueues();
        addBlocking();
        addLegacyBarriers();
        inferUnexplainedWaits();
        // Inferred waits can contradict each other (a cycle no schedule
        // satisfies): the weakest go, once, here, so that every replay of
        // every fix set starts from a graph that holds. Most graphs hold no
        // cycle; a big one's walk that finds so (a tenth of a second on 3.6 M
        // nodes) runs on the other core while this one describes the model
        // and does what the caller does `meanwhile`, none of which touches
        // the edges. Where the walk finds a cycle, it is broken after.
        std::future<bool> acyclic =
            std::async(launchPolicyFor(m_nodes.size()), [&g = std::as_const(m_g)] { return isAcyclic(g); });
        describeModel();
        if (meanwhile)
            meanwhile(m_g);
        if (!acyclic.get()) {
            const CycleBreak cycles = breakCycles(m_g);
            if (!cycles.acyclic) {
                out.why = cycles.why;
                return out;
            }
        }
        m_g.notes = notes();
        // As built, the edges are shared by the graph's copies (GraphEdges.h).
        m_g.edges.share();
        out.graph = std::move(m_g);
        return out;
    }

private:
    // ---- Nodes

    void addNodes()
    {
        std::map<int, std::vector<std::uint32_t>> hostByLane;
        // The run's ops, or a view's ranges (lanes in order: op order).
        const std::vector<OpRange> all{{0, static_cast<std::uint32_t>(m_run.ops.size())}};
        const std::vector<OpRange>& ranges = m_ops ? *m_ops : all;
        std::size_t ops = 0;
        for (const OpRange& r : ranges)
            ops += r.end - r.begin;
        // At most one node per op: one allocation, not one per doubling.
        m_nodes.reserve(ops);
        m_state.reserve(ops);
        // The ops come lane by lane: each lane's list looked up once, not per op.
        std::vector<std::uint32_t>* hostLane = nullptr;
        int hostLaneOf = -1;
        for (const OpRange& r : ranges)
            for (std::uint32_t i = r.begin; i < r.end; ++i) {
                if (const int lane = m_run.ops[i].lane; lane != hostLaneOf) {
                    hostLane = &hostByLane[lane];
                    hostLaneOf = lane;
                }
                addNode(i, *hostLane);
            }
        std::erase_if(hostByLane, [](const auto& lane) { return lane.second.empty(); });
        for (auto& [lane, nodes] : hostByLane)
            m_hostLanes.push_back(keepLeaves(std::move(nodes)));
        dropNested();
    }

    // Op i as a node, where it begins in the span on a stream or host
    // thread (a host thread's node also into `hostLane`, its lane's list).
    void addNode(std::uint32_t i, std::vector<std::uint32_t>& hostLane)
    {
        const Op& op = m_run.ops[i];
        if (op.lane >= m_run.lanes.size())
            return;
        GraphNode n;
        NodeState s;
        n.op = i;
        n.kind = op.kind;
        s.lane = op.lane;
        n.gpu = isGpuOp(op.kind);
        s.memory = op.memory;
        n.setBytes(op.bytes);
        n.measuredBeginNs = busyBeginNs(op);
        n.measuredEndNs = std::max(n.measuredBeginNs, busyEndNs(op));
        if (n.measuredBeginNs < m_begin || n.measuredBeginNs >= m_end)
            return;
        s.durationNs = measuredDurationNs(n);
        s.chunk = op.chunk;
        if (n.gpu) {
            if (m_run.lanes[op.lane].kind != LaneKind::Stream)
                return;
            n.engine = engineOf(op.kind);
            m_gpu.push_back(static_cast<std::uint32_t>(m_nodes.size()));
            ++m_g.gpuNodes;
        } else {
            if (m_run.lanes[op.lane].kind != LaneKind::HostThread)
                return;
            bool async = false;
            s.role = roleOf(m_roles, op, &async);
            n.async = async;
            hostLane.push_back(static_cast<std::uint32_t>(m_nodes.size()));
        }
        m_nodes.push_back(n);
        m_state.push_back(s);
    }

    // Nodes keepLeaves dropped are no part of the graph: renumber the rest,
    // moved up in place (a second array of a million nodes is as many fresh
    // pages to fault in).
    void dropNested()
    {
        std::vector<std::uint32_t> newIndex(m_nodes.size(), UINT32_MAX);
        std::uint32_t kept = 0;
        for (std::uint32_t i = 0; i < m_nodes.size(); ++i)
            if (!m_state[i].removed) {
                newIndex[i] = kept;
                m_state[kept] = m_state[i];
                m_nodes[kept++] = m_nodes[i];
            }
        m_nodes.resize(kept);
        m_state.resize(kept);
        for (std::uint32_t& n : m_gpu)
            n = newIndex[n];
        for (auto& lane : m_hostLanes)
            for (std::uint32_t& n : lane)
                n = newIndex[n];
    }

    // A host lane's ops in time order, without nesting: a span of host work
    // that holds a CUDA call (an importer's CPU frame) gives way to the call,
    // and a call inside a call (a driver call under a runtime call) to the
    // outer one. Dropped ops become the host's own work between calls.
    std::vector<std::uint32_t> keepLeaves(std::vector<std::uint32_t> nodes)
    {
        const auto before = [&](std::uint32_t a, std::uint32_t b) {
            const GraphNode& x = m_nodes[a];
            const GraphNode& y = m_nodes[b];
            return x.measuredBeginNs != y.measuredBeginNs ? x.measuredBeginNs < y.measuredBeginNs
                                                          : x.measuredEndNs > y.measuredEndNs;
        };
        // A lane's ops come in time order: where each is strictly before the
        // next, that is the one order the sort gives (with ties it may not
        // be: the sort is not stable).
        bool strictly = true;
        for (std::size_t i = 1; i < nodes.size() && strictly; ++i)
            strictly = before(nodes[i - 1], nodes[i]);
        if (!strictly)
            std::sort(nodes.begin(), nodes.end(), before);
        std::vector<std::uint32_t> kept;
        for (std::uint32_t n : nodes) {
            if (!kept.empty() && m_nodes[n].measuredBeginNs < m_nodes[kept.back()].measuredEndNs) {
                NodeState& last = m_state[kept.back()];
                if (last.role == CallRole::Work) {
                    last.removed = true;
                    kept.back() = n;
                } else {
                    m_state[n].removed = true;
                }
                continue;
            }
            kept.push_back(n);
        }
        return kept;
    }

    void addEdge(std::uint32_t from, std::uint32_t to, EdgeKind kind, bool fromEnd, bool toEnd, std::int64_t lag)
    {
        lag = std::clamp<std::int64_t>(lag, 0, GraphEdge::kMaxLagNs);
        m_g.edges.push_back({from, to, kind, fromEnd, toEnd, lag});
        // What explains a begin so far (inferUnexplainedWaits), kept as the
        // edges are made, while their nodes are at hand: a pass over the
        // millions of edges after, on one core, less.
        if (!toEnd && to < m_explained.size()) {
            const GraphNode& f = m_nodes[from];
            m_explained[to] = std::max(m_explained[to], saturatingAdd(fromEnd ? f.measuredEndNs : f.measuredBeginNs, lag));
        }
    }

    // ---- Order on each host thread and each stream

    void addHostOrder()
    {
        // Every host call's end, by end, for the hand-offs between threads.
        std::vector<std::pair<std::int64_t, std::uint32_t>> ends;
        if (m_hostLanes.size() > 1)
            for (const auto& lane : m_hostLanes)
                for (std::uint32_t n : lane)
                    ends.emplace_back(m_nodes[n].measuredEndNs, n);
        sortSortedRuns(ends); // thread by thread, each in time order
        for (const auto& lane : m_hostLanes)
            for (std::size_t i = 1; i < lane.size(); ++i) {
                const GraphNode& prev = m_nodes[lane[i - 1]];
                const GraphNode& cur = m_nodes[lane[i]];
                // The gap is the host's own work between the two calls: kept
                // as it was measured, whatever a fix changes around it...
                std::int64_t gap = saturatingSub(cur.measuredBeginNs, prev.measuredEndNs);
                // ... unless another thread's call ended inside a long gap:
                // then the thread was handed work by that one (PyTorch's
                // autograd thread starts a backward pass when the main
                // thread asks, and the main thread goes on when it is
                // done), and it follows that call, at the measured distance,
                // where a fix moves it. Its own gap no longer holds it back.
                if (const std::uint32_t from = handOff(ends, prev, cur, m_state[lane[i]].lane); from != UINT32_MAX) {
                    addEdge(from, lane[i], EdgeKind::HandOff, true, false,
                            saturatingSub(cur.measuredBeginNs, m_nodes[from].measuredEndNs));
                    ++m_g.handOffs;
                    gap = 0;
                }
                addEdge(lane[i - 1], lane[i], EdgeKind::HostOrder, true, false, gap);
            }
    }

    // The call of another thread that ended last inside the gap between
    // `prev` and `cur` (one thread's calls), where the gap is long enough to
    // be a wait: UINT32_MAX where none.
    std::uint32_t handOff(const std::vector<std::pair<std::int64_t, std::uint32_t>>& ends, const GraphNode& prev,
                          const GraphNode& cur, std::uint16_t curLane) const
    {
        if (ends.empty() || saturatingSub(cur.measuredBeginNs, prev.measuredEndNs) <= kHandOffGapNs)
            return UINT32_MAX;
        auto it = std::upper_bound(ends.begin(), ends.end(), std::make_pair(cur.measuredBeginNs, UINT32_MAX));
        while (it != ends.begin()) {
            --it;
            if (it->first <= prev.measuredEndNs)
                return UINT32_MAX;
            if (m_state[it->second].lane != curLane)
                return it->second;
        }
        return UINT32_MAX;
    }

    void addStreamOrder()
    {
        std::map<int, std::vector<std::uint32_t>> byLane;
        for (std::uint32_t n : m_gpu)
            byLane[m_state[n].lane].push_back(n);
        // In time order already nearly always (the run's lanes are):
        // checked in one pass, merged where not (base/SortedRuns.h).
        for (auto& [lane, nodes] : byLane) {
            sortSortedRuns(nodes, [&](std::uint32_t a, std::uint32_t b) {
                return m_nodes[a].measuredBeginNs < m_nodes[b].measuredBeginNs;
            });
            m_streams[lane] = std::move(nodes);
        }
        // The GPU takes a few microseconds to start an op once what it
        // waited for has ended: the median of the short gaps between ops of
        // one stream (a longer gap waited for something else). Each edge
        // keeps its own gap where shorter, so the unchanged replay never
        // starts an op later than it began.
        std::vector<std::int64_t> gaps;
        for (const auto& [lane, nodes] : m_streams)
            for (std::size_t i = 1; i < nodes.size(); ++i)
                if (const std::int64_t gap = gapBetween(nodes[i - 1], nodes[i]); gap >= 0 && gap <= kUnexplainedWaitNs)
                    gaps.push_back(gap);
        m_g.dependencyLatencyNs =
            static_cast<int>(gaps.size()) >= thresholds::kMinRepeats ? percentile(gaps, 0.5, 0) : 0;
        for (const auto& [lane, nodes] : m_streams)
            for (std::size_t i = 1; i < nodes.size(); ++i)
                addEdge(nodes[i - 1], nodes[i], EdgeKind::StreamOrder, true, false, dependencyLag(nodes[i - 1], nodes[i]));
    }


    // `to` began this long after `from` ended (negative: before).
    std::int64_t gapBetween(std::uint32_t from, std::uint32_t to) const
    {
        return saturatingSub(m_nodes[to].measuredBeginNs, m_nodes[from].measuredEndNs);
    }
    // The lag of a GPU dependency: the dependency latency, or the measured
    // gap where that is shorter.
    std::int64_t dependencyLag(std::uint32_t from, std::uint32_t to) const
    {
        return std::clamp<std::int64_t>(gapBetween(from, to), 0, m_g.dependencyLatencyNs);
    }

    // Chunks: the run's own where it has them (our pipelines); else inferred
    // (numberChunks).
    void assignChunks()
    {
        for (const auto& [lane, nodes] : m_streams)
            for (std::uint32_t n : nodes)
                if (m_state[n].chunk < 0)
                    m_g.chunksInferred = true;
        numberChunks(m_g, m_streams, 0);
    }

    // ---- Launch edges

    void addLaunches()
    {
        CorrelationMap callOf; // correlation -> host node
        callOf.reserve(m_nodes.size() - m_gpu.size());
        for (const auto& lane : m_hostLanes)
            for (std::uint32_t n : lane)
                callOf.add(m_run.ops[m_nodes[n].op].correlation, n);
        callOf.finish();
        // When each GPU op's stream let it begin: its predecessor's end.
        std::vector<std::int64_t> streamFreeAt(m_nodes.size(), INT64_MIN);
        for (const auto& [lane, nodes] : m_streams)
            for (std::size_t i = 1; i < nodes.size(); ++i)
                streamFreeAt[nodes[i]] = m_nodes[nodes[i - 1]].measuredEndNs;
        std::vector<std::int64_t> delays, freeDelays;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs; // (call, gpu)
        for (std::uint32_t g : m_gpu) {
            const std::uint32_t call = callOf.find(m_run.ops[m_nodes[g].op].correlation);
            if (call == CorrelationMap::kNone)
                continue;
            pairs.emplace_back(call, g);
            m_nodes[g].call = call;
            m_nodes[call].call = g;
            const std::int64_t d = saturatingSub(m_nodes[g].measuredBeginNs, m_nodes[call].measuredBeginNs);
            delays.push_back(d);
            if (streamFreeAt[g] <= m_nodes[call].measuredBeginNs && m_state[g].memory != HostMemoryKind::Pageable)
                freeDelays.push_back(d);
        }
        // The launch latency: a low percentile of call-to-GPU delays, since
        // most GPU ops wait for their stream, not their call; each edge is
        // never longer than its own measured delay. Where nearly every op
        // was queued behind its stream's (kernels launched at once behind
        // ones stalled on page faults), each delay is the queue's, and the
        // lowest of them can be milliseconds: the edges keep it, since the
        // unchanged replay needs it where the graph does not know what the
        // queue waited for (the faults of other streams' kernels), but a fix
        // that takes the stalls out launches at the latency of the ops whose
        // stream was idle when they were called (idleLaunchLatencyNs).
        std::erase_if(delays, [](std::int64_t d) { return d < 0; });
        std::erase_if(freeDelays, [](std::int64_t d) { return d < 0; });
        m_g.launchLatencyNs = percentile(delays, 0.1, 0);
        m_g.idleLaunchLatencyNs = m_g.launchLatencyNs;
        if (!freeDelays.empty())
            m_g.idleLaunchLatencyNs = std::min(m_g.launchLatencyNs, percentile(freeDelays, 0.1, 0));
        for (const auto& [call, g] : pairs) {
            const std::int64_t d = saturatingSub(m_nodes[g].measuredBeginNs, m_nodes[call].measuredBeginNs);
            // A pageable copy begins once the calling thread has staged its
            // data: the whole delay is the call's (pinning takes it away).
            const bool staged = m_state[g].memory == HostMemoryKind::Pageable;
            addEdge(call, g, EdgeKind::Launch, false, false, staged ? d : std::min(d, m_g.launchLatencyNs));
            markBlockingCopy(call, g);
        }
        inferLaunches();
        // What an async call costs the host: not one of a pageable copy,
        // which stages (part of) its data before it returns.
        std::vector<std::int64_t> asyncCalls;
        for (const auto& lane : m_hostLanes)
            for (std::uint32_t n : lane)
                if (const GraphNode& c = m_nodes[n]; m_state[n].role == CallRole::Launch
                    && (c.call == UINT32_MAX || m_state[c.call].memory != HostMemoryKind::Pageable))
                    asyncCalls.push_back(m_state[n].durationNs);
        m_g.asyncCallNs = percentile(asyncCalls, 0.5, kDefaultAsyncCallNs);
    }

    // Whether a copy or memset call blocked is read from the times, not its
    // name: cudaMemset of device memory returns before its memset runs,
    // and cudaMemcpyAsync of pageable memory returns only once its copy
    // is done (the calling thread staged it).
    void markBlockingCopy(std::uint32_t call, std::uint32_t g)
    {
        const GraphNode& c = m_nodes[call];
        const GraphNode& gpu = m_nodes[g];
        NodeState& state = m_state[call];
        if (state.role != CallRole::Launch && state.role != CallRole::SyncCopy)
            return;
        if (gpu.kind != OpKind::Upload && gpu.kind != OpKind::Download && gpu.kind != OpKind::Memset
            && gpu.kind != OpKind::DeviceCopy && gpu.kind != OpKind::PeerCopy)
            return;
        state.role = saturatingAdd(c.measuredEndNs, kClockToleranceNs) >= gpu.measuredEndNs ? CallRole::SyncCopy : CallRole::Launch;
    }

    // GPU ops with no enqueueing call: released by the host op of their
    // chunk (else any host op) that ended last before they began.
    void inferLaunches()
    {
        // Gathered and sorted when a GPU op needs them: in most traces every
        // GPU op has its call, and sorting every host op's end was a tenth
        // of a big graph's build.
        std::map<int, std::vector<std::pair<std::int64_t, std::uint32_t>>> hostEnds; // chunk -> (end, node)
        bool gathered = false;
        const auto gather = [&] {
            for (const auto& lane : m_hostLanes)
                for (std::uint32_t n : lane) {
                    const GraphNode& h = m_nodes[n];
                    hostEnds[-1].emplace_back(h.measuredEndNs, n);
                    if (const int chunk = m_state[n].chunk; chunk >= 0)
                        hostEnds[chunk].emplace_back(h.measuredEndNs, n);
                }
            for (auto& [chunk, ends] : hostEnds)
                std::sort(ends.begin(), ends.end());
            gathered = true;
        };
        const auto latestBefore = [&](int chunk, std::int64_t t) -> std::int64_t {
            if (!gathered)
                gather();
            const auto found = hostEnds.find(chunk);
            if (found == hostEnds.end())
                return -1;
            const auto& v = found->second;
            auto it = std::upper_bound(v.begin(), v.end(), std::make_pair(t, UINT32_MAX));
            return it == v.begin() ? std::int64_t(-1) : std::int64_t(std::prev(it)->second);
        };
        for (std::uint32_t g : m_gpu) {
            GraphNode& node = m_nodes[g];
            if (node.call != UINT32_MAX || adoptStagingWait(g))
                continue;
            ++m_g.unlaunchedGpuNodes;
            const int runChunk = m_run.ops[node.op].chunk;
            std::int64_t host = runChunk >= 0 ? latestBefore(runChunk, saturatingAdd(node.measuredBeginNs, kClockToleranceNs)) : -1;
            if (host < 0)
                host = latestBefore(-1, saturatingAdd(node.measuredBeginNs, kClockToleranceNs));
            if (host >= 0)
                addEdge(static_cast<std::uint32_t>(host), g, EdgeKind::Launch, true, false, 0);
        }
    }

    // Our pipelines' synchronous pageable copies: the host's wait of the
    // same chunk, bytes and memory that holds the copy's begin is the copy
    // call itself (the driver stages the data on that thread).
    bool adoptStagingWait(std::uint32_t g)
    {
        GraphNode& node = m_nodes[g];
        if ((node.kind != OpKind::Upload && node.kind != OpKind::Download) || m_state[g].memory != HostMemoryKind::Pageable)
            return false;
        for (const auto& lane : m_hostLanes) {
            auto it = std::upper_bound(lane.begin(), lane.end(), node.measuredBeginNs,
                                       [&](std::int64_t t, std::uint32_t n) { return t < m_nodes[n].measuredBeginNs; });
            if (it == lane.begin())
                continue;
            const std::uint32_t waitNode = *std::prev(it);
            GraphNode& wait = m_nodes[waitNode];
            const Op& op = m_run.ops[wait.op];
            if (wait.kind != OpKind::HostWait || wait.call != UINT32_MAX || op.bytes != node.bytes
                || op.memory != HostMemoryKind::Pageable || op.chunk != m_run.ops[node.op].chunk
                || saturatingAdd(wait.measuredEndNs, kClockToleranceNs) < node.measuredEndNs)
                continue;
            wait.call = g;
            m_state[waitNode].role = CallRole::SyncCopy;
            node.call = *std::prev(it);
            addEdge(node.call, g, EdgeKind::Launch, false, false, saturatingSub(node.measuredBeginNs, wait.measuredBeginNs));
            return true;
        }
        return false;
    }

    // When a GPU node was enqueued: its call's begin, else its own begin.
    std::int64_t enqueuedAt(const GraphNode& g) const { return ovs::enqueuedAt(m_g, g); }

    // ---- Blocking edges

    void addBlocking()
    {
        std::vector<std::uint32_t> byEnd = m_gpu; // stream by stream, each in time order
        sortSortedRuns(byEnd, [&](std::uint32_t a, std::uint32_t b) {
            return m_nodes[a].measuredEndNs < m_nodes[b].measuredEndNs;
        });
        for (const auto& lane : m_hostLanes)
            for (std::uint32_t n : lane) {
                const GraphNode& call = m_nodes[n];
                const CallRole role = m_state[n].role;
                if (role == CallRole::SyncCopy && call.call != UINT32_MAX) {
                    blockOn(n, {call.call});
                } else if (role == CallRole::Sync || role == CallRole::Alloc || role == CallRole::SyncCopy) {
                    const std::int64_t awaited = awaitedBy(n, byEnd);
                    if (awaited < 0)
                        continue;
                    const bool waited = m_nodes[static_cast<std::size_t>(awaited)].measuredEndNs > call.measuredBeginNs;
                    // An allocation that did not wait for the GPU is host work.
                    if (role == CallRole::Alloc && !waited)
                        continue;
                    if (role == CallRole::Alloc || isDeviceWideSync(m_roles, m_run.ops[call.op])) {
                        // What ended after the call returned was not waited
                        // for. An allocation that returned with work of a
                        // stream still running did not wait for the device at
                        // all (cudaMalloc beside a busy stream): host work.
                        // Waits on such work would hold the host back in the
                        // replay, and contradict the waits inferred for it.
                        std::vector<std::uint32_t> last = lastOfEachStream(call.measuredBeginNs, static_cast<std::uint32_t>(awaited));
                        const std::int64_t returned = saturatingAdd(call.measuredEndNs, kClockToleranceNs);
                        const auto late = [&](std::uint32_t g) { return m_nodes[g].measuredEndNs > returned; };
                        if (role == CallRole::Alloc && std::any_of(last.begin(), last.end(), late))
                            continue;
                        std::erase_if(last, late);
                        blockOn(n, last);
                    } else
                        blockOn(n, {static_cast<std::uint32_t>(awaited)});
                }
            }
    }

    // The GPU node a waiting call returned after: enqueued before the call
    // began, the latest to end by the time it returned (of its own chunk
    // first, where the run numbers chunks and the call has one).
    std::int64_t awaitedBy(std::uint32_t n, const std::vector<std::uint32_t>& byEnd) const
    {
        const GraphNode& call = m_nodes[n];
        const std::int64_t limit = saturatingAdd(call.measuredEndNs, kClockToleranceNs);
        auto it = std::upper_bound(byEnd.begin(), byEnd.end(), limit, [&](std::int64_t t, std::uint32_t g) {
            return t < m_nodes[g].measuredEndNs;
        });
        std::int64_t any = -1;
        const int chunk = m_run.ops[call.op].chunk;
        for (int looked = 0; it != byEnd.begin() && looked < 256; ++looked) {
            --it;
            const GraphNode& g = m_nodes[*it];
            if (enqueuedAt(g) > saturatingAdd(call.measuredBeginNs, kClockToleranceNs))
                continue;
            if (any < 0)
                any = *it;
            if (chunk < 0 || m_run.ops[g.op].chunk == chunk)
                return *it;
            if (g.measuredEndNs < call.measuredBeginNs)
                break;
        }
        return any;
    }

    // Per stream, the least enqueue time from each node on (in stream
    // order): non-decreasing, so the last node enqueued before t is found by
    // binary search, not by a walk of the stream per waiting call.
    void indexEnqueues()
    {
        for (const auto& [lane, nodes] : m_streams) {
            std::vector<std::int64_t>& least = m_leastEnqueueFrom[lane];
            least.resize(nodes.size());
            std::int64_t soFar = INT64_MAX;
            for (std::size_t i = nodes.size(); i-- > 0;)
                least[i] = soFar = std::min(soFar, enqueuedAt(m_nodes[nodes[i]]));
        }
    }

    // The last node of `lane`'s stream enqueued before `t` (at or before,
    // with `inclusive`); -1 when none was.
    std::int64_t lastEnqueuedBefore(int lane, std::int64_t t, bool inclusive) const
    {
        const std::vector<std::int64_t>& least = m_leastEnqueueFrom.at(lane);
        const auto after = inclusive ? std::upper_bound(least.begin(), least.end(), t)
                                     : std::lower_bound(least.begin(), least.end(), t);
        if (after == least.begin())
            return -1;
        return m_streams.at(lane)[static_cast<std::size_t>(after - least.begin() - 1)];
    }

    // Every stream's last node enqueued before `t`, and `awaited`.
    std::vector<std::uint32_t> lastOfEachStream(std::int64_t t, std::uint32_t awaited) const
    {
        std::vector<std::uint32_t> out{awaited};
        for (const auto& [lane, nodes] : m_streams) {
            const std::int64_t last = lastEnqueuedBefore(lane, saturatingAdd(t, kClockToleranceNs), true);
            if (last >= 0 && static_cast<std::uint32_t>(last) != awaited)
                out.push_back(static_cast<std::uint32_t>(last));
        }
        return out;
    }

    // The call returns after the latest of `gpu` ends, by the time it took to
    // return after the wait was over; its own time is that return time (the
    // part of a waiting call that is not waiting).
    void blockOn(std::uint32_t n, const std::vector<std::uint32_t>& gpu)
    {
        const GraphNode& call = m_nodes[n];
        std::int64_t satisfied = call.measuredBeginNs;
        for (std::uint32_t g : gpu)
            satisfied = std::max(satisfied, m_nodes[g].measuredEndNs);
        const std::int64_t tail = std::max<std::int64_t>(0, saturatingSub(call.measuredEndNs, satisfied));
        m_state[n].durationNs = tail;
        for (std::uint32_t g : gpu)
            addEdge(g, n, EdgeKind::Blocking, true, true, tail);
    }

    // ---- Cross-stream edges: the legacy default stream's barriers

    void addLegacyBarriers()
    {
        std::vector<int> legacy, blocking;
        for (const auto& [lane, nodes] : m_streams) {
            const Lane& l = m_run.lanes[static_cast<std::size_t>(lane)];
            // The per-thread default stream takes the legacy stream's
            // barriers as a created blocking stream does.
            if (isLegacyStream(l))
                legacy.push_back(lane);
            else if (l.streamKind == StreamKind::Blocking || l.streamKind == StreamKind::PerThreadDefault)
                blocking.push_back(lane);
        }
        if (legacy.empty() || blocking.empty())
            return;
        // Work on the legacy stream waits for the blocking streams' work
        // enqueued before it, and theirs for its.
        const auto barrier = [&](const std::vector<int>& waitFor, std::uint32_t n) {
            const std::int64_t t = enqueuedAt(m_nodes[n]);
            for (int lane : waitFor) {
                const std::int64_t last = lastEnqueuedBefore(lane, t, false);
                if (last >= 0)
                    addEdge(static_cast<std::uint32_t>(last), n, EdgeKind::CrossStream, true, false,
                            dependencyLag(static_cast<std::uint32_t>(last), n));
            }
        };
        for (int lane : legacy)
            for (std::uint32_t n : m_streams[lane])
                barrier(blocking, n);
        for (int lane : blocking)
            for (std::uint32_t n : m_streams[lane])
                barrier(legacy, n);
    }

    // ---- Waits the trace does not name

    void inferUnexplainedWaits()
    {
        // The latest each begin is explained by the edges made so far
        // (addEdge), not by the waits inferred here.
        std::vector<std::int64_t> explained;
        explained.swap(m_explained);
        // By engine class (EngineClass's values index it), and each array
        // made at its size: a map lookup per GPU node and the arrays'
        // growth (a tenth of this walk's samples) on one core, for
        // millions of nodes.
        std::array<std::vector<std::int64_t>, kEngineClasses> engineEnds;
        std::array<std::size_t, kEngineClasses> ofEngine{};
        for (std::uint32_t g : m_gpu)
            ++ofEngine[engineIndex(m_nodes[g].engine)];
        for (std::size_t e = 0; e < kEngineClasses; ++e)
            engineEnds[e].reserve(ofEngine[e]);
        std::vector<std::pair<std::int64_t, std::uint32_t>> gpuEnds, hostEnds;
        gpuEnds.reserve(m_gpu.size());
        hostEnds.reserve(m_nodes.size() - m_gpu.size());
        for (std::uint32_t g : m_gpu) {
            engineEnds[engineIndex(m_nodes[g].engine)].push_back(m_nodes[g].measuredEndNs);
            gpuEnds.emplace_back(m_nodes[g].measuredEndNs, g);
        }
        for (const auto& lane : m_hostLanes)
            for (std::uint32_t n : lane)
                hostEnds.emplace_back(m_nodes[n].measuredEndNs, n);
        // Gathered stream by stream and thread by thread, each in time order.
        for (std::vector<std::int64_t>& ends : engineEnds)
            sortSortedRuns(ends);
        sortSortedRuns(gpuEnds);
        sortSortedRuns(hostEnds);
        for (std::uint32_t g : m_gpu) {
            const GraphNode& node = m_nodes[g];
            const std::int64_t from = explained[g] == INT64_MIN ? node.measuredBeginNs : explained[g];
            if (saturatingSub(node.measuredBeginNs, from) <= kUnexplainedWaitNs
                || engineWasBusy(engineEnds[engineIndex(node.engine)], from, node))
                continue;
            const std::int64_t cause = latestEnd(gpuEnds, from, g, true);
            const std::int64_t host = cause < 0 ? latestEnd(hostEnds, from, g, false) : cause;
            if (host < 0)
                continue;
            const GraphNode& c = m_nodes[static_cast<std::size_t>(host)];
            addEdge(static_cast<std::uint32_t>(host), g, EdgeKind::Inferred, true, false,
                    saturatingSub(node.measuredBeginNs, c.measuredEndNs));
            ++m_g.inferredEdges;
        }
    }

    // Another op of the node's engine class ended between what explains the
    // node and its begin: it queued for the engine (the replay models that).
    static bool engineWasBusy(const std::vector<std::int64_t>& ends, std::int64_t from, const GraphNode& node)
    {
        auto it = std::lower_bound(ends.begin(), ends.end(), saturatingSub(node.measuredBeginNs, kUnexplainedWaitNs));
        // Ends up to the node's own begin: a memset of a microsecond would
        // otherwise explain itself.
        return it != ends.end() && *it <= node.measuredBeginNs && *it >= from;
    }

    // The op (of another lane) that ended last in (from, node's begin].
    std::int64_t latestEnd(const std::vector<std::pair<std::int64_t, std::uint32_t>>& ends, std::int64_t from,
                           std::uint32_t n, bool otherLane) const
    {
        const GraphNode& node = m_nodes[n];
        auto it = std::upper_bound(ends.begin(), ends.end(),
                                   std::make_pair(saturatingAdd(node.measuredBeginNs, kClockToleranceNs), UINT32_MAX));
        while (it != ends.begin()) {
            --it;
            if (it->first <= from)
                return -1;
            if (!otherLane || m_state[it->second].lane != m_state[n].lane)
                return it->second;
        }
        return -1;
    }

    // ---- The engine model the run itself shows

    void describeModel()
    {
        const int engines = m_run.device.asyncEngineCount;
        m_g.copyEngines = engines == 1 ? 1 : 2;
        // Kernels that ran at once (beyond clock slivers): the replay lets as
        // many run together, and no more. A sweep over their begins and ends
        // in time order, an end before a begin at the same instant. Each
        // stream's begins and ends come in time order already (m_gpu is lane
        // by lane): merged by sorted runs, not sorted as one array of
        // events, which was a tenth of the graph's serial end on a big trace.
        std::vector<std::int64_t> begins, ends;
        begins.reserve(m_gpu.size());
        ends.reserve(m_gpu.size());
        for (std::uint32_t g : m_gpu)
            if (m_nodes[g].engine == EngineClass::Compute) {
                begins.push_back(saturatingAdd(m_nodes[g].measuredBeginNs, kClockToleranceNs));
                ends.push_back(m_nodes[g].measuredEndNs);
            }
        sortSortedRuns(begins);
        sortSortedRuns(ends);
        int now = 0, most = 1;
        std::size_t ended = 0;
        for (const std::int64_t begin : begins) {
            for (; ended < ends.size() && ends[ended] <= begin; ++ended)
                --now;
            most = std::max(most, ++now);
        }
        m_g.kernelSlots = most;
        m_g.measuredSpanBeginNs = INT64_MAX;
        m_g.measuredSpanEndNs = INT64_MIN;
        for (std::uint32_t g : m_gpu) {
            m_g.measuredSpanBeginNs = std::min(m_g.measuredSpanBeginNs, m_nodes[g].measuredBeginNs);
            m_g.measuredSpanEndNs = std::max(m_g.measuredSpanEndNs, m_nodes[g].measuredEndNs);
        }
    }

    // What the model counted, for its words (WhatIf's assumptions).
    std::string notes() const
    {
        std::string notes = std::to_string(m_g.gpuNodes) + " GPU ops";
        if (m_g.unlaunchedGpuNodes > 0)
            notes += ", " + std::to_string(m_g.unlaunchedGpuNodes) + " released by the host op of their chunk";
        if (m_g.inferredEdges > 0)
            notes += ", " + std::to_string(m_g.inferredEdges) + " waits inferred from the times";
        if (m_g.handOffs > 0)
            notes += ", " + std::to_string(m_g.handOffs) + (m_g.handOffs == 1 ? " hand-off" : " hand-offs")
                     + " between host threads";
        if (m_g.droppedWaits > 0)
            notes += ", " + std::to_string(m_g.droppedWaits) + " inferred wait" + (m_g.droppedWaits == 1 ? "" : "s")
                     + " dropped (they contradicted the others)";
        return notes;
    }

    const Run& m_run;
    std::int64_t m_begin;
    std::int64_t m_end;
    const NameRoles& m_roles;
    const std::vector<OpRange>* m_ops; // a view's ranges; nullptr: every op
    RunGraph m_g;
    // The graph's nodes as it builds them: their facts (this graph's own
    // until it is copied) and their states.
    std::vector<GraphNode>& m_nodes = m_g.nodes.edit();
    std::vector<NodeState>& m_state = m_g.state;
    std::vector<std::uint32_t> m_gpu;                     // GPU nodes
    std::vector<std::vector<std::uint32_t>> m_hostLanes;  // per host lane, the kept nodes in order
    std::map<int, std::vector<std::uint32_t>> m_streams;  // per stream lane, its nodes in order
    std::map<int, std::vector<std::int64_t>> m_leastEnqueueFrom; // see indexEnqueues
    // Per node, the latest time an edge into its begin allows it
    // (addEdge), until inferUnexplainedWaits takes it.
    std::vector<std::int64_t> m_explained;
};

} // namespace

const char* toString(EdgeKind kind)
{
    switch (kind) {
    case EdgeKind::StreamOrder: return "stream order";
    case EdgeKind::Launch: return "launch";
    case EdgeKind::HostOrder: return "host order";
    case EdgeKind::Blocking: return "blocking";
    case EdgeKind::CrossStream: return "cross-stream";
    case EdgeKind::Inferred: return "inferred";
    case EdgeKind::HandOff: return "hand-off";
    }
    return "?";
}

bool isLegacyStream(const Lane& lane)
{
    // Every reader fills the lane's stream kind (an old native trace's from
    // its lane name, once, as it is read: streamKindWithout).
    return lane.kind == LaneKind::Stream && lane.streamKind == StreamKind::LegacyDefault;
}

GraphBuild buildRunGraph(const Run& run, std::int64_t beginNs, std::int64_t endNs, const NameRoles* roles,
                         const std::vector<OpRange>* ops, const std::function<void(RunGraph&)>& meanwhile)
{
    if (roles)
        return Builder(run, beginNs, endNs, *roles, ops).build(meanwhile);
    const NameRoles own(run.names);
    return Builder(run, beginNs, endNs, own, ops).build(meanwhile);
}

int numberChunks(RunGraph& g, const std::map<int, std::vector<std::uint32_t>>& streams, int first)
{
    struct Local {
        std::int64_t firstBegin;
        std::uint32_t made; // its place in the order made, to find its number
    };
    // Each unnumbered node and the local chunk it falls in: a flat list, not
    // a map of lists (a node per chunk of a big trace allocated for each).
    std::vector<Local> locals;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> members; // (node, local)
    for (const auto& [lane, nodes] : streams) {
        bool any = false;
        OpKind prev = OpKind::Kernel;
        for (std::uint32_t n : nodes) {
            const GraphNode& node = g.nodes[n];
            if (g.state[n].chunk >= 0)
                continue;
            if (!any || (node.kind == OpKind::Upload && prev != OpKind::Upload)) {
                any = true;
                locals.push_back({node.measuredBeginNs, static_cast<std::uint32_t>(locals.size())});
            }
            prev = node.kind;
            members.emplace_back(n, static_cast<std::uint32_t>(locals.size() - 1));
        }
    }
    // Numbered in the order they began (the sort's order among equal begins
    // depends only on the begins, as before `made` was carried).
    std::sort(locals.begin(), locals.end(), [](const Local& a, const Local& b) { return a.firstBegin < b.firstBegin; });
    std::vector<int> numberOf(locals.size());
    for (std::size_t i = 0; i < locals.size(); ++i)
        numberOf[locals[i].made] = first + static_cast<int>(i);
    for (const auto& [n, local] : members)
        g.state[n].chunk = numberOf[local];
    return first + static_cast<int>(locals.size());
}

GraphBuild buildRunGraph(const Run& run)
{
    return buildRunGraph(run, run.timedBeginNs, run.timedEndNs);
}

} // namespace ovs
