#include "replay/Replayer.h"

#include "base/Saturating.h"
#include "replay/EdgesByPoint.h"
#include "replay/GraphCycles.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace ovs {

namespace {

// The engines as a discrete-event model: per class, its units and a queue
// taking work in the order it became ready; each running op has lone work
// left and runs at its lone speed, or `slowdown` times slower while a
// rival runs beside it (RunGraph.h; kernels by their shares of the GPU
// where the launch shapes are the basis). Rates change only when an op starts
// or ends, so each op's end is known until the next such event.
class Engines {
public:
    explicit Engines(const RunGraph& g) : m_g(g)
    {
        // Room up front, past the allocator's small sizes, for what the
        // loop writes on every event (and `started` in replay()): small
        // buffers of two replays on two threads can share a cache line in
        // one arena's slabs, and every write then took the line from the
        // other core. One replay of the 2 GB trace's graph beside another
        // took 0.40 s, 0.27 s alone; with this room 0.25 s beside another.
        m_running.reserve(1024);
        for (auto& q : m_queue)
            q.reserve(4096);
        m_capacity = {1, 1, 1, std::max(1, g.kernelSlots)};
        m_sharedCopy = g.copyEngines == 1;
    }

    // The op of `node` is ready at `now` (the replay's clock): it starts now
    // where a unit of its class is free (appended to `started`), else waits
    // its turn.
    void submit(std::uint32_t node, std::int64_t now, std::vector<std::uint32_t>& started)
    {
        const int c = classOf(m_g.nodes[node].engine);
        if (m_busy[c] < m_capacity[c]) {
            start(node, c, now);
            started.push_back(node);
            rerate(now);
        } else {
            m_queue[c].push_back(node);
        }
    }

    // When the running op that ends first ends; INT64_MAX when none runs.
    std::int64_t nextEndNs() const { return m_nextEnd; }

    // Ends that op (at nextEndNs()) and starts what its unit takes next
    // (appended to `started`); returns the ended op's node.
    std::uint32_t endNext(std::vector<std::uint32_t>& started)
    {
        const std::int64_t now = m_nextEnd;
        settle(now);
        const auto first = std::find_if(m_running.begin(), m_running.end(), [&](const Running& r) { return r.endNs == now; });
        const std::uint32_t node = first->node;
        const int c = first->cls;
        m_running.erase(first);
        --m_busy[c];
        auto& queue = m_queue[c];
        if (m_queueHead[c] < queue.size()) {
            const std::uint32_t next = queue[m_queueHead[c]++];
            start(next, c, now);
            started.push_back(next);
        }
        rerate(now);
        return node;
    }

private:
    struct Running {
        std::uint32_t node;
        int cls;
        double workNs;      // lone work left, as of sinceNs
        double slowdown;    // 1 alone
        std::int64_t sinceNs;
        std::int64_t endNs; // at the current rates
    };

    int classOf(EngineClass e) const
    {
        switch (e) {
        case EngineClass::CopyH2D: return 0;
        case EngineClass::CopyD2H: return m_sharedCopy ? 0 : 1;
        case EngineClass::CopyDtoD: return 2;
        default: return 3;
        }
    }

    void start(std::uint32_t node, int c, std::int64_t now)
    {
        ++m_busy[c];
        const double work = static_cast<double>(std::max<std::int64_t>(0, m_g.state[node].durationNs));
        m_running.push_back({node, c, work, 1.0, now, now});
    }

    // Lone work done by each running op up to `now`, at its rate since the last event.
    void settle(std::int64_t now)
    {
        for (Running& r : m_running) {
            r.workNs = std::max(0.0, r.workNs - static_cast<double>(now - r.sinceNs) / r.slowdown);
            r.sinceNs = now;
        }
    }

