#include "ProfileCommand.h"

#include "ConsoleReport.h"
#include "WritableOutput.h"

#include "profile/ProfileRecord.h"
#include "profile/ProfileSession.h"
#include "profile/ProgramLauncher.h"
#include "trace/TraceJson.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <thread>

namespace ovs::cli {
namespace {

using namespace ovs::profile;

// profile's own failures. The program's status is passed through otherwise,
// so these follow env(1), timeout(1) and nohup(1) where they have one (125,
// 126, 127), and sit just below them where not, far from the small numbers
// programs use.
constexpr int kExitTraceNotWritten = 121;
constexpr int kExitNoInjection = 122;
constexpr int kExitCannotStart = 123;
constexpr int kExitUsage = 125;
constexpr int kExitNotExecutable = 126;
constexpr int kExitNotFound = 127;

constexpr auto kPollPeriod = std::chrono::milliseconds(50);
constexpr auto kProgressPeriod = std::chrono::seconds(2);
constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr const char* kInjectionName = "liboverlapscope-inject.so";

const char* kProfileUsage = R"(overlapscope-cli profile: record a CUDA program's copies, kernels and API calls

Usage: overlapscope-cli profile [options] [--] PROGRAM [ARGS...]

Runs PROGRAM with the OverlapScope injection library, which the CUDA driver
loads into every process of the program that initializes CUDA. Each such
process becomes one run of the trace (child processes included), on one
time axis. The program needs no rebuild. See docs/profiling.md.

Options:
  -o, --output FILE   the trace to write (native JSON; default PROGRAM.overlapscope.json here)
  --quiet             no progress and no summary on stderr
  --inject PATH       the injection library to use (default: OVERLAPSCOPE_INJECT_LIBRARY, else
                      liboverlapscope-inject.so next to this binary, else ../lib)
  --records DIR       keep the raw per-process record streams in DIR (default: a temporary folder,
                      removed afterwards)
  --help

Ctrl-C stops the program (SIGINT; SIGTERM if it is still running 5 s later; a third Ctrl-C
kills it) and keeps what was recorded. The summary goes to stderr; the program's own
stdout and stderr are untouched.

Exit status: the program's own (128 + N when a signal N ended it) when profile itself worked,
so scripts keep working. profile's own failures:
  121  the trace could not be written (the program ran; its status is printed)
  122  the injection library is missing or not built (no CUDA toolkit with CUPTI headers)
  123  the program could not be started, or the record folder not made
  125  bad usage of profile
  126  PROGRAM is not executable
  127  PROGRAM was not found
A program that itself exits with one of these is told apart by profile's message on stderr.
)";

struct Options {
    std::string output;
    std::string inject;
    std::string records;
    bool quiet = false;
    std::vector<std::string> program;
};

class ProfileUsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

Options parse(const std::vector<std::string>& args, bool* help)
{
    Options o;
    *help = false;
    std::size_t i = 0;
    const auto value = [&](const std::string& option) {
        if (i + 1 >= args.size())
            throw ProfileUsageError(option + " needs a value");
        return args[++i];
    };
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a.empty() || a[0] != '-')
            break; // the program
        if (a == "-o" || a == "--output")
            o.output = value(a);
        else if (a == "--inject")
            o.inject = value(a);
        else if (a == "--records")
            o.records = value(a);
        else if (a == "--quiet")
            o.quiet = true;
        else if (a == "--help" || a == "-h")
            *help = true;
        else
            throw ProfileUsageError("unknown option '" + a + "' (the program's own options go after it, or after --)");
    }
    o.program.assign(args.begin() + static_cast<std::ptrdiff_t>(std::min(i, args.size())), args.end());
    if (o.program.empty() && !*help)
        throw ProfileUsageError("profile needs a program to run: overlapscope-cli profile [options] -- PROGRAM [ARGS...]");
    return o;
}

std::string executableDir()
{
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.parent_path().string();
}

// An absolute path: the driver opens it from the program's working folder.
std::string findInjectionLibrary(const Options& o, std::string* why)
{
    std::vector<std::string> candidates;
    if (!o.inject.empty()) {
        candidates.push_back(o.inject);
    } else if (const char* env = std::getenv("OVERLAPSCOPE_INJECT_LIBRARY"); env && *env) {
        candidates.push_back(env);
    } else if (const std::string dir = executableDir(); !dir.empty()) {
        candidates.push_back(dir + "/" + kInjectionName);
        candidates.push_back(dir + "/../lib/" + kInjectionName);
    }
    std::string tried;
    for (const std::string& c : candidates) {
        std::error_code ec;
        const auto path = std::filesystem::canonical(c, ec);
        if (!ec && std::filesystem::is_regular_file(path, ec))
            return path.string();
        tried += (tried.empty() ? "" : ", ") + c;
    }
    *why = "the injection library " + std::string(kInjectionName) + " was not found (looked at " + tried
           + "); it is built with the CUDA toolkit's CUPTI headers, or give --inject PATH";
    return {};
}

