#include "device/HostCopyPool.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

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
    m_stopping.store(true, std::memory_order_release);
    for (auto& worker : m_workers) {
        {
            const std::lock_guard lock(worker->mutex);
        }
        worker->wake.notify_one();
    }
    for (auto& worker : m_workers)
        worker->thread.join();
}

int HostCopyPool::threadCount() const
{
    return static_cast<int>(m_workers.size());
}

std::int64_t HostCopyPool::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

namespace {
// How long a worker waits for its next part, and the caller for the parts to
// finish, awake before sleeping: longer than the gap between a pipeline's
// back-to-back staging copies, short enough that idle workers cost nothing.
constexpr std::int64_t kSpinNs = 200'000;

// Spinning only pays where every spinning thread has a core of its own;
// oversubscribed, it would take cores from the threads doing the copies.
template <typename Ready>
bool spinUntil(bool spin, Ready&& ready)
{
    if (!spin)
        return ready();
    const std::int64_t until = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count()
                               + kSpinNs;
    for (;;) {
        if (ready())
            return true;
        if (std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                .count()
            > until)
            return false;
        // Let another thread run where the cores are oversubscribed.
        std::this_thread::yield();
    }
}
} // namespace

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

    try {
        while (static_cast<int>(m_workers.size()) < threads) {
            auto worker = std::make_unique<Worker>();
            worker->job.store(m_job, std::memory_order_relaxed);
            Worker& self = *worker;
            const std::size_t index = m_workers.size();
            // The thread may first run after this copy's job is given: it
            // must wait for jobs after the current one, not after whatever it
            // finds then.
            const std::uint64_t before = m_job;
            worker->thread = std::thread([this, &self, index, before] { work(self, index, before); });
            m_workers.push_back(std::move(worker));
        }
    } catch (const std::system_error& e) {
        throw DeviceError("could not start host copy thread " + std::to_string(m_workers.size() + 1) + " of "
                          + std::to_string(threads) + ": " + e.what());
    }
    const unsigned cores = std::thread::hardware_concurrency();
    m_spin.store(cores > 0 && m_workers.size() + 1 <= cores, std::memory_order_relaxed);
    m_dst = static_cast<std::byte*>(dst);
    m_src = static_cast<const std::byte*>(src);
    m_parts = parts;
    m_intervals.assign(parts.size(), {});
    m_remaining.store(threads, std::memory_order_relaxed);
    ++m_job;
    // Only the workers taking part are given the job; the rest sleep on.
    for (int i = 0; i < threads; ++i) {
        Worker& worker = *m_workers[static_cast<std::size_t>(i)];
        {
            const std::lock_guard lock(worker.mutex);
            worker.job.store(m_job, std::memory_order_release);
        }
        worker.wake.notify_one();
    }
    const auto done = [this] { return m_remaining.load(std::memory_order_acquire) == 0; };
    if (!spinUntil(m_spin.load(std::memory_order_relaxed), done)) {
        std::unique_lock lock(m_doneMutex);
        m_done.wait(lock, done);
    }
    return m_intervals;
}

void HostCopyPool::work(Worker& self, std::size_t index, std::uint64_t seen)
{
    for (;;) {
        const auto given = [&] {
            return m_stopping.load(std::memory_order_acquire) || self.job.load(std::memory_order_acquire) != seen;
        };
        if (!spinUntil(m_spin.load(std::memory_order_relaxed), given)) {
            std::unique_lock lock(self.mutex);
            self.wake.wait(lock, given);
        }
        if (m_stopping.load(std::memory_order_acquire))
            return;
        seen = self.job.load(std::memory_order_acquire);
        const Part part = m_parts[index];
        const std::int64_t start = nowNs();
        if (part.bytes != 0)
            std::memcpy(m_dst + part.offset, m_src + part.offset, part.bytes);
        m_intervals[index] = {start, nowNs()};
        if (m_remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            const std::lock_guard lock(m_doneMutex);
            m_done.notify_one();
        }
    }
}

} // namespace ovs
