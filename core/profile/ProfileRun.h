#pragma once

#include "profile/ProfileSink.h"
#include "profile/ProgramLauncher.h"
#include "trace/Run.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ovs::profile {

// What to profile: the program and how to start it. The CLI and the window
// fill it; runProfile() does the rest, so both share one launch, poll,
// finish and cancel loop.
struct ProfileRequest {
    // argv as the user typed it: program[0] a path or a command looked up in PATH.
    std::vector<std::string> program;
    // The program's working folder; empty: this process's.
    std::string workingDirectory;
    // NAME=VALUE entries added to (or replacing) this process's environment.
    std::vector<std::string> environment;
    // The injection library as the user named it; empty: found as
    // findInjectionLibrary() says, in `injectionSearchFolders`.
    std::string injectionLibrary;
    std::vector<std::string> injectionSearchFolders;
    // Where the processes write their record streams: kept there when given
    // (it must be new or empty), else a temporary folder removed afterwards.
    std::string recordsDirectory;
    // How long the program may ignore SIGINT before it gets SIGTERM.
    std::chrono::milliseconds stopGrace{5000};
    std::chrono::milliseconds pollPeriod{50};
};

// Why a profile did not run the program at all.
enum class ProfileFailure : std::uint8_t { None, NotFound, NotExecutable, NoInjection, CannotStart };

// Stop requests, from any thread or from a signal handler (lock-free atomics
// only, so request() is async-signal-safe). The first request sends SIGINT,
// the next SIGTERM, a third SIGKILL; SIGTERM also follows on its own after
// the request's stopGrace.
class ProfileStop {
public:
    // `fromTerminal`: the program got the signal already (a terminal's
    // Ctrl-C reaches the whole foreground process group), so the first
    // request is not sent again.
    void request(bool fromTerminal = false) noexcept
    {
        if (fromTerminal)
            m_fromTerminal.fetch_add(1, std::memory_order_relaxed);
        m_requests.fetch_add(1, std::memory_order_relaxed);
    }
    int requests() const noexcept { return m_requests.load(std::memory_order_relaxed); }
    bool fromTerminal() const noexcept { return m_fromTerminal.load(std::memory_order_relaxed) > 0; }
    void reset() noexcept
    {
        m_requests.store(0, std::memory_order_relaxed);
        m_fromTerminal.store(0, std::memory_order_relaxed);
    }

private:
    std::atomic<int> m_requests{0};
    std::atomic<int> m_fromTerminal{0};
    static_assert(std::atomic<int>::is_always_lock_free);
};

struct ProfileProgress {
    std::int64_t elapsedNs = 0;
    int processes = 0; // processes that initialized CUDA so far
    std::uint64_t gpuOps = 0;
    std::uint64_t apiCalls = 0;
};

// What the loop says besides the sink's runs, on the thread running it.
class ProfileObserver {
public:
    virtual ~ProfileObserver() = default;
    // Before the launch: something the user should know (another tool's
    // CUDA_INJECTION64_PATH replaced).
    virtual void notice(const std::string& text) { (void)text; }
    // The program was started.
    virtual void launched(pid_t pid) { (void)pid; }
    // Every poll while the program runs (callers pace their own output).
    virtual void progress(const ProfileProgress& progress) { (void)progress; }
    // A stop request was acted on: "SIGINT", "SIGTERM" or "SIGKILL".
    virtual void stopping(const char* signalName) { (void)signalName; }
    // The program ended; its runs are finished next (the sink's last calls).
    virtual void programEnded(const ExitStatus& status) { (void)status; }
};

// How a profile ended.
struct ProfileOutcome {
    // None when the program ran; otherwise nothing ran and `problem` says why.
    ProfileFailure failure = ProfileFailure::None;
    std::string problem;

    std::string program;     // the resolved path that ran
    std::string commandLine; // argv as typed, joined by spaces
    ExitStatus status;
    bool cancelled = false;  // a stop was requested (the runs are marked cancelled)
    std::int64_t endedNs = 0; // from the launch to the end of the program
    std::vector<Run> runs;    // one per process that initialized CUDA, or one saying none did

    bool ran() const { return failure == ProfileFailure::None; }
};

// Runs the request's program to its end under the injection library: resolves
// the program, finds the injection library and makes the records folder
// (failures come back in the outcome, nothing launched), calls `beforeLaunch`
// with the resolved program (the CLI checks its output path there; an
// exception from it propagates, nothing launched), then launches and polls
// the record streams into `sink` until the program ends, acting on `stop`.
// Blocks the calling thread: the window calls it on a worker.
ProfileOutcome runProfile(const ProfileRequest& request, ProfileSink* sink, const ProfileStop& stop,
                          ProfileObserver* observer = nullptr,
                          const std::function<void(const std::string& program)>& beforeLaunch = {});

// The injection library to use, as an absolute path (the driver opens it from
// the program's working folder): `given` when not empty, else
// OVERLAPSCOPE_INJECT_LIBRARY, else liboverlapscope-inject.so in the first of
// `searchFolders` that has it. "" with `why` when none is a file.
std::string findInjectionLibrary(const std::string& given, const std::vector<std::string>& searchFolders,
                                 std::string* why);

// The folder of the running executable ("" when /proc does not say).
std::string executableFolder();

// argv joined by spaces, for run names and messages.
std::string joinCommandLine(const std::vector<std::string>& argv);

} // namespace ovs::profile
