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
    // The newest version this build reads and writes. A trace is written in
    // the oldest version that holds it (formatVersion()): 9 only when a run
    // has unified-memory ops (their counters and causes as fields), 8 only
    // when a run has call sources or recorded stacks, 7 only when a run
    // has kernels' launch shapes, 6 only when a run says its rank, 5 only when one has unified-memory ops, 4 only when one
    // has regions, 3 only when one uses several devices, else 2, byte for
    // byte what version-2 readers read; older readers refuse a newer file
    // ("update") rather than drop what it holds.
    static constexpr int kFormatVersion = 9;
    static constexpr int kUnifiedMemoryFieldsFormatVersion = 9;
    static constexpr int kSourcesFormatVersion = 8;
    static constexpr int kKernelShapesFormatVersion = 7;
    static constexpr int kRanksFormatVersion = 6;
    static constexpr int kUnifiedMemoryFormatVersion = 5;
    static constexpr int kRegionsFormatVersion = 4;
    static constexpr int kSeveralDevicesFormatVersion = 3;
    static constexpr int kSingleDeviceFormatVersion = 2;

    int formatVersion() const
    {
        int version = kSingleDeviceFormatVersion;
        for (const auto& run : runs)
            if (run.usesUnifiedMemory())
                return kUnifiedMemoryFieldsFormatVersion;
        for (const auto& run : runs)
            if (run.usesSources())
                return kSourcesFormatVersion;
        for (const auto& run : runs)
            if (run.usesKernelShapes())
                return kKernelShapesFormatVersion;
        for (const auto& run : runs)
            if (run.rank >= 0)
                return kRanksFormatVersion;
        for (const auto& run : runs)
            if (run.usesUnifiedMemory())
                return kUnifiedMemoryFormatVersion;
        for (const auto& run : runs) {
            if (!run.regions.empty())
                return kRegionsFormatVersion;
            if (run.usesSeveralDevices())
                version = kSeveralDevicesFormatVersion;
        }
        return version;
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
