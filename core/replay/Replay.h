#pragma once

#include "replay/RunGraph.h"
#include "base/Saturating.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

struct ReplayResult {
    bool ok = false;
    std::string why;                 // why not, when !ok (a cycle in the graph)
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
// it became ready. Nodes with no incoming edge start where they were
// measured. Deterministic: the same graph gives the same schedule.
ReplayResult replayGraph(const RunGraph& graph);

} // namespace ovs