    // Each running op's rate given its rivals now, and its end at that rate.
    void rerate(std::int64_t now)
    {
        settle(now);
        int compute = 0, linkUp = 0, linkDown = 0;
        double fill = 0; // the launch-shape basis: the running kernels' shares of the GPU
        for (const Running& r : m_running) {
            const GraphNode& n = m_g.nodes[r.node];
            const bool link = usesLink(n, m_g.state[r.node]);
            compute += r.cls == 3 ? 1 : 0;
            if (r.cls == 3 && r.node < m_g.kernelFill.size())
                fill += m_g.kernelFill[r.node];
            linkUp += link && n.engine == EngineClass::CopyH2D ? 1 : 0;
            linkDown += link && n.engine == EngineClass::CopyD2H ? 1 : 0;
        }
        m_nextEnd = INT64_MAX;
        for (Running& r : m_running) {
            const GraphNode& n = m_g.nodes[r.node];
            r.slowdown = 1.0;
            if (r.cls == 3 && compute > 1)
                r.slowdown = m_g.kernelFill.empty() ? m_g.kernelSlowdown : std::max(1.0, fill);
            else if (usesLink(n, m_g.state[r.node]) && (n.engine == EngineClass::CopyH2D ? linkDown : linkUp) > 0)
                r.slowdown = m_g.copySlowdown;
            r.endNs = saturatingAdd(now, static_cast<std::int64_t>(std::llround(r.workNs * r.slowdown)));
            m_nextEnd = std::min(m_nextEnd, r.endNs);
        }
    }

    const RunGraph& m_g;
    std::array<int, 4> m_capacity{};
    std::array<int, 4> m_busy{};
    std::array<std::vector<std::uint32_t>, 4> m_queue; // each consumed from m_queueHead on
    std::array<std::size_t, 4> m_queueHead{};
    std::vector<Running> m_running; // in the order they started: ties end the first first
    std::int64_t m_nextEnd = INT64_MAX;
    bool m_sharedCopy = false;
};

} // namespace

void Replayer::push(const Entry& e)
{
    std::size_t i = m_queue.size();
    m_queue.push_back(e);
    while (i > 0) {
        const std::size_t parent = (i - 1) / 4;
        if (!(e < m_queue[parent]))
            break;
        m_queue[i] = m_queue[parent];
        i = parent;
    }
    m_queue[i] = e;
}

Replayer::Entry Replayer::pop()
{
    const Entry top = m_queue.front();
    const Entry last = m_queue.back();
    m_queue.pop_back();
    const std::size_t n = m_queue.size();
    if (n == 0)
        return top;
    std::size_t i = 0;
    for (;;) {
        const std::size_t first = 4 * i + 1;
        if (first >= n)
            break;
        std::size_t least = first;
        for (std::size_t c = first + 1; c < std::min(first + 4, n); ++c)
            if (m_queue[c] < m_queue[least])
                least = c;
        if (!(m_queue[least] < last))
            break;
        m_queue[i] = m_queue[least];
        i = least;
    }
    m_queue[i] = last;
    return top;
}

void Replayer::prepare(std::size_t nodes, std::size_t edges)
{
    m_outOf.offset.assign(nodes + 1, 0);
    m_pending.assign(2 * nodes, 0);
    m_time.assign(2 * nodes, 0);
    m_outOf.edges.assign(edges, 0);
}

namespace {

// Each point's count of what it waits for before its edges in are counted:
// an end waits for its own begin.
template <class Count>
void ownWaits(std::vector<Count>& pending, std::size_t nodes)
{
    pending.resize(2 * nodes);
    for (std::size_t n = 0; n < nodes; ++n) {
        pending[2 * n] = 0;
        pending[2 * n + 1] = 1;
    }
}

} // namespace

const ReplayResult& Replayer::replay(const RunGraph& g, bool nodeTimes)
{
    ReplayResult& r = m_result;
    r.ok = false; // the vectors keep their memory for this replay
    r.why.clear();
    r.droppedWaits = 0;
    r.spanBeginNs = r.spanEndNs = 0;
    // What each point waits for: an end its own begin, and its edges in,
    // counted as the edges out of each node are grouped (EdgesByPoint.h);
    // in 8 bits where every count fits (a point of a big trace's graph
    // waits for a few), else in 16 or 32 (a wait for every stream of many,
    // or for every op of a long loop), in arrays made for that replay.
    ownWaits(m_pending, g.nodes.size());
    if (m_outOf.group(g, m_pending))
        return replayCounted(g, nodeTimes, m_pending);
    std::vector<std::uint16_t> wider;
    ownWaits(wider, g.nodes.size());
    if (m_outOf.group(g, wider))
        return replayCounted(g, nodeTimes, wider);
    wider = {};
    std::vector<int> widest;
    ownWaits(widest, g.nodes.size());
    m_outOf.group(g, widest);
    return replayCounted(g, nodeTimes, widest);
}

