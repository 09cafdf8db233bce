#pragma once

// Writes record streams as the injection library does, for tests of the
// reading side without a GPU: same encoder, records chosen by hand.
#include "profile/ProfileStreamEncoder.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::test {

class TestProfileStream {
public:
    // `commandLine`: arguments separated by '\0', as /proc/self/cmdline has them.
    explicit TestProfileStream(std::uint32_t pid, std::uint32_t parentPid = 1,
                               std::string_view commandLine = std::string_view("/usr/bin/app\0--fast", 19))
    {
        m_out.addMagic();
        profile::BeginRecord begin;
        begin.pid = pid;
        begin.parentPid = parentPid;
        m_out.addWithText(begin, commandLine);
    }

    // CUPTI time `cupti` was read at steady-clock time `monotonic`.
    void clock(std::uint64_t cupti, std::int64_t monotonic) { m_out.add(profile::ClockRecord{cupti, monotonic, 0}); }
    std::uint32_t string(std::string_view text)
    {
        profile::StringRecord r;
        r.id = m_nextString++;
        m_out.addWithText(r, text);
        return r.id;
    }
    void device(std::uint32_t id, std::string_view name)
    {
        profile::DeviceRecord r;
        r.deviceId = id;
        r.nameId = string(name);
        r.computeMajor = 9;
        r.copyEngines = 7;
        r.multiprocessors = 132;
        r.memoryBytes = 1ull << 37;
        m_out.add(r);
    }
    void context(std::uint32_t context, std::uint32_t device, std::uint32_t nullStream)
    {
        m_out.add(profile::ContextRecord{context, device, nullStream, 0});
    }
    void memcpy(std::uint64_t start, std::uint64_t end, std::uint8_t copyKind, std::uint8_t src, std::uint8_t dst,
                std::uint32_t stream, std::uint32_t correlation, std::uint64_t bytes = 1 << 20,
                std::uint32_t device = 0, std::uint32_t context = 1)
    {
        profile::MemcpyRecord r;
        r.startNs = start;
        r.endNs = end;
        r.bytes = bytes;
        r.deviceId = device;
        r.contextId = context;
        r.streamId = stream;
        r.correlationId = correlation;
        r.copyKind = copyKind;
        r.srcKind = src;
        r.dstKind = dst;
        m_out.add(r);
    }
    // A peer-to-peer copy from GPU `srcDevice` to `dstDevice`, issued on `device`.
    void peerMemcpy(std::uint64_t start, std::uint64_t end, std::uint32_t srcDevice, std::uint32_t dstDevice,
                    std::uint32_t stream, std::uint32_t correlation, std::uint32_t device, std::uint32_t context)
    {
        profile::MemcpyRecord r;
        r.startNs = start;
        r.endNs = end;
        r.bytes = 1 << 20;
        r.deviceId = device;
        r.contextId = context;
        r.streamId = stream;
        r.correlationId = correlation;
        r.copyKind = profile::kCopyDtoD;
        r.srcKind = profile::kMemoryDevice;
        r.dstKind = profile::kMemoryDevice;
        r.flags = profile::kMemcpyFlagPeer;
        r.srcDeviceId = srcDevice;
        r.dstDeviceId = dstDevice;
        m_out.add(r);
    }
    void kernel(std::uint64_t start, std::uint64_t end, std::string_view name, std::uint32_t stream,
                std::uint32_t correlation, std::uint32_t device = 0, std::uint32_t context = 1)
    {
        profile::KernelRecord r;
        r.startNs = start;
        r.endNs = end;
        r.deviceId = device;
        r.contextId = context;
        r.streamId = stream;
        r.correlationId = correlation;
        r.nameId = string(name);
        r.grid[0] = 64;
        r.grid[1] = r.grid[2] = 1;
        r.block[0] = 256;
        r.block[1] = r.block[2] = 1;
        m_out.add(r);
    }
    void api(std::uint64_t start, std::uint64_t end, std::string_view name, std::uint32_t thread,
             std::uint32_t correlation, std::uint8_t domain = profile::kApiRuntime)
    {
        profile::ApiRecord r;
        r.startNs = start;
        r.endNs = end;
        r.threadId = thread;
        r.correlationId = correlation;
        r.nameId = string(name);
        r.domain = domain;
        m_out.add(r);
    }
    void sync(std::uint32_t type, std::uint32_t correlation, std::uint32_t stream, std::uint32_t event)
    {
        profile::SyncRecord r;
        r.type = type;
        r.correlationId = correlation;
        r.streamId = stream;
        r.eventId = event;
        m_out.add(r);
    }
    void note(std::uint32_t severity, std::string_view text)
    {
        profile::NoteRecord r;
        r.severity = severity;
        m_out.addWithText(r, text);
    }
    // An NVTX range call at steady-clock time `monotonic` (RangeRecord).
    void range(profile::RangeAction action, std::int64_t monotonic, std::uint32_t thread, std::string_view text = {},
               std::uint64_t rangeId = 0, std::uint32_t domain = 0)
    {
        profile::RangeRecord r;
        r.monotonicNs = monotonic;
        r.rangeId = rangeId;
        r.threadId = thread;
        r.domainId = domain;
        r.action = action;
        m_out.addWithText(r, text);
    }
    void unifiedMemory(std::uint32_t counter, std::uint64_t start, std::uint64_t end, std::uint64_t value,
                       std::uint32_t device, std::uint32_t cause = profile::kUmCauseUnknown)
    {
        profile::UnifiedMemoryRecord r;
        r.cause = cause;
        r.counter = counter;
        r.startNs = start;
        r.endNs = end;
        r.value = value;
        r.deviceId = device;
        m_out.add(r);
    }
    void loss(std::uint64_t dropped, std::uint64_t untimed) { m_out.add(profile::LossRecord{dropped, untimed}); }
    void unreadBuffers(std::uint64_t buffers, std::string_view firstError)
    {
        m_out.addWithText(profile::UnreadBuffersRecord{buffers, 0, 0}, firstError);
    }
    void end() { m_out.add(profile::EndRecord{}); }
    // Call stacks (profile/StackCapture.h).
    void stackState(profile::StackMode mode, std::uint64_t callsWithoutStack = 0, std::uint64_t truncated = 0)
    {
        profile::StackStateRecord r;
        r.mode = mode;
        r.maxFrames = 32;
        r.maxStacks = 65536;
        r.callsWithoutStack = callsWithoutStack;
        r.truncatedStacks = truncated;
        m_out.add(r);
    }
    void module(std::string_view path, std::uint64_t low, std::uint64_t high, std::uint64_t loadBias = 0)
    {
        profile::ModuleRecord r;
        r.loadBias = loadBias;
        r.lowAddress = low;
        r.highAddress = high;
        m_out.addWithText(r, path);
    }
    void module(const profile::ModuleRecord& r, std::string_view path) { m_out.addWithText(r, path); }
    void stack(std::uint32_t id, const std::vector<std::uint64_t>& frames)
    {
        m_out.addWithTail(profile::StackRecord{id, static_cast<std::uint32_t>(frames.size())}, frames.data(),
                          frames.size() * sizeof(std::uint64_t));
    }
    void callStack(std::uint32_t correlation, std::uint32_t stack) { m_out.add(profile::CallStackRecord{correlation, stack}); }
    template <typename Payload>
    void rawWithTail(const Payload& p, const void* tail, std::size_t bytes) { m_out.addWithTail(p, tail, bytes); }
    template <typename Payload>
    void raw(const Payload& p) { m_out.add(p); }

    const std::vector<std::uint8_t>& bytes() const { return m_out.bytes(); }
    // Appends what was added since the last call to `path`.
    void appendTo(const std::string& path)
    {
        std::ofstream file(path, std::ios::binary | std::ios::app);
        file.write(reinterpret_cast<const char*>(m_out.bytes().data()), static_cast<std::streamsize>(m_out.bytes().size()));
        m_out.clear();
    }

private:
    profile::ProfileStreamEncoder m_out;
    std::uint32_t m_nextString = 1;
};

} // namespace ovs::test
