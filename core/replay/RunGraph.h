#pragma once

// One graph of a run, built once (RunGraphBuilder): every op of the judged
// span as a node with its measured times and how long it holds its resource,
// and what it waited for as edges. The replay (Replay.h) schedules it on a
// model of the device's engines; the fixes (FixTransforms.h) are edits of it.
//
// Times are points: a node's begin and its end. An edge says "this point is
// no earlier than that point plus a lag". A node's own begin -> end is its
// duration; a GPU node's begin also waits for a free engine of its class.

#include "base/HostMemoryKind.h"
#include "replay/GraphEdges.h"
#include "trace/Op.h"
#include "facts/IntervalSet.h"
#include "trace/Run.h"
#include "base/Saturating.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ovs {

// What a host op does, as far as waiting goes.
enum class CallRole : std::uint8_t {
    Work,     // host work that waits for nothing on the GPU (staging memcpy, an untraced call)
    Launch,   // enqueues a kernel or an async copy or memset: returns at once
    SyncCopy, // a copy or memset that returns only after its GPU op ended (cudaMemcpy, or pageable cudaMemcpyAsync)
    Sync,     // waits for GPU work: device, stream or event synchronize, our pipelines' waits
    Alloc,    // allocation, free or registration (may wait for the device: cudaFree does)
};

// Which engine a GPU node needs.
enum class EngineClass : std::uint8_t { None, CopyH2D, CopyD2H, CopyDtoD, Compute };

// A node's facts: what was measured of its op and what the graph's build
// decided of it, which no fix edits (what a fix may change is its
// NodeState). 32 bytes: a big profile's graph holds millions, and a graph's
// copies (the second replay thread's, a restore point) share them
// (GraphNodes). What few kernels fault on managed memory is kept apart, in
// RunGraph::faults.
struct GraphNode {
    // A copy's bytes fit 48 bits (256 TiB); more is held as this (setBytes).
    static constexpr std::uint64_t kMaxBytes = (std::uint64_t{1} << 48) - 1;
    std::uint32_t op = 0;      // index into Run::ops
    std::uint32_t call = UINT32_MAX;  // GPU node: the host node that enqueued it; host node: its GPU node
    std::int64_t measuredBeginNs = 0; // engine-true for GPU ops where known
    std::int64_t measuredEndNs = 0;
    std::uint64_t bytes : 48 = 0;     // set by setBytes
    OpKind kind : 8 = OpKind::Upload;
    bool gpu : 1 = false;
    EngineClass engine : 3 = EngineClass::None;
    bool async : 1 = false;           // a Launch/SyncCopy call named ...Async
    // A fix added it (a prefetch): `op` is the op it was added for, and
    // kind and bytes are its own (its memory too, in its state).
    bool added : 1 = false;
    void setBytes(std::uint64_t b) { bytes = b < kMaxBytes ? b : kMaxBytes; }
    bool operator==(const GraphNode&) const = default;
};
static_assert(sizeof(GraphNode) == 32, "GraphNode is kept compact: see above");

// A node's own time as measured: its duration as built, before the
// contention model takes a rival's slowdown out of it (Contention.h).
inline std::int64_t measuredDurationNs(const GraphNode& n)
{
    return saturatingSub(n.measuredEndNs, n.measuredBeginNs);
}

// What a fix may change of a node: all a graph's copy or restore point
// (GraphRestorePoint.h) keeps of it apart from the shared facts. 16 bytes.
struct NodeState {
    std::int64_t durationNs = 0;      // begin -> end in the replay: the node's own time (see RunGraphBuilder)
    std::int32_t chunk = -1;          // the repeating group of GPU work it belongs to (GPU nodes); -1: none
    std::uint16_t lane = 0;    // Run::lanes index; a fix may move a GPU node to another stream
    CallRole role : 3 = CallRole::Work;
    HostMemoryKind memory : 4 = HostMemoryKind::None;
    bool removed : 1 = false;         // a fix took it out (its edges stay; it takes no time)
};
static_assert(static_cast<int>(CallRole::Alloc) < 8 && static_cast<int>(HostMemoryKind::Device) < 16,
              "NodeState's bits hold every role and memory kind");
static_assert(sizeof(NodeState) == 16, "NodeState is kept compact: see above");

// An array a graph shares with its copies, which no fix edits: copying a
// graph (for the second replay thread) or keeping a restore point copies
// only a pointer. A graph that adds to it (a fix's prefetches) first takes a
// copy of its own where another graph shares it (edit()).
template <class T>
class SharedArray {
public:
    const T& operator[](std::size_t i) const { return (*m_items)[i]; }
    std::size_t size() const { return m_items ? m_items->size() : 0; }
    bool empty() const { return size() == 0; }
    const T* data() const { return m_items ? m_items->data() : nullptr; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size(); }
    // This graph's array to write: its own (copied first where shared).
    // Only the graph's build (and its contention model), and a fix adding
    // nodes, write.
    std::vector<T>& edit()
    {
        // One owner: no other graph, and so no other thread, can read it.
        if (!m_items)
            m_items = std::make_shared<std::vector<T>>();
        else if (m_items.use_count() > 1)
            m_items = std::make_shared<std::vector<T>>(*m_items);
        return *m_items;
    }

private:
    std::shared_ptr<std::vector<T>> m_items;
};

// The nodes' facts of a graph, shared by its copies.
using GraphNodes = SharedArray<GraphNode>;

