#include "facts/IntervalSet.h"

#include "base/Saturating.h"

#include <algorithm>
#include <iterator>

namespace ovs {

IntervalSet::IntervalSet(std::vector<Interval> intervals)
{
    std::erase_if(intervals, [](const Interval& i) { return i.endNs <= i.beginNs; });
    // Most lists come sorted (a lane's ops, a set's own pieces): checking is
    // one pass, a sort of a big trace's million intervals is many. Sorted in
    // place: sortSortedRuns' merges (base/SortedRuns.h) take a temporary
    // buffer, and these lists hold a big trace's every GPU op.
    const auto byBegin = [](const Interval& a, const Interval& b) { return a.beginNs < b.beginNs; };
    if (!std::is_sorted(intervals.begin(), intervals.end(), byBegin))
        std::sort(intervals.begin(), intervals.end(), byBegin);
    // Merged in place, then kept at its own size: a big trace's index holds
    // several sets of a million pieces each, and the slack of a vector grown
    // by doubling was a fifth of the index.
    std::size_t kept = 0;
    for (std::size_t n = 0; n < intervals.size(); ++n) {
        const Interval i = intervals[n];
        if (kept > 0 && i.beginNs <= intervals[kept - 1].endNs)
            intervals[kept - 1].endNs = std::max(intervals[kept - 1].endNs, i.endNs);
        else
            intervals[kept++] = i;
    }
    intervals.resize(kept);
    if (intervals.capacity() == kept)
        m_pieces = std::move(intervals);
    else
        m_pieces.assign(intervals.begin(), intervals.end()); // one allocation of its size
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
    // Both lists are sorted: merged, not sorted again.
    std::vector<Interval> all;
    all.reserve(m_pieces.size() + other.m_pieces.size());
    std::merge(m_pieces.begin(), m_pieces.end(), other.m_pieces.begin(), other.m_pieces.end(), std::back_inserter(all),
               [](const Interval& a, const Interval& b) { return a.beginNs < b.beginNs; });
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
