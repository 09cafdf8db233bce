#pragma once

#include "CuptiLibrary.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamEncoder.h"

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ovs::inject {

// Records one process's CUDA activity into its record stream
// (core/profile/ProfileRecord.h, docs/profiling.md): GPU work from CUPTI's
// activity API (concurrent kernels, copies, memsets, synchronization), the
// runtime and driver calls that matter for overlap, and what it takes to
// place them on the host clock. Buffers are encoded and written as CUPTI
// hands them over, so a process that dies leaves everything delivered so far.
//
// One per process, never destroyed: CUPTI calls into it until exit.
class CuptiTracer {
public:
    static CuptiTracer& instance();

    // From InitializeInjection. Any failure is said on stderr and in the
    // stream, and leaves the program running untraced.
    void start();
    // Exit handler: the last flush and the end marker.
    void finish();

    // CUPTI's callbacks (any thread).
    void provideBuffer(std::uint8_t** buffer, std::size_t* bytes, std::size_t* maxRecords);
    void bufferCompleted(std::uint8_t* buffer, std::size_t validBytes);
    void contextDestroying();

private:
    CuptiTracer() = default;

    bool openStream(std::string* whyNot);
    // Subscribes and enables activity kinds; on failure `heldElsewhere` says
    // whether another CUPTI client was the reason.
    bool startCupti(std::string* whyNot, bool* heldElsewhere);
    void enableApiRecords(CUpti_CallbackDomain domain, std::uint32_t count);
    void flushLoop();

    // Everything below that writes runs under m_mutex.
    void addClockPair(profile::ProfileStreamEncoder& out);
    void encode(const CUpti_Activity* record, profile::ProfileStreamEncoder& out);
    std::uint32_t intern(std::string_view text, profile::ProfileStreamEncoder& out);
    std::uint32_t kernelName(const char* mangled, profile::ProfileStreamEncoder& out);
    std::uint32_t apiName(std::uint8_t domain, std::uint32_t callbackId, profile::ProfileStreamEncoder& out);
    void noteThread(std::uint32_t threadId, profile::ProfileStreamEncoder& out);
    void addLossIfChanged(profile::ProfileStreamEncoder& out);
    void emit(profile::ProfileStreamEncoder& out);
    // A note in the stream and, unless it is only information, on stderr
    // (prefixed "overlapscope: ").
    void say(profile::NoteSeverity severity, const std::string& text);

    CuptiLibrary m_cupti;
    pid_t m_pid = 0;
    bool m_debug = false;
    CUpti_SubscriberHandle m_subscriber = nullptr;
    std::atomic<bool> m_tracing{false};
    std::atomic<bool> m_finished{false};

    std::mutex m_mutex;
    int m_fd = -1;
    std::uint32_t m_nextStringId = 1;
    std::unordered_map<std::string, std::uint32_t> m_strings;
    struct KernelName {
        std::string mangled;
        std::uint32_t id = 0;
    };
    // By CUPTI's name pointer, which stays the same for a function's launches.
    std::unordered_map<const char*, KernelName> m_kernelNames;
    std::unordered_map<std::uint64_t, std::uint32_t> m_apiNames; // domain << 32 | callback id
    std::unordered_set<std::uint32_t> m_threads;
    std::uint64_t m_dropped = 0;
    std::uint64_t m_untimed = 0;
    std::uint64_t m_reportedLoss = 0; // dropped + untimed when last written
    std::int64_t m_lastClockNs = 0;
    std::vector<std::uint8_t*> m_freeBuffers;
    std::uint64_t m_buffers = 0;

    std::mutex m_flushMutex;
    std::condition_variable m_flushWake;
    bool m_stopFlushing = false;
    std::thread m_flusher;
};

} // namespace ovs::inject
