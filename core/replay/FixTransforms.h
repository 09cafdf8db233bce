#pragma once

#include "replay/Fix.h"
#include "replay/RunGraph.h"

namespace ovs {

// The pinned copy rates a pageable copy moves at once its memory is pinned
// (decimal GB/s, i.e. bytes per ns); 0: unknown, and the fix cannot apply.
struct FixRates {
    double pinnedH2DGBps = 0;
    double pinnedD2HGBps = 0;
};

// `graph` with `fixes` applied, each a transform of the graph
// (docs/what-if.md, "Fixes"). `applied` (optional) gets the fixes that
// changed something: a fix with nothing to act on leaves the graph as it was.
RunGraph applyFixes(const RunGraph& graph, FixSet fixes, const FixRates& rates, FixSet* applied = nullptr);
// The same in place: `graph` becomes the fixed graph. Returns the fixes that
// changed something; with none, `graph` is as it was.
FixSet applyFixesInPlace(RunGraph& graph, FixSet fixes, const FixRates& rates);

} // namespace ovs
