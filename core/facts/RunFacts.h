#pragma once

// What every analysis of one run shares, worked out once per run rather than
// once per span judged: each name's call role (NameRoles), and every GPU op's
// launch, by enqueue time (what decides the judged span, each region's GPU
// work and each step's span). The whole span's analysis, each step's view and
// the judged span itself read these (RunAnalysis.cpp builds them once).

#include "trace/NameRoles.h"
#include "trace/Run.h"

#include <cstdint>
#include <memory>
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

struct RunFacts {
    explicit RunFacts(const Run& run);

    std::shared_ptr<const NameRoles> roles;
    std::vector<Launch> launches; // launchesOf
};

} // namespace ovs
