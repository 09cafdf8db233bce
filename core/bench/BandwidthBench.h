#pragma once

#include "device/Device.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"
#include "trace/BandwidthSweep.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// The seed's transfer benchmark: per size, pageable and pinned, HtoD and DtoH
// (plus pinned HtoD and DtoH at once), each cell warmed up and then timed by
// events around the copy, reported as the median. Then host memcpy from
// pageable into pinned memory on 1, 2, 4 ... N threads, timed on the host
// clock: the rate the host-staging bound is judged by, measured apart from
// any pipeline run.
// The limits validate() holds a sweep to.
inline constexpr std::uint64_t kMaxTransferBytes = 16ull << 30;
inline constexpr int kMaxWarmups = 1000;
inline constexpr int kMaxSamples = 10000;

struct BenchConfig {
    std::vector<std::uint64_t> sizes = {1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20};
    int warmups = 3;
    int samples = 10;
    bool pageable = true;
    bool pinned = true;
    bool bidirectional = true;
    bool hostCopy = true;
    std::uint64_t hostCopyBytes = 32ull << 20; // the seed's chunk: what one staging copy moves
    // Thread counts to measure; empty: defaultHostCopyThreads of the device.
    std::vector<int> hostCopyThreads;
};

// 1, 2, 4 ... up to N, and N itself: N is the staging-thread limit
// (HostCopyPool::kMaxThreads) on a simulated device, so its output is the
// same on every machine, and the hardware threads (at most that limit) on a
// real one.
std::vector<int> defaultHostCopyThreads(const DeviceInfo& device);

// Empty when the configuration is possible, else what is wrong.
std::string validate(const BenchConfig& config);

// Runs the sweep; each finished cell goes to sink.bandwidthMeasured as it
// completes. Never throws for run-time trouble, as runPipeline: a bad
// configuration, a device error, running out of host memory and cancellation
// come back as a sweep whose status and error say what happened, with every
// cell measured before it. The sink sees sweepStarted (unless the
// configuration is refused), the cells, and always sweepFinished.
BandwidthSweep runBandwidthSweep(Device& device, const BenchConfig& config, RecordSink& sink, const CancelFlag& cancel);

} // namespace ovs
