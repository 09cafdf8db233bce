#pragma once

#include "device/Device.h"

namespace ovs {

// A real device whose parallel host copies start one plain std::thread per
// part and join them, instead of handing the parts to the device's
// persistent HostCopyPool: the observer benchmark runs the staging threads
// both ways to show what the pool's hand-off costs. Everything else goes to
// the wrapped device unchanged.
//
// For real devices only: the parts are real copies timed on the steady clock,
// which a simulator's virtual clock never sees.
class PlainThreadCopyDevice final : public Device {
public:
    explicit PlainThreadCopyDevice(Device& inner) : m_inner(inner) {}

    std::vector<HostInterval> hostCopyParallel(void* dst, const void* src, std::size_t bytes, int threads) override;

    const DeviceInfo& info() const override { return m_inner.info(); }
    void* allocateDevice(std::size_t bytes) override { return m_inner.allocateDevice(bytes); }
    void freeDevice(void* p) override { m_inner.freeDevice(p); }
    void* allocatePinned(std::size_t bytes) override { return m_inner.allocatePinned(bytes); }
    void freePinned(void* p) override { m_inner.freePinned(p); }
    void registerHost(void* p, std::size_t bytes) override { m_inner.registerHost(p, bytes); }
    void unregisterHost(void* p) override { m_inner.unregisterHost(p); }
    void waitForBuffer(const void* p) override { m_inner.waitForBuffer(p); }
    using Device::createStream;
    StreamId createStream(StreamSync sync) override { return m_inner.createStream(sync); }
    StreamId defaultStream(DefaultStreamOp which) override { return m_inner.defaultStream(which); }
    void destroyStream(StreamId stream) override { m_inner.destroyStream(stream); }
    void synchronizeStream(StreamId stream) override { m_inner.synchronizeStream(stream); }
    void synchronizeDevice() override { m_inner.synchronizeDevice(); }
    EventId createEvent() override { return m_inner.createEvent(); }
    void destroyEvent(EventId event) override { m_inner.destroyEvent(event); }
    void recordEvent(EventId event, StreamId stream) override { m_inner.recordEvent(event, stream); }
    void streamWaitEvent(StreamId stream, EventId event) override { m_inner.streamWaitEvent(stream, event); }
    void synchronizeEvent(EventId event) override { m_inner.synchronizeEvent(event); }
    bool eventDone(EventId event) override { return m_inner.eventDone(event); }
    std::int64_t eventElapsedNs(EventId from, EventId to) override { return m_inner.eventElapsedNs(from, to); }
    void copyAsync(void* dst, const void* src, std::size_t bytes, CopyDirection direction, HostMemoryKind hostKind,
                   StreamId stream) override
    {
        m_inner.copyAsync(dst, src, bytes, direction, hostKind, stream);
    }
    void launchIncrement(float* data, std::size_t count, int repeats, StreamId stream) override
    {
        m_inner.launchIncrement(data, count, repeats, stream);
    }
    void hostCopy(void* dst, const void* src, std::size_t bytes) override { m_inner.hostCopy(dst, src, bytes); }
    void checkHostAccess(const void* p, std::size_t bytes) override { m_inner.checkHostAccess(p, bytes); }
    void tagWork(std::uint64_t opId) override { m_inner.tagWork(opId); }
    std::vector<EngineRecord> takeEngineRecords() override { return m_inner.takeEngineRecords(); }
    std::vector<std::string> takeEngineTimingLoss() override { return m_inner.takeEngineTimingLoss(); }
    std::string engineTimingSource(std::string* whyNot = nullptr) const override
    {
        return m_inner.engineTimingSource(whyNot);
    }
    void noteFreshHostMemory(void* p, std::size_t bytes) override { m_inner.noteFreshHostMemory(p, bytes); }
    std::vector<std::string> takeHazards() override { return m_inner.takeHazards(); }
    std::int64_t hostNowNs() override { return m_inner.hostNowNs(); }

private:
    Device& m_inner;
};

} // namespace ovs
