#pragma once

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <string>
#include <vector>

namespace ovs {

// Everything one recording holds: pipeline runs to compare on one time axis
// and bandwidth sweeps.
struct Trace {
    static constexpr int kFormatVersion = 2;

    std::string tool;       // "overlapscope-cli 0.1.0"
    std::string createdUtc; // ISO 8601
    std::vector<Run> runs;
    std::vector<BandwidthSweep> sweeps;
};

} // namespace ovs
