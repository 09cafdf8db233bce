#pragma once

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// Everything one recording holds: pipeline runs to compare on one time axis
// and bandwidth sweeps.
struct Trace {
    // The newest version this build reads and writes. A trace is written as
    // version 3 only when it uses several devices (formatVersion()), so a
    // single-GPU trace stays version 2, byte for byte, and older readers
    // keep opening it; they refuse a multi-GPU one rather than misread it.
    static constexpr int kFormatVersion = 3;
    static constexpr int kSingleDeviceFormatVersion = 2;

    int formatVersion() const
    {
        for (const auto& run : runs)
            if (run.usesSeveralDevices())
                return kFormatVersion;
        return kSingleDeviceFormatVersion;
    }
    // Every time in a loaded trace is below 2^62 ns (146 years), so the sum
    // or difference of any two times fits in 64 bits; the loader refuses
    // runs beyond it.
    static constexpr std::int64_t kTimeLimitNs = std::int64_t(1) << 62;

    std::string tool;       // "overlapscope-cli 0.1.0"
    std::string createdUtc; // ISO 8601
    std::vector<Run> runs;
    std::vector<BandwidthSweep> sweeps;
};

} // namespace ovs
