#pragma once

// Correlation id -> an index (an op, a graph node): how a GPU op finds the
// host call that enqueued it and a call its GPU op. Built once per use from
// (id, index) pairs; the first pair of an id wins, as a hash map's emplace
// would have it.
//
// Why not std::unordered_map: a big profile matches millions of pairs, and a
// node per pair cost more in allocation and cache misses than the analysis
// around it (docs/timeline-performance.md). CUPTI and Kineto count ids up
// from 1, so where the ids are compact (at most a few per pair) the map is
// one array indexed by id; otherwise the pairs sorted by id, searched.

#include <cstdint>
#include <vector>

namespace ovs {

class CorrelationMap {
public:
    static constexpr std::uint32_t kNone = UINT32_MAX;

    void reserve(std::size_t pairs) { m_pairs.reserve(pairs); }
    // Id 0 means "no correlation" and is never added.
    void add(std::uint32_t id, std::uint32_t index)
    {
        if (id != 0)
            m_pairs.push_back({id, index});
    }
    // Builds the lookup from the pairs added; add nothing after it.
    void finish();
    // The index of `id`; kNone where it has none (and for id 0).
    std::uint32_t find(std::uint32_t id) const;
    bool empty() const { return m_dense.empty() && m_pairs.empty(); }

private:
    struct Pair {
        std::uint32_t id;
        std::uint32_t index;
    };
    std::vector<Pair> m_pairs;          // until finish(); then, where sparse, sorted by id
    std::vector<std::uint32_t> m_dense; // id -> index, where the ids are compact
};

} // namespace ovs
