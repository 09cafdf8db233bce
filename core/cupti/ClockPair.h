#pragma once

#include "cupti/Library.h"

#include <cstdint>

namespace ovs::cupti {

// A CUPTI timestamp and the host's clocks read together: what ClockMap
// places CUPTI's times on the host clock by. The CUDA device adds pairs to
// its own ClockMap; the injection library writes them into the record
// stream (ClockRecord), whose reader builds one.
struct ClockPair {
    std::uint64_t cuptiNs = 0;
    // CLOCK_MONOTONIC, which is steady_clock on Linux: the clock the CUDA
    // device's host times and a profile's run times are on.
    std::int64_t monotonicNs = 0;
    // CLOCK_REALTIME, read just after: places a profile on the wall clock
    // (ranks of one job are aligned by it).
    std::int64_t realtimeNs = 0;
};

// CLOCK_MONOTONIC now, in ns: the clock of ClockPair::monotonicNs.
std::int64_t monotonicNowNs();

// Reads a pair: the CUPTI reading lies between two monotonic readings, and
// of several tries the pair read closest together (least preempted) bounds
// the error best; its monotonic time is their midpoint. CUPTI's error when
// cuptiGetTimestamp fails (`pair` is then left as it was).
CUptiResult readClockPair(const Library::Api& api, ClockPair* pair);

} // namespace ovs::cupti
