#pragma once

// Every GPU op's launch: when and where it was enqueued, and when its GPU
// work ended. What decides the judged span, each region's GPU work and so
// each step's span (judgement/JudgedSpan.h): an analysis finds them once
// (RunAnalysis.cpp) and lets them go once the spans are decided.

#include "trace/Run.h"

#include <cstdint>
#include <vector>

namespace ovs {

// A GPU op and when and where it was enqueued: its API call's begin and
// thread by correlation, else (no call known) its own start on no thread.
struct Launch {
    std::int64_t enqueuedNs = 0;
    std::int64_t gpuEndNs = 0; // the later of its event end and its engine end: the host may wait for either
    std::uint16_t lane = Region::kNoLane;
    std::uint32_t op = 0;
};

// Every GPU op of the run by enqueue time.
std::vector<Launch> launchesOf(const Run& run);

} // namespace ovs
