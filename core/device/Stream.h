#pragma once

#include "device/Device.h"

#include <utility>

namespace ovs {

// Owns a device stream. Destruction drains the stream before releasing it.
class Stream {
public:
    explicit Stream(Device& device) : m_device(&device), m_id(device.createStream()) {}
    ~Stream() { reset(); }
    Stream(Stream&& other) noexcept : m_device(std::exchange(other.m_device, nullptr)), m_id(other.m_id) {}
    Stream& operator=(Stream&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_id = other.m_id;
        }
        return *this;
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Device& device() const { return *m_device; }
    StreamId id() const { return m_id; }
    void synchronize() { m_device->synchronizeStream(m_id); }

private:
    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            m_device->destroyStream(m_id);
        } catch (...) {
            // A destructor must not throw; the device already drained or is lost.
        }
        m_device = nullptr;
    }

    Device* m_device;
    StreamId m_id;
};

} // namespace ovs
