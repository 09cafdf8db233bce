#include "device/HostCopyPool.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <system_error>

namespace ovs {

std::vector<HostCopyPool::Part> HostCopyPool::split(std::size_t bytes, int parts)
{
    constexpr std::size_t kLine = 64;
    std::vector<Part> result(static_cast<std::size_t>(parts));
    std::size_t begin = 0;
    for (int i = 0; i < parts; ++i) {
        const std::size_t end = i + 1 == parts
            ? bytes
            : bytes * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(parts) / kLine * kLine;
        result[static_cast<std::size_t>(i)] = {begin, end > begin ? end - begin : 0};
        begin = std::max(begin, end);
    }
    return result;
}

HostCopyPool::~HostCopyPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& thread : m_threads)
        thread.join();
}

int HostCopyPool::threadCount() const
{
    const std::lock_guard lock(m_mutex);
    return static_cast<int>(m_threads.size());
}

std::int64_t HostCopyPool::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::vector<HostInterval> HostCopyPool::copy(void* dst, const void* src, std::size_t bytes, int threads)
{
    if (threads < 1 || threads > kMaxThreads)
        throw DeviceError("host copy with " + std::to_string(threads) + " threads: use 1 to "
                          + std::to_string(kMaxThreads));
    const auto parts = split(bytes, threads);
    if (threads == 1) {
        const std::int64_t start = nowNs();
        if (bytes != 0)
            std::memcpy(dst, src, bytes);
        return {{start, nowNs()}};
    }

    std::unique_lock lock(m_mutex);
    try {
        while (static_cast<int>(m_threads.size()) < threads) {
            const int index = static_cast<int>(m_threads.size());
            m_threads.emplace_back([this, index] { work(index); });
        }
    } catch (const std::system_error& e) {
        throw DeviceError("could not start host copy thread " + std::to_string(m_threads.size() + 1) + " of "
                          + std::to_string(threads) + ": " + e.what());
    }
    m_dst = static_cast<std::byte*>(dst);
    m_src = static_cast<const std::byte*>(src);
    m_parts = parts;
    m_intervals.assign(parts.size(), {});
    m_remaining = threads;
    ++m_generation;
    m_wake.notify_all();
    m_done.wait(lock, [this] { return m_remaining == 0; });
    return m_intervals;
}

void HostCopyPool::work(int index)
{
    const auto slot = static_cast<std::size_t>(index);
    std::uint64_t seen = 0;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stopping || m_generation != seen; });
        if (m_stopping)
            return;
        seen = m_generation;
        // Threads beyond this copy's count sit it out; the pool keeps them for
        // a later copy with more threads.
        if (slot >= m_parts.size())
            continue;
        const Part part = m_parts[slot];
        std::byte* dst = m_dst + part.offset;
        const std::byte* src = m_src + part.offset;
        lock.unlock();
        const std::int64_t start = nowNs();
        if (part.bytes != 0)
            std::memcpy(dst, src, part.bytes);
        const std::int64_t end = nowNs();
        lock.lock();
        m_intervals[slot] = {start, end};
        if (--m_remaining == 0)
            m_done.notify_one();
    }
}

} // namespace ovs
