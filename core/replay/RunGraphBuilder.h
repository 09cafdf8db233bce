#pragma once

#include "replay/RunGraph.h"
#include "trace/NameRoles.h"
#include "trace/Run.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// The legacy default stream of its context, by the lane's typed fact, or
// for traces written before it, by the names older writers gave it.
bool isLegacyStream(const Lane& lane);

struct GraphBuild {
    std::optional<RunGraph> graph;
    std::string why; // why there is no graph; empty when there is one
};

// The graph of the ops of `run` that begin in [beginNs, endNs) (the judged
// span; the run's timed region by default). What each op waited for comes
// from the trace where it says (correlation ids join calls to their GPU
// work; a synchronize names its kind) and is inferred from the times where it
// does not (docs/what-if.md, "The graph"):
// - a synchronize or a wait waited for the GPU op it returned after: the
//   latest-ending one enqueued before it, ending before it returned;
// - a GPU op with no enqueueing call (our pipelines record none) was released
//   by the host op of its chunk that ended last before it began;
// - a GPU op that began later than its stream, its call and its engine allow
//   waited for the op of another stream that ended last before it (an event
//   wait the trace does not name).
// `roles`: the run's names decided once (made here where not given); `ops`:
// a view's ranges (opRangesIn), the only ops looked at, where given.
// `meanwhile`, where given, is called with the graph built, its model
// described, while a big graph is checked for cycles on the other core: it
// may change the nodes' states and the model, never the edges. Where a
// cycle must be broken, the graph it saw loses the edges that close it.
GraphBuild buildRunGraph(const Run& run, std::int64_t beginNs, std::int64_t endNs, const NameRoles* roles = nullptr,
                         const std::vector<OpRange>* ops = nullptr,
                         const std::function<void(RunGraph&)>& meanwhile = {});

// Chunks where the run numbers none (profiled programs): the GPU nodes of
// `streams` (each stream's nodes in stream order) whose chunk is -1 are
// numbered from `first`: on each stream a chunk begins at an upload that
// follows other work, and the chunks are numbered across streams in the
// order their first ops began. Returns the next free number. The graph's
// builder numbers them so, and a fix that moves copies onto a kernel's
// stream numbers that stream again, since the chunks it inferred there
// before (kernels alone) say nothing of the copies now beside them.
int numberChunks(RunGraph& g, const std::map<int, std::vector<std::uint32_t>>& streams, int first);
GraphBuild buildRunGraph(const Run& run);

} // namespace ovs
