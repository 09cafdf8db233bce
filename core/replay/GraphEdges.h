#pragma once

// A graph's edges (RunGraph.h): the waits between its nodes' points, and
// how a graph's copies share them.
//
// A big profile's graph holds millions of edges. The what-if edits one
// graph per fix set and puts it back after (GraphRestorePoint.h), and a
// second thread edits a copy of its own: as whole vectors, the edges were
// held three times. Here the edges as the graph's build left them are a
// base that every copy shares and none edits; each copy keeps the order of
// the edges it holds (4 bytes each: which base edge, or which of its own)
// and its own edges, those a fix added or changed. A fix that changes an
// edge changes the copy's own: the base and the other copies keep theirs.
// The edges' order is kept as a vector's would be (erasing keeps the rest
// in order, adding appends, changing keeps the place): the cycle break
// chooses among equal edges by it.

#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace ovs {

enum class EdgeKind : std::uint8_t {
    StreamOrder, // the previous op of the same stream
    Launch,      // the host call that enqueued it
    HostOrder,   // the previous op of the same host thread, after the host's own work between them
    Blocking,    // a host call returns only after the GPU op it waited for
    CrossStream, // the legacy default stream's barriers, event waits
    Inferred,    // a wait the trace does not name, inferred from the times (see RunGraphBuilder)
    HandOff,     // another host thread's call that ended last inside a long gap of this thread (see RunGraphBuilder)
};
const char* toString(EdgeKind kind);

// 16 bytes: a big profile's graph holds millions of edges. The lag fits 48
// bits (39 hours; the graph's builder clamps to kMaxLagNs, no trace's wait
// is that long).
struct GraphEdge {
    static constexpr std::int64_t kMaxLagNs = (std::int64_t{1} << 47) - 1;
    std::uint32_t from = 0; // node indices
    std::uint32_t to = 0;
    EdgeKind kind : 8 = EdgeKind::StreamOrder;
    bool fromEnd : 1 = true; // from the end of `from` (else its begin)
    bool toEnd : 1 = false;  // to the end of `to` (else its begin)
    std::int64_t lagNs : 48 = 0;
    bool operator==(const GraphEdge&) const = default;
};
static_assert(sizeof(GraphEdge) == 16, "GraphEdge is kept compact: see above");

// The edges in order, read as a vector is. An edge's place (0 to size())
// changes as edges before it are erased; its id (byId) does not: ids below
// the base's size are the base's edges, the others the graph's own.
class GraphEdges {
public:
    GraphEdges() = default;
    GraphEdges(const GraphEdges&) = default;
    GraphEdges& operator=(const GraphEdges&) = default;
    // A moved-from one holds no edges, and no pointer into a base it no
    // longer shares.
    GraphEdges(GraphEdges&& o) noexcept { *this = std::move(o); }
    GraphEdges& operator=(GraphEdges&& o) noexcept
    {
        m_base = std::move(o.m_base);
        m_baseData = std::exchange(o.m_baseData, nullptr);
        m_baseSize = std::exchange(o.m_baseSize, 0);
        m_own = std::move(o.m_own);
        m_order = std::move(o.m_order);
        o.m_own.clear();
        o.m_order.clear();
        return *this;
    }
    // The graph's own edges, in this order (a test's graph; a build's,
    // before share()).
    GraphEdges(std::vector<GraphEdge> edges) { *this = std::move(edges); }
    GraphEdges& operator=(std::vector<GraphEdge> edges);

    std::size_t size() const { return m_order.size(); }
    bool empty() const { return m_order.empty(); }
    const GraphEdge& operator[](std::size_t place) const { return byId(m_order[place]); }
    std::uint32_t idAt(std::size_t place) const { return m_order[place]; }
    const GraphEdge& byId(std::uint32_t id) const { return id < m_baseSize ? m_baseData[id] : m_own[id - m_baseSize]; }
    // One past the largest id (erased edges keep theirs).
    std::size_t idCount() const { return m_baseSize + m_own.size(); }

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = GraphEdge;
        using difference_type = std::ptrdiff_t;
        using pointer = const GraphEdge*;
        using reference = const GraphEdge&;
        const_iterator() = default;
        const_iterator(const GraphEdges* edges, const std::uint32_t* at) : m_edges(edges), m_at(at) {}
        const GraphEdge& operator*() const { return m_edges->byId(*m_at); }
        const GraphEdge* operator->() const { return &**this; }
        const_iterator& operator++()
        {
            ++m_at;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator was = *this;
            ++m_at;
            return was;
        }
        bool operator==(const const_iterator& o) const { return m_at == o.m_at; }

    private:
        const GraphEdges* m_edges = nullptr;
        const std::uint32_t* m_at = nullptr;
    };
    const_iterator begin() const { return {this, m_order.data()}; }
    const_iterator end() const { return {this, m_order.data() + m_order.size()}; }

    void reserve(std::size_t edges)
    {
        m_own.reserve(edges);
        m_order.reserve(edges);
    }
    void push_back(const GraphEdge& e)
    {
        m_order.push_back(m_baseSize + static_cast<std::uint32_t>(m_own.size()));
        m_own.push_back(e);
    }
    template <class It>
    void append(It first, It last)
    {
        for (; first != last; ++first)
            push_back(*first);
    }
    // Erases the edges `drop` says of, keeping the rest in order; how many.
    // `drop` sees each edge once, in order (a fix may gather what it
    // erases in the same pass).
    template <class Drop>
    std::size_t eraseIf(Drop drop)
    {
        std::size_t kept = 0;
        for (const std::uint32_t id : m_order)
            if (!drop(byId(id)))
                m_order[kept++] = id;
        const std::size_t erased = m_order.size() - kept;
        m_order.resize(kept);
        return erased;
    }
    // Erases the edges at the places `dropped` marks (one flag per place).
    void eraseAt(const std::vector<bool>& dropped);
    // The edge at `place`, to change: the graph's own (a base edge is copied
    // to the graph's own first, in the same place).
    GraphEdge& edit(std::size_t place);
    // Sets the edge at `place` to `e`, where it differs.
    void set(std::size_t place, const GraphEdge& e)
    {
        if (!((*this)[place] == e))
            edit(place) = e;
    }

    // The edges as they are now become the base that copies share: after
    // the graph's build, before any copy or restore point is taken.
    void share();

    std::vector<GraphEdge> toVector() const { return {begin(), end()}; }

    // What a restore point (GraphRestorePoint.h) need not copy: the edges
    // as built, each in its place, none of the graph's own.
    bool asBuilt() const;
    // The base alone, shared, in no order (it holds no edges): a restore
    // point's record of edges asBuilt().
    GraphEdges baseOnly() const;
    // Back to the edges as built of `record` (baseOnly()), in the memory
    // these have.
    void restoreBuilt(const GraphEdges& record);

private:
    // Each place holds the edge of id `place` (the edges as built, or a
    // build's own as added).
    bool inIdOrder() const;
    void useBase(std::shared_ptr<const std::vector<GraphEdge>> base);

    std::shared_ptr<const std::vector<GraphEdge>> m_base;
    const GraphEdge* m_baseData = nullptr; // m_base's, read for every edge of every replay
    std::uint32_t m_baseSize = 0;
    std::vector<GraphEdge> m_own;
    std::vector<std::uint32_t> m_order; // each place's edge id
};

} // namespace ovs