std::string defaultOutput(const std::string& program)
{
    return std::filesystem::path(program).filename().string() + ".overlapscope.json";
}

// Refuses an output that cannot be written before the program runs for an hour.
void checkOutput(const std::string& path)
{
    if (const std::string why = whyNotWritable(path); !why.empty())
        throw ProfileUsageError(why);
}

std::string nowUtc()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Stop requests from signals. A terminal's Ctrl-C reaches the whole
// foreground process group, the program included, so it is not sent again;
// a signal sent to profile alone (kill, a parent tool) is passed on.
std::atomic<int> g_stopRequests{0};
std::atomic<int> g_terminalRequests{0};

extern "C" void onStopSignal(int signal, siginfo_t* info, void*)
{
    if (signal == SIGINT && info && info->si_code == SI_KERNEL)
        g_terminalRequests.fetch_add(1);
    g_stopRequests.fetch_add(1);
}

void installStopHandlers()
{
    struct sigaction action{};
    action.sa_sigaction = onStopSignal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int s : {SIGINT, SIGTERM, SIGHUP})
        sigaction(s, &action, nullptr);
}

// Says on stderr which processes are being recorded, as they appear.
class ProgressSink : public ProfileSink {
public:
    explicit ProgressSink(bool quiet) : m_quiet(quiet) {}
    // The summary takes over once the program ended.
    void silence() { m_quiet = true; }
    void runStarted(int, const Run& header) override
    {
        if (!m_quiet)
            std::fprintf(stderr, "overlapscope-cli profile: recording %s\n", header.name.c_str());
    }

private:
    bool m_quiet;
};

