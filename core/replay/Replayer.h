#pragma once

#include "replay/EdgesByPoint.h"
#include "replay/Replay.h"
#include "replay/RunGraph.h"

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace ovs {

// Replays graphs one after another in memory it keeps: a what-if replays a
// run's graph once per fix set, and fresh memory for each replay (tens of
// MB for a million nodes, every page faulted in anew) cost more than the
// scheduling itself.
class Replayer {
public:
    // What replayGraph(graph) gives; valid until the next replay. Without
    // `nodeTimes` the result holds only the span (what a fix saves), not
    // each node's times: two arrays of the graph's size fewer.
    const ReplayResult& replay(const RunGraph& graph, bool nodeTimes = true);
    ReplayResult result() && { return std::move(m_result); }
    // Sizes the replay's memory for a graph of `nodes` and `edges` and
    // touches it, so that its first replay finds it in place: made ahead on
    // an idle core, for a thread that replays a big graph next (fresh pages
    // cost that first replay a fifth of its time).
    void prepare(std::size_t nodes, std::size_t edges);
    // A node's begin or end in the last replay, where it was ok, read where
    // the replay keeps it: for a reader of a few nodes' times (the steps'
    // lengths) that needs no copy of every node's.
    std::int64_t timeOf(std::uint32_t node, bool end) const { return m_time[2 * std::size_t(node) + (end ? 1 : 0)]; }

private:
    // A point ready to happen: when, its node's measured begin (ties), the
    // point (unique: every entry's key differs, so any heap takes them in
    // one order).
    struct Entry {
        std::int64_t at;
        std::int64_t tie;
        std::uint32_t point;
        bool operator<(const Entry& o) const { return std::tie(at, tie, point) < std::tie(o.at, o.tie, o.point); }
    };
    ReplayResult m_result;
    EdgesOutOfNode m_outOf; // the edges out of each node's points
    // Per point: how many of its waits are left (8 bits: replay()).
    std::vector<std::uint8_t> m_pending;
    // Per point: when it may happen while it waits, then, once it is taken
    // from the queue (nothing waits on it after), when it happened.
    std::vector<std::int64_t> m_time;
    // A 4-ary heap, earliest first: half a binary heap's levels, a node's
    // children side by side. Every point of the graph passes through it: a
    // replay of the 2 GB Kineto trace's graph (3.6 M nodes) took 0.355 s on
    // std::push_heap and std::pop_heap, 0.283 s on this.
    std::vector<Entry> m_queue;
    // The replay, with each point's count of waits left in `pending`.
    template <class Count>
    const ReplayResult& replayCounted(const RunGraph& g, bool nodeTimes, std::vector<Count>& pending);
    void push(const Entry& e);
    Entry pop();
};

} // namespace ovs
