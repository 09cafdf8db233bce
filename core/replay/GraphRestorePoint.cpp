#include "replay/GraphRestorePoint.h"

namespace ovs {

GraphRestorePoint::GraphRestorePoint(const RunGraph& graph) : GraphRestorePoint(graph.nodes, graph.edges)
{
    keepModel(graph);
}

GraphRestorePoint::GraphRestorePoint(const std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges)
    : m_edges(edges)
{
    m_nodes.reserve(nodes.size());
    for (const GraphNode& n : nodes)
        m_nodes.push_back({n.durationNs, n.chunk, n.lane, static_cast<std::uint8_t>(n.role),
                           static_cast<std::uint8_t>(n.memory), n.removed});
}

void GraphRestorePoint::restore(RunGraph& graph) const
{
    static_cast<GraphModel&>(graph) = m_model;
    // Nodes a fix added (prefetches) go; the others get back what a fix may
    // have changed.
    graph.nodes.resize(m_nodes.size());
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        GraphNode& n = graph.nodes[i];
        const NodeState& s = m_nodes[i];
        n.durationNs = s.durationNs;
        n.chunk = s.chunk;
        n.lane = s.lane;
        n.role = static_cast<CallRole>(s.role);
        n.memory = static_cast<HostMemoryKind>(s.memory);
        n.removed = s.removed != 0;
    }
    graph.edges.assign(m_edges.begin(), m_edges.end());
}

} // namespace ovs
