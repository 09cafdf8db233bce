#include "replay/FixTransforms.h"

#include "base/Thresholds.h"
#include "replay/RunGraphBuilder.h"
#include "base/Saturating.h"
#include "base/SortedRuns.h"

#include <algorithm>
#include <tuple>
#include <iterator>
#include <map>

namespace ovs {

namespace {

// A per-node std::set insert cost a few percent of a gigabyte trace's
// what-if: values are gathered, then sorted once.
void sortUnique(std::vector<int>& values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

// Calls that now return as soon as they have enqueued their work.
void makeAsync(RunGraph& g, const std::vector<std::uint32_t>& calls)
{
    std::vector<bool> now(g.nodes.size(), false);
    for (std::uint32_t call : calls) {
        g.state[call].role = CallRole::Launch;
        g.state[call].durationNs = g.asyncCallNs;
        now[call] = true;
    }
    g.edges.eraseIf([&](const GraphEdge& e) { return now[e.to] && e.kind == EdgeKind::Blocking; });
}

// Each lane's GPU nodes, in node order. Nodes come lane by lane (a fix
// moves some): the lane's list is looked up where the lane changes, not per
// node (a map lookup per node was a fifth of a stream fix on 3.6 M nodes).
std::map<int, std::vector<std::uint32_t>> gpuNodesByLane(const RunGraph& g)
{
    std::map<int, std::vector<std::uint32_t>> byLane;
    std::vector<std::uint32_t>* list = nullptr;
    int listLane = -1;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
        if (!g.nodes[n].gpu)
            continue;
        if (const int lane = g.state[n].lane; lane != listLane) {
            listLane = lane;
            list = &byLane[listLane];
        }
        list->push_back(n);
    }
    return byLane;
}

// Stream order again from each GPU node's lane, in the order the host
// enqueued them: after a fix moved nodes between streams. Returns each
// lane's GPU nodes in that order.
std::map<int, std::vector<std::uint32_t>> reorderStreams(RunGraph& g)
{
    g.edges.eraseIf([](const GraphEdge& e) { return e.kind == EdgeKind::StreamOrder; });
    std::map<int, std::vector<std::uint32_t>> byLane = gpuNodesByLane(g);
    // Sorted by keys read once per node (a comparator that looks each one up
    // through its call is most of this on a million nodes): when enqueued,
    // then when it began (a prefetch shares its kernel's call and times: it
    // goes first), then the node's own order.
    struct Key {
        std::int64_t enqueued, begin;
        bool notAdded;
        std::uint32_t node;
        bool operator<(const Key& o) const
        {
            return std::tie(enqueued, begin, notAdded, node) < std::tie(o.enqueued, o.begin, o.notAdded, o.node);
        }
    };
    const auto keyOf = [&](std::uint32_t n) -> Key {
        return {enqueuedAt(g, g.nodes[n]), g.nodes[n].measuredBeginNs, !g.nodes[n].added, n};
    };
    std::vector<Key> keys;
    for (auto& [lane, nodes] : byLane) {
        // Most lanes come in that order already: checked on the fly, with
        // no array of keys (24 bytes a node: a stream of a million).
        bool sorted = true;
        if (!nodes.empty()) {
            Key before = keyOf(nodes[0]);
            for (std::size_t i = 1; i < nodes.size() && sorted; ++i) {
                const Key key = keyOf(nodes[i]);
                sorted = !(key < before);
                before = key;
            }
        }
        if (!sorted) {
            keys.clear();
            for (std::uint32_t n : nodes)
                keys.push_back(keyOf(n));
            std::sort(keys.begin(), keys.end());
            for (std::size_t i = 0; i < keys.size(); ++i)
                nodes[i] = keys[i].node;
        }
        for (std::size_t i = 1; i < nodes.size(); ++i)
            g.edges.push_back({nodes[i - 1], nodes[i], EdgeKind::StreamOrder, true, false, g.dependencyLatencyNs});
    }
    return byLane;
}

// Edges of the legacy stream's barriers (named or inferred) that touch
// `moved` (per node: a vector, since a graph has a million edges to look up).
void dropBarriersOf(RunGraph& g, const std::vector<bool>& moved)
{
    g.edges.eraseIf([&](const GraphEdge& e) {
        return (e.kind == EdgeKind::CrossStream || e.kind == EdgeKind::Inferred) && (moved[e.from] || moved[e.to]);
    });
}

// Host order on each thread: the node before each host node, and after.
struct ThreadOrder {
    std::vector<std::uint32_t> prev, next;
};
ThreadOrder threadOrder(const RunGraph& g)
{
    ThreadOrder t{std::vector<std::uint32_t>(g.nodes.size(), UINT32_MAX),
                  std::vector<std::uint32_t>(g.nodes.size(), UINT32_MAX)};
    for (const GraphEdge& e : g.edges)
        if (e.kind == EdgeKind::HostOrder) {
            t.next[e.from] = e.to;
            t.prev[e.to] = e.from;
        }
    return t;
}

// When the GPU work was enqueued: the first and the last of it.
struct EnqueueSpan {
    std::int64_t first = INT64_MAX;
    std::int64_t last = INT64_MIN;
    // A GPU node's enqueue counted in.
    void add(const RunGraph& g, const GraphNode& gpu)
    {
        const std::int64_t at = enqueuedAt(g, gpu);
        first = std::min(first, at);
        last = std::max(last, at);
    }
};
EnqueueSpan enqueueSpan(const RunGraph& g)
{
    EnqueueSpan s;
    for (const GraphNode& n : g.nodes)
        if (n.gpu)
            s.add(g, n);
    return s;
}

// GPU work enqueued both before the host node began and after it ended:
// the node is inside the loop, not setup or teardown.
bool insideLoop(const EnqueueSpan& s, const GraphNode& host)
{
    return s.first < host.measuredBeginNs && s.last >= host.measuredEndNs;
}

bool pinHostMemory(RunGraph& g, const FixRates& rates)
{
    std::vector<bool> pinned(g.nodes.size(), false);
    bool changed = false;
    // cudaMemcpyAsync from pinned memory returns at once; cudaMemcpy still
    // waits, for a faster copy.
    std::vector<std::uint32_t> calls;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& node = g.nodes[n];
        NodeState& state = g.state[n];
        if (!node.gpu || state.memory != HostMemoryKind::Pageable
            || (node.kind != OpKind::Upload && node.kind != OpKind::Download))
            continue;
        const double rate = node.kind == OpKind::Upload ? rates.pinnedH2DGBps : rates.pinnedD2HGBps;
        if (rate <= 0)
            continue;
        state.durationNs = std::min(state.durationNs, saturatingCast<std::int64_t>(static_cast<double>(node.bytes) / rate));
        state.memory = HostMemoryKind::Pinned;
        pinned[n] = changed = true;
        // Every call of a pinned copy loses its staging time (an upload's
        // call may return before its copy ends and still have staged for
        // long). A duration only ever goes down to a bound here and below:
        // the order of the bounds does not matter.
        if (node.call != UINT32_MAX) {
            NodeState& call = g.state[node.call];
            call.durationNs = std::min(call.durationNs, g.asyncCallNs);
            if (g.nodes[node.call].async && call.role == CallRole::SyncCopy)
                calls.push_back(node.call);
        }
    }
    // The staging the calling thread did before the copy (uploads) and after
    // it (downloads) is gone: the copy starts a launch latency after its
    // call, and a call that waits for it returns as a pinned copy's would.
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        GraphEdge e = g.edges[i];
        if (pinned[e.to] && e.kind == EdgeKind::Launch)
            e.lagNs = std::min<std::int64_t>(e.lagNs, g.launchLatencyNs);
        if (pinned[e.from] && e.kind == EdgeKind::Blocking) {
            e.lagNs = std::min<std::int64_t>(e.lagNs, g.asyncCallNs);
            g.state[e.to].durationNs = std::min(g.state[e.to].durationNs, g.asyncCallNs);
        }
        g.edges.set(i, e);
    }
    makeAsync(g, calls);
    return changed;
}

