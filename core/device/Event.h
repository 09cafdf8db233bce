#pragma once

#include "device/Stream.h"

#include <cstdint>
#include <utility>

namespace ovs {

// Owns a device event (timing enabled).
class Event {
public:
    explicit Event(Device& device) : m_device(&device), m_id(device.createEvent()) {}
    ~Event() { reset(); }
    Event(Event&& other) noexcept : m_device(std::exchange(other.m_device, nullptr)), m_id(other.m_id) {}
    Event& operator=(Event&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_device = std::exchange(other.m_device, nullptr);
            m_id = other.m_id;
        }
        return *this;
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    EventId id() const { return m_id; }
    void record(Stream& stream) { m_device->recordEvent(m_id, stream.id()); }
    void synchronize() { m_device->synchronizeEvent(m_id); }
    bool isDone() { return m_device->eventDone(m_id); }
    // ns from `earlier` to this event; both must have completed.
    std::int64_t nsSince(const Event& earlier) { return m_device->eventElapsedNs(earlier.m_id, m_id); }

private:
    void reset() noexcept
    {
        if (!m_device)
            return;
        try {
            m_device->destroyEvent(m_id);
        } catch (...) {
        }
        m_device = nullptr;
    }

    Device* m_device;
    EventId m_id;
};

} // namespace ovs
