#pragma once

#include "trace/Op.h"

#include <cstdint>

namespace ovs::cupti {

// What a CUPTI copy is in our terms: the op kind by direction, and the memory
// on its host side (for copies with no host side, whether managed memory is
// involved). The one mapping: the CUDA device's engine records and the
// profile's runs both use it.
struct CopyOp {
    OpKind kind = OpKind::DeviceCopy;
    HostMemoryKind memory = HostMemoryKind::None;
};

// `copyKind`, `srcKind`, `dstKind`: CUPTI's values (RecordValues.h).
// `peer`: from a peer-to-peer record (CUPTI's MEMCPY2 kind).
CopyOp copyOp(std::uint32_t copyKind, std::uint32_t srcKind, std::uint32_t dstKind, bool peer);

// CUPTI's memory kind as ours: managed memory is Managed, device memory (and
// arrays, static device memory) Device, unknown None.
HostMemoryKind memoryKind(std::uint32_t cuptiMemoryKind);

} // namespace ovs::cupti
