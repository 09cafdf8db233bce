#include "replay/EdgesByPoint.h"

#include <stdexcept>
#include <string>

namespace ovs {

namespace {

template <EdgeSide side>
std::uint32_t pointAt(const GraphEdge& e)
{
    return side == EdgeSide::From ? pointOf(e.from, e.fromEnd) : pointOf(e.to, e.toEnd);
}

// Counted, summed to each point's end (the last, to all of them), filled
// from the last edge back by moving each point's offset down to its start:
// each point's edges in the graph's order, with no second array of
// offsets and no pass to move them back.
template <EdgeSide side>
void groupBy(EdgesByPoint& by, const RunGraph& g, std::vector<int>* otherSide)
{
    constexpr EdgeSide other = side == EdgeSide::From ? EdgeSide::To : EdgeSide::From;
    const std::size_t points = g.nodes.size() * 2;
    by.offset.assign(points + 1, 0);
    if (otherSide) {
        std::vector<int>& count = *otherSide;
        for (const GraphEdge& e : g.edges) {
            ++by.offset[pointAt<side>(e)];
            ++count[pointAt<other>(e)];
        }
    } else {
        for (const GraphEdge& e : g.edges)
            ++by.offset[pointAt<side>(e)];
    }
    for (std::size_t p = 0; p < points; ++p)
        by.offset[p + 1] += by.offset[p];
    by.edges.resize(g.edges.size());
    for (auto i = static_cast<std::uint32_t>(g.edges.size()); i > 0; --i)
        by.edges[--by.offset[pointAt<side>(g.edges[i - 1])]] = i - 1;
}

} // namespace

void EdgesByPoint::group(const RunGraph& g, EdgeSide side, std::vector<int>* otherSide)
{
    if (side == EdgeSide::From)
        groupBy<EdgeSide::From>(*this, g, otherSide);
    else
        groupBy<EdgeSide::To>(*this, g, otherSide);
}

// As groupBy above, by node: counted, summed to each node's end, filled
// from the last edge back.
template <class Count>
bool EdgesOutOfNode::group(const RunGraph& g, std::vector<Count>& waits)
{
    if (g.edges.idCount() > kFromEnd)
        throw std::length_error("a graph of more than " + std::to_string(kFromEnd) + " edges cannot be replayed");
    const std::size_t nodes = g.nodes.size();
    offset.assign(nodes + 1, 0);
    bool fits = true;
    for (const GraphEdge& e : g.edges) {
        ++offset[e.from];
        fits = ++waits[pointOf(e.to, e.toEnd)] != 0 && fits;
    }
    for (std::size_t n = 0; n < nodes; ++n)
        offset[n + 1] += offset[n];
    edges.resize(g.edges.size());
    for (auto i = static_cast<std::uint32_t>(g.edges.size()); i > 0; --i) {
        const GraphEdge& e = g.edges[i - 1];
        edges[--offset[e.from]] = g.edges.idAt(i - 1) | (e.fromEnd ? kFromEnd : 0);
    }
    return fits;
}

template bool EdgesOutOfNode::group(const RunGraph&, std::vector<std::uint8_t>&);
template bool EdgesOutOfNode::group(const RunGraph&, std::vector<std::uint16_t>&);
template bool EdgesOutOfNode::group(const RunGraph&, std::vector<int>&);

} // namespace ovs
