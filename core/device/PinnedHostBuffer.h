#pragma once

#include "device/Device.h"

#include <cstddef>
#include <span>
#include <utility>

namespace ovs {

// Page-locked host memory for `count` elements of T: the DMA engines read and
// write it directly, which is what lets a copy run asynchronously.
//
// Host access goes through span(), which tells the device; the simulator
// reports a hazard if a copy on the buffer is still in flight. Freeing waits
// for queued work on the buffer first.
template <typename T>
class PinnedHostBuffer {
public:
    PinnedHostBuffer(Device& device, std::size_t count)
        : m_device(&device), m_data(static_cast<T*>(device.allocatePinned(count * sizeof(T)))), m_count(count)
    {
    }
    ~PinnedHostBuffer() { reset(); }
    PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
        : m_device(std::exchange(other.m_device, nullptr)), m_data(std::exchange(other.m_data, nullptr)),
          m_count(std::exchange(other.m_count, 0))
    {
    }
    PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_data = std::exchange(other.m_data, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }
    PinnedHostBuffer(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;

    std::span<T> span()
    {
        m_device->checkHostAccess(m_data, bytes());
        return {m_data, m_count};
    }
    std::span<const T> span() const
    {
        m_device->checkHostAccess(m_data, bytes());
        return {m_data, m_count};
    }
    // Raw address for enqueueing copies; does not count as a host access.
    T* hostPtr() const { return m_data; }
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
            m_device->freePinned(m_data);
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
