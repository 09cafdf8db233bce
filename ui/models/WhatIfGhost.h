#pragma once

#include "document/RunTimeline.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ovs::ui {

// A run as the replay has it with a set of fixes applied (core's WhatIf::replayedRun),
// as the timeline draws it under the measured run: its "ghost".
struct WhatIfGhost {
    std::shared_ptr<const RunTimeline> run; // null where the run could not be replayed
    std::string why;                        // why not; empty when replayed
    // The replayed span with the fixes, and the replay of the unchanged run
    // (both the GPU's active span, as WhatIfSummary counts it).
    std::int64_t spanNs = 0;
    std::int64_t unchangedSpanNs = 0;
    std::int64_t measuredSpanNs = 0;
};

} // namespace ovs::ui
