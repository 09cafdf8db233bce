#pragma once

// What contends on the device, for the replay's engine model
// (docs/what-if.md, "The engine model"): how much a kernel slows beside
// another and a copy beside one of the other direction, from the run
// itself or the device's rates, and the floor no schedule of a graph's
// work can go below.

#include "replay/RunGraph.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>

namespace ovs {

// The rates the copies' slowdown may come from (decimal GB/s; 0: unknown).
struct ContentionRates {
    double pinnedH2DGBps = 0;
    double pinnedD2HGBps = 0;
    double bidirectionalGBps = 0; // both directions at once, together
    double hostMemoryGBps = 0;    // all host threads' copies together (pageable staging)
    std::string bidirectionalBasis; // "assumed for ..." where the bidirectional rate was not measured
};

// Sets g.kernelSlowdown, g.copySlowdown and g.contention, and takes the
// slowdown out of each GPU node that ran beside a rival in the run: its
// durationNs becomes its lone time (the part beside a rival divided by the
// slowdown), so that the replay, slowing it again where it runs beside a
// rival, gives back what was measured.
// Kernels: a kernel's slowdown beside another is calibrated from the run's
// kernels that ran both alone and beside another (by name): each one that
// ran beside another for at least half its time gives the factor that its
// time against its name's median alone time implies; the factor is their
// median, at least 1 and at most 2 (a pair never takes longer than the sum
// of its parts). With fewer than thresholds::kMinRepeats of them, the
// launch shapes (Run::kernelShapes against the device's smCount and the SM
// limits of its compute capability): a kernel's share of the GPU is its
// blocks / (SMs x the blocks of its shape an SM holds), at most 1; compute
// ops running together each run max(1, the sum of their shares) times
// slower (g.kernelFill): two that fill the GPU take the sum of their parts,
// small ones side by side run at lone speed. With neither, lone speed. Copies: from the bidirectional rate, (h2d + d2h) / bidirectional,
// else calibrated from the run's copies as kernels are (by direction,
// memory and bytes), else lone speed.
void calibrateContention(RunGraph& g, const Run& run, const ContentionRates& rates);

// The least time the GPU work of `g` can take, whatever waits for what: its
// busiest resource's work at the contended rates. Resources: each copy
// engine (both directions on one where the device has one), the
// device-to-device engine, the kernels (as many at once as the graph
// allows, each slowed by the kernels' factor beside another; by launch
// shape, also their work weighted by their shares of the GPU), the link both
// ways (its copies slowed by the copies' factor when both directions run),
// and host memory for the bytes pageable copies stage, where its bandwidth
// is known. `binds` (optional) names the busiest.
std::int64_t floorNs(const RunGraph& g, const ContentionRates& rates, std::string* binds = nullptr);

} // namespace ovs
