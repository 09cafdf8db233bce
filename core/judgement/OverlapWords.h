#pragma once

#include "judgement/RunMetrics.h"

#include <string>

namespace ovs {

// Overlap in words: "kernels are 0.2% of copy time: nothing to hide copies
// behind" where one side is too short to matter, else "copies ran under
// kernels 84% of the time they could (4.1 of 4.9 ms)"; empty where the run
// has no copies or no kernels.
std::string overlapInWords(const RunMetrics& metrics);

// True when one side is under thresholds::kTooShortToOverlap (base/Thresholds.h)
// of the other.
bool overlapTooShortToMatter(const RunMetrics& metrics);

} // namespace ovs
