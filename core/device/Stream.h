#pragma once

#include "device/Device.h"

#include <utility>

namespace ovs {

// Owns a device stream. Destruction drains the stream before releasing it.
class Stream {
public:
    explicit Stream(Device& device, StreamSync sync = StreamSync::NonBlocking)
        : m_device(&device), m_id(device.createStream(sync)), m_sync(sync)
    {
    }
    // One of the device's default streams, borrowed: destruction only drains it.
    static Stream defaultStream(Device& device, DefaultStreamOp which)
    {
        return Stream(device, device.defaultStream(which), Borrowed{});
    }
    ~Stream() { reset(); }
    Stream(Stream&& other) noexcept
        : m_device(std::exchange(other.m_device, nullptr)), m_id(other.m_id), m_sync(other.m_sync),
          m_owned(other.m_owned)
    {
    }
    Stream& operator=(Stream&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_id = other.m_id;
            m_sync = other.m_sync;
            m_owned = other.m_owned;
        }
        return *this;
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    Device& device() const { return *m_device; }
    StreamId id() const { return m_id; }
    // What the stream was created as; a default stream (isDefaultStream(id()))
    // is what its id says, and this means nothing for it.
    StreamSync sync() const { return m_sync; }
    void synchronize() { m_device->synchronizeStream(m_id); }

private:
    struct Borrowed {};
    Stream(Device& device, StreamId id, Borrowed) : m_device(&device), m_id(id), m_owned(false) {}

    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            if (m_owned)
                m_device->destroyStream(m_id);
            else
                m_device->synchronizeStream(m_id);
        } catch (...) {
            // A destructor must not throw; the device already drained or is lost.
        }
        m_device = nullptr;
    }

    Device* m_device;
    StreamId m_id;
    StreamSync m_sync = StreamSync::NonBlocking;
    bool m_owned = true;
};

} // namespace ovs
