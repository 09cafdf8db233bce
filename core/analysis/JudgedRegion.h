#pragma once

#include "trace/Run.h"

#include <cstdint>

namespace ovs {

// Where the window aligns runs (View > Align runs, File > Compare,
// `overlapscope export --compare`): their timed regions. Not the judged span
// (JudgedSpan.h), which `diff` compares: the window asks this on every
// conversion of a time to the axis, and the judged span costs a pass over
// the run's ops; aligning at it needs the document to keep it per run.
struct JudgedRegion {
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;

    std::int64_t lengthNs() const;
};

JudgedRegion judgedRegion(const Run& run);

} // namespace ovs
