#pragma once

#include <cstdint>

namespace ovs::cupti {

// Whether a GPU activity record (copy, memset, kernel) carries an interval we
// can use. The CUDA device drops the others; the profile drops them and counts
// them as untimed (its loss record).
//
// CUPTI leaves start and end 0 when it has no times for a record: work still
// in flight at a forced flush (seen on the H200: an upload in flight lost its
// record), or torn down with its context. The rule is wider than "both 0" on
// purpose: a start of 0 with some end would put the op at CUPTI's epoch, hours
// before the run, and an end before the start would give it a negative
// length; either breaks lane order and every busy-time sum downstream. So a
// record is untimed when start == 0 or end < start. (end == start is a real,
// if tiny, interval.)
constexpr bool isTimed(std::uint64_t startNs, std::uint64_t endNs)
{
    return startNs != 0 && endNs >= startNs;
}

} // namespace ovs::cupti
