#pragma once

#include "replay/Fix.h"
#include "replay/RunGraph.h"

#include <array>

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

// The order applyFixesInPlace applies a set's fixes in; where fixes meet,
// it matters (FixTransforms.cpp says why).
inline constexpr std::array<Fix, kFixCount> kFixOrder = {
    Fix::PrefetchManaged, Fix::PinHostMemory,  Fix::HoistAllocations, Fix::AsyncCopies,
    Fix::NonBlockingStreams, Fix::StreamPerChunk, Fix::RemoveHostSync,
};

// Whether `added`, applied in place to a graph with `applied` applied,
// gives the graph with applied | added applied: each fix's transform reads
// only the graph, so where every fix of `added` comes after every one of
// `applied` in kFixOrder, the transforms run as for the whole set. Not
// with AsyncCopies on either side: its transform reads the whole set.
bool appliesAfter(FixSet applied, FixSet added);

} // namespace ovs
