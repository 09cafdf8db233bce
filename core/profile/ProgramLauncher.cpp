#include "profile/ProgramLauncher.h"

#include "base/ChildHugePages.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace ovs::profile {
namespace {

// Where `path` stands as a program; LaunchProblem::None when it can be run.
LaunchProblem check(const std::string& path, std::string* why)
{
    struct stat info{};
    if (::stat(path.c_str(), &info) != 0) {
        *why = path + ": " + std::strerror(errno);
        return errno == ENOENT || errno == ENOTDIR ? LaunchProblem::NotFound : LaunchProblem::NotExecutable;
    }
    if (S_ISDIR(info.st_mode)) {
        *why = path + " is a folder, not a program";
        return LaunchProblem::NotExecutable;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        *why = path + " is not executable: " + std::strerror(errno);
        return LaunchProblem::NotExecutable;
    }
    return LaunchProblem::None;
}

std::string nameOf(const std::string& entry)
{
    return entry.substr(0, entry.find('='));
}

} // namespace

std::string ExitStatus::text() const
{
    if (exited)
        return "exit status " + std::to_string(code);
    const char* name = ::strsignal(signal);
    return "killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : std::string());
}

std::string ProgramLauncher::resolve(const std::string& name, LaunchProblem* problem, std::string* why)
{
    *problem = LaunchProblem::None;
    if (name.empty()) {
        *problem = LaunchProblem::NotFound;
        *why = "no program given";
        return {};
    }
    if (name.find('/') != std::string::npos) {
        *problem = check(name, why);
        return *problem == LaunchProblem::None ? name : std::string();
    }
    // As execvp does: the first PATH entry holding an executable file wins; a
    // match that is not executable is reported only when nothing else is found.
    const char* pathVariable = std::getenv("PATH");
    const std::string path = pathVariable && *pathVariable ? pathVariable : "/usr/local/bin:/usr/bin:/bin";
    std::string firstProblem;
    std::size_t begin = 0;
    while (begin <= path.size()) {
        const std::size_t end = std::min(path.find(':', begin), path.size());
        const std::string dir = end > begin ? path.substr(begin, end - begin) : ".";
        const std::string candidate = dir + "/" + name;
        std::string candidateWhy;
        const LaunchProblem found = check(candidate, &candidateWhy);
        if (found == LaunchProblem::None)
            return candidate;
        if (found == LaunchProblem::NotExecutable && firstProblem.empty())
            firstProblem = candidateWhy;
        begin = end + 1;
    }
    if (!firstProblem.empty()) {
        *problem = LaunchProblem::NotExecutable;
        *why = firstProblem;
    } else {
        *problem = LaunchProblem::NotFound;
        *why = name + ": command not found in PATH";
    }
    return {};
}

ProgramLauncher::~ProgramLauncher()
{
    // Never leaves a zombie: a launcher destroyed with its program running
    // (an exception on the way out) stops it first.
    if (running()) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

bool ProgramLauncher::start(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                            LaunchProblem* problem, std::string* why, const std::string& workingDirectory)
{
    std::vector<std::string> env = environment;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = nameOf(entry);
        const bool replaced = std::any_of(environment.begin(), environment.end(),
                                          [&](const std::string& mine) { return nameOf(mine) == name; });
        if (!replaced)
            env.push_back(entry);
    }
    std::vector<char*> envp;
    for (std::string& entry : env)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = argv;
    std::vector<char*> argp;
    for (std::string& arg : args)
        argp.push_back(arg.data());
    argp.push_back(nullptr);

    // The program starts with the signal dispositions and mask a shell would
    // give it, whatever handlers the launcher installed for itself.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD})
        sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    // The folder is changed in the child only, between fork and exec: the
    // launcher's own folder (shared by all its threads) stays as it is.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!workingDirectory.empty())
        posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
    pid_t pid = -1;
    int error = 0;
    {
        const ChildHugePages systemHugePages; // the program's, not the profiler's
        error = ::posix_spawn(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (error != 0) {
        *problem = error == ENOENT ? LaunchProblem::NotFound
                   : error == EACCES || error == ENOEXEC ? LaunchProblem::NotExecutable
                                                         : LaunchProblem::Failed;
        *why = "cannot run " + argv.front() + (workingDirectory.empty() ? "" : " in " + workingDirectory) + ": "
               + std::strerror(error);
        return false;
    }
    m_pid = pid;
    m_ended = false;
    m_stopLevel = 0;
    return true;
}

bool ProgramLauncher::poll()
{
    if (m_pid <= 0)
        return true;
    if (m_ended)
        return true;
    int status = 0;
    pid_t done = ::waitpid(m_pid, &status, WNOHANG);
    while (done < 0 && errno == EINTR)
        done = ::waitpid(m_pid, &status, WNOHANG);
    if (done != m_pid)
        return false;
    m_ended = true;
    m_status.exited = WIFEXITED(status);
    m_status.code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    m_status.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return true;
}

void ProgramLauncher::sendNext()
{
    if (!running() || m_stopLevel >= 3)
        return;
    ++m_stopLevel;
    ::kill(m_pid, m_stopLevel == 1 ? SIGINT : m_stopLevel == 2 ? SIGTERM : SIGKILL);
    m_lastSignal = std::chrono::steady_clock::now();
}

void ProgramLauncher::requestStop(bool alreadySignalled)
{
    if (m_stopLevel == 0 && alreadySignalled) {
        m_stopLevel = 1;
        m_lastSignal = std::chrono::steady_clock::now();
        return;
    }
    sendNext();
}

void ProgramLauncher::escalateAfter(std::chrono::milliseconds grace)
{
    if (m_stopLevel == 1 && std::chrono::steady_clock::now() - m_lastSignal >= grace)
        sendNext();
}

} // namespace ovs::profile
