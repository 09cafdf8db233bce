#include "replay/GraphEdges.h"

#include <numeric>

namespace ovs {

GraphEdges& GraphEdges::operator=(std::vector<GraphEdge> edges)
{
    useBase(nullptr);
    m_own = std::move(edges);
    m_order.resize(m_own.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    return *this;
}

void GraphEdges::eraseAt(const std::vector<bool>& dropped)
{
    std::size_t kept = 0;
    for (std::size_t place = 0; place < m_order.size(); ++place)
        if (!dropped[place])
            m_order[kept++] = m_order[place];
    m_order.resize(kept);
}

GraphEdge& GraphEdges::edit(std::size_t place)
{
    std::uint32_t& id = m_order[place];
    if (id < m_baseSize) {
        const GraphEdge e = m_baseData[id];
        id = m_baseSize + static_cast<std::uint32_t>(m_own.size());
        m_own.push_back(e);
    }
    return m_own[id - m_baseSize];
}

void GraphEdges::share()
{
    // A build's edges are its own, in the order added, unless its cycle
    // break erased some: then they are the base as they come. Either way
    // the base holds them in order, and each place's id is its place.
    std::vector<GraphEdge> base;
    if (!m_base && m_order.size() == m_own.size() && inIdOrder()) {
        base = std::move(m_own);
    } else {
        base.reserve(m_order.size());
        for (const GraphEdge& e : *this)
            base.push_back(e);
    }
    m_own = {};
    m_order.resize(base.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    useBase(std::make_shared<const std::vector<GraphEdge>>(std::move(base)));
}

bool GraphEdges::inIdOrder() const
{
    for (std::size_t place = 0; place < m_order.size(); ++place)
        if (m_order[place] != place)
            return false;
    return true;
}

void GraphEdges::useBase(std::shared_ptr<const std::vector<GraphEdge>> base)
{
    m_base = std::move(base);
    m_baseData = m_base ? m_base->data() : nullptr;
    m_baseSize = m_base ? static_cast<std::uint32_t>(m_base->size()) : 0;
}

bool GraphEdges::asBuilt() const
{
    return m_base && m_own.empty() && m_order.size() == m_baseSize && inIdOrder();
}

GraphEdges GraphEdges::baseOnly() const
{
    GraphEdges out;
    out.useBase(m_base);
    return out;
}

void GraphEdges::restoreBuilt(const GraphEdges& record)
{
    useBase(record.m_base);
    m_own.clear();
    m_order.resize(m_baseSize);
    std::iota(m_order.begin(), m_order.end(), 0u);
}

} // namespace ovs
