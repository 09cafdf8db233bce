#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace ovs::ui {

// Time arithmetic on loaded traces, which may hold times near 2^63 ns: sums
// and differences that would overflow stop at the int64 limits instead
// (signed overflow is undefined behaviour), and doubles become int64 only
// through toNsSaturated.

inline std::int64_t addSaturated(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

inline std::int64_t subSaturated(std::int64_t a, std::int64_t b)
{
    std::int64_t difference = 0;
    if (!__builtin_sub_overflow(a, b, &difference))
        return difference;
    return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// Rounds to the nearest int64; NaN becomes 0, out-of-range values the nearest limit.
inline std::int64_t toNsSaturated(double ns)
{
    if (std::isnan(ns))
        return 0;
    // 2^63 is exact as a double; every double below it fits in int64.
    constexpr double kLimit = 9223372036854775808.0;
    if (ns >= kLimit)
        return std::numeric_limits<std::int64_t>::max();
    if (ns <= -kLimit)
        return std::numeric_limits<std::int64_t>::min();
    const double rounded = std::round(ns);
    if (rounded >= kLimit)
        return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(rounded);
}

} // namespace ovs::ui