// The stream of the kernel launched nearest to `call` on its thread: the
// next one for an upload (its data feeds it), the previous one otherwise.
int streamAround(const RunGraph& g, const ThreadOrder& order, std::uint32_t call, bool forward)
{
    for (int pass = 0; pass < 2; ++pass) {
        const bool ahead = pass == 0 ? forward : !forward;
        for (std::uint32_t n = (ahead ? order.next : order.prev)[call]; n != UINT32_MAX;
             n = (ahead ? order.next : order.prev)[n]) {
            const GraphNode& h = g.nodes[n];
            if (h.call != UINT32_MAX && g.nodes[h.call].kind == OpKind::Kernel)
                return g.state[h.call].lane;
        }
    }
    return -1;
}

bool asyncCopies(RunGraph& g, FixSet fixes)
{
    const ThreadOrder order = threadOrder(g);
    std::vector<bool> moved(g.nodes.size(), false);
    bool anyMoved = false;
    std::vector<std::uint32_t> calls;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& call = g.nodes[n];
        if (g.state[n].role != CallRole::SyncCopy || call.async || call.call == UINT32_MAX)
            continue;
        NodeState& gpu = g.state[call.call];
        // An async copy of pageable memory still blocks: only with pinning.
        if (gpu.memory == HostMemoryKind::Pageable && !has(fixes, Fix::PinHostMemory))
            continue;
        const int lane = streamAround(g, order, n, g.nodes[call.call].kind == OpKind::Upload);
        if (lane >= 0 && lane != gpu.lane) {
            gpu.lane = static_cast<std::uint16_t>(lane);
            moved[call.call] = anyMoved = true;
        }
        calls.push_back(n);
    }
    makeAsync(g, calls);
    if (anyMoved) {
        dropBarriersOf(g, moved);
        auto streams = reorderStreams(g);
        // Inferred chunks of a stream that now holds the copies beside its
        // kernels are inferred again from the whole: a stream of kernels
        // alone was one chunk, and a stream per chunk would then have kept
        // every kernel on one stream, apart from its copies.
        if (g.chunksInferred) {
            std::vector<bool> gained(g.lanes.size(), false);
            int next = 0;
            for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
                if (moved[n])
                    gained[g.state[n].lane] = true;
                next = std::max(next, g.state[n].chunk + 1);
            }
            std::erase_if(streams, [&](const auto& lane) { return !gained[static_cast<std::size_t>(lane.first)]; });
            for (const auto& [lane, nodes] : streams)
                for (std::uint32_t n : nodes)
                    g.state[n].chunk = -1;
            numberChunks(g, streams, next);
        }
    }
    return !calls.empty();
}

