#pragma once

#include "base/HostMemoryKind.h"
#include "base/RunVariant.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ovs {

enum class CopyDirection : std::uint8_t { HostToDevice, DeviceToHost };

using StreamId = std::uint32_t;
using EventId = std::uint32_t;

// The two default streams every CUDA context has, as stream ids no
// createStream() returns (see Device::defaultStream). They are never destroyed.
inline constexpr StreamId kLegacyDefaultStream = 0xFFFF'FFF0u;
inline constexpr StreamId kPerThreadDefaultStream = 0xFFFF'FFF1u;
inline constexpr bool isDefaultStream(StreamId id)
{
    return id == kLegacyDefaultStream || id == kPerThreadDefaultStream;
}

// A span of host time, ns on the device's host clock (Device::hostNowNs).
struct HostInterval {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

// When an engine actually ran a piece of tagged work (see Device::tagWork).
struct EngineRecord {
    std::uint64_t opId = 0;
    std::int64_t startNs = 0; // host clock
    std::int64_t endNs = 0;
    // A copy's host side as the engine saw it (CUPTI tells pageable from
    // pinned, so a buffer assumed pinned that was not shows up here).
    HostMemoryKind memory = HostMemoryKind::None;
};

// Every failure the device layer reports (allocation, launch, bad arguments,
// no GPU) arrives as this, with a message meant for the user.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

const char* toString(CopyDirection direction);

} // namespace ovs
