#pragma once

#include "trace/Run.h"

#include <cstdint>

namespace ovs {

// The part of a run that a comparison judges: two runs are aligned where
// their judged regions begin (the window's File > Compare, `overlapscope
// export --compare`) and their wall times are its lengths (`overlapscope-cli
// diff`). Today it is the run's timed region; the active span that the diff
// compares is the analysis' (RunFindings::activeNs), which lies inside it.
// The one place that choice is made: regions (steps, steady state) will
// replace it here.
struct JudgedRegion {
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;

    std::int64_t lengthNs() const;
};

JudgedRegion judgedRegion(const Run& run);

} // namespace ovs
