#pragma once

#include "replay/RunGraph.h"
#include "base/Saturating.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
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

// Replays graphs one after another in memory it keeps: a what-if replays a
// run's graph once per fix set, and fresh memory for each replay (tens of
// MB for a million nodes, every page faulted in anew) cost more than the
// scheduling itself.
class Replayer {
public:
    // What replayGraph(graph) gives; valid until the next replay.
    const ReplayResult& replay(const RunGraph& graph);
    ReplayResult result() && { return std::move(m_result); }

private:
    using Entry = std::tuple<std::int64_t, std::int64_t, std::uint32_t>; // ready, measured begin (ties), point
    ReplayResult m_result;
    std::vector<std::uint32_t> m_offset; // outgoing edges per point, as offsets into m_out (CSR)
    std::vector<std::uint32_t> m_out;
    std::vector<std::uint32_t> m_fill;
    std::vector<int> m_pending;
    std::vector<std::int64_t> m_ready;
    std::vector<std::int64_t> m_time;
    std::vector<Entry> m_queue; // a heap, earliest first
};

} // namespace ovs
