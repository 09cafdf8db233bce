#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ovs {

// Where a host buffer lives; decides how a copy is done and how fast it can go.
enum class HostMemoryKind : std::uint8_t { None, Pageable, Pinned, Registered };

enum class CopyDirection : std::uint8_t { HostToDevice, DeviceToHost };

using StreamId = std::uint32_t;
using EventId = std::uint32_t;

// Every failure the device layer reports (allocation, launch, bad arguments,
// no GPU) arrives as this, with a message meant for the user.
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

const char* toString(HostMemoryKind kind);
const char* toString(CopyDirection direction);

} // namespace ovs
