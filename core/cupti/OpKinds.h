#pragma once

#include "trace/Op.h"

#include <cstdint>
#include <string_view>

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

// The same values from the words CUPTI's tools print them by, as Kineto (the
// PyTorch profiler) names a copy: "Memcpy HtoD (Pageable -> Device)" is copy
// kind "HtoD" from memory "Pageable" to "Device". So a Kineto copy is mapped
// by copyOp too, and agrees with a profile of the same program. Unknown
// words give kCopyUnknown and kMemoryUnknown.
std::uint32_t copyKindFromWord(std::string_view word);   // "HtoD", "DtoH", "PtoP", ...
std::uint32_t memoryKindFromWord(std::string_view word); // "Pageable", "Device", "Managed Static", ...

} // namespace ovs::cupti