template <class Count>
const ReplayResult& Replayer::replayCounted(const RunGraph& g, bool nodeTimes, std::vector<Count>& pending)
{
    ReplayResult& r = m_result;
    const std::size_t points = g.nodes.size() * 2;
    m_time.assign(points, INT64_MIN);
    m_queue.clear();
    const auto ready = [&](std::uint32_t p) {
        push({m_time[p], g.nodes[p / 2].measuredBeginNs, p});
    };
    for (std::uint32_t p = 0; p < points; ++p)
        if (pending[p] == 0) {
            m_time[p] = g.nodes[p / 2].measuredBeginNs;
            ready(p);
        }
    Engines engines(g);
    std::size_t done = 0;
    const auto release = [&](std::uint32_t p, std::int64_t t) {
        m_time[p] = std::max(m_time[p], t);
        if (--pending[p] == 0)
            ready(p);
    };
    // A point happened at `t`: what waits for it is released.
    const auto happened = [&](std::uint32_t p, std::int64_t t) {
        ++done;
        m_time[p] = t;
        // The node's edges from this point: its begin's or its end's.
        const std::uint32_t side = p % 2 == 1 ? EdgesOutOfNode::kFromEnd : 0;
        for (std::uint32_t i = m_outOf.offset[p / 2]; i < m_outOf.offset[p / 2 + 1]; ++i) {
            const std::uint32_t entry = m_outOf.edges[i];
            if ((entry & EdgesOutOfNode::kFromEnd) != side)
                continue;
            const GraphEdge& e = g.edges.byId(entry & ~EdgesOutOfNode::kFromEnd);
            release(pointOf(e.to, e.toEnd), saturatingAdd(t, e.lagNs));
        }
    };
    std::vector<std::uint32_t> started;
    started.reserve(4096); // as the engines' (Engines above)
    // The GPU's span, as its ops begin and end: the engines start every GPU
    // op not removed, and its end comes from the queue.
    std::int64_t spanBegin = INT64_MAX, spanEnd = INT64_MIN;
    // In time order: the engines' next end before a point ready at the same
    // time, so that a unit freed then is free for it.
    while (!m_queue.empty() || engines.nextEndNs() != INT64_MAX) {
        const std::int64_t ends = engines.nextEndNs();
        started.clear();
        if (m_queue.empty() || ends <= m_queue.front().at) {
            const std::uint32_t node = engines.endNext(started);
            release(pointOf(node, true), ends);
            for (std::uint32_t s : started)
                happened(pointOf(s, false), ends);
            if (!started.empty())
                spanBegin = std::min(spanBegin, ends);
            continue;
        }
        const auto [at, tie, p] = pop();
        const GraphNode& node = g.nodes[p / 2];
        const NodeState& state = g.state[p / 2];
        const bool begin = p % 2 == 0;
        if (begin && node.gpu && !state.removed) {
            engines.submit(p / 2, at, started);
            for (std::uint32_t s : started)
                happened(pointOf(s, false), at);
            if (!started.empty())
                spanBegin = std::min(spanBegin, at);
            continue;
        }
        happened(p, at);
        if (!begin && node.gpu && !state.removed)
            spanEnd = std::max(spanEnd, at);
        if (begin)
            release(p + 1, saturatingAdd(at, state.removed ? 0 : state.durationNs));
    }
    r.beginNs.clear();
    r.endNs.clear();
    if (done != points) {
        // The graph as built holds (RunGraphBuilder breaks its cycles); a
        // fix's transform may make one: the replay drops what it must, as
        // the build does, on a copy.
        RunGraph held = g;
        const CycleBreak broken = breakCycles(held);
        if (broken.acyclic && broken.dropped > 0) {
            replay(held, nodeTimes);
            r.droppedWaits = broken.dropped;
            return r;
        }
        r.why = "the graph has a cycle (" + std::to_string(points - done) + " of " + std::to_string(points)
                + " points never became ready): " + broken.why;
        return r;
    }
    r.ok = true;
    if (nodeTimes) {
        r.beginNs.resize(g.nodes.size());
        r.endNs.resize(g.nodes.size());
        for (std::size_t n = 0; n < g.nodes.size(); ++n) {
            r.beginNs[n] = m_time[2 * n];
            r.endNs[n] = m_time[2 * n + 1];
        }
    }
    r.spanBeginNs = spanBegin;
    r.spanEndNs = spanEnd;
    if (r.spanBeginNs > r.spanEndNs)
        r.spanBeginNs = r.spanEndNs = 0;
    return r;
}

} // namespace ovs
