#pragma once

#include "base/DeviceInfo.h"
#include "base/HostMemoryKind.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// One measured cell of the transfer benchmark: a size, a host memory kind and
// a direction, timed by events over several samples.
struct BandwidthPoint {
    std::uint64_t bytes = 0;
    HostMemoryKind memory = HostMemoryKind::Pinned;
    // "HtoD", "DtoH", or "bidir" (H2D and D2H at once, pinned)
    std::string direction;
    std::vector<double> samplesMs; // in the order measured
    double medianMs = 0;           // the 6th of 10 sorted, as the seed
    double gbps = 0;               // decimal GB/s: bytes moved / (ms * 1e6)
};

// One measured host memcpy cell: `bytes` from pageable into pinned memory,
// cut into `threads` parts copied at once (as the staging copies of the
// overlapped path are), timed on the host clock around the whole copy, so the
// hand-off to the threads is part of it.
struct HostCopyPoint {
    int threads = 1;
    std::uint64_t bytes = 0;
    std::vector<double> samplesMs; // in the order measured
    double medianMs = 0;
    double gbps = 0; // all threads together: bytes / (medianMs * 1e6)
};

struct BandwidthSweep {
    DeviceInfo device;
    std::string timing; // "cuda-events" or "simulated"
    int warmups = 0;
    int samples = 0;
    // As a run's: a cancelled or failed sweep keeps the cells measured before
    // it stopped, and `error` says why it stopped.
    RunStatus status = RunStatus::Completed;
    std::string error;
    std::vector<BandwidthPoint> points;
    // Host memcpy for 1, 2, 4 ... N threads: the host-staging bound's rate.
    std::vector<HostCopyPoint> hostCopies;
};

// Median as the seed takes it: the element at index n/2 of the sorted samples
// (the 6th of 10).
double medianOf(std::vector<double> samples);

} // namespace ovs
