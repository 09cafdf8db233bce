#pragma once

#include "replay/RunGraph.h"
#include "base/Saturating.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

struct ReplayResult {
    bool ok = false;
    std::string why;                 // why not, when !ok (a cycle of waits none of which is inferred)
    // Inferred waits this replay dropped, since they made a cycle (a fix's
    // transform made one: the graph as built has none, GraphCycles.h).
    int droppedWaits = 0;
    std::vector<std::int64_t> beginNs; // per node, in the run's time base
    std::vector<std::int64_t> endNs;
    std::int64_t spanBeginNs = 0;    // first GPU begin to last GPU end
    std::int64_t spanEndNs = 0;
    std::int64_t spanNs() const { return ovs::spanNs(spanBeginNs, spanEndNs); }
};

// Schedules the graph on its engine model: every point as early as its
// edges allow, a GPU op when an engine of its class is free (one per copy
// direction, or one shared where the device has one copy engine; as many
// kernels at once as the run itself ran), engines taking work in the order
// it became ready; an op runs at its lone speed, slowed by the graph's
// factors while a rival runs beside it (RunGraph::kernelSlowdown and
// copySlowdown), each op's rate changing as rivals start and end. Nodes with
// no incoming edge start where they were measured. A cycle (a fix made
// one) loses its weakest inferred waits, counted. Deterministic: the same
// graph gives the same schedule.
ReplayResult replayGraph(const RunGraph& graph);

} // namespace ovs
