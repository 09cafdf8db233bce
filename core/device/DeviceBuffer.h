#pragma once

#include "device/Device.h"

#include <cstddef>
#include <utility>

namespace ovs {

// Device memory for `count` elements of T. Freeing waits for work still using it.
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer(Device& device, std::size_t count)
        : m_device(&device), m_data(static_cast<T*>(device.allocateDevice(count * sizeof(T)))), m_count(count)
    {
    }
    ~DeviceBuffer() { reset(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_device(std::exchange(other.m_device, nullptr)), m_data(std::exchange(other.m_data, nullptr)),
          m_count(std::exchange(other.m_count, 0))
    {
    }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_data = std::exchange(other.m_data, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // A device address: never dereference on the host.
    T* devicePtr() const { return m_data; }
    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_count * sizeof(T); }
    Device& device() const { return *m_device; }

private:
    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            m_device->waitForBuffer(m_data);
            m_device->freeDevice(m_data);
        } catch (...) {
        }
        m_device = nullptr;
        m_data = nullptr;
    }

    Device* m_device;
    T* m_data;
    std::size_t m_count;
};

} // namespace ovs