// Each host wait per chunk now waits for what the wait `depth` waits
// earlier on its thread waited for: the chunk whose buffers the next chunk
// reuses (depth: the streams in use, at least two).
bool removeHostSync(RunGraph& g)
{
    // One pass over the nodes (a graph of millions is read once, not three
    // times): the GPU's lanes, when its work was enqueued, and the waits.
    // Nodes come lane by lane: a lane is listed where it changes, not per node.
    std::vector<int> lanes;
    EnqueueSpan span;
    std::vector<std::uint32_t> syncCalls;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& node = g.nodes[n];
        if (node.gpu) {
            if (lanes.empty() || lanes.back() != g.state[n].lane)
                lanes.push_back(g.state[n].lane);
            span.add(g, node);
        }
        if (g.state[n].role == CallRole::Sync)
            syncCalls.push_back(n);
    }
    sortUnique(lanes);
    const std::size_t depth = std::max<std::size_t>(2, lanes.size());
    std::map<int, std::vector<std::uint32_t>> syncsByThread;
    for (const std::uint32_t n : syncCalls)
        if (insideLoop(span, g.nodes[n]))
            syncsByThread[g.state[n].lane].push_back(n);
    bool changed = false;
    // Each wait's place among its thread's, by node: one array over the
    // graph's nodes (a search per blocking edge was a sixth of this on a
    // big graph), cleared after each thread.
    std::vector<std::uint32_t> placeOfNode;
    for (auto& [thread, syncs] : syncsByThread) {
        if (static_cast<int>(syncs.size()) < thresholds::kMinRepeats)
            continue;
        // Gathered in node order: the thread's own time order, nearly always.
        sortSortedRuns(syncs, [&](std::uint32_t a, std::uint32_t b) {
            return g.nodes[a].measuredBeginNs < g.nodes[b].measuredBeginNs;
        });
        // Each step's last wait stays where it is (RunGraph::steps): the
        // last wait beginning before the step's end, by binary search (this
        // runs for every fix set replayed, over every step).
        std::vector<bool> keep(syncs.size(), false);
        for (const Interval& step : g.steps) {
            const auto after = std::partition_point(syncs.begin(), syncs.end(), [&](std::uint32_t n) {
                return g.nodes[n].measuredBeginNs < step.endNs;
            });
            if (after != syncs.begin() && g.nodes[*std::prev(after)].measuredBeginNs >= step.beginNs)
                keep[static_cast<std::size_t>(std::prev(after) - syncs.begin())] = true;
        }
        std::vector<std::uint32_t> moved;
        for (std::size_t i = 0; i < syncs.size(); ++i)
            if (!keep[i])
                moved.push_back(syncs[i]);
        syncs = std::move(moved);
        if (static_cast<int>(syncs.size()) < thresholds::kMinRepeats)
            continue;
        placeOfNode.resize(g.nodes.size(), UINT32_MAX);
        for (std::size_t i = 0; i < syncs.size(); ++i)
            placeOfNode[syncs[i]] = static_cast<std::uint32_t>(i);
        // Each moved wait's edges, gathered as they are erased: one pass
        // over the graph's millions of edges, not two.
        std::vector<std::vector<GraphEdge>> waits(syncs.size());
        g.edges.eraseIf([&](const GraphEdge& e) {
            if (e.kind != EdgeKind::Blocking || placeOfNode[e.to] == UINT32_MAX)
                return false;
            waits[placeOfNode[e.to]].push_back(e);
            return true;
        });
        for (const std::uint32_t n : syncs)
            placeOfNode[n] = UINT32_MAX;
        for (std::size_t i = 0; i < syncs.size(); ++i) {
            if (i >= depth)
                for (GraphEdge e : waits[i - depth]) {
                    e.to = syncs[i];
                    g.edges.push_back(e);
                }
        }
        changed = true;
    }
    return changed;
}

