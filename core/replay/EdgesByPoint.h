#pragma once

// A graph's edges grouped by a point of each (a node's begin or its end):
// the point each leaves from, or the one it goes to, for the walks that
// take a graph point by point. The cycle break groups by point
// (EdgesByPoint); the replay, which keeps its grouping per thread, by node
// (EdgesOutOfNode).

#include "replay/RunGraph.h"

#include <cstdint>
#include <vector>

namespace ovs {

// Point 2n is node n's begin, 2n + 1 its end.
inline std::uint32_t pointOf(std::uint32_t node, bool end)
{
    return 2 * node + (end ? 1u : 0u);
}

enum class EdgeSide { From, To };

// Offsets into one array of edge places (CSR): the edges at point p are
// g.edges[edges[offset[p]]] to g.edges[edges[offset[p + 1] - 1]], in the
// graph's order (the cycle break erases by place and breaks ties by it).
struct EdgesByPoint {
    std::vector<std::uint32_t> offset; // per point, and one past the last
    std::vector<std::uint32_t> edges;  // places
    // Grouped again, in the arrays' memory. `otherSide`, where given (a
    // point each): each edge counted at its point on the other side too, in
    // the same pass (what each point waits for, where the edges are grouped
    // by where they leave from).
    void group(const RunGraph& g, EdgeSide side, std::vector<int>* otherSide = nullptr);
};

// The edges out of each node, its begin's and its end's in one list, each
// entry an edge's id with its top bit set where the edge leaves from the
// node's end: the replay's grouping. One offset per node where
// EdgesByPoint keeps one per point, and a point's few edges told apart by
// a bit of the entry the replay reads anyway: a replay of the 2 GB Kineto
// trace's graph (3.6 M nodes) keeps 14 MB less, per replay thread.
struct EdgesOutOfNode {
    static constexpr std::uint32_t kFromEnd = std::uint32_t{1} << 31;
    std::vector<std::uint32_t> offset; // per node, and one past the last
    std::vector<std::uint32_t> edges;  // ids, kFromEnd or'd in; each node's in the graph's order
    // Grouped again, in the arrays' memory (a replayer keeps it from one
    // replay to the next: fresh pages for a big graph cost more than this),
    // and each edge counted at the point it goes to (`waits`, a point each:
    // what each point waits for); false where a count wrapped round (the
    // counts are then wrong: group again with a wider type). Throws
    // std::length_error for a graph whose edge ids need the top bit.
    template <class Count>
    bool group(const RunGraph& g, std::vector<Count>& waits);
};

} // namespace ovs
