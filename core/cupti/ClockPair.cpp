#include "cupti/ClockPair.h"

#include <ctime>
#include <limits>

namespace ovs::cupti {
namespace {

// Enough tries that one is rarely preempted, few enough to cost microseconds.
constexpr int kClockSamples = 5;

std::int64_t clockNs(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

} // namespace

std::int64_t monotonicNowNs()
{
    return clockNs(CLOCK_MONOTONIC);
}

CUptiResult readClockPair(const Library::Api& api, ClockPair* pair)
{
    ClockPair best;
    std::int64_t bestSpan = std::numeric_limits<std::int64_t>::max();
    for (int i = 0; i < kClockSamples; ++i) {
        std::uint64_t cupti = 0;
        const std::int64_t before = clockNs(CLOCK_MONOTONIC);
        const CUptiResult result = api.getTimestamp(&cupti);
        const std::int64_t after = clockNs(CLOCK_MONOTONIC);
        if (result != CUPTI_SUCCESS)
            return result;
        if (after - before < bestSpan) {
            bestSpan = after - before;
            best.cuptiNs = cupti;
            best.monotonicNs = before + (after - before) / 2;
        }
    }
    best.realtimeNs = clockNs(CLOCK_REALTIME);
    *pair = best;
    return CUPTI_SUCCESS;
}

} // namespace ovs::cupti
