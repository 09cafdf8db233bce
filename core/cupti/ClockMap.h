#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ovs::cupti {

// Places CUPTI timestamps on the host's monotonic clock (steady_clock, which
// is CLOCK_MONOTONIC on Linux) from pairs of readings taken together
// (ClockPair.h reads them). Between two pairs the offset is interpolated
// linearly, so a drift between the clocks does not build up over a long run;
// before the first and after the last pair, the nearest pair's offset holds.
//
// The one mapping of both CUPTI users: the CUDA device keeps one for its
// engine records, and a profile's reader builds one from the pairs in the
// record stream. Needs no CUPTI headers (the reader builds everywhere).
class ClockMap {
public:
    // `maxPairs` (0: no limit): past it, the older half is forgotten. A
    // process that keeps one device for hours (the window) adds a pair per
    // flush; a profile's stream adds one per half second and is read once.
    explicit ClockMap(std::size_t maxPairs = 0) : m_maxPairs(maxPairs) {}

    // Pairs must come in increasing CUPTI time; one that does not is ignored
    // (a clock step would otherwise fold the mapping back on itself), and
    // add says so. So is one no clock could read (2^62 ns or more, or a
    // negative host time): a damaged stream's, whose offsets would overflow.
    bool add(std::uint64_t cuptiNs, std::int64_t monotonicNs);
    bool empty() const { return m_pairs.empty(); }
    void clear() { m_pairs.clear(); }
    // Monotonic ns for a CUPTI time; the CUPTI time itself when no pair is known.
    std::int64_t toMonotonic(std::uint64_t cuptiNs) const;

private:
    struct Pair {
        std::int64_t cuptiNs = 0;
        std::int64_t offsetNs = 0; // monotonic - cupti
    };
    std::size_t m_maxPairs = 0;
    std::vector<Pair> m_pairs;
};

} // namespace ovs::cupti