bool nonBlockingStreams(RunGraph& g)
{
    std::vector<bool> legacy(g.nodes.size(), false);
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].gpu && g.state[n].lane < g.lanes.size() && isLegacyStream(g.lanes[g.state[n].lane]))
            legacy[n] = true;
    const std::size_t before = g.edges.size();
    dropBarriersOf(g, legacy);
    return g.edges.size() != before;
}

// One stream carrying copies and kernels for several chunks: chunk j of it
// goes to stream j mod N (the first being the stream itself, the others new
// non-blocking streams), so chunk j and j-N still share a stream, and with it
// their buffers.
bool streamPerChunk(RunGraph& g)
{
    const std::map<int, std::vector<std::uint32_t>> byLane = gpuNodesByLane(g);
    std::vector<bool> moved(g.nodes.size(), false);
    bool anyMoved = false;
    for (const auto& [lane, nodes] : byLane) {
        std::vector<int> chunks;
        bool copies = false, kernels = false;
        for (std::uint32_t n : nodes) {
            if (chunks.empty() || chunks.back() != g.state[n].chunk)
                chunks.push_back(g.state[n].chunk);
            copies = copies || g.nodes[n].kind == OpKind::Upload || g.nodes[n].kind == OpKind::Download;
            kernels = kernels || g.nodes[n].kind == OpKind::Kernel;
        }
        sortUnique(chunks); // a chunk's place on this stream is its rank here
        if (!copies || !kernels || static_cast<int>(chunks.size()) < thresholds::kMinRepeats)
            continue;
        std::vector<int> newLane(thresholds::kWhatIfStreams, lane);
        for (int k = 1; k < thresholds::kWhatIfStreams; ++k) {
            Lane l = g.lanes[static_cast<std::size_t>(lane)];
            l.name += " \u00b7 what-if stream " + std::to_string(k + 1);
            l.streamKind = StreamKind::NonBlocking;
            newLane[static_cast<std::size_t>(k)] = static_cast<int>(g.lanes.size());
            g.lanes.push_back(std::move(l));
        }
        // A chunk's nodes come together: its place is searched once per run of them.
        int placed = 0;
        std::ptrdiff_t place = -1;
        for (std::uint32_t n : nodes) {
            if (place < 0 || g.state[n].chunk != placed) {
                placed = g.state[n].chunk;
                place = std::lower_bound(chunks.begin(), chunks.end(), placed) - chunks.begin();
            }
            const int k = static_cast<int>(place % thresholds::kWhatIfStreams);
            if (k != 0) {
                g.state[n].lane = static_cast<std::uint16_t>(newLane[static_cast<std::size_t>(k)]);
                moved[n] = anyMoved = true;
            }
        }
    }
    if (!anyMoved)
        return false;
    dropBarriersOf(g, moved);
    reorderStreams(g);
    return true;
}

