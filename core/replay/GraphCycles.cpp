#include "replay/GraphCycles.h"

#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "replay/EdgesByPoint.h"

#include <algorithm>
#include <tuple>

namespace ovs {

namespace {

std::int64_t measuredAt(const RunGraph& g, std::uint32_t node, bool end)
{
    return end ? g.nodes[node].measuredEndNs : g.nodes[node].measuredBeginNs;
}

// Smaller is weaker (see breakCycles): kind, then contradicted by the run's
// times (most first), then the gap in the run between cause and waiter
// (largest first), then the order the edges were added.
std::tuple<int, int, std::int64_t, std::uint32_t> weakness(const RunGraph& g, std::uint32_t i)
{
    const GraphEdge& e = g.edges[i];
    const std::int64_t gap = saturatingSub(measuredAt(g, e.to, e.toEnd), measuredAt(g, e.from, e.fromEnd));
    const bool contradicted = gap < -thresholds::kClockToleranceNs;
    return {e.kind == EdgeKind::Inferred || e.kind == EdgeKind::HandOff ? 0 : 1, contradicted ? 0 : 1, contradicted ? gap : -gap, i};
}

constexpr std::uint32_t kOwnEdge = UINT32_MAX; // a node's begin -> its end

} // namespace

bool isDroppable(const GraphEdge& e)
{
    return e.kind == EdgeKind::Inferred || e.kind == EdgeKind::HandOff || e.kind == EdgeKind::CrossStream;
}

namespace {

// Kahn's algorithm over a graph's points: each point is done once every
// edge into it (and, for an end, its own begin) is. What is left undone
// waits on a cycle.
class PointWalk {
public:
    explicit PointWalk(const RunGraph& g) : m_g(g), m_pending(g.nodes.size() * 2, 0), m_done(m_pending.size(), false)
    {
        // Edges out of each point, and how many edges wait on each point.
        m_outOf.group(g, EdgeSide::From, &m_pending);
        for (std::size_t p = 1; p < m_pending.size(); p += 2)
            ++m_pending[p]; // every end waits for its own begin
        for (std::uint32_t p = 0; p < m_pending.size(); ++p)
            if (m_pending[p] == 0)
                m_ready.push_back(p);
    }

    // Walks on from the points ready; `dropped(edge place)`: an edge that no
    // longer counts.
    template <class Dropped>
    void drain(const Dropped& dropped)
    {
        const std::vector<std::uint32_t>& outOffset = m_outOf.offset;
        const std::vector<std::uint32_t>& outEdges = m_outOf.edges;
        while (!m_ready.empty()) {
            const std::uint32_t p = m_ready.back();
            m_ready.pop_back();
            m_done[p] = true;
            if (p % 2 == 0 && --m_pending[p + 1] == 0)
                m_ready.push_back(p + 1);
            for (std::uint32_t k = outOffset[p]; k < outOffset[p + 1]; ++k) {
                const GraphEdge& e = m_g.edges[outEdges[k]];
                if (!dropped(outEdges[k]) && --m_pending[pointOf(e.to, e.toEnd)] == 0)
                    m_ready.push_back(pointOf(e.to, e.toEnd));
            }
        }
    }

    bool allDone() const
    {
        return std::all_of(m_done.begin(), m_done.end(), [](bool d) { return d; });
    }
    bool done(std::uint32_t p) const { return m_done[p]; }
    // An edge into point `to` no longer counts.
    void drop(std::uint32_t to)
    {
        if (--m_pending[to] == 0)
            m_ready.push_back(to);
    }

private:
    const RunGraph& m_g;
    EdgesByPoint m_outOf;
    std::vector<int> m_pending;
    std::vector<bool> m_done;
    std::vector<std::uint32_t> m_ready;
};

} // namespace

bool isAcyclic(const RunGraph& g)
{
    PointWalk walk(g);
    walk.drain([](std::uint32_t) { return false; });
    return walk.allDone();
}

CycleBreak breakCycles(RunGraph& g)
{
    CycleBreak out;
    const std::size_t points = g.nodes.size() * 2;
    std::vector<bool> dropped(g.edges.size(), false);
    PointWalk kahn(g);
    const auto isDropped = [&](std::uint32_t edge) { return dropped[edge]; };
    kahn.drain(isDropped);
    // Most graphs hold no cycle: every point is done, and the edges into
    // each point (for the walk back along a cycle) are never needed.
    if (kahn.allDone())
        return out;
    EdgesByPoint in;
    in.group(g, EdgeSide::To);
    const std::vector<std::uint32_t>& inOffset = in.offset;
    const std::vector<std::uint32_t>& inEdges = in.edges;
    std::vector<std::uint32_t> onPath(points, 0); // walk number that reached the point, 0: none
    std::uint32_t walk = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path; // (point, the edge that leads from it to the next)
    for (std::uint32_t start = 0; start < points; ++start) {
        while (!kahn.done(start)) {
            // Every point not done waits for one not done: walk back along
            // such waits until a point comes round again; that is a cycle.
            ++walk;
            path.clear();
            std::uint32_t p = start;
            while (onPath[p] != walk) {
                onPath[p] = walk;
                std::uint32_t from = UINT32_MAX, edge = kOwnEdge;
                if (p % 2 == 1 && !kahn.done(p - 1)) {
                    from = p - 1;
                } else {
                    for (std::uint32_t k = inOffset[p]; k < inOffset[p + 1] && from == UINT32_MAX; ++k) {
                        const GraphEdge& e = g.edges[inEdges[k]];
                        if (!dropped[inEdges[k]] && !kahn.done(pointOf(e.from, e.fromEnd))) {
                            from = pointOf(e.from, e.fromEnd);
                            edge = inEdges[k];
                        }
                    }
                }
                path.emplace_back(from, edge);
                p = from;
            }
            // The cycle: the path from where p was first reached on.
            std::uint32_t weakest = kOwnEdge;
            bool inCycle = false;
            for (std::size_t i = 0; i < path.size(); ++i) {
                // path[i] leads into the point reached i steps back from start:
                // the cycle's edges are those walked after p was first left.
                const std::uint32_t reached = i == 0 ? start : path[i - 1].first;
                inCycle = inCycle || reached == p;
                const std::uint32_t e = path[i].second;
                if (inCycle && e != kOwnEdge && isDroppable(g.edges[e])
                    && (weakest == kOwnEdge || weakness(g, e) < weakness(g, weakest)))
                    weakest = e;
            }
            if (weakest == kOwnEdge) {
                out.acyclic = false;
                out.why = "the graph has a cycle of waits the trace names (stream order, launches, host order or "
                          "blocking calls), none of them inferred: it cannot be replayed";
                break;
            }
            dropped[weakest] = true;
            ++out.dropped;
            const GraphEdge& e = g.edges[weakest];
            kahn.drop(pointOf(e.to, e.toEnd));
            kahn.drain(isDropped);
        }
        if (!out.acyclic)
            break;
    }
    if (out.dropped > 0) {
        g.edges.eraseAt(dropped);
        g.droppedWaits += out.dropped;
    }
    return out;
}

} // namespace ovs
