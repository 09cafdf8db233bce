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

CycleBreak breakCycles(RunGraph& g)
{
    CycleBreak out;
    const std::size_t points = g.nodes.size() * 2;
    // Edges out of each point, and how many edges wait on each point.
    std::vector<int> pending(points, 0);
    EdgesByPoint outOf;
    outOf.group(g, EdgeSide::From, &pending);
    const std::vector<std::uint32_t>& outOffset = outOf.offset;
    const std::vector<std::uint32_t>& outEdges = outOf.edges;
    for (std::size_t p = 1; p < points; p += 2)
        ++pending[p]; // every end waits for its own begin
    std::vector<bool> done(points, false), dropped(g.edges.size(), false);
    std::vector<std::uint32_t> ready;
    for (std::uint32_t p = 0; p < points; ++p)
        if (pending[p] == 0)
            ready.push_back(p);
    // Kahn's algorithm, resumed after each drop.
    const auto drain = [&] {
        while (!ready.empty()) {
            const std::uint32_t p = ready.back();
            ready.pop_back();
            done[p] = true;
            if (p % 2 == 0 && --pending[p + 1] == 0)
                ready.push_back(p + 1);
            for (std::uint32_t k = outOffset[p]; k < outOffset[p + 1]; ++k) {
                const GraphEdge& e = g.edges[outEdges[k]];
                if (!dropped[outEdges[k]] && --pending[pointOf(e.to, e.toEnd)] == 0)
                    ready.push_back(pointOf(e.to, e.toEnd));
            }
        }
    };
    drain();
    // Most graphs hold no cycle: every point is done, and the edges into
    // each point (for the walk back along a cycle) are never needed.
    if (std::all_of(done.begin(), done.end(), [](bool d) { return d; }))
        return out;
    EdgesByPoint in;
    in.group(g, EdgeSide::To);
    const std::vector<std::uint32_t>& inOffset = in.offset;
    const std::vector<std::uint32_t>& inEdges = in.edges;
    std::vector<std::uint32_t> onPath(points, 0); // walk number that reached the point, 0: none
    std::uint32_t walk = 0;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path; // (point, the edge that leads from it to the next)
    for (std::uint32_t start = 0; start < points; ++start) {
        while (!done[start]) {
            // Every point not done waits for one not done: walk back along
            // such waits until a point comes round again; that is a cycle.
            ++walk;
            path.clear();
            std::uint32_t p = start;
            while (onPath[p] != walk) {
                onPath[p] = walk;
                std::uint32_t from = UINT32_MAX, edge = kOwnEdge;
                if (p % 2 == 1 && !done[p - 1]) {
                    from = p - 1;
                } else {
                    for (std::uint32_t k = inOffset[p]; k < inOffset[p + 1] && from == UINT32_MAX; ++k) {
                        const GraphEdge& e = g.edges[inEdges[k]];
                        if (!dropped[inEdges[k]] && !done[pointOf(e.from, e.fromEnd)]) {
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
            if (--pending[pointOf(e.to, e.toEnd)] == 0) {
                ready.push_back(pointOf(e.to, e.toEnd));
                drain();
            }
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
