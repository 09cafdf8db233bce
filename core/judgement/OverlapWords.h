#pragma once

#include "judgement/RunMetrics.h"

#include <string>

namespace ovs {

// Below this share of the other, copies or kernels are too short for their
// overlap to matter: "0% overlap" then means nothing to overlap, not a
// pipeline that failed to overlap.
inline constexpr double kTooShortToOverlap = 0.05;

// Overlap in words: "kernels are 0.2% of copy time: nothing to hide copies
// behind" where one side is too short to matter, else "copies ran under
// kernels 84% of the time they could (4.1 of 4.9 ms)"; empty where the run
// has no copies or no kernels.
std::string overlapInWords(const RunMetrics& metrics);

// True when one side is under kTooShortToOverlap of the other.
bool overlapTooShortToMatter(const RunMetrics& metrics);

} // namespace ovs
