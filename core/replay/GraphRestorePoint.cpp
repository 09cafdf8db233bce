#include "replay/GraphRestorePoint.h"

namespace ovs {

GraphRestorePoint::GraphRestorePoint(const RunGraph& graph) : GraphRestorePoint(graph.nodes, graph.state, graph.edges)
{
    keepModel(graph);
}

GraphRestorePoint::GraphRestorePoint(const GraphNodes& nodes, const std::vector<NodeState>& state,
                                     const GraphEdges& edges)
    : m_nodes(nodes), m_state(state), m_edgesAsBuilt(edges.asBuilt()),
      m_edges(m_edgesAsBuilt ? edges.baseOnly() : edges)
{
}

void GraphRestorePoint::restore(RunGraph& graph) const
{
    static_cast<GraphModel&>(graph) = m_model;
    // Nodes a fix added (prefetches) go with the facts it copied to add them.
    graph.nodes = m_nodes;
    graph.state.assign(m_state.begin(), m_state.end());
    // The base shared; the order and the graph's own in the memory they had.
    if (m_edgesAsBuilt)
        graph.edges.restoreBuilt(m_edges);
    else
        graph.edges = m_edges;
}

} // namespace ovs
