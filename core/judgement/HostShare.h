#pragma once

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <string>
#include <vector>

namespace ovs {

// One GPU's uploads in a run spread over several GPUs of one host.
struct DeviceUploads {
    int device = 0;
    std::string label;
    std::uint64_t bytes = 0;
    std::int64_t busyNs = 0; // union of its uploads' engine (else event) intervals
    double gbps = 0;         // bytes over busyNs
    double aloneGBps = 0;    // what it reaches alone; 0 when unknown
    std::string aloneSource; // "simulator preset h200", "bandwidth sweep, 256 MiB", ...
};

enum class SharedBound : std::uint8_t { Unknown, Links, HostMemory };
const char* toString(SharedBound bound);

// How the GPUs of one host shared it in a run: per device and for the host
// as a whole, the aggregate host-to-device rate against the sum of the
// single-device rates, and whether the host's memory or each GPU's link
// bounded the uploads. Only for runs on several devices with uploads.
struct HostShare {
    bool applies = false;
    HostMemoryKind memory = HostMemoryKind::None; // the uploads' (most bytes)
    std::vector<DeviceUploads> devices;
    double aggregateGBps = 0; // every upload's bytes over the union of their busy time
    double sumAloneGBps = 0;  // 0 when a device's single rate is unknown
    SharedBound bound = SharedBound::Unknown;
    std::string diagnosis; // one line naming the shared resource
};

// Single-device rates come from the simulator's model (simulated devices) or
// from a sweep of that device in `sweeps` (same name and detail: the largest
// size of the uploads' memory kind).
HostShare analyseHostShare(const Run& run, const std::vector<BandwidthSweep>& sweeps);

} // namespace ovs
