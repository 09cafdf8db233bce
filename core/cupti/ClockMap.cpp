#include "cupti/ClockMap.h"

#include <algorithm>
#include <cmath>

namespace ovs::cupti {

namespace {

// No clock reading comes near this (it is 146 years of ns): a pair beyond it
// is a damaged stream's, and keeping pairs below it keeps every offset and
// difference between them within range.
constexpr std::int64_t kMaxClockNs = std::int64_t(1) << 62;

// A time plus an offset, wrapping rather than overflowing on a damaged
// stream's times (the caller clamps what comes out).
std::int64_t plus(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

} // namespace

bool ClockMap::add(std::uint64_t cuptiNs, std::int64_t monotonicNs)
{
    const auto c = static_cast<std::int64_t>(cuptiNs);
    if (cuptiNs >= std::uint64_t(kMaxClockNs) || monotonicNs < 0 || monotonicNs >= kMaxClockNs)
        return false;
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
        return plus(c, next->offsetNs);
    const Pair& before = *(next - 1);
    if (next == m_pairs.end())
        return plus(c, before.offsetNs);
    const double f = static_cast<double>(c - before.cuptiNs) / static_cast<double>(next->cuptiNs - before.cuptiNs);
    return c + before.offsetNs + std::llround(f * static_cast<double>(next->offsetNs - before.offsetNs));
}

} // namespace ovs::cupti
