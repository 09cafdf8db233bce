#pragma once

#include <cstddef>
#include <future>

namespace ovs {

// Below this many ops a thread costs more than the work it takes over.
inline constexpr std::size_t kParallelOps = 100'000;

// How independent parts of a run's analysis are started: on a thread of
// their own for a big run (the machine's second core takes them), else
// deferred, run where their result is asked for. Either way the result is
// the same: the parts share nothing but the const run.
inline std::launch launchPolicyFor(std::size_t ops)
{
    return ops >= kParallelOps ? std::launch::async : std::launch::deferred;
}

} // namespace ovs
