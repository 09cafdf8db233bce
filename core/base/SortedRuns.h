#pragma once

// Sorting what is already sorted in runs: a run's ops listed lane by lane
// (each lane in time order), ends gathered thread by thread. std::sort and
// std::stable_sort spend n log n comparisons whatever the order; this finds
// the sorted runs in one pass and merges them pairwise, n log(runs): on a
// big trace's million calls of three threads, two passes instead of twenty.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <vector>

namespace ovs {

// Sorts [first, last) by `less`, stably: the result is std::stable_sort's.
template <typename It, typename Less = std::less<>>
void sortSortedRuns(It first, It last, Less less = {})
{
    const auto n = std::distance(first, last);
    if (n < 2)
        return;
    // Each run's begin offset; a run ends where the next value is less than
    // the one before it.
    std::vector<std::ptrdiff_t> bounds{0};
    for (std::ptrdiff_t i = 1; i < n; ++i)
        if (less(first[i], first[i - 1]))
            bounds.push_back(i);
    bounds.push_back(n);
    // Adjacent runs merged, the earlier one's equal values first: stable.
    while (bounds.size() > 2) {
        std::vector<std::ptrdiff_t> merged{0};
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            if (r + 2 < bounds.size())
                std::inplace_merge(first + bounds[r], first + bounds[r + 1], first + bounds[r + 2], less);
            merged.push_back(bounds[std::min(r + 2, bounds.size() - 1)]);
        }
        bounds = std::move(merged);
    }
}

template <typename Container, typename Less = std::less<>>
void sortSortedRuns(Container& values, Less less = {})
{
    sortSortedRuns(values.begin(), values.end(), less);
}

} // namespace ovs
