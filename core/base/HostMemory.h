#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ovs {

// Bytes a new allocation can have now without the machine swapping or the
// OOM killer stepping in: /proc/meminfo's MemAvailable, or the free pages
// where the kernel does not say; 0 when neither is known.
std::uint64_t availableHostMemoryBytes();

// The MemAvailable line of a /proc/meminfo text ("MemAvailable: 123 kB"), in
// bytes; nullopt when it has none.
std::optional<std::uint64_t> memAvailableBytes(std::string_view meminfo);

} // namespace ovs
