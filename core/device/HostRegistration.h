#pragma once

#include "device/Device.h"

#include <cstddef>
#include <utility>

namespace ovs {

// Host memory the caller owns, page-locked in place (cudaHostRegister) for
// as long as this lives, so copies on it run asynchronously like pinned
// ones. Unregistering drains the device first: the DMA engines must not be
// reading the pages when they become pageable again.
class HostRegistration {
public:
    HostRegistration(Device& device, void* p, std::size_t bytes) : m_device(&device), m_data(p), m_bytes(bytes)
    {
        device.registerHost(p, bytes);
    }
    ~HostRegistration() { reset(); }
    HostRegistration(HostRegistration&& other) noexcept
        : m_device(std::exchange(other.m_device, nullptr)), m_data(std::exchange(other.m_data, nullptr)),
          m_bytes(std::exchange(other.m_bytes, 0))
    {
    }
    HostRegistration& operator=(HostRegistration&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_data = std::exchange(other.m_data, nullptr);
            m_bytes = std::exchange(other.m_bytes, 0);
        }
        return *this;
    }
    HostRegistration(const HostRegistration&) = delete;
    HostRegistration& operator=(const HostRegistration&) = delete;

    void* hostPtr() const { return m_data; }
    std::size_t bytes() const { return m_bytes; }

private:
    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            m_device->unregisterHost(m_data);
        } catch (...) {
        }
        m_device = nullptr;
        m_data = nullptr;
    }

    Device* m_device;
    void* m_data;
    std::size_t m_bytes;
};

} // namespace ovs