bool hoistAllocations(RunGraph& g)
{
    bool changed = false;
    const EnqueueSpan span = enqueueSpan(g);
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
        if (NodeState& s = g.state[n]; !g.nodes[n].gpu && s.role == CallRole::Alloc && insideLoop(span, g.nodes[n]))
            s.removed = changed = true;
    g.edges.eraseIf([&](const GraphEdge& e) { return g.state[e.to].removed && e.kind == EdgeKind::Blocking; });
    return changed;
}

// A prefetch of `bytes` for `kernel` at `gbps`, to the GPU (Upload) or back
// to the host (Download): a GPU node on the kernel's stream, enqueued by its
// launch call.
struct Prefetch {
    GraphNode facts;
    NodeState state;
};
Prefetch prefetchFor(const GraphNode& kernel, const NodeState& kernelState, OpKind kind, std::uint64_t bytes, double gbps)
{
    Prefetch out{kernel, kernelState};
    GraphNode& prefetch = out.facts;
    prefetch.kind = kind;
    prefetch.engine = kind == OpKind::Upload ? EngineClass::CopyH2D : EngineClass::CopyD2H;
    prefetch.setBytes(bytes);
    out.state.memory = HostMemoryKind::Managed;
    out.state.durationNs = saturatingCast<std::int64_t>(static_cast<double>(bytes) / gbps);
    // Where a later fix orders its stream again (reorderStreams: by call,
    // then measured begin), the one in goes before the kernel and the one
    // back after it.
    if (kind == OpKind::Download)
        prefetch.measuredBeginNs = prefetch.measuredEndNs = kernel.measuredEndNs;
    prefetch.added = true;
    return out;
}

