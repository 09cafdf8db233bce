#pragma once

// A graph as it was before fixes were applied to it, to put it back after:
// the what-if replays each fix set by editing one graph and putting it back
// (WhatIf::replayWith), not on a fresh copy of the graph per set. A big
// trace's graph is hundreds of megabytes; this keeps about half of it.
//
// What a fix may change (FixTransforms.cpp) is what is kept: each node's
// duration, chunk, lane, role, memory and removed flag; the edges; the
// graph's model (GraphModel: lanes and faults a fix adds, counts, words).
// What was measured of a node and the contention model's kernel fill are
// never edited by a fix, so they are not kept twice; nodes a fix adds
// (prefetches) go. tst_replay's storedTracesReplay applies every fix to
// every stored trace's graph and checks that the restore gives back the
// graph field by field.

#include "replay/RunGraph.h"

#include <vector>

namespace ovs {

class GraphRestorePoint {
public:
    // Reads `graph` only: another thread may copy it meanwhile.
    explicit GraphRestorePoint(const RunGraph& graph);
    // Of a graph's nodes and edges alone, its model to be kept later
    // (keepModel): made ahead on another thread, while this one may still
    // set the graph's faults or steps.
    GraphRestorePoint(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges);
    // `graph`'s model as it is now: its faults or steps may have been set
    // since the point was made (nothing else of a graph changes but by a fix).
    void keepModel(const RunGraph& graph) { m_model = graph; }
    // `graph` (the one this was made from, or a copy of it, since edited by
    // fixes) as it was; its arrays keep their memory.
    void restore(RunGraph& graph) const;

private:
    // 16 bytes: a big graph has millions of nodes.
    struct NodeState {
        std::int64_t durationNs;
        std::int32_t chunk;
        std::uint16_t lane;
        std::uint8_t role : 3;   // CallRole
        std::uint8_t memory : 4; // HostMemoryKind
        std::uint8_t removed : 1;
    };
    static_assert(static_cast<int>(CallRole::Alloc) < 8 && static_cast<int>(HostMemoryKind::Device) < 16,
                  "NodeState's bits hold every role and memory kind");
    static_assert(sizeof(NodeState) == 16, "a restore point keeps a few fields per node, not the node");
    std::vector<NodeState> m_nodes;
    std::vector<GraphEdge> m_edges;
    GraphModel m_model;
};

} // namespace ovs
