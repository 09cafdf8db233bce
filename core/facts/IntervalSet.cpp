#include "facts/IntervalSet.h"

#include "base/Saturating.h"

#include <algorithm>

namespace ovs {

IntervalSet::IntervalSet(std::vector<Interval> intervals)
{
    std::erase_if(intervals, [](const Interval& i) { return i.endNs <= i.beginNs; });
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.beginNs < b.beginNs; });
    for (const Interval& i : intervals) {
        if (!m_pieces.empty() && i.beginNs <= m_pieces.back().endNs)
            m_pieces.back().endNs = std::max(m_pieces.back().endNs, i.endNs);
        else
            m_pieces.push_back(i);
    }
}

std::int64_t IntervalSet::length() const
{
    std::int64_t total = 0;
    for (const Interval& i : m_pieces)
        total = saturatingAdd(total, spanNs(i.beginNs, i.endNs));
    return total;
}

IntervalSet IntervalSet::united(const IntervalSet& other) const
{
    std::vector<Interval> all = m_pieces;
    all.insert(all.end(), other.m_pieces.begin(), other.m_pieces.end());
    return IntervalSet(std::move(all));
}

IntervalSet IntervalSet::intersected(const IntervalSet& other) const
{
    // Both lists are sorted and disjoint: one merge-like pass.
    std::vector<Interval> out;
    std::size_t a = 0;
    std::size_t b = 0;
    while (a < m_pieces.size() && b < other.m_pieces.size()) {
        const Interval& x = m_pieces[a];
        const Interval& y = other.m_pieces[b];
        const std::int64_t lo = std::max(x.beginNs, y.beginNs);
        const std::int64_t hi = std::min(x.endNs, y.endNs);
        if (lo < hi)
            out.push_back({lo, hi});
        if (x.endNs < y.endNs)
            ++a;
        else
            ++b;
    }
    return IntervalSet(std::move(out));
}

IntervalSet IntervalSet::clipped(std::int64_t beginNs, std::int64_t endNs) const
{
    return intersected(IntervalSet({{beginNs, endNs}}));
}

} // namespace ovs