// Each kernel that faulted managed memory in loses its stall (its pages are
// on the GPU when it starts), and a prefetch of the bytes it faulted in runs
// before it on its stream, at the pinned rate (a bulk migration moves as a
// pinned copy does: 50 GB/s measured on the H200), enqueued with it: on the
// copy engine, where it overlaps the kernels of other streams. Where the
// host read the pages back, a prefetch back follows the kernel.
bool prefetchManaged(RunGraph& g, const FixRates& rates)
{
    if (rates.pinnedH2DGBps <= 0)
        return false;
    const std::size_t before = g.nodes.size();
    std::vector<std::uint32_t> in(before, UINT32_MAX), back(before, UINT32_MAX);
    for (KernelFault& fault : g.faults) {
        const std::uint32_t k = fault.node;
        if (k >= before || !g.nodes[k].gpu || g.nodes[k].kind != OpKind::Kernel || fault.stallNs <= 0)
            continue;
        // Copies: adding a node may move the graph's arrays.
        const GraphNode kernel = g.nodes[k];
        const NodeState kernelAsMeasured = g.state[k];
        g.state[k].durationNs = std::max<std::int64_t>(0, kernelAsMeasured.durationNs - fault.stallNs);
        fault.stallNs = 0; // taken out: the fix applied again changes nothing
        const Prefetch first = prefetchFor(kernel, kernelAsMeasured, OpKind::Upload, fault.bytes, rates.pinnedH2DGBps);
        in[k] = g.addNode(first.facts, first.state);
        if (fault.bytesBack > 0 && rates.pinnedD2HGBps > 0) {
            const Prefetch then =
                prefetchFor(kernel, kernelAsMeasured, OpKind::Download, fault.bytesBack, rates.pinnedD2HGBps);
            back[k] = g.addNode(then.facts, then.state);
        }
    }
    if (g.nodes.size() == before)
        return false;
    // What led to the kernel on its stream now leads to its prefetch in, and
    // what followed it follows its prefetch back; the call that enqueued the
    // kernel enqueues the prefetches too.
    std::vector<GraphEdge> added;
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        // Changed on a copy, kept where it differs (GraphEdges::set).
        GraphEdge e = g.edges[i];
        if (e.kind == EdgeKind::StreamOrder && e.from < before && back[e.from] != UINT32_MAX)
            e.from = back[e.from];
        if (e.to < before && in[e.to] != UINT32_MAX) {
            // A wait inferred from a faulting kernel's late begin was the
            // fault handling of the kernels before it, which is gone: the
            // order stays, the time it waited does not.
            if (e.kind == EdgeKind::Inferred)
                e.lagNs = 0;
            if (e.kind == EdgeKind::StreamOrder) {
                e.to = in[e.to];
            } else if (e.kind == EdgeKind::Launch) {
                // The kernel no longer queues behind stalled ones: its call
                // launches it, and its prefetches, at the idle stream's latency.
                e.lagNs = std::min<std::int64_t>(e.lagNs, g.idleLaunchLatencyNs);
                for (const std::uint32_t prefetch : {in[e.to], back[e.to]})
                    if (prefetch != UINT32_MAX) {
                        GraphEdge launch = e;
                        launch.to = prefetch;
                        added.push_back(launch);
                    }
            }
        }
        g.edges.set(i, e);
    }
    for (std::uint32_t k = 0; k < before; ++k) {
        if (in[k] != UINT32_MAX)
            added.push_back({in[k], k, EdgeKind::StreamOrder, true, false, 0});
        if (back[k] != UINT32_MAX)
            added.push_back({k, back[k], EdgeKind::StreamOrder, true, false, 0});
    }
    g.edges.append(added.begin(), added.end());
    g.gpuNodes += static_cast<int>(g.nodes.size() - before);
    return true;
}

} // namespace

RunGraph applyFixes(const RunGraph& graph, FixSet fixes, const FixRates& rates, FixSet* applied)
{
    RunGraph g = graph;
    const FixSet done = applyFixesInPlace(g, fixes, rates);
    if (applied)
        *applied = done;
    return g;
}

FixSet applyFixesInPlace(RunGraph& g, FixSet fixes, const FixRates& rates)
{
    FixSet done = 0;
    // Order matters where fixes meet (kFixOrder): prefetches first (they go
    // with their kernels wherever a later fix moves them: a stream per
    // chunk moves both, by the kernel's chunk), pinning before the async
    // copies (an async copy of pageable memory still blocks), moving copies
    // to streams before splitting streams by chunk.
    for (const Fix f : kFixOrder) {
        if (!has(fixes, f))
            continue;
        bool changed = false;
        switch (f) {
        case Fix::PrefetchManaged: changed = prefetchManaged(g, rates); break;
        case Fix::PinHostMemory: changed = pinHostMemory(g, rates); break;
        case Fix::HoistAllocations: changed = hoistAllocations(g); break;
        case Fix::AsyncCopies: changed = asyncCopies(g, fixes); break;
        case Fix::NonBlockingStreams: changed = nonBlockingStreams(g); break;
        case Fix::StreamPerChunk: changed = streamPerChunk(g); break;
        case Fix::RemoveHostSync: changed = removeHostSync(g); break;
        }
        done |= changed ? fixBit(f) : 0;
    }
    return done;
}

bool appliesAfter(FixSet applied, FixSet added)
{
    if ((applied & added) != 0 || has(applied | added, Fix::AsyncCopies))
        return false;
    bool seenAdded = false;
    for (const Fix f : kFixOrder) {
        if (has(added, f))
            seenAdded = true;
        else if (has(applied, f) && seenAdded)
            return false; // a fix applied comes after one added
    }
    return true;
}

} // namespace ovs
