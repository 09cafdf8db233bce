#pragma once

#include "base/HostMemoryKind.h"
#include "base/ModelRates.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <optional>
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
    // Host memcpy measured on several threads at once (all of them together),
    // ascending thread counts; empty where the rate comes from a model.
    struct HostCopyRate {
        int threads = 1;
        double gbps = 0;
    };
    std::vector<HostCopyRate> hostCopyRates;
    // A model's cap on all host threads together; 0: none.
    double hostMemoryGBps = 0;
    // Pinned HtoD and DtoH at once, both directions together: the link and
    // host memory share some bandwidth (99 GB/s on the H200, not 2 x 55).
    double bidirectionalGBps = 0;
    double kernelGBps = 0;     // increment kernel: bytes read + written per second, as SimPreset counts it

    std::string source;       // of the copy rates
    // Where the pinned rates were not measured on this device: "assumed for
    // A100 SXM4 on PCIe Gen4 x16" (the device class table) or "given: ..."
    // (--pinned-rate); empty where they were measured (sweep, model, the
    // run's own pinned copies) or are unknown. A cost replayed at such a
    // rate says so.
    std::string pinnedBasis;
    // Where the bidirectional rate was not measured: "assumed for H200 on
    // PCIe Gen5 x16", its class's share of both directions applied to the
    // pinned rates (a profile times each direction alone); empty where it
    // was measured or is unknown.
    std::string bidirectionalBasis;
    std::string hostSource;   // of hostMemcpyGBps and hostCopyRates; empty when unknown
    std::string kernelSource; // of kernelGBps

    // The link rate a copy from or to `memory` can reach; registered memory
    // is page-locked, so it moves at pinned rates.
    double h2dGBps(HostMemoryKind memory) const;
    double d2hGBps(HostMemoryKind memory) const;
    // All of `threads` host threads together; 0 when unknown. From the
    // measured thread counts: the best rate of any count up to the smallest
    // measured one at or above `threads` (more threads than measured gain
    // nothing), so a run on `threads` threads cannot copy faster than it.
    // From a model: threads x one thread's rate, under the model's cap.
    double hostCopyGBps(int threads) const;
};

// Copy rates from a sweep: the medians of its largest size, where the fixed
// per-copy cost matters least.
// Host memcpy from the sweep's host copies, where it measured them.
TransferRates ratesFromSweep(const BandwidthSweep& sweep);
// A simulated device's model, as stored with the run; `source` names it.
TransferRates ratesFromModel(const ModelRates& model, const std::string& source);
// Best rate any single op of the run reached, per kind and memory kind (copy
// and kernel rates only: the host rate never comes from the run's own
// staging copies, which would make the staging bound circular).
TransferRates ratesFromRunOps(const Run& run);

// The rates to judge `run` by: copy rates from a sweep of the same device in
// `sweeps`, else the model stored with the run, else the run's own ops; a
// pinned rate none of those has (a real device's trace with pageable copies
// only), assumed from the device class table (base/DeviceClassRates.h) by
// the device's name; host memcpy from the sweep's host copies, else the
// stored model, else unknown (no staging bound); kernel rate from the model,
// else the run's kernels.
TransferRates transferRatesFor(const Run& run, const std::vector<BandwidthSweep>& sweeps);

// Pinned rates the user gave (--pinned-rate, the window's setting): they
// replace whatever the trace gave, since the user knows the machine.
struct GivenPinnedRates {
    double h2dGBps = 0;
    double d2hGBps = 0;
    bool given() const { return h2dGBps > 0 && d2hGBps > 0; }
    bool operator==(const GivenPinnedRates&) const = default;
};
// "H2D,D2H" in GB/s ("25,26"), or one figure for both ("25"); nullopt with
// *error set for anything else (each a positive number up to 10000).
std::optional<GivenPinnedRates> parsePinnedRates(const std::string& text, std::string* error);
// "25.0,26.0": what parsePinnedRates reads back.
std::string pinnedRatesText(const GivenPinnedRates& given);
// `rates` with the given pinned rates in place of its own (unchanged when
// none are given).
TransferRates withGivenPinnedRates(TransferRates rates, const GivenPinnedRates& given);

} // namespace ovs
