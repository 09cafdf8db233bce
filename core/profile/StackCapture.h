#pragma once

#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamEncoder.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ovs::profile {

// Call stacks in the profiled process: captured at a CUDA call's entry with
// libunwind's unw_backtrace (raw return addresses, nothing symbolized here:
// that happens in the profiler after the run, core/symbols), each distinct
// stack kept once, and the loaded objects the addresses fall in. Compiled
// into the injection library (it needs libc and libdl only) and into the
// tests, which capture their own stacks with it.
//
// libunwind is opened at run time (dlopen, RTLD_LOCAL) rather than linked:
// Debian's libunwind.a is not position-independent, so it cannot go inside
// the injection library, and linking libunwind.so.8 would keep the library
// from loading at all on a machine without it. Where it is missing, the
// program is recorded without stacks and the stream says why.
//
// Bounded: kMaxFrames frames a stack (the innermost), kMaxStacks distinct
// stacks, kMaxPendingBytes waiting to be written; what is dropped is counted
// (StackStateRecord) and said by the profile.
class StackCapture {
public:
    static constexpr int kMaxFrames = 32;
    static constexpr std::uint32_t kMaxStacks = 1u << 16;
    static constexpr std::size_t kMaxPendingBytes = 16u << 20;

    // Whether a call of this name (without CUPTI's _vNNNN suffix) gets a
    // stack: by its role in trace/ApiNames.h. Sync: the calls a finding can
    // point at (synchronizations, copies and memsets, async ones included,
    // allocations and frees that are not stream-ordered, registrations):
    // a pageable "async" copy blocks, and findings name copies. All:
    // launches and stream-ordered allocations too.
    static bool wants(StackMode mode, std::string_view apiName);
    // "sync", "all", "off" (or empty); anything else: kStacksOff and !ok.
    static StackMode parseMode(std::string_view text, bool* ok);
    static const char* modeName(StackMode mode);

    // Opens libunwind: libunwind.so.8 in `firstFolder` (the injection
    // library's own folder, where a packed build carries it), then by name.
    // False with the reason where it cannot, or where this build has no
    // stack support.
    bool start(StackMode mode, const std::string& firstFolder, std::string* whyNot);
    bool started() const { return m_backtrace != nullptr; }
    StackMode mode() const { return m_mode; }
    // The library that was opened.
    const std::string& libraryPath() const { return m_libraryPath; }

    // Captures the calling thread's stack (less this function's frame) and
    // records that the call `correlationId` was made from it. Any thread.
    void record(std::uint32_t correlationId);

    // Moves what was recorded since the last call into `out`: the state
    // (first time, and when a total grew), the loaded objects not sent yet
    // (looked at only when a new stack came since the last look), the new
    // stacks and the calls' stack ids. Any thread.
    void take(ProfileStreamEncoder& out);

    // The objects loaded in this process now, as ModuleRecords and paths.
    static std::vector<std::pair<ModuleRecord, std::string>> loadedModules();

private:
    using Backtrace = int (*)(void**, int);

    // The id of the stack, adding it (then `added`); 0 when the table is full.
    std::uint32_t stackId(const std::uint64_t* frames, int count, bool* added);
    void addModules(ProfileStreamEncoder& out);
    StackStateRecord state() const;

    StackMode m_mode = kStacksOff;
    Backtrace m_backtrace = nullptr;
    std::string m_libraryPath;

    std::mutex m_mutex;
    // Distinct stacks: frames end to end, each stack's [begin, end) in
    // m_stackEnds, and an open-addressing table of ids by hash.
    std::vector<std::uint64_t> m_frames;
    std::vector<std::uint32_t> m_stackEnds;
    std::vector<std::uint32_t> m_slots;
    std::vector<std::uint64_t> m_slotHashes;
    std::uint32_t m_stacksSent = 0;
    ProfileStreamEncoder m_calls; // CallStack records waiting to be taken
    std::uint64_t m_callsWithoutStack = 0;
    std::uint64_t m_truncated = 0;
    bool m_stateSent = false;
    std::uint64_t m_sentWithout = 0;
    std::uint64_t m_sentTruncated = 0;
    std::uint32_t m_sentStacks = 0;
    std::set<std::pair<std::string, std::uint64_t>> m_modulesSent; // (path, load bias)
};

} // namespace ovs::profile
