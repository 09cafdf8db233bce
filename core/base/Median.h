#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ovs {

// The median of `values`: of an even count, the upper of the two middle
// values (no average: a step time stays one that was measured); T{} of none.
template <typename T>
T upperMedian(std::vector<T> values)
{
    if (values.empty())
        return T{};
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace ovs
