#pragma once

#include "device/CopyToken.h"
#include "device/DeviceBuffer.h"
#include "device/PinnedHostBuffer.h"

#include <memory>
#include <span>
#include <string>

namespace ovs {

// The two copy styles of the seed, typed. Async copies only accept pinned (or
// registered) host memory, since only those can truly overlap, and hand back a
// token that must be waited on before the host touches or frees the buffers.
namespace detail {
inline void requireSameSize(std::size_t hostBytes, std::size_t deviceBytes)
{
    if (hostBytes != deviceBytes)
        throw DeviceError("copy size mismatch: host side " + std::to_string(hostBytes) + " bytes, device side "
                          + std::to_string(deviceBytes) + " bytes");
}

inline CopyToken completionOf(Stream& stream)
{
    auto done = std::make_shared<Event>(stream.device());
    done->record(stream);
    return CopyToken(std::move(done));
}
} // namespace detail

template <typename T>
CopyToken copyToDeviceAsync(Stream& stream, DeviceBuffer<T>& dst, const PinnedHostBuffer<T>& src)
{
    detail::requireSameSize(src.bytes(), dst.bytes());
    stream.device().copyAsync(dst.devicePtr(), src.hostPtr(), src.bytes(), CopyDirection::HostToDevice,
                              HostMemoryKind::Pinned, stream.id());
    return detail::completionOf(stream);
}

template <typename T>
CopyToken copyToHostAsync(Stream& stream, PinnedHostBuffer<T>& dst, const DeviceBuffer<T>& src)
{
    detail::requireSameSize(dst.bytes(), src.bytes());
    stream.device().copyAsync(dst.hostPtr(), src.devicePtr(), dst.bytes(), CopyDirection::DeviceToHost,
                              HostMemoryKind::Pinned, stream.id());
    return detail::completionOf(stream);
}

// Async copies on host memory the caller owns and has described: registered
// (page-locked in place) or, for the pageable-async strategy, plain pageable
// memory, which the driver stages and which therefore blocks the host.
template <typename T>
CopyToken copyToDeviceAsync(Stream& stream, DeviceBuffer<T>& dst, std::span<const T> src, HostMemoryKind kind)
{
    detail::requireSameSize(src.size_bytes(), dst.bytes());
    stream.device().copyAsync(dst.devicePtr(), src.data(), src.size_bytes(), CopyDirection::HostToDevice, kind,
                              stream.id());
    return detail::completionOf(stream);
}

template <typename T>
CopyToken copyToHostAsync(Stream& stream, std::span<T> dst, const DeviceBuffer<T>& src, HostMemoryKind kind)
{
    detail::requireSameSize(dst.size_bytes(), src.bytes());
    stream.device().copyAsync(dst.data(), src.devicePtr(), dst.size_bytes(), CopyDirection::DeviceToHost, kind,
                              stream.id());
    return detail::completionOf(stream);
}

// Safe copies: synchronize the stream before returning, so the host buffer is
// immediately usable. Any host memory kind.
template <typename T>
void copyToDevice(Stream& stream, DeviceBuffer<T>& dst, std::span<const T> src, HostMemoryKind kind)
{
    copyToDeviceAsync(stream, dst, src, kind).wait();
}

template <typename T>
void copyToHost(Stream& stream, std::span<T> dst, const DeviceBuffer<T>& src, HostMemoryKind kind)
{
    copyToHostAsync(stream, dst, src, kind).wait();
}

} // namespace ovs
