#pragma once

#include "device/DeviceTypes.h"

#include <atomic>
#include <condition_variable>
#include <memory>
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
// The hand-off is on the critical path of every staging copy, so it is kept
// short: each worker is woken on its own (no herd on one lock), and workers
// and the caller spin briefly before they sleep, since a pipeline's next
// staging copy usually follows within microseconds (observer effect, issue 9.4).
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
    // One worker: its thread and the copy it was last given. `job` changes
    // only under `mutex`; the worker also reads it without, while it spins.
    struct Worker {
        std::thread thread;
        std::mutex mutex;
        std::condition_variable wake;
        std::atomic<std::uint64_t> job{0};
    };

    // `seen`: the last job before the worker started.
    void work(Worker& self, std::size_t index, std::uint64_t seen);
    static std::int64_t nowNs();

    std::vector<std::unique_ptr<Worker>> m_workers;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_spin{false}; // every worker and the caller have a core each
    // The copy being done: written before its workers are given its job
    // number, read by them after, and not changed until all of them are done.
    std::byte* m_dst = nullptr;
    const std::byte* m_src = nullptr;
    std::vector<Part> m_parts;
    std::vector<HostInterval> m_intervals;
    std::uint64_t m_job = 0;
    std::atomic<int> m_remaining{0};
    std::mutex m_doneMutex;
    std::condition_variable m_done;
};

} // namespace ovs
