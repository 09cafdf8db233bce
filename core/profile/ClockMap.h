#pragma once

#include <cstdint>
#include <vector>

namespace ovs::profile {

// Places CUPTI timestamps on the host's monotonic clock from pairs of
// readings taken together (ClockRecord). Between two pairs the offset is
// interpolated linearly, so a drift between the clocks does not build up over
// a long run; before the first and after the last pair, the nearest pair's
// offset holds.
class ClockMap {
public:
    // Pairs must come in increasing CUPTI time; one that does not is ignored
    // (a clock step would otherwise fold the mapping back on itself).
    void add(std::uint64_t cuptiNs, std::int64_t monotonicNs);
    bool empty() const { return m_pairs.empty(); }
    // Monotonic ns for a CUPTI time; the CUPTI time itself when no pair is known.
    std::int64_t toMonotonic(std::uint64_t cuptiNs) const;

private:
    struct Pair {
        std::int64_t cuptiNs = 0;
        std::int64_t offsetNs = 0; // monotonic - cupti
    };
    std::vector<Pair> m_pairs;
};

} // namespace ovs::profile