// A kernel that faulted on managed memory: its time under fault handling
// and on-demand migrations, and the bytes they moved to its GPU
// (findings/DemandMigrations.h). Fix::PrefetchManaged takes the stall out
// and moves the bytes in bulk before it.
struct KernelFault {
    std::uint32_t node = 0; // the kernel's node
    std::int64_t stallNs = 0;
    std::uint64_t bytes = 0;
    // The same bytes where the host reads them back after (it faulted pages
    // back): the fix prefetches them to the host after the kernel.
    std::uint64_t bytesBack = 0;
};

// What a graph says beside its nodes and edges: the device's engines and
// their contention, the latencies the replay adds, the run's steps and
// span, and how the graph was made. Apart from the arrays of the graph's
// size, so that a fix set's restore point (GraphRestorePoint.h) keeps it
// whole, as one copy, whatever is added to it.
struct GraphModel {
    std::vector<KernelFault> faults; // by node, rising
    // The lanes: the run's, plus any a fix adds (streams of a what-if).
    std::vector<Lane> lanes;
    int copyEngines = 2;       // per direction 1 each when >= 2; 1: one engine shared by both directions
    int kernelSlots = 1;       // kernels that may run at once: as many as the run itself ran
    // Contention (docs/what-if.md, "The engine model"): a GPU op's
    // durationNs is its lone time; while a rival runs beside it, it runs this
    // many times slower. Rivals: compute ops of each other; a copy over the
    // link (any but pageable, which staging binds) and one of the other
    // direction. 1: lone speed side by side. Set by calibrateContention
    // (Contention.h), which also takes the slowdown out of measured times.
    double kernelSlowdown = 1.0;
    double copySlowdown = 1.0;
    std::string contention; // the basis of each, in words
    std::int64_t launchLatencyNs = 0; // call begin -> earliest GPU begin
    // What a GPU op that waited for another (its stream's previous op, a
    // barrier) takes to begin after it ends: the lag of the edges a fix adds.
    std::int64_t dependencyLatencyNs = 0;
    // The same, of the GPU ops whose stream was idle when they were called
    // (RunGraphBuilder): what a fix that empties a queue of stalled ops
    // launches at (Fix::PrefetchManaged). At most launchLatencyNs.
    std::int64_t idleLaunchLatencyNs = 0;
    std::int64_t asyncCallNs = 0;     // what an async launch or copy call costs the host
    // How the graph was made: counts of inferred edges and of GPU ops with no
    // launch call, in words, for the reader who checks it.
    std::string notes;
    int gpuNodes = 0;
    int inferredEdges = 0;
    int handOffs = 0; // HandOff edges
    // Some GPU node's chunk was inferred (numberChunks), not the run's own.
    bool chunksInferred = false;
    int unlaunchedGpuNodes = 0; // GPU ops whose enqueueing call is unknown
    // Inferred waits dropped because they contradicted the others (they
    // made a cycle: GraphCycles.h), when the graph was built or a fix made one.
    int droppedWaits = 0;

    // The host spans of the run's steps (WhatIf::setSteps: each region
    // group's judged instances), where it has steps: removing the host
    // waits per chunk keeps each step's last wait on each thread, since a
    // step's results are used at its end (the fix says "synchronize once at
    // the end", and in a loop of steps that end is the step's).
    std::vector<Interval> steps;

    // The measured GPU active span: first GPU begin to last GPU end.
    std::int64_t measuredSpanBeginNs = 0;
    std::int64_t measuredSpanEndNs = 0;
    std::int64_t measuredSpanNs() const { return spanNs(measuredSpanBeginNs, measuredSpanEndNs); }
};

// The graph: a node per op of the judged span, an edge per wait, and the
// model they are replayed on.
struct RunGraph : GraphModel {
    GraphNodes nodes;
    std::vector<NodeState> state; // by node, beside its facts
    GraphEdges edges; // shared with the graph's copies as built (GraphEdges.h)
    // Adds a node (a fix's prefetch): its facts and its state; its index.
    std::uint32_t addNode(const GraphNode& facts, const NodeState& s)
    {
        nodes.edit().push_back(facts);
        state.push_back(s);
        return static_cast<std::uint32_t>(state.size() - 1);
    }
    // The launch-shape basis of kernels beside kernels (Contention.h), where
    // it is the basis: by node, the share of the GPU's block slots its
    // kernel fills (0 ... 1; 0 for a compute node without a shape, and for
    // nodes past the end, which a fix added). Compute nodes running together
    // then each run max(1, the sum of their shares) times slower, in place
    // of kernelSlowdown. Empty: kernelSlowdown holds.
    SharedArray<double> kernelFill;
};

// A copy whose rate the host-device link binds, so that it shares the link
// with a copy of the other direction: not a pageable one, which the host's
// staging binds.
inline bool usesLink(const GraphNode& n, const NodeState& s)
{
    return (n.engine == EngineClass::CopyH2D || n.engine == EngineClass::CopyD2H) && s.memory != HostMemoryKind::Pageable;
}

// When the host enqueued a GPU node: its call's begin, else (no call known)
// its own measured begin.
inline std::int64_t enqueuedAt(const RunGraph& g, const GraphNode& n)
{
    return n.call != UINT32_MAX ? g.nodes[n.call].measuredBeginNs : n.measuredBeginNs;
}

} // namespace ovs
