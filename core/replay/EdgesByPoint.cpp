#include "replay/EdgesByPoint.h"

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
// Returns false where a count of `otherSide` wrapped round (16 bits).
template <EdgeSide side, EdgeIndex index, class Count = int>
bool groupBy(EdgesByPoint& by, const RunGraph& g, std::vector<Count>* otherSide)
{
    constexpr EdgeSide other = side == EdgeSide::From ? EdgeSide::To : EdgeSide::From;
    const std::size_t points = g.nodes.size() * 2;
    by.offset.assign(points + 1, 0);
    bool fits = true;
    if (otherSide) {
        std::vector<Count>& count = *otherSide;
        for (const GraphEdge& e : g.edges) {
            ++by.offset[pointAt<side>(e)];
            fits = ++count[pointAt<other>(e)] != 0 && fits;
        }
    } else {
        for (const GraphEdge& e : g.edges)
            ++by.offset[pointAt<side>(e)];
    }
    for (std::size_t p = 0; p < points; ++p)
        by.offset[p + 1] += by.offset[p];
    by.edges.resize(g.edges.size());
    for (auto i = static_cast<std::uint32_t>(g.edges.size()); i > 0; --i)
        by.edges[--by.offset[pointAt<side>(g.edges[i - 1])]] = index == EdgeIndex::Id ? g.edges.idAt(i - 1) : i - 1;
    return fits;
}

// The grouping for `side` and `index`, chosen once per call.
template <class Count>
bool groupAs(EdgesByPoint& by, const RunGraph& g, EdgeSide side, std::vector<Count>* otherSide, EdgeIndex index)
{
    if (side == EdgeSide::From)
        return index == EdgeIndex::Id ? groupBy<EdgeSide::From, EdgeIndex::Id>(by, g, otherSide)
                                      : groupBy<EdgeSide::From, EdgeIndex::Place>(by, g, otherSide);
    return index == EdgeIndex::Id ? groupBy<EdgeSide::To, EdgeIndex::Id>(by, g, otherSide)
                                  : groupBy<EdgeSide::To, EdgeIndex::Place>(by, g, otherSide);
}

} // namespace

bool EdgesByPoint::group(const RunGraph& g, EdgeSide side, std::vector<std::uint16_t>* otherSide, EdgeIndex index)
{
    return groupAs(*this, g, side, otherSide, index);
}

void EdgesByPoint::group(const RunGraph& g, EdgeSide side, std::vector<int>* otherSide, EdgeIndex index)
{
    groupAs(*this, g, side, otherSide, index);
}

} // namespace ovs
