#include "cupti/ClockMap.h"

#include <algorithm>
#include <cmath>

namespace ovs::cupti {

bool ClockMap::add(std::uint64_t cuptiNs, std::int64_t monotonicNs)
{
    const auto c = static_cast<std::int64_t>(cuptiNs);
    if (!m_pairs.empty() && c <= m_pairs.back().cuptiNs)
        return false;
    m_pairs.push_back({c, monotonicNs - c});
    if (m_maxPairs != 0 && m_pairs.size() > m_maxPairs)
        m_pairs.erase(m_pairs.begin(), m_pairs.begin() + static_cast<std::ptrdiff_t>(m_pairs.size() / 2));
    return true;
}

std::int64_t ClockMap::toMonotonic(std::uint64_t cuptiNs) const
{
    const auto c = static_cast<std::int64_t>(cuptiNs);
    if (m_pairs.empty())
        return c;
    const auto next = std::upper_bound(m_pairs.begin(), m_pairs.end(), c,
                                       [](std::int64_t v, const Pair& p) { return v < p.cuptiNs; });
    if (next == m_pairs.begin())
        return c + next->offsetNs;
    const Pair& before = *(next - 1);
    if (next == m_pairs.end())
        return c + before.offsetNs;
    const double f = static_cast<double>(c - before.cuptiNs) / static_cast<double>(next->cuptiNs - before.cuptiNs);
    return c + before.offsetNs + std::llround(f * static_cast<double>(next->offsetNs - before.offsetNs));
}

} // namespace ovs::cupti
