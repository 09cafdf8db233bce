#include "ProfileCommand.h"

#include "CliCommon.h"
#include "ConsoleReport.h"
#include "RanksReport.h"
#include "WritableOutput.h"

#include "bench/BandwidthBench.h"
#include "devicefactory/DeviceFactory.h"
#include "io/SameFile.h"
#include "profile/CaptureRange.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileRun.h"
#include "profile/StackCapture.h"
#include "symbols/Symbolizer.h"
#include "formats/TraceJson.h"


#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace ovs::cli {
namespace {

// A Python program: the interpreter, or a script run by its #! line. Its
// CUDA calls' native stacks hold the interpreter's and libtorch's frames,
// never a line of the script (docs/profiling.md, "Call sites").
bool runsPython(const std::vector<std::string>& program)
{
    const std::string name = std::filesystem::path(program.front()).filename().string();
    return name.starts_with("python") || name.ends_with(".py");
}

using namespace ovs::profile;

// profile's own failures. The program's status is passed through otherwise,
// so these follow env(1), timeout(1) and nohup(1) where they have one (125,
// 126, 127), and sit just below them where not, far from the small numbers
// programs use.
constexpr int kExitTraceNotWritten = 121;
constexpr int kExitNoInjection = 122;
constexpr int kExitCannotStart = 123;
constexpr int kExitProfileUsage = 125;
constexpr int kExitNotExecutable = 126;
constexpr int kExitNotFound = 127;

constexpr auto kPollPeriod = std::chrono::milliseconds(50);
constexpr auto kProgressPeriod = std::chrono::seconds(2);
constexpr auto kStopGrace = std::chrono::seconds(5);

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
  --sync-records      also record CUPTI's synchronization records, which name what each wait
                      waited for, as in cudaStreamSynchronize (stream 13). Off by default: on
                      programs of many small ops they cost the most of any record kind (a
                      PyTorch loop of 12,000 ops ran some 20% slower with them; docs/profiling.md).
                      The waits themselves are recorded either way.
  --stacks sync|all|off
                      capture a call stack at each CUDA call of a kind findings point at, and
                      name the line of the program it came from under each finding (sync:
                      synchronizations, copies and memsets, allocations, frees and
                      registrations; all: every launch too, which costs more; off, the
                      default: on several examples sync made profile more than 5% slower,
                      docs/profiling.md). File and line where the program has debug
                      information (-g), else function and offset. See docs/profiling.md,
                      "Call sites"
  --capture-range cudaProfilerApi
                      keep only what the program did between cudaProfilerStart and
                      cudaProfilerStop (the program is traced throughout; API calls outside,
                      and the GPU work they enqueued, are dropped from the trace, and the run
                      says how many). A program that never calls cudaProfilerStart keeps nothing
  --no-link-rate      after a program that copied pageable memory, do not time one pinned
                      copy each way on its GPU (the what-if of pinning needs that rate)
  --region NAME|REGEX judge the regions of that name (NVTX ranges) or whose whole name the
                      expression matches, as analyze --region does (the trace keeps everything)
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

// The default of --stacks (docs/profiling.md, "What call stacks cost").
// Off: on the lent H100, --stacks sync made the whole profile of 7 of 13
// examples more than 5% slower (the issue's bar for on by default).
constexpr StackMode kDefaultStacks = kStacksOff;

struct Options {
    std::string output;
    std::string inject;
    std::string records;
    bool quiet = false;
    bool syncRecords = false;
    StackMode stacks = kDefaultStacks;
    bool linkRate = true;
    std::string region;
    bool captureProfilerRange = false;
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
        else if (a == "--sync-records")
            o.syncRecords = true;
        else if (a == "--stacks") {
            const std::string mode = value(a);
            bool known = false;
            o.stacks = StackCapture::parseMode(mode, &known);
            if (!known || mode.empty())
                throw ProfileUsageError("--stacks takes sync, all or off, not '" + mode + "'");
        }
        else if (a == "--no-link-rate")
            o.linkRate = false;
        else if (a == "--region")
            o.region = value(a);
        else if (a == "--capture-range") {
            const std::string range = value(a);
            if (range != "cudaProfilerApi")
                throw ProfileUsageError("--capture-range takes cudaProfilerApi (the range between cudaProfilerStart "
                                        "and cudaProfilerStop), not '" + range + "'");
            o.captureProfilerRange = true;
        }
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

std::string defaultOutput(const std::string& program)
{
    return std::filesystem::path(program).filename().string() + ".overlapscope.json";
}

// Refuses an output that cannot be written before the program runs for an
// hour, and one that is the program itself (-o ./app -- ./app).
void checkOutput(const std::string& path, const std::string& program)
{
    if (const std::string why = whyNotWritable(path); !why.empty())
        throw ProfileUsageError(why);
    if (const std::string why = whyOutputIsInput(path, program); !why.empty())
        throw ProfileUsageError(why);
    if (const std::string why = whyWrongExtension(path, "json"); !why.empty())
        throw ProfileUsageError(why);
}

// Stop requests from signals. A terminal's Ctrl-C reaches the whole
// foreground process group, the program included, so it is not sent again;
// a signal sent to profile alone (kill, a parent tool) is passed on.
ProfileStop g_stop;

extern "C" void onStopSignal(int signal, siginfo_t* info, void*)
{
    g_stop.request(signal == SIGINT && info && info->si_code == SI_KERNEL);
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

// Says on stderr which processes are being recorded, as they appear, how far
// the program got every few seconds, and the stop signals sent.
class ProgressReport : public ProfileSink, public ProfileObserver {
public:
    explicit ProgressReport(bool quiet) : m_quiet(quiet) {}

    void runStarted(int, const Run& header) override
    {
        if (!m_quiet)
            std::fprintf(stderr, "overlapscope-cli profile: recording %s\n", header.name.c_str());
    }
    void notice(const std::string& text) override
    {
        // Shown even with --quiet, as before: it changes what the program sees.
        std::fprintf(stderr, "overlapscope-cli profile: %s\n", text.c_str());
    }
    void progress(const ProfileProgress& p) override
    {
        if (m_quiet || std::chrono::steady_clock::now() - m_lastProgress < kProgressPeriod)
            return;
        m_lastProgress = std::chrono::steady_clock::now();
        std::fprintf(stderr, "overlapscope-cli profile: %.0f s, %d process%s, %llu GPU ops, %llu API calls\n",
                     static_cast<double>(p.elapsedNs) / 1e9, p.processes, p.processes == 1 ? "" : "es",
                     static_cast<unsigned long long>(p.gpuOps), static_cast<unsigned long long>(p.apiCalls));
    }
    void stopping(const char* signalName) override
    {
        if (!m_quiet)
            std::fprintf(stderr, "overlapscope-cli profile: stopping the program (%s); what was recorded is kept\n",
                         signalName);
    }
    // The summary takes over once the program ended.
    void programEnded(const ovs::profile::ExitStatus&) override { m_quiet = true; }

private:
    bool m_quiet;
    std::chrono::steady_clock::time_point m_lastProgress = std::chrono::steady_clock::now();
};

void printSummary(const std::vector<Run>& runs, const std::string& program, const ovs::profile::ExitStatus& status,
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
                     count(OpKind::DeviceCopy) + count(OpKind::PeerCopy), count(OpKind::Memset), calls, count(OpKind::Sync));
    }
    for (const Run& run : runs)
        if (!run.error.empty())
            std::fprintf(stderr, "  %s: %s\n", run.name.c_str(), run.error.c_str());
}

// The same findings `analyze` prints, for the trace just recorded: on stderr
// with the rest of profile's report (the program's own stdout is its own).
void printProfileFindings(const Trace& trace, const std::string& region)
{
    AnalysisOptions options;
    options.region = region;
    std::vector<std::string> notes;
    const std::vector<RunAnalysis> analyses = analyzeTrace(trace, options, &notes);
    for (const std::string& note : notes)
        printError(note);
    printFindings(stderr, trace, analyses);
    printRanksOfTrace(stderr, trace, analyses, std::string());
}

int exitStatusOf(ProfileFailure failure)
{
    switch (failure) {
    case ProfileFailure::NotFound: return kExitNotFound;
    case ProfileFailure::NotExecutable: return kExitNotExecutable;
    case ProfileFailure::NoInjection: return kExitNoInjection;
    default: return kExitCannotStart;
    }
}

// The what-if pins a program's pageable copies, and prefetches the managed
// memory its kernels faulted in, at the link's pinned rate, which a program
// that copies only pageable memory, or none, never shows; and where a fix
// runs an upload beside a download, they share the link at its
// bidirectional rate, which a program that never ran both at once does not
// show either. So, after the program, one pinned copy each way, and both
// ways at once, are timed on the GPU it ran on (64 MiB, the median of 5,
// about a second) and kept as the trace's sweep, for that run's device.
// Skipped where the program made no pageable copy, used no managed memory
// and did not copy both ways, where no GPU answers, or with --no-link-rate.
void measureLinkRate(Trace& trace, bool quiet)
{
    const auto needsLinkRate = [](const Run& run) {
        bool up = false, down = false;
        for (const Op& op : run.ops) {
            if (((op.kind == OpKind::Upload || op.kind == OpKind::Download) && op.memory == HostMemoryKind::Pageable)
                || op.kind == OpKind::UnifiedMemory)
                return true;
            up = up || op.kind == OpKind::Upload;
            down = down || op.kind == OpKind::Download;
        }
        return up && down;
    };
    const auto run = std::find_if(trace.runs.begin(), trace.runs.end(), needsLinkRate);
    if (run == trace.runs.end() || run->device.simulated || !cudaDeviceAvailable())
        return;
    try {
        const std::unique_ptr<Device> device = createDevice("cuda");
        if (!device || device->info().name != run->device.name)
            return;
        BenchConfig config;
        config.sizes = {64ull << 20};
        config.warmups = 2;
        config.samples = 5;
        config.pageable = config.hostCopy = false;
        config.bidirectional = true;
        RecordSink sink;
        const CancelFlag cancel;
        BandwidthSweep sweep = runBandwidthSweep(*device, config, sink, cancel);
        if (sweep.status != RunStatus::Completed || sweep.points.empty())
            return;
        // Measured on the same GPU: filed under the run's device, so the
        // analysis finds it for that run.
        sweep.device = run->device;
        trace.sweeps.push_back(std::move(sweep));
        if (!quiet)
            std::fprintf(stderr, "measured the pinned link rate (64 MiB each way and both ways at once) for the "
                                 "what-if\n");
    } catch (const std::exception& e) {
        if (!quiet)
            std::fprintf(stderr, "could not measure the pinned link rate: %s\n", e.what());
    }
}

int profile(const Options& o)
{
    ProfileRequest request;
    request.program = o.program;
    request.injectionLibrary = o.inject;
    if (const std::string dir = executableFolder(); !dir.empty())
        request.injectionSearchFolders = {dir, dir + "/../lib"};
    request.recordsDirectory = o.records;
    if (o.syncRecords)
        request.environment.push_back(std::string(kSyncRecordsVariable) + "=1");
    // Stacks are only on when asked for (kDefaultStacks is off), so a build
    // without them refuses the option rather than quietly dropping it.
    if (o.stacks != kStacksOff && !Symbolizer::available())
        throw ProfileUsageError("--stacks: this build has no call stacks (built without libunwind's and libdw's "
                                "headers: apt-get install libunwind-dev libdw-dev and build again)");
    request.environment.push_back(std::string(kStacksVariable) + "=" + StackCapture::modeName(o.stacks));
    request.stopGrace = kStopGrace;
    request.pollPeriod = kPollPeriod;
    const std::string output = o.output.empty() ? defaultOutput(o.program.front()) : o.output;

    installStopHandlers();
    ProgressReport report(o.quiet);
    // The output is checked once the program is known to exist, before it
    // runs for an hour; a bad one throws ProfileUsageError out of here.
    const ProfileOutcome outcome =
        runProfile(request, &report, g_stop, &report, [&](const std::string& program) { checkOutput(output, program); });
    if (!outcome.ran()) {
        std::fprintf(stderr, "overlapscope-cli profile: %s%s\n", outcome.problem.c_str(),
                     outcome.failure == ProfileFailure::NoInjection ? ", or give --inject PATH" : "");
        return exitStatusOf(outcome.failure);
    }

    Trace trace;
    trace.tool = std::string("overlapscope-cli ") + OVERLAPSCOPE_VERSION + " profile";
    trace.createdUtc = nowUtc();
    trace.runs = outcome.runs;
    if (o.captureProfilerRange) {
        for (Run& run : trace.runs) {
            const CaptureOutcome captured = keepProfilerRanges(run);
            run.error += (run.error.empty() ? "" : "; ") + captured.note;
        }
    }
    if (o.linkRate)
        measureLinkRate(trace, o.quiet);
    if (!o.quiet)
        printSummary(trace.runs, o.program.front(), outcome.status, static_cast<double>(outcome.endedNs) / 1e9);

    std::string error;
    if (!saveTrace(trace, output, &error)) {
        std::fprintf(stderr, "overlapscope-cli profile: could not write %s: %s (the program ended with %s)\n",
                     output.c_str(), error.c_str(), outcome.status.text().c_str());
        return kExitTraceNotWritten;
    }
    if (!o.quiet) {
        printProfileFindings(trace, o.region);
        if (runsPython(o.program))
            std::fprintf(stderr, "call sites: a Python program's native stacks name no line of its own; record its "
                                 "PyTorch trace with torch.profiler.profile(with_stack=True) and analyze that "
                                 "(docs/profiling.md, \"Call sites\")\n");
        else if (o.stacks == kStacksOff)
            std::fprintf(stderr, "call sites: off by default; --stacks sync names the line of each finding "
                                 "(docs/profiling.md, \"What call stacks cost\")\n");
        std::fprintf(stderr, "trace written to %s\n", output.c_str());
    }
    return outcome.status.shellStatus();
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
        return kExitProfileUsage;
    }
}

} // namespace ovs::cli
