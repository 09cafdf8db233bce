#pragma once

#include <cstdint>

namespace ovs {

// Where a host buffer lives; decides how a copy is done and how fast it can
// go. Both the device layer (how to copy) and the trace (what an op touched)
// speak of it, so it sits below both.
enum class HostMemoryKind : std::uint8_t { None, Pageable, Pinned, Registered };

const char* toString(HostMemoryKind kind);

} // namespace ovs
