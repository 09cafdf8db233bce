#pragma once

#include "device/DeviceTypes.h"
#include "sim/SimPreset.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <string>
#include <vector>

namespace ovs {

// The rates a run's bounds are computed from, decimal GB/s, with where each
// came from: a bound is only as good as its rates, so every output says it.
// A rate of 0 is unknown.
struct TransferRates {
    double pinnedH2DGBps = 0;
    double pinnedD2HGBps = 0;
    // End to end, including the driver's staging through its own pinned buffer.
    double pageableH2DGBps = 0;
    double pageableD2HGBps = 0;
    double hostMemcpyGBps = 0; // one host thread, pageable <-> pinned
    // Pinned HtoD and DtoH at once, both directions together: the link and
    // host memory share some bandwidth (99 GB/s on the H200, not 2 x 55).
    double bidirectionalGBps = 0;
    double kernelGBps = 0;     // increment kernel: bytes read + written per second, as SimPreset counts it

    std::string source;       // of the copy rates
    std::string hostSource;   // of hostMemcpyGBps
    std::string kernelSource; // of kernelGBps

    // The link rate a copy from or to `memory` can reach; registered memory
    // is page-locked, so it moves at pinned rates.
    double h2dGBps(HostMemoryKind memory) const;
    double d2hGBps(HostMemoryKind memory) const;
};

// Copy rates from a sweep: the medians of its largest size, where the fixed
// per-copy cost matters least.
TransferRates ratesFromSweep(const BandwidthSweep& sweep);
TransferRates ratesFromPreset(const SimPreset& preset);
// Best rate any single op of the run reached, per kind and memory kind; host
// memcpy per thread from the run's staging copies.
TransferRates ratesFromRunOps(const Run& run);

// The rates to judge `run` by: copy rates from a sweep of the same device in
// `sweeps`, else the run's simulator preset, else the run's own ops; host
// memcpy from the run's own staging copies, else the preset, else an assumed
// 6 GB/s; kernel rate from the preset, else the run's kernels.
TransferRates transferRatesFor(const Run& run, const std::vector<BandwidthSweep>& sweeps);

} // namespace ovs
