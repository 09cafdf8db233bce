#include "replay/GraphEdges.h"

#include <numeric>

namespace ovs {

GraphEdges& GraphEdges::operator=(std::vector<GraphEdge> edges)
{
    m_base.reset();
    m_baseData = nullptr;
    m_baseSize = 0;
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
    bool inOrder = !m_base && m_order.size() == m_own.size();
    for (std::size_t place = 0; inOrder && place < m_order.size(); ++place)
        inOrder = m_order[place] == place;
    std::vector<GraphEdge> base;
    if (inOrder) {
        base = std::move(m_own);
    } else {
        base.reserve(m_order.size());
        for (const GraphEdge& e : *this)
            base.push_back(e);
    }
    m_own = {};
    m_order.resize(base.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    m_base = std::make_shared<const std::vector<GraphEdge>>(std::move(base));
    m_baseData = m_base->data();
    m_baseSize = static_cast<std::uint32_t>(m_base->size());
}

bool GraphEdges::asBuilt() const
{
    if (!m_base || !m_own.empty() || m_order.size() != m_baseSize)
        return false;
    for (std::size_t place = 0; place < m_order.size(); ++place)
        if (m_order[place] != place)
            return false;
    return true;
}

GraphEdges GraphEdges::baseOnly() const
{
    GraphEdges out;
    out.m_base = m_base;
    out.m_baseData = m_baseData;
    out.m_baseSize = m_baseSize;
    return out;
}

void GraphEdges::restoreBuilt(const GraphEdges& record)
{
    m_base = record.m_base;
    m_baseData = record.m_baseData;
    m_baseSize = record.m_baseSize;
    m_own.clear();
    m_order.resize(m_baseSize);
    std::iota(m_order.begin(), m_order.end(), 0u);
}

} // namespace ovs
