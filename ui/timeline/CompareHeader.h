#pragma once

#include "document/Comparison.h"

#include <QString>

namespace ovs::ui {

// The header above a comparison's timelines (the window and the export
// alike): the two files, then per pair of runs what the active span saved,
// the wall time, the overlap achieved of possible, each engine's busy time
// and the findings resolved, changed and new, with their costs. The numbers
// are core's TraceDiff's, as `overlapscope-cli diff` prints them. Lines
// end with '\n'.
QString compareHeaderText(const Comparison& comparison);

} // namespace ovs::ui
