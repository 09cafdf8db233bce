#pragma once

// A graph as it was before fixes were applied to it, to put it back after:
// the what-if replays each fix set by editing one graph and putting it back
// (WhatIf::replayWith), not on a fresh copy of the graph per set. A big
// trace's graph is hundreds of megabytes; this keeps a small part of it.
//
// What a fix may change (FixTransforms.cpp) is what is kept: each node's
// state (NodeState: duration, chunk, lane, role, memory, removed flag; a
// duration only where it is not the node's measured time); the
// edges' order and the graph's own edges (the edges as built are shared:
// GraphEdges.h; where the graph holds them as built, only that is kept);
// the graph's model (GraphModel: lanes and faults a fix adds, counts,
// words). The nodes' facts are never edited by a fix: the point
// shares them (GraphNodes), and the graph gets them back as they were
// (without the nodes a fix added, prefetches). The contention model's
// kernel fill is never edited either. tst_replay's storedTracesReplay
// applies every fix to every stored trace's graph and checks that the
// restore gives back the graph field by field.

#include "replay/RunGraph.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ovs {

class GraphRestorePoint {
public:
    // Reads `graph` only: another thread may copy it meanwhile.
    explicit GraphRestorePoint(const RunGraph& graph);
    // Of a graph's nodes and edges alone, its model to be kept later
    // (keepModel): made ahead on another thread, while this one may still
    // set the graph's faults or steps.
    GraphRestorePoint(const GraphNodes& nodes, const std::vector<NodeState>& state,
                      const GraphEdges& edges);
    // `graph`'s model as it is now: its faults or steps may have been set
    // since the point was made (nothing else of a graph changes but by a fix).
    void keepModel(const RunGraph& graph) { m_model = graph; }
    // `graph` (the one this was made from, or a copy of it, since edited by
    // fixes) as it was; its arrays keep their memory.
    void restore(RunGraph& graph) const;

private:
    // Each node's state but its duration: 8 bytes of NodeState's 16. Its
    // fields are read from a state and written back side by side here: a
    // field NodeState gains is kept by adding it to both.
    struct Kept {
        std::int32_t chunk = -1;
        std::uint16_t lane = 0;
        CallRole role : 3 = CallRole::Work;
        HostMemoryKind memory : 4 = HostMemoryKind::None;
        bool removed : 1 = false;
        static Kept of(const NodeState& s)
        {
            Kept k;
            k.chunk = s.chunk;
            k.lane = s.lane;
            k.role = s.role;
            k.memory = s.memory;
            k.removed = s.removed;
            return k;
        }
        void into(NodeState& s) const
        {
            s.chunk = chunk;
            s.lane = lane;
            s.role = role;
            s.memory = memory;
            s.removed = removed;
        }
    };
    static_assert(sizeof(Kept) == 8, "a restore point keeps 8 bytes a node: see m_kept");
    GraphNodes m_nodes;
    // The nodes' states. A node's duration is its measured time
    // (measuredDurationNs) but where the contention model took a rival's
    // slowdown out of it (Contention.h): a few in a hundred of a big
    // trace's nodes. Those are kept by node, rising; the rest comes back
    // from the nodes' facts: 57 -> 31 MB for the 2 GB Kineto trace's graph.
    std::vector<Kept> m_kept;
    std::vector<std::pair<std::uint32_t, std::int64_t>> m_durations;
    // Where the graph's edges are those it was built with (a what-if's
    // point is made from the graph as built), only their base is kept and
    // their order is made again: 22 MB fewer for the 2 GB trace's graph.
    bool m_edgesAsBuilt = false;
    GraphEdges m_edges; // baseOnly() where m_edgesAsBuilt
    GraphModel m_model;
};

} // namespace ovs
