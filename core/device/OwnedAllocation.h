#pragma once

#include "device/Device.h"

#include <cstddef>
#include <utility>

namespace ovs {

// `count` elements of T allocated from a device by one Device member and
// released by another: the ownership both DeviceBuffer and PinnedHostBuffer
// share. Moving transfers it; destruction waits for queued work on the
// memory before freeing it, so nothing is ever freed under a copy.
template <typename T, void* (Device::*Allocate)(std::size_t), void (Device::*Free)(void*)>
class OwnedAllocation {
public:
    OwnedAllocation(Device& device, std::size_t count)
        : m_device(&device), m_data(static_cast<T*>((device.*Allocate)(count * sizeof(T)))), m_count(count)
    {
    }
    ~OwnedAllocation() { reset(); }
    OwnedAllocation(OwnedAllocation&& other) noexcept
        : m_device(std::exchange(other.m_device, nullptr)), m_data(std::exchange(other.m_data, nullptr)),
          m_count(std::exchange(other.m_count, 0))
    {
    }
    OwnedAllocation& operator=(OwnedAllocation&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_data = std::exchange(other.m_data, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }
    OwnedAllocation(const OwnedAllocation&) = delete;
    OwnedAllocation& operator=(const OwnedAllocation&) = delete;

    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_count * sizeof(T); }
    Device& device() const { return *m_device; }

protected:
    T* data() const { return m_data; }

private:
    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            m_device->waitForBuffer(m_data);
            (m_device->*Free)(m_data);
        } catch (...) {
            // A destructor must not throw; the device already drained or is lost.
        }
        m_device = nullptr;
        m_data = nullptr;
    }

    Device* m_device;
    T* m_data;
    std::size_t m_count;
};

} // namespace ovs