class RecordFolder {
public:
    explicit RecordFolder(const std::string& keep)
    {
        if (!keep.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(keep, ec);
            if (ec)
                throw std::runtime_error("cannot make " + keep + ": " + ec.message());
            // Streams left there by another profile would become runs of this one.
            for (const auto& entry : std::filesystem::directory_iterator(keep, ec))
                if (entry.path().string().ends_with(kStreamSuffix))
                    throw std::runtime_error(keep + " already holds record streams (" + entry.path().filename().string()
                                             + "): give --records an empty or new folder");
            m_path = std::filesystem::absolute(keep).string();
            m_keep = true;
            return;
        }
        std::string pattern = (std::filesystem::temp_directory_path() / "overlapscope-profile-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw std::runtime_error("cannot make a temporary folder for the record streams: "
                                     + std::string(std::strerror(errno)));
        m_path = pattern;
    }
    ~RecordFolder()
    {
        if (m_keep)
            return;
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    bool m_keep = false;
};

void printSummary(const std::vector<Run>& runs, const std::string& program, const ExitStatus& status,
                  double seconds)
{
    std::fprintf(stderr, "\noverlapscope-cli profile: %s ended with %s after %.2f s\n", program.c_str(),
                 status.text().c_str(), seconds);
    std::fprintf(stderr, "| process | status | kernels | HtoD | DtoH | DtoD | memsets | API calls | host syncs |\n"
                         "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Run& run : runs) {
        std::uint64_t n[kOpKindCount] = {};
        for (const Op& op : run.ops)
            ++n[static_cast<int>(op.kind)];
        const auto count = [&](OpKind k) { return static_cast<unsigned long long>(n[static_cast<int>(k)]); };
        const unsigned long long calls = count(OpKind::ApiCall) + count(OpKind::Sync) + count(OpKind::Alloc)
                                         + count(OpKind::Free) + count(OpKind::Register);
        std::fprintf(stderr, "| %s | %s | %llu | %llu | %llu | %llu | %llu | %llu | %llu |\n", run.name.c_str(),
                     toString(run.status), count(OpKind::Kernel), count(OpKind::Upload), count(OpKind::Download),
                     count(OpKind::DeviceCopy), count(OpKind::Memset), calls, count(OpKind::Sync));
    }
    for (const Run& run : runs)
        if (!run.error.empty())
            std::fprintf(stderr, "  %s: %s\n", run.name.c_str(), run.error.c_str());
}

// The same findings `analyze` prints, for the trace just recorded: on stderr
// with the rest of profile's report (the program's own stdout is its own).
void printProfileFindings(const Trace& trace)
{
    printFindings(stderr, trace);
}

std::string commandLine(const std::vector<std::string>& argv)
{
    std::string text;
    for (const std::string& a : argv)
        text += (text.empty() ? "" : " ") + a;
    return text;
}

int profile(const Options& o)
{
    LaunchProblem problem = LaunchProblem::None;
    std::string why;
    const std::string program = ProgramLauncher::resolve(o.program.front(), &problem, &why);
    if (program.empty()) {
        std::fprintf(stderr, "overlapscope-cli profile: %s\n", why.c_str());
        return problem == LaunchProblem::NotExecutable ? kExitNotExecutable : kExitNotFound;
    }
    const std::string output = o.output.empty() ? defaultOutput(o.program.front()) : o.output;
    checkOutput(output);
    const std::string injection = findInjectionLibrary(o, &why);
    if (injection.empty()) {
        std::fprintf(stderr, "overlapscope-cli profile: %s\n", why.c_str());
        return kExitNoInjection;
    }
    if (const char* other = std::getenv("CUDA_INJECTION64_PATH"); other && *other && injection != other)
        std::fprintf(stderr, "overlapscope-cli profile: replacing CUDA_INJECTION64_PATH=%s (another tool's) for the "
                             "program\n", other);

    std::unique_ptr<RecordFolder> folder;
    try {
        folder = std::make_unique<RecordFolder>(o.records);
    } catch (const std::runtime_error& e) {
        std::fprintf(stderr, "overlapscope-cli profile: %s\n", e.what());
        return kExitCannotStart;
    }

    installStopHandlers();
    ProgressSink progress(o.quiet);
    const std::int64_t zero = steadyNs();
    ProfileSession session(folder->path(), zero, &progress);
    ProgramLauncher launcher;
    std::vector<std::string> argv = o.program;
    argv.front() = program;
    if (!launcher.start(argv,
                        {"CUDA_INJECTION64_PATH=" + injection, std::string(kOutputDirVariable) + "=" + folder->path()},
                        &problem, &why)) {
        std::fprintf(stderr, "overlapscope-cli profile: %s\n", why.c_str());
        return problem == LaunchProblem::NotFound        ? kExitNotFound
               : problem == LaunchProblem::NotExecutable ? kExitNotExecutable
                                                         : kExitCannotStart;
    }

    int handledStops = 0;
    auto lastProgress = std::chrono::steady_clock::now();
    while (!launcher.poll()) {
        const int stops = g_stopRequests.load();
        for (; handledStops < stops; ++handledStops) {
            const bool fromTerminal = g_terminalRequests.load() > 0 && handledStops == 0;
            launcher.requestStop(fromTerminal);
            if (!o.quiet)
                std::fprintf(stderr, "overlapscope-cli profile: stopping the program (%s); what was recorded is kept\n",
                             handledStops == 0 ? "SIGINT" : handledStops == 1 ? "SIGTERM" : "SIGKILL");
        }
        launcher.escalateAfter(kStopGrace);
        session.poll();
        if (!o.quiet && std::chrono::steady_clock::now() - lastProgress >= kProgressPeriod) {
            lastProgress = std::chrono::steady_clock::now();
            std::fprintf(stderr, "overlapscope-cli profile: %.0f s, %d process%s, %llu GPU ops, %llu API calls\n",
                         static_cast<double>(steadyNs() - zero) / 1e9, session.processes(),
                         session.processes() == 1 ? "" : "es", static_cast<unsigned long long>(session.gpuOps()),
                         static_cast<unsigned long long>(session.apiCalls()));
        }
        std::this_thread::sleep_for(kPollPeriod);
    }

    const ExitStatus& status = launcher.status();
    ProgramEnding ending;
    ending.pid = static_cast<std::uint32_t>(launcher.pid());
    ending.exitStatus = status.text();
    ending.exitedCleanly = status.exited && status.code == 0;
    // A stop request that arrived as the program was ending (it got the
    // signal too) still makes the runs "cancelled".
    ending.cancelled = launcher.stopRequested() || g_stopRequests.load() > 0;
    ending.commandLine = commandLine(o.program);
    ending.endedNs = steadyNs() - zero;
    Trace trace;
    trace.tool = std::string("overlapscope-cli ") + OVERLAPSCOPE_VERSION + " profile";
    trace.createdUtc = nowUtc();
    progress.silence();
    trace.runs = session.finish(ending);
    if (!o.quiet)
        printSummary(trace.runs, o.program.front(), status, static_cast<double>(ending.endedNs) / 1e9);

    std::string error;
    if (!saveTrace(trace, output, &error)) {
        std::fprintf(stderr, "overlapscope-cli profile: could not write %s: %s (the program ended with %s)\n",
                     output.c_str(), error.c_str(), status.text().c_str());
        return kExitTraceNotWritten;
    }
    if (!o.quiet) {
        printProfileFindings(trace);
        std::fprintf(stderr, "trace written to %s\n", output.c_str());
    }
    return status.shellStatus();
}

} // namespace

int commandProfile(const std::vector<std::string>& args)
{
    try {
        bool help = false;
        const Options options = parse(args, &help);
        if (help) {
            std::fputs(kProfileUsage, stdout);
            return 0;
        }
        return profile(options);
    } catch (const ProfileUsageError& e) {
        std::fprintf(stderr, "overlapscope-cli profile: %s\nRun 'overlapscope-cli profile --help' for usage.\n",
                     e.what());
        return kExitUsage;
    }
}

} // namespace ovs::cli
