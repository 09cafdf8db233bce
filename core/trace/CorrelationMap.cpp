#include "trace/CorrelationMap.h"

#include "base/SortedRuns.h"

#include <algorithm>

namespace ovs {

namespace {

// Ids up to this many per pair (plus a little) are indexed directly: an
// array of 4 bytes per id is then at most the size of the sorted pairs.
constexpr std::uint64_t kDenseIdsPerPair = 2;
constexpr std::uint64_t kDenseSlack = 4096;

} // namespace

void CorrelationMap::finish()
{
    std::uint32_t most = 0;
    for (const Pair& p : m_pairs)
        most = std::max(most, p.id);
    if (m_pairs.empty())
        return;
    if (static_cast<std::uint64_t>(most) <= kDenseIdsPerPair * m_pairs.size() + kDenseSlack) {
        m_dense.assign(static_cast<std::size_t>(most) + 1, kNone);
        for (const Pair& p : m_pairs)
            if (m_dense[p.id] == kNone)
                m_dense[p.id] = p.index;
        m_pairs.clear();
        m_pairs.shrink_to_fit();
        return;
    }
    // Stable: of the pairs of one id, the first added stays first.
    sortSortedRuns(m_pairs, [](const Pair& a, const Pair& b) { return a.id < b.id; }); // ids rise along each lane
    m_pairs.erase(std::unique(m_pairs.begin(), m_pairs.end(), [](const Pair& a, const Pair& b) { return a.id == b.id; }),
                  m_pairs.end());
}

std::uint32_t CorrelationMap::find(std::uint32_t id) const
{
    if (!m_dense.empty())
        return id < m_dense.size() ? m_dense[id] : kNone;
    const auto it = std::lower_bound(m_pairs.begin(), m_pairs.end(), id,
                                     [](const Pair& p, std::uint32_t v) { return p.id < v; });
    return it != m_pairs.end() && it->id == id ? it->index : kNone;
}

} // namespace ovs
