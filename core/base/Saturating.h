#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ovs {

// Time and byte arithmetic on loaded data. A trace may hold any 64-bit value,
// and signed overflow is undefined behaviour, so sums, differences and
// products of such values clamp at the type's limits instead: a result that
// reaches a limit is far outside anything measured, and reads as such.

template <typename T>
constexpr T saturatingAdd(T a, T b)
{
    static_assert(std::is_integral_v<T>);
    T sum;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    if constexpr (std::is_signed_v<T>)
        return b < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    else
        return std::numeric_limits<T>::max();
}

template <typename T>
constexpr T saturatingSub(T a, T b)
{
    static_assert(std::is_integral_v<T>);
    T difference;
    if (!__builtin_sub_overflow(a, b, &difference))
        return difference;
    if constexpr (std::is_signed_v<T>)
        return b < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    else
        return T(0);
}

template <typename T>
constexpr T saturatingMul(T a, T b)
{
    static_assert(std::is_integral_v<T>);
    T product;
    if (!__builtin_mul_overflow(a, b, &product))
        return product;
    if constexpr (std::is_signed_v<T>)
        return (a < 0) != (b < 0) ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    else
        return std::numeric_limits<T>::max();
}

// Length of [begin, end): never negative, never overflowing.
constexpr std::int64_t spanNs(std::int64_t beginNs, std::int64_t endNs)
{
    return endNs > beginNs ? saturatingSub(endNs, beginNs) : 0;
}

// A double converted to an integer type; out-of-range values clamp, NaN is
// 0. A plain cast of an out-of-range double is undefined behaviour.
template <typename T>
T saturatingCast(double value)
{
    static_assert(std::is_integral_v<T>);
    if (std::isnan(value))
        return T(0);
    // 2^digits is one past the largest value and exact in a double; the
    // lowest value is 0 or -2^digits, exact too.
    const double pastHighest = std::ldexp(1.0, std::numeric_limits<T>::digits);
    const double lowest = static_cast<double>(std::numeric_limits<T>::min());
    if (value <= lowest)
        return std::numeric_limits<T>::min();
    if (value >= pastHighest)
        return std::numeric_limits<T>::max();
    return static_cast<T>(value);
}

} // namespace ovs
