#pragma once

#include "device/DeviceSet.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// One cell of the peer-to-peer matrix: copies of `bytes` from GPU `src` to
// GPU `dst` (cudaMemcpyPeerAsync on a stream of `src`), with peer access on
// or off, timed by events around each copy, as nvbandwidth's
// device_to_device_memcpy_{read,write}_ce cells are.
struct PeerPoint {
    int src = 0;
    int dst = 0;
    bool peerAccess = true;
    bool measured = false; // false: the pair cannot use peer access (`note` says so)
    std::uint64_t bytes = 0;
    std::vector<double> samplesMs;
    double medianMs = 0;
    double gbps = 0;
    std::string note;
};

struct PeerMatrix {
    // Why there is no matrix ("needs two GPUs"); empty when it was measured.
    std::string note;
    RunStatus status = RunStatus::Completed;
    std::string error;
    std::vector<PeerPoint> points; // access on, then off; by src, then dst
    // Every timed copy as a PeerCopy op on its source GPU's lane, named
    // "GPU 0 → GPU 1 (peer access on)"; op durations are the event times,
    // each placed to end when the host saw it done. Empty with `note`.
    Run run;
};

// Every ordered pair of the set, both directions, peer access on and off.
// Never throws for run-time trouble: a device error or cancel ends the
// matrix with what was measured, and status and error say why. A set of one
// GPU gives no matrix, only `note`.
PeerMatrix runPeerMatrix(const DeviceSet& devices, std::uint64_t bytes, int warmups, int samples,
                         const CancelFlag& cancel);

} // namespace ovs
