#pragma once

#include <cstdint>

namespace ovs {

// Where a host buffer lives; decides how a copy is done and how fast it can
// go. Both the device layer (how to copy) and the trace (what an op touched)
// speak of it, so it sits below both. Managed and Device name a copy side
// that is not host memory at all (cudaMallocManaged memory, a device-to-device
// or peer copy); profiled programs make such copies.
enum class HostMemoryKind : std::uint8_t { None, Pageable, Pinned, Registered, Managed, Device };

const char* toString(HostMemoryKind kind);

} // namespace ovs
