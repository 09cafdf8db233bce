#pragma once

// A graph's edges grouped by a point of each (a node's begin or its end):
// the point each leaves from, or the one it goes to. The replay and the
// cycle break both walk a graph point by point; one grouping serves both.

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

// What the grouping keeps of each edge: its place in the graph's edges
// (g.edges[place]: the cycle break, which erases by place and breaks ties
// by it), or its id (g.edges.byId(id): the replay, one lookup less per edge).
enum class EdgeIndex { Place, Id };

// Offsets into one array of edge indices (CSR): the edges at point p are
// edges[offset[p]] to edges[offset[p + 1] - 1], in the graph's order.
struct EdgesByPoint {
    std::vector<std::uint32_t> offset; // per point, and one past the last
    std::vector<std::uint32_t> edges;  // places or ids (EdgeIndex)
    // Grouped again, in the arrays' memory (a replayer keeps it from one
    // replay to the next: fresh pages for a big graph cost more than this).
    // `otherSide`, where given (a point each): each edge counted at its
    // point on the other side too, in the same pass (what each point waits
    // for, where the edges are grouped by where they leave from).
    void group(const RunGraph& g, EdgeSide side, std::vector<int>* otherSide = nullptr,
               EdgeIndex index = EdgeIndex::Place);
    // The same, each point's count in 16 bits (the replay's: half the
    // memory of int counts, per replay thread); false where some point's
    // count passed 65535 (the counts are then wrong: group again with int).
    bool group(const RunGraph& g, EdgeSide side, std::vector<std::uint16_t>* otherSide, EdgeIndex index);
};

} // namespace ovs
