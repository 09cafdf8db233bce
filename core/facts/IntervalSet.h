#pragma once

#include <cstdint>
#include <vector>

namespace ovs {

// A half-open time interval [beginNs, endNs).
struct Interval {
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;
};

// A set of instants kept as sorted, disjoint, non-touching intervals. Engine
// busy time is the length of such a union: two streams' overlapping copies on
// one engine must count once, not twice.
class IntervalSet {
public:
    IntervalSet() = default;
    // Sorts and merges; empty and inverted intervals are dropped, overlapping
    // and touching ones joined.
    explicit IntervalSet(std::vector<Interval> intervals);

    const std::vector<Interval>& pieces() const { return m_pieces; }
    bool isEmpty() const { return m_pieces.empty(); }
    std::int64_t length() const;

    IntervalSet united(const IntervalSet& other) const;
    IntervalSet intersected(const IntervalSet& other) const;
    IntervalSet clipped(std::int64_t beginNs, std::int64_t endNs) const;

private:
    std::vector<Interval> m_pieces;
};

} // namespace ovs
