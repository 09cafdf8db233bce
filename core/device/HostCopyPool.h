#pragma once

#include "device/DeviceTypes.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace ovs {

// A small set of persistent host threads that memcpy one buffer in parallel,
// for a device's hostCopyParallel. Threads are started on first need and kept,
// so a pipeline staging every chunk does not pay thread creation per copy.
//
// Each part is copied by one worker, which times itself on the steady clock
// (the clock CUDA devices report as hostNowNs); the calling thread only
// waits. One part runs inline on the calling thread: there is nothing to
// hand over.
//
// One copy at a time: like Device, it is driven by one host thread.
class HostCopyPool {
public:
    static constexpr int kMaxThreads = 64;

    struct Part {
        std::size_t offset = 0;
        std::size_t bytes = 0;
    };
    // How `bytes` is cut into `parts` contiguous parts: as even as possible,
    // with inner boundaries on 64-byte cache lines so no two threads write
    // one line. Parts cover [0, bytes) exactly, in order; small copies can
    // leave parts empty. The simulator uses the same cut.
    static std::vector<Part> split(std::size_t bytes, int parts);

    HostCopyPool() = default;
    ~HostCopyPool();
    HostCopyPool(const HostCopyPool&) = delete;
    HostCopyPool& operator=(const HostCopyPool&) = delete;

    // Copies with `threads` threads (1..kMaxThreads) and returns each part's
    // interval, in part order, in steady-clock ns. Throws DeviceError for a
    // bad thread count or when the system cannot start a thread.
    std::vector<HostInterval> copy(void* dst, const void* src, std::size_t bytes, int threads);

    // Worker threads started so far.
    int threadCount() const;

private:
    void work(int index);
    static std::int64_t nowNs();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::vector<std::thread> m_threads;
    // The copy being done; workers whose index is below m_parts.size() take a part.
    std::byte* m_dst = nullptr;
    const std::byte* m_src = nullptr;
    std::vector<Part> m_parts;
    std::vector<HostInterval> m_intervals;
    std::uint64_t m_generation = 0;
    int m_remaining = 0;
    bool m_stopping = false;
};

} // namespace ovs
