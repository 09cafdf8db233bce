#pragma once

#include "CuptiRecordEncoder.h"
#include "cupti/Library.h"
#include "cupti/Session.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamEncoder.h"
#include "profile/StackCapture.h"

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace ovs::inject {

// Records one process's CUDA activity into its record stream
// (core/profile/ProfileRecord.h, docs/profiling.md): GPU work from CUPTI's
// activity API (concurrent kernels, copies, memsets, synchronization), the
// runtime and driver calls that matter for overlap, and what it takes to
// place them on the host clock. The profile's client of the process's CUPTI
// session (cupti/Session.h: the kinds, the buffers, the loss tally, the clock
// pairs); buffers are encoded and written as the session hands them over, so
// a process that dies leaves everything delivered so far.
//
// One per process, never destroyed: CUPTI calls into it until exit.
class CuptiTracer final : public cupti::Session::Reader {
public:
    static CuptiTracer& instance();

    // From InitializeInjection. Any failure is said on stderr and in the
    // stream, and leaves the program running untraced.
    void start();
    // Exit handler: the last flush and the end marker.
    void finish();

    // An NVTX range call (NvtxInjection.cpp), from the program's thread. It
    // is kept in memory and written with the next flush (every 100 ms and at
    // exit), so an annotated loop pays a copy, not a write(2), per range.
    // Calls made before CUDA started the tracer are kept until it does.
    void addRange(const profile::RangeRecord& record, std::string_view text);

    // CUPTI's callbacks (any thread).
    void contextDestroying();
    // The first context exists: the unified-memory records CUPTI was not
    // ready for at start are enabled now (enableUnifiedMemory).
    void contextCreated();
    // A runtime or driver call whose stack is wanted (profile --stacks),
    // at its entry and exit, on the calling thread.
    void apiCallback(CUpti_CallbackDomain domain, const CUpti_CallbackData& call);

private:
    CuptiTracer() = default;

    // The session's reader: one completed buffer (CUPTI's thread).
    void read(cupti::RecordCursor& records) override;
    bool openStream(std::string* whyNot);
    // Subscribes and starts the session; on failure `heldElsewhere` says
    // whether another CUPTI client was the reason.
    bool startCupti(std::string* whyNot, bool* heldElsewhere);
    void enableApiRecords(CUpti_CallbackDomain domain);
    // Call stacks as OVERLAPSCOPE_PROFILE_STACKS asks: libunwind opened and
    // the callbacks of the calls that get a stack turned on; else a note why not.
    void startStacks();
    int enableStackCallbacks(CUpti_CallbackDomain domain);
    // CUPTI's unified-memory counters (migrations, faults, thrashing): each
    // counter the device supports; none, said in a note, where CUPTI refuses
    // them all (MPS, no unified-memory support).
    void enableUnifiedMemory();
    // Configures the unified-memory counters and enables their records;
    // false (nothing said) where CUPTI is not ready yet and this is not
    // `lastTry`, true once done or said why not.
    bool configureUnifiedMemory(bool lastTry);
    void flushLoop();
    const cupti::Library::Api& api() const { return m_cupti->api(); }
    std::uint64_t untimed() const { return m_records ? m_records->untimed() : 0; }

    // Everything below that writes runs under m_mutex.
    void addClockPair(profile::ProfileStreamEncoder& out);
    // The session's loss (and the untimed records), written when it grew.
    void addLossIfChanged(profile::ProfileStreamEncoder& out);
    // Moves the NVTX records kept so far into `out`.
    void takeRanges(profile::ProfileStreamEncoder& out);
    void emit(profile::ProfileStreamEncoder& out);
    // A note in the stream and, unless it is only information, on stderr
    // (prefixed "overlapscope: ").
    void say(profile::NoteSeverity severity, const std::string& text);

    // Set once the stream is open: a process nobody asked to record never
    // loads libcupti.
    const cupti::Library* m_cupti = nullptr;
    cupti::Session* m_session = nullptr; // used only once m_cupti is loaded
    pid_t m_pid = 0;
    bool m_debug = false;
    CUpti_SubscriberHandle m_subscriber = nullptr;
    std::atomic<bool> m_tracing{false};
    // CUPTI said CUPTI_ERROR_NOT_READY to the unified-memory records at
    // start (before the driver had a context): tried again at the first.
    std::atomic<bool> m_unifiedMemoryPending{false};
    std::atomic<bool> m_finished{false};

    std::mutex m_mutex;
    int m_fd = -1;
    std::optional<CuptiRecordEncoder> m_records; // once libcupti is loaded
    std::uint64_t m_reportedLoss = 0;          // dropped + untimed when last written
    std::uint64_t m_reportedUnreadBuffers = 0; // when last written
    std::int64_t m_lastClockNs = 0;
    std::uint64_t m_buffersRead = 0;

    // NVTX records not written yet: a lock of their own, so a range call
    // never waits while a CUPTI buffer is encoded under m_mutex.
    std::mutex m_rangeMutex;
    profile::ProfileStreamEncoder m_ranges;
    std::uint64_t m_rangesDropped = 0;

    profile::StackCapture m_stacks;

    std::mutex m_flushMutex;
    std::condition_variable m_flushWake;
    bool m_stopFlushing = false;
    std::thread m_flusher;
};

} // namespace ovs::inject
