#include "replay/GraphRestorePoint.h"

namespace ovs {

GraphRestorePoint::GraphRestorePoint(const RunGraph& graph) : GraphRestorePoint(graph.nodes, graph.state, graph.edges)
{
    keepModel(graph);
}

GraphRestorePoint::GraphRestorePoint(const GraphNodes& nodes, const std::vector<NodeState>& state,
                                     const GraphEdges& edges)
    : m_nodes(nodes), m_edgesAsBuilt(edges.asBuilt()), m_edges(m_edgesAsBuilt ? edges.baseOnly() : edges)
{
    m_kept.resize(state.size());
    for (std::uint32_t n = 0; n < state.size(); ++n) {
        m_kept[n] = Kept::of(state[n]);
        if (state[n].durationNs != measuredDurationNs(nodes[n]))
            m_durations.emplace_back(n, state[n].durationNs);
    }
}

void GraphRestorePoint::restore(RunGraph& graph) const
{
    static_cast<GraphModel&>(graph) = m_model;
    // Nodes a fix added (prefetches) go with the facts it copied to add them.
    graph.nodes = m_nodes;
    graph.state.resize(m_kept.size());
    auto other = m_durations.begin();
    for (std::uint32_t n = 0; n < m_kept.size(); ++n) {
        NodeState& s = graph.state[n];
        m_kept[n].into(s);
        s.durationNs = other != m_durations.end() && other->first == n ? (other++)->second
                                                                        : measuredDurationNs(m_nodes[n]);
    }
    // The base shared; the order and the graph's own in the memory they had.
    if (m_edgesAsBuilt)
        graph.edges.restoreBuilt(m_edges);
    else
        graph.edges = m_edges;
}

} // namespace ovs
