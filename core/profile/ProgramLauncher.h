#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ovs::profile {

// Why a program could not be started; the CLI maps each to its exit status.
enum class LaunchProblem : std::uint8_t { None, NotFound, NotExecutable, Failed };

// How a program ended.
struct ExitStatus {
    bool exited = false;  // by exit() (code), else by a signal
    int code = 0;
    int signal = 0;

    // "exit status 3", "killed by signal 9 (Killed)".
    std::string text() const;
    // What a shell reports: the code, or 128 + the signal.
    int shellStatus() const { return exited ? code : 128 + signal; }
};

// Runs a program (posix_spawn: safe from a threaded process such as the
// window) with extra environment variables, and stops it on request the way
// a user expects: SIGINT, then SIGTERM after a grace period.
// Qt-free, for the CLI and the window alike.
class ProgramLauncher {
public:
    // `name` as the user typed it: a path, or a command looked up in PATH.
    // Returns the path to run, or "" with `problem` and `why` set.
    static std::string resolve(const std::string& name, LaunchProblem* problem, std::string* why);

    ~ProgramLauncher();

    // `argv[0]` must be resolved already. `environment`: NAME=VALUE entries
    // replacing or adding to this process's environment. `workingDirectory`:
    // where the program starts (empty: this process's folder). `why` on failure.
    bool start(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
               LaunchProblem* problem, std::string* why, const std::string& workingDirectory = {});
    pid_t pid() const { return m_pid; }
    bool running() const { return m_pid > 0 && !m_ended; }

    // Non-blocking: true once the program has ended (then status() holds).
    bool poll();
    const ExitStatus& status() const { return m_status; }

    // First call: SIGINT (the program may save and exit cleanly), unless
    // `alreadySignalled` (a terminal's Ctrl-C reached the program too); each
    // later call escalates at once: SIGTERM, then SIGKILL.
    void requestStop(bool alreadySignalled = false);
    bool stopRequested() const { return m_stopLevel > 0; }
    // Sends SIGTERM when the program ignored SIGINT for `grace`. SIGKILL
    // (which leaves no end marker) only ever follows a third request.
    void escalateAfter(std::chrono::milliseconds grace);

private:
    void sendNext();

    pid_t m_pid = -1;
    bool m_ended = false;
    ExitStatus m_status;
    int m_stopLevel = 0; // 0 none, 1 SIGINT, 2 SIGTERM, 3 SIGKILL
    std::chrono::steady_clock::time_point m_lastSignal;
};

} // namespace ovs::profile
