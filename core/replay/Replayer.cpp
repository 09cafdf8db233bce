#include "replay/Replayer.h"

#include "base/SimEngine.h"
#include "base/Saturating.h"

#include <algorithm>
#include <array>
#include <functional>

namespace ovs {

namespace {

// The engines: per class, its units, each the simulator's engine timeline
// taking work in the order it became ready.
class Engines {
public:
    explicit Engines(const RunGraph& g)
    {
        m_units[unit(EngineClass::CopyH2D)].resize(1);
        m_units[unit(EngineClass::CopyD2H)].resize(1);
        m_units[unit(EngineClass::CopyDtoD)].resize(1);
        m_units[unit(EngineClass::Compute)].resize(static_cast<std::size_t>(std::max(1, g.kernelSlots)));
        m_sharedCopy = g.copyEngines == 1;
    }

    // The start of an op ready at `ready` for `duration` on `engine` (on its
    // unit free first); books it.
    std::int64_t book(EngineClass engine, std::int64_t ready, std::int64_t duration)
    {
        if (m_sharedCopy && engine == EngineClass::CopyD2H)
            engine = EngineClass::CopyH2D;
        auto& units = m_units[unit(engine)];
        auto free = std::min_element(units.begin(), units.end(), [](const SimEngine& a, const SimEngine& b) {
            return a.busyUntil() < b.busyUntil();
        });
        const std::int64_t start = free->scheduleInOrder(ready, duration);
        // Nothing is ever placed before an earlier booking: keep one interval.
        free->forgetBefore(saturatingAdd(start, duration));
        return start;
    }

private:
    static std::size_t unit(EngineClass e) { return static_cast<std::size_t>(e); }
    std::array<std::vector<SimEngine>, 5> m_units;
    bool m_sharedCopy = false;
};

} // namespace

const ReplayResult& Replayer::replay(const RunGraph& g, bool nodeTimes)
{
    ReplayResult& r = m_result;
    r.ok = false; // the vectors keep their memory for this replay
    r.why.clear();
    r.spanBeginNs = r.spanEndNs = 0;
    const std::size_t points = g.nodes.size() * 2;
    const auto pointOf = [](std::uint32_t node, bool end) { return 2 * node + (end ? 1 : 0); };
    // Outgoing edges per point, as offsets into one array (CSR): counted,
    // summed, filled by moving each point's offset up, then moved back.
    m_offset.assign(points + 1, 0);
    m_pending.assign(points, 0);
    for (const GraphEdge& e : g.edges) {
        ++m_offset[pointOf(e.from, e.fromEnd) + 1];
        ++m_pending[pointOf(e.to, e.toEnd)];
    }
    for (std::size_t p = 0; p < points; ++p)
        m_offset[p + 1] += m_offset[p];
    m_out.resize(g.edges.size());
    for (std::uint32_t i = 0; i < g.edges.size(); ++i)
        m_out[m_offset[pointOf(g.edges[i].from, g.edges[i].fromEnd)]++] = i;
    for (std::size_t p = points; p > 0; --p)
        m_offset[p] = m_offset[p - 1];
    m_offset[0] = 0;
    m_time.assign(points, INT64_MIN);
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
        ++m_pending[2 * n + 1]; // every end waits for its own begin
    m_queue.clear();
    const auto push = [&](std::uint32_t p) {
        m_queue.emplace_back(m_time[p], g.nodes[p / 2].measuredBeginNs, p);
        std::push_heap(m_queue.begin(), m_queue.end(), std::greater<>());
    };
    for (std::uint32_t p = 0; p < points; ++p)
        if (m_pending[p] == 0) {
            m_time[p] = g.nodes[p / 2].measuredBeginNs;
            push(p);
        }
    Engines engines(g);
    std::size_t done = 0;
    const auto release = [&](std::uint32_t p, std::int64_t t) {
        m_time[p] = std::max(m_time[p], t);
        if (--m_pending[p] == 0)
            push(p);
    };
    while (!m_queue.empty()) {
        std::pop_heap(m_queue.begin(), m_queue.end(), std::greater<>());
        const auto [at, tie, p] = m_queue.back();
        m_queue.pop_back();
        ++done;
        const GraphNode& node = g.nodes[p / 2];
        const bool begin = p % 2 == 0;
        const std::int64_t duration = node.removed ? 0 : node.durationNs;
        m_time[p] = begin && node.gpu && !node.removed ? engines.book(node.engine, at, duration) : at;
        if (begin)
            release(p + 1, saturatingAdd(m_time[p], duration));
        for (std::uint32_t i = m_offset[p]; i < m_offset[p + 1]; ++i) {
            const GraphEdge& e = g.edges[m_out[i]];
            release(pointOf(e.to, e.toEnd), saturatingAdd(m_time[p], e.lagNs));
        }
    }
    r.beginNs.clear();
    r.endNs.clear();
    if (done != points) {
        r.why = "the graph has a cycle (" + std::to_string(points - done) + " of " + std::to_string(points)
                + " points never became ready): its inferred waits contradict each other";
        return r;
    }
    r.ok = true;
    if (nodeTimes) {
        r.beginNs.resize(g.nodes.size());
        r.endNs.resize(g.nodes.size());
    }
    r.spanBeginNs = INT64_MAX;
    r.spanEndNs = INT64_MIN;
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        if (nodeTimes) {
            r.beginNs[n] = m_time[2 * n];
            r.endNs[n] = m_time[2 * n + 1];
        }
        if (g.nodes[n].gpu && !g.nodes[n].removed) {
            r.spanBeginNs = std::min(r.spanBeginNs, m_time[2 * n]);
            r.spanEndNs = std::max(r.spanEndNs, m_time[2 * n + 1]);
        }
    }
    if (r.spanBeginNs > r.spanEndNs)
        r.spanBeginNs = r.spanEndNs = 0;
    return r;
}

} // namespace ovs
