// overlapscope-cli: records copy/compute overlap on a CUDA GPU or the
// simulated device, without Qt, for headless GPU servers.

#include "CliArgs.h"
#include "ConsoleReport.h"
#include "ExitStatus.h"
#include "LessonReport.h"
#include "ProfileCommand.h"
#include "WritableOutput.h"

#include "analysis/AnalysisJson.h"
#include "base/Printable.h"
#include "bench/PeerBench.h"
#include "devices/DeviceFactory.h"
#include "io/AtomicFileWriter.h"
#include "jobs/JobRunner.h"
#include "lessons/LessonRunner.h"
#include "pipeline/PipelineConfig.h"
#include "record/TraceCollector.h"
#include "trace/ChromeTraceExport.h"
#include "trace/CsvExport.h"
#include "trace/TraceJson.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace ovs;
using ovs::cli::CliArgs;
using ovs::cli::UsageError;

namespace {

std::string usage()
{
    return std::string(R"(overlapscope-cli: record and compare CUDA copy/compute overlap

Usage: overlapscope-cli COMMAND [options]

Commands:
  devices              list the devices this build can use
  bench                transfer bandwidth sweep (pageable and pinned, HtoD and DtoH, bidirectional)
  pipeline             run the pipelines and print the seed's table (serialized, overlapped, speedup)
  record -o FILE       run the pipelines and the sweep, write a trace (native JSON)
  convert IN -o OUT    convert a trace: --to chrome (Perfetto / chrome://tracing), csv, or native
  analyze TRACE        per run: engine busy time, overlap, GB/s, the bound it could reach, diagnosis
  lesson NAME          run a lesson (see --list): its question, its runs' table, what to look at,
                       the answer the measurement gives, its checks and the takeaway with the numbers
                       (--chunk-mib N sizes its chunks, default 32; -o FILE also writes its runs as a
                       trace; --markdown FILE writes its table for docs/lessons.md). A check that
                       does not hold is a finding, printed as such; the exit status is the runs'.
  lesson --list        the lessons, in course order
  profile -- PROGRAM   run any CUDA program and record its copies, kernels and API calls
                       (see 'overlapscope-cli profile --help'; it has its own options and exit codes)

Device:
  --device SPEC        auto (default: the CUDA GPU if one answers, else the simulated H200),
                       or one of: )") + deviceSpecSyntax() + R"(
                       pipeline, record and bench also take several GPUs of one host:
                       )" + multiDeviceSpecSyntax() + R"(.
                       A pipeline then spreads its chunks over them (docs/multi-gpu.md); the
                       sweep measures each device alone, then the peer-to-peer matrix (every
                       pair, both directions, peer access on and off, at the largest size).

Pipeline options (pipeline, record):
  --pipelines LIST     comma-separated strategies, or 'all' (default serialized,overlapped):
                         serialized         the seed's serialized path over pageable memory
                         overlapped         the seed's slots with pinned staging buffers
                         registered         the user's buffers cudaHostRegister'ed (cost timed), no staging
                         pinned-data        data already in pinned memory, no staging
                         pageable-async     cudaMemcpyAsync on pageable memory (the driver stages it)
                         pinned-one-stream  data already pinned, every chunk on one stream
  --chunks N           chunks (default 8)
  --chunk-mib N        chunk size in MiB (default 32); or --chunk-bytes N (multiple of 4)
  --slots N            slots (streams + staging buffers) of the overlapped path, and streams of
                       registered, pinned-data and pageable-async (default 3)
  --staging-threads N  host threads sharing each staging copy of the overlapped path, 1..)"
           + std::to_string(kMaxStagingThreads) + R"( (default 1)
  --kernel-repeats N   increment passes per chunk (default 1)
  --no-op-timing       record only each run's wall time: no per-op events, no CUPTI (measures
                       what recording costs; see overlapscope-observer-bench)
  Variants of registered, pinned-data, pageable-async and pinned-one-stream (the lessons'):
  --issue-order O      depth-first (default) or breadth-first (a round's uploads, kernels, downloads)
  --stream-sync S      non-blocking (default) or blocking (cudaStreamCreate's default streams)
  --default-stream-op D  none (default), legacy or per-thread: a one-float kernel per chunk there
  --loop-allocation A  none (default), malloc (cudaMalloc per chunk) or malloc-free (and cudaFree)

Benchmark options (bench, record):
  --sizes LIST         transfer sizes in MiB (default 1,4,16,64,256)
  --warmups N          warm-up copies per cell (default 3)
  --samples N          timed copies per cell (default 10; the median is reported)
  --no-bench           record: skip the sweep

Other:
  -o, --output FILE    where to write (record, convert; pipeline: optional trace)
  --to FORMAT          convert: chrome, csv or native
  --max-trace-mib N    convert, analyze: read traces up to N MiB (default 2048, at most 4095)
  --json               analyze: the findings, their replayed costs and the what-if, as JSON on stdout
                       (schema: docs/what-if.md)
  --quiet              no progress on stderr
  --help, --version

)" + cli::kExitStatusHelp;
}

const std::vector<std::string> kValueOptions = {"--device",     "--pipelines", "--chunks",  "--chunk-mib",
                                                "--chunk-bytes", "--slots",     "--kernel-repeats", "--staging-threads",
                                                "--sizes",      "--warmups",   "--samples", "-o",
                                                "--output",     "--to",        "--markdown",
                                                "--issue-order", "--stream-sync", "--default-stream-op",
                                                "--loop-allocation", "--max-trace-mib"};
const std::vector<std::string> kFlagOptions = {"--quiet",   "--no-bench",     "--help", "-h",
                                               "--version", "--no-op-timing", "--list", "--json"};

// Progress on stderr, one line per step, so stdout stays a clean table.
class ProgressPrinter : public RecordSink {
public:
    explicit ProgressPrinter(bool quiet) : m_quiet(quiet) {}
    void progress(double fraction, const std::string& what) override
    {
        if (!m_quiet)
            std::fprintf(stderr, "[%3.0f%%] %s\n", fraction * 100, echoed(what, kMessageLimit).c_str());
    }

private:
    bool m_quiet;
};

// The first Ctrl-C cancels the job in flight: it drains the device, and what
// was recorded is reported and written. A second one ends the program at once.
CancelFlag* g_cancel = nullptr;
extern "C" void onInterrupt(int)
{
    if (g_cancel)
        g_cancel->cancel();
    std::signal(SIGINT, SIG_DFL);
}

// Every message of the CLI's own goes out through here: one line, names and
// quoted input escaped, at most kMessageLimit characters.
void printError(const std::string& message)
{
    std::fprintf(stderr, "overlapscope-cli: %s\n", echoed(message, kMessageLimit).c_str());
}

// A trace's names as the terminal will show them: control characters
// escaped, so a name cannot retitle or clear the terminal or break a table.
void makePrintable(Trace& trace)
{
    auto device = [](DeviceInfo& info) {
        info.name = printable(info.name);
        info.preset = printable(info.preset);
        info.detail = printable(info.detail);
    };
    for (auto& run : trace.runs) {
        run.name = printable(run.name);
        run.pipeline = printable(run.pipeline);
        run.timing = printable(run.timing);
        run.error = printable(run.error);
        run.verification.message = printable(run.verification.message);
        device(run.device);
        for (auto& more : run.moreDevices)
            device(more);
        for (auto& lane : run.lanes)
            lane.name = printable(lane.name);
    }
    for (auto& sweep : trace.sweeps) {
        sweep.timing = printable(sweep.timing);
        sweep.error = printable(sweep.error);
        device(sweep.device);
        for (auto& point : sweep.points)
            point.direction = printable(point.direction);
    }
}

// A device that cannot be opened here exits with its own status; a spec
// that names no device is a usage mistake.
class NoDevice : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An input that cannot be read or is malformed: exit status 3.
class BadInput : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string nowUtc()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::unique_ptr<Device> openDevice(const CliArgs& args)
{
    // CUPTI is attached when the device is made and traces every CUDA call
    // from then on, ops or not: without op timing it must not start at all.
    if (args.has("--no-op-timing"))
        setenv("OVERLAPSCOPE_NO_CUPTI", "1", 1);
    try {
        return createDevice(args.value("--device", "auto"));
    } catch (const DeviceUnavailable& e) {
        throw NoDevice(e.what());
    } catch (const DeviceError& e) {
        throw UsageError(e.what());
    }
}

// The devices a spec names, one or several (pipeline, record, bench).
DeviceSet openDevices(const CliArgs& args)
{
    if (args.has("--no-op-timing"))
        setenv("OVERLAPSCOPE_NO_CUPTI", "1", 1);
    try {
        DeviceSet set = createDevices(args.value("--device", "auto"));
        if (!set.note.empty())
            std::fprintf(stderr, "%s\n", echoed(set.note, kMessageLimit).c_str());
        return set;
    } catch (const DeviceUnavailable& e) {
        throw NoDevice(e.what());
    } catch (const DeviceError& e) {
        throw UsageError(e.what());
    }
}

std::vector<PipelineConfig> pipelineConfigs(const CliArgs& args)
{
    PipelineConfig base;
    base.chunks = static_cast<int>(args.integer("--chunks", base.chunks, 1, kMaxChunks));
    if (args.has("--chunk-mib") && args.has("--chunk-bytes"))
        throw UsageError("give --chunk-mib or --chunk-bytes, not both");
    if (args.has("--chunk-bytes"))
        base.chunkBytes =
            static_cast<std::uint64_t>(args.integer("--chunk-bytes", 0, 4, static_cast<long long>(kMaxChunkBytes)));
    else
        base.chunkBytes = static_cast<std::uint64_t>(args.integer("--chunk-mib", static_cast<long long>(base.chunkBytes >> 20),
                                                                  1, static_cast<long long>(kMaxChunkBytes >> 20)))
                          << 20;
    base.slotCount = static_cast<int>(args.integer("--slots", base.slotCount, 1, kMaxSlots));
    base.kernelRepeats = static_cast<int>(args.integer("--kernel-repeats", base.kernelRepeats, 1, kMaxKernelRepeats));
    base.stagingThreads = static_cast<int>(args.integer("--staging-threads", base.stagingThreads, 1, kMaxStagingThreads));
    base.opTiming = !args.has("--no-op-timing");
    auto variant = [&](const char* option, auto fromId, auto ids, auto fallback) {
        const auto id = args.value(option);
        if (!id)
            return fallback;
        const auto value = fromId(*id);
        if (!value)
            throw UsageError(std::string(option) + " takes " + ids() + " (got '" + echoed(*id) + "')");
        return *value;
    };
    base.issueOrder = variant("--issue-order", issueOrderFromId, issueOrderIds, base.issueOrder);
    base.streamSync = variant("--stream-sync", streamSyncFromId, streamSyncIds, base.streamSync);
    base.defaultStreamOp = variant("--default-stream-op", defaultStreamOpFromId, defaultStreamOpIds, base.defaultStreamOp);
    base.loopAllocation = variant("--loop-allocation", loopAllocationFromId, loopAllocationIds, base.loopAllocation);

    std::vector<std::string> ids = args.list("--pipelines", {"serialized", "overlapped"});
    if (ids == std::vector<std::string>{"all"}) {
        ids.clear();
        for (const auto& info : pipelineKinds())
            ids.emplace_back(info.id);
    }
    std::vector<PipelineConfig> configs;
    for (const auto& id : ids) {
        auto kind = pipelineKindFromId(id);
        if (!kind) {
            std::string known;
            for (const auto& info : pipelineKinds())
                known += std::string(known.empty() ? "" : ", ") + info.id;
            throw UsageError("unknown pipeline '" + echoed(id) + "' (known: " + known + ", or all)");
        }
        PipelineConfig config = base;
        config.kind = *kind;
        if (std::string problem = validate(config); !problem.empty())
            throw UsageError(problem);
        configs.push_back(config);
    }
    return configs;
}

BenchConfig benchConfig(const CliArgs& args)
{
    BenchConfig config;
    if (args.has("--sizes")) {
        config.sizes.clear();
        for (const auto& item : args.list("--sizes", {}))
            config.sizes.push_back(
                static_cast<std::uint64_t>(cli::parseInteger(item, "--sizes", 1, static_cast<long long>(kMaxTransferBytes >> 20)))
                << 20);
    }
    config.warmups = static_cast<int>(args.integer("--warmups", config.warmups, 0, kMaxWarmups));
    config.samples = static_cast<int>(args.integer("--samples", config.samples, 1, kMaxSamples));
    if (std::string problem = validate(config); !problem.empty())
        throw UsageError(problem);
    return config;
}

// `extension`: the one the output's format goes by (cli::whyWrongExtension).
std::string outputPath(const CliArgs& args, bool required, const std::string& extension = "json")
{
    if (args.has("-o") && args.has("--output"))
        throw UsageError("give -o or --output, not both");
    auto path = args.value("-o");
    if (!path)
        path = args.value("--output");
    if (!path && required)
        throw UsageError("this command needs an output file: -o FILE");
    if (path) {
        if (std::string why = cli::whyNotWritable(*path); !why.empty())
            throw UsageError("cannot write the output: " + why);
        if (std::string why = cli::whyWrongExtension(*path, extension); !why.empty())
            throw UsageError("cannot write the output: " + why);
    }
    return path.value_or("");
}

int commandDevices()
{
    const auto print = [](const DeviceListing& d) {
        std::printf("%-12s %-40s %s%s%s\n", d.spec.c_str(), printable(d.label).c_str(),
                    d.available ? "available" : "unavailable", d.note.empty() ? "" : ": ", echoed(d.note, kMessageLimit).c_str());
    };
    for (const auto& d : listDevices())
        print(d);
    std::printf("\nSeveral GPUs of one host (pipeline, record, bench): %s\n", multiDeviceSpecSyntax().c_str());
    for (const auto& d : multiDeviceListings())
        print(d);
    return 0;
}

// What a recording came to: the trace (every run and sweep recorded, the
// cancelled or failed ones included) and how the jobs went.
struct Recording {
    Trace trace;
    JobOutcome outcome;
};

Recording record(const CliArgs& args, const DeviceSet& devices, const JobList& jobs, CancelFlag& cancel)
{
    const bool quiet = args.has("--quiet");
    ProgressPrinter progress(quiet);
    TraceCollector collector(&progress);
    collector.trace().tool = std::string("overlapscope-cli ") + OVERLAPSCOPE_VERSION;
    collector.trace().createdUtc = nowUtc();
    const JobOutcome outcome = runJobs(devices, jobs, collector, cancel, [&](int index, const std::string& title) {
        if (!quiet)
            std::fprintf(stderr, "job %d of %d: %s\n", index + 1, jobs.count(), title.c_str());
    });
    return {collector.trace(), outcome};
}

// Says on stderr what did not go to plan and turns the outcome into the
// exit status.
int finish(const JobOutcome& outcome)
{
    for (const auto& problem : outcome.problems)
        printError(problem);
    if (outcome.cancelled)
        printError("cancelled; kept what was recorded");
    return cli::exitStatusOf(outcome);
}

// Why `device` gives event times only; empty when it reports engine intervals.
std::string whyNoEngineTiming(const Device& device)
{
    std::string why;
    device.engineTimingSource(&why);
    return why;
}

void report(const Trace& trace, const std::string& whyNoEngine = {})
{
    if (!trace.runs.empty()) {
        cli::printDeviceLine(stdout, trace.runs.front().device, trace.runs.front().timing, whyNoEngine);
        cli::printPipelineTable(stdout, trace.runs);
        cli::printOpCounts(stdout, trace.runs);
        cli::printAnalysisSummary(stdout, trace);
    }
    for (const auto& sweep : trace.sweeps)
        cli::printBandwidthTable(stdout, sweep);
}

int writeTrace(const Trace& trace, const std::string& path)
{
    std::string error;
    if (!saveTrace(trace, path, &error)) {
        printError(error); // the writer's message names the path once
        return cli::kExitFailed;
    }
    std::fprintf(stderr, "trace written to %s\n", echoed(path).c_str());
    return cli::kExitOk;
}

// With a multi-device spec, the peer-to-peer matrix after the sweeps (at
// the sweep's largest size), printed and added to the trace as a run of
// peer copies; a set of one says why there is none.
void peerMatrix(const CliArgs& args, const DeviceSet& devices, const BenchConfig& config, CancelFlag& cancel,
                Trace& trace, JobOutcome& outcome)
{
    if (!isMultiDeviceSpec(args.value("--device", "auto")) || cancel.isCancelled())
        return;
    const std::uint64_t bytes = *std::max_element(config.sizes.begin(), config.sizes.end());
    if (!args.has("--quiet") && devices.size() > 1)
        std::fprintf(stderr, "peer-to-peer matrix: %d GPUs, %llu MiB\n", devices.size(),
                     static_cast<unsigned long long>(bytes >> 20));
    PeerMatrix matrix = runPeerMatrix(devices, bytes, config.warmups, config.samples, cancel);
    cli::printPeerMatrix(stdout, matrix, devices.size());
    if (matrix.status == RunStatus::Cancelled)
        outcome.cancelled = true;
    else if (matrix.status == RunStatus::Failed)
        outcome.problems.push_back("peer-to-peer matrix failed: " + matrix.error);
    if (matrix.note.empty())
        trace.runs.push_back(std::move(matrix.run));
}

int commandBench(const CliArgs& args, CancelFlag& cancel)
{
    JobList jobs;
    jobs.sweep = benchConfig(args);
    const DeviceSet devices = openDevices(args);
    for (int d = 0; d < devices.size(); ++d) {
        DeviceInfo info = devices.at(d).info();
        info.name = printable(info.name);
        info.detail = printable(info.detail);
        cli::printDeviceLine(stdout, info, info.simulated ? "simulated" : "cuda-events");
    }
    Recording recording = record(args, devices, jobs, cancel);
    makePrintable(recording.trace);
    for (const auto& sweep : recording.trace.sweeps)
        cli::printBandwidthTable(stdout, sweep);
    peerMatrix(args, devices, *jobs.sweep, cancel, recording.trace, recording.outcome);
    return finish(recording.outcome);
}

int commandPipeline(const CliArgs& args, CancelFlag& cancel)
{
    const std::string path = outputPath(args, false);
    JobList jobs;
    jobs.pipelines = pipelineConfigs(args); // usage errors before the device opens
    const DeviceSet devices = openDevices(args);
    Recording recording = record(args, devices, jobs, cancel);
    const int written = path.empty() ? cli::kExitOk : writeTrace(recording.trace, path);
    makePrintable(recording.trace);
    report(recording.trace, whyNoEngineTiming(devices.at(0)));
    const int status = finish(recording.outcome);
    return status != cli::kExitOk ? status : written;
}

int commandRecord(const CliArgs& args, CancelFlag& cancel)
{
    const std::string path = outputPath(args, true);
    JobList jobs;
    jobs.pipelines = pipelineConfigs(args);
    if (!args.has("--no-bench"))
        jobs.sweep = benchConfig(args);
    const DeviceSet devices = openDevices(args);
    Recording recording = record(args, devices, jobs, cancel);
    if (jobs.sweep)
        peerMatrix(args, devices, *jobs.sweep, cancel, recording.trace, recording.outcome);
    const int written = writeTrace(recording.trace, path);
    makePrintable(recording.trace);
    report(recording.trace, whyNoEngineTiming(devices.at(0)));
    const int status = finish(recording.outcome);
    return status != cli::kExitOk ? status : written;
}

// The size limit for reading a trace (core's default unless raised or
// lowered), checked before the file is opened.
std::uint64_t maxTraceBytes(const CliArgs& args)
{
    const long long mib = args.integer("--max-trace-mib", static_cast<long long>(kDefaultMaxTraceBytes >> 20), 1,
                                       static_cast<long long>(kMaxTraceBytesCeiling >> 20));
    return static_cast<std::uint64_t>(mib) << 20;
}

int commandConvert(const CliArgs& args)
{
    if (args.positionals().size() != 1)
        throw UsageError("convert needs exactly one input trace");
    const std::string to = args.value("--to", "");
    if (to != "chrome" && to != "csv" && to != "native")
        throw UsageError("convert needs --to chrome, csv or native");
    const std::string path = outputPath(args, true, to == "csv" ? "csv" : "json");
    const auto loaded = loadTrace(args.positionals().front(), maxTraceBytes(args));
    if (!loaded.trace)
        throw BadInput(loaded.error); // it names the file once
    std::string error;
    bool ok = false;
    if (to == "chrome")
        ok = exportChromeTrace(*loaded.trace, path, &error);
    else if (to == "csv")
        ok = exportCsv(*loaded.trace, path, &error);
    else
        ok = saveTrace(*loaded.trace, path, &error);
    if (!ok) {
        printError(error); // the writer's message names the path once
        return cli::kExitFailed;
    }
    std::fprintf(stderr, "wrote %s\n", echoed(path).c_str());
    return cli::kExitOk;
}

int commandAnalyze(const CliArgs& args)
{
    if (args.positionals().size() != 1)
        throw UsageError("analyze needs exactly one trace");
    const std::string& path = args.positionals().front();
    auto loaded = loadTrace(path, maxTraceBytes(args));
    if (!loaded.trace)
        throw BadInput(loaded.error); // it names the file once
    Trace& trace = *loaded.trace;
    if (args.has("--json")) {
        // Names as they are: JSON escapes what a console would not show.
        const std::string json = analysisJson(trace, analyzeTrace(trace));
        std::fwrite(json.data(), 1, json.size(), stdout);
        return cli::kExitOk;
    }
    makePrintable(trace);
    if (trace.runs.empty()) {
        std::printf("%s holds no runs to analyze\n", echoed(path).c_str());
        return cli::kExitOk;
    }
    cli::printDeviceLine(stdout, trace.runs.front().device, trace.runs.front().timing);
    // Our pipelines get their tables (chunks, bounds, speedups); a trace of
    // other programs only (profiled, PyTorch) has none of those numbers, so
    // it gets a run table and its findings.
    const bool pipelines = std::any_of(trace.runs.begin(), trace.runs.end(),
                                       [](const Run& run) { return pipelineKindFromId(run.pipeline).has_value(); });
    if (pipelines) {
        cli::printPipelineTable(stdout, trace.runs);
        cli::printAnalysis(stdout, trace);
        cli::printAnalysisSummary(stdout, trace);
    } else {
        cli::printProgramRunTable(stdout, trace.runs);
    }
    cli::printFindings(stdout, trace);
    return 0;
}

// A lesson's checks that do not hold are findings, printed as such, not
// failures: a real GPU may well differ from the simulator's expectation.
// The exit status is the job runner's (a failed, unverified or cancelled run).
int commandLesson(const CliArgs& args, CancelFlag& cancel)
{
    if (args.has("--list")) {
        if (!args.positionals().empty())
            throw UsageError("give a lesson name or --list, not both");
        cli::printLessonList(stdout);
        return cli::kExitOk;
    }
    if (args.positionals().size() != 1)
        throw UsageError("lesson needs exactly one lesson name (one of: " + lessonIds() + ")");
    const Lesson* lesson = findLesson(args.positionals().front());
    if (!lesson)
        throw UsageError("unknown lesson '" + echoed(args.positionals().front()) + "' (known: " + lessonIds() + ")");
    LessonOptions options;
    options.chunkBytes = static_cast<std::uint64_t>(args.integer("--chunk-mib", static_cast<long long>(options.chunkBytes >> 20), 1,
                                                                 static_cast<long long>(kMaxChunkBytes >> 22)))
                         << 20;
    const std::string path = outputPath(args, false);
    const std::string markdownPath = args.value("--markdown", "");
    if (!markdownPath.empty()) {
        if (std::string why = cli::whyNotWritable(markdownPath); !why.empty())
            throw UsageError("cannot write the Markdown table: " + why);
        if (std::string why = cli::whyWrongExtension(markdownPath, "md"); !why.empty())
            throw UsageError("cannot write the Markdown table: " + why);
    }
    auto device = openDevice(args);
    const bool quiet = args.has("--quiet");
    cli::printLessonIntro(stdout, *lesson, device->info());
    std::fflush(stdout);
    ProgressPrinter progress(quiet);
    TraceCollector collector(&progress);
    collector.trace().tool = std::string("overlapscope-cli ") + OVERLAPSCOPE_VERSION;
    collector.trace().createdUtc = nowUtc();
    const LessonResult result =
        runLesson(*lesson, *device, collector, cancel, [&](int index, int total, const std::string& title) {
            if (!quiet)
                std::fprintf(stderr, "job %d of %d: %s\n", index + 1, total, title.c_str());
        }, options);
    cli::printLessonResult(stdout, *lesson, result);
    int written = path.empty() ? cli::kExitOk : writeTrace(collector.trace(), path);
    if (!markdownPath.empty()) {
        // Printed into memory, then written the one way the tools write a file.
        char* text = nullptr;
        std::size_t size = 0;
        std::FILE* memory = open_memstream(&text, &size);
        bool ok = memory != nullptr;
        if (memory) {
            cli::printLessonMarkdown(memory, *lesson, result);
            ok = std::fclose(memory) == 0;
        }
        AtomicFileWriter writer;
        ok = ok && writer.open(markdownPath) && writer.write(std::string_view(text, size)) && writer.commit();
        std::free(text);
        if (!ok) {
            printError("could not write " + echoed(markdownPath) + (writer.failed() ? ": " + writer.error() : ""));
            written = cli::kExitFailed;
        }
    }
    const int status = finish(result.outcome);
    return status != cli::kExitOk ? status : written;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> rest(argv + 1, argv + argc);
    if (rest.empty()) {
        std::fputs(usage().c_str(), stderr);
        return cli::kExitUsage;
    }
    const std::string command = rest.front();
    if (command == "--help" || command == "-h" || command == "help") {
        std::fputs(usage().c_str(), stdout);
        return cli::kExitOk;
    }
    if (command == "--version") {
        std::printf("overlapscope-cli %s\n", OVERLAPSCOPE_VERSION);
        return 0;
    }
    rest.erase(rest.begin());
    if (command == "profile") // its own arguments: everything after the program is the program's
        return cli::commandProfile(rest);

    CancelFlag cancel;
    g_cancel = &cancel;
    std::signal(SIGINT, onInterrupt);
    try {
        const CliArgs args(rest, kValueOptions, kFlagOptions);
        if (args.has("--help") || args.has("-h")) {
            std::fputs(usage().c_str(), stdout);
            return cli::kExitOk;
        }
        if (command != "convert" && command != "analyze" && command != "lesson" && !args.positionals().empty())
            throw UsageError("unexpected argument '" + echoed(args.positionals().front()) + "'");
        if (command == "devices")
            return commandDevices();
        if (command == "bench")
            return commandBench(args, cancel);
        if (command == "pipeline")
            return commandPipeline(args, cancel);
        if (command == "record")
            return commandRecord(args, cancel);
        if (command == "convert")
            return commandConvert(args);
        if (command == "analyze")
            return commandAnalyze(args);
        if (command == "lesson")
            return commandLesson(args, cancel);
        throw UsageError("unknown command '" + echoed(command) + "'");
    } catch (const UsageError& e) {
        printError(e.what());
        std::fputs("Run 'overlapscope-cli --help' for usage.\n", stderr);
        return cli::kExitUsage;
    } catch (const BadInput& e) {
        printError(e.what());
        return cli::kExitBadInput;
    } catch (const NoDevice& e) {
        printError(e.what());
        return cli::kExitNoDevice;
    } catch (const DeviceError& e) {
        printError(std::string("device error: ") + e.what());
        return cli::kExitFailed;
    } catch (const std::bad_alloc&) {
        printError("out of host memory");
        return cli::kExitFailed;
    }
}
