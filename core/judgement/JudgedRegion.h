#pragma once

#include "trace/Run.h"

#include <cstdint>

namespace ovs {

// Where the window aligns runs with View > Align runs and in lessons: their
// timed regions. Not the judged span (JudgedSpan.h): the window asks this on
// every conversion of a time to the axis, and the judged span costs a pass
// over the run's ops. A comparison (File > Compare, `overlapscope export
// --compare`) has judged its runs already, on a worker, and aligns them at
// their judged spans (TraceDiff's RunSide::judgedBeginNs).
struct JudgedRegion {
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;

    std::int64_t lengthNs() const;
};

JudgedRegion judgedRegion(const Run& run);

} // namespace ovs
