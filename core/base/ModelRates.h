#pragma once

namespace ovs {

// The rates a simulated device's model runs at (decimal GB/s). A simulated
// device puts them in its DeviceInfo, so every run and sweep it records
// carries the model that made it: an analysis judges a simulated run by
// these, never by whatever preset the reading binary happens to have.
struct ModelRates {
    double pinnedH2DGBps = 0;
    double pinnedD2HGBps = 0;
    double pageableH2DGBps = 0;
    double pageableD2HGBps = 0;
    double hostMemcpyGBps = 0; // one host thread, pageable <-> pinned
    double hostMemoryGBps = 0; // all host threads copying at once; 0: no cap
    double kernelGBps = 0;     // increment kernel: bytes read + written per second

    bool operator==(const ModelRates&) const = default;
};

} // namespace ovs
