#pragma once

#include "trace/Op.h"

#include <cstdint>

namespace ovs::cupti {

// One piece of GPU work as a CUPTI activity record describes it (a copy, peer
// copy, memset or kernel), decoded: in our terms (kind, host memory, whether
// it is timed) and with the fields of the record that the collectors keep.
// Times are on CUPTI's clock.
struct GpuActivity {
    // Upload, Download, DeviceCopy, PeerCopy, Memset or Kernel.
    OpKind kind = OpKind::Kernel;
    HostMemoryKind memory = HostMemoryKind::None;
    // Timing.h's rule: an untimed record's start and end mean nothing.
    bool timed = false;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t bytes = 0; // copies and memsets
    std::uint32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
    std::uint32_t graphId = 0; // 0: not part of a CUDA graph

    // Copies, in CUPTI's values (RecordValues.h). A peer copy names both
    // GPUs; any other copy has deviceId on both sides.
    std::uint32_t srcDeviceId = 0;
    std::uint32_t dstDeviceId = 0;
    std::uint8_t copyKind = 0;
    std::uint8_t srcKind = 0;
    std::uint8_t dstKind = 0;
    bool async = false;
    bool peer = false; // from a peer-to-peer record (CUPTI's MEMCPY2)

    // Memsets, in CUPTI's values.
    std::uint16_t memsetMemoryKind = 0;
    std::uint16_t memsetFlags = 0;

    // Kernels. `name` is CUPTI's mangled name: owned by CUPTI, and the same
    // pointer for every launch of a function while its module is loaded.
    const char* name = nullptr;
    std::int32_t grid[3] = {};
    std::int32_t block[3] = {};
    std::uint32_t sharedMemoryBytes = 0; // static + dynamic
    std::uint16_t registersPerThread = 0;
};

} // namespace ovs::cupti
