#include "CliCommon.h"

#include "ExitStatus.h"
#include "WritableOutput.h"

#include "base/Printable.h"
#include "base/ShortenedText.h"
#include "devicefactory/DeviceFactory.h"
#include "formats/TraceJson.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace ovs::cli {

void ProgressPrinter::progress(double fraction, const std::string& what)
{
    if (!m_quiet)
        std::fprintf(stderr, "[%3.0f%%] %s\n", fraction * 100, echoed(what, kMessageLimit).c_str());
}

void printError(const std::string& message)
{
    std::fprintf(stderr, "overlapscope-cli: %s\n", echoed(message, kMessageLimit).c_str());
}

void makePrintable(Trace& trace)
{
    const auto shown = [](std::string& text) { text = printable(shortenedText(text)); };
    auto device = [&](DeviceInfo& info) {
        shown(info.name);
        shown(info.preset);
        shown(info.detail);
    };
    for (auto& run : trace.runs) {
        shown(run.name);
        shown(run.pipeline);
        shown(run.timing);
        shown(run.error);
        shown(run.verification.message);
        device(run.device);
        for (auto& more : run.moreDevices)
            device(more);
        for (auto& lane : run.lanes)
            shown(lane.name);
        // Kernel and API names reach the findings ("the host was in NAME").
        for (auto& name : run.names)
            shown(name);
    }
    for (auto& sweep : trace.sweeps) {
        shown(sweep.timing);
        shown(sweep.error);
        device(sweep.device);
        for (auto& point : sweep.points)
            shown(point.direction);
    }
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

std::string outputPath(const CliArgs& args, bool required, const std::string& extension)
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

int finish(const JobOutcome& outcome, const std::string& leftAsItWas)
{
    for (const auto& problem : outcome.problems)
        printError(problem);
    if (outcome.cancelled)
        printError(leftAsItWas.empty() ? "cancelled; kept what was recorded"
                                       : "cancelled before any run finished: nothing written, '" + echoed(leftAsItWas)
                                             + "' is left as it was");
    return cli::exitStatusOf(outcome);
}

Trace readTrace(const std::string& path, const CliArgs& args, const CancelFlag& cancel, std::string* note)
{
    ReadProgress progress;
    progress.cancel = &cancel;
    TraceLoadResult loaded = loadTrace(path, maxTraceBytes(args), progress);
    if (loaded.cancelled)
        throw ReadInterrupted(loaded.error);
    if (!loaded.trace)
        throw BadInput(loaded.error); // it names the file once
    if (note)
        *note = std::move(loaded.note);
    return std::move(*loaded.trace);
}

std::uint64_t maxTraceBytes(const CliArgs& args)
{
    const long long mib = args.integer("--max-trace-mib", static_cast<long long>(kDefaultMaxTraceBytes >> 20), 1,
                                       static_cast<long long>(kMaxTraceBytesCeiling >> 20));
    return static_cast<std::uint64_t>(mib) << 20;
}

AnalysisOptions analysisOptions(const CliArgs& args)
{
    AnalysisOptions options;
    options.region = args.value("--region", "");
    if (const auto text = args.value("--pinned-rate")) {
        std::string error;
        const auto given = parsePinnedRates(*text, &error);
        if (!given)
            throw UsageError("--pinned-rate " + echoed(*text) + ": " + error);
        options.pinnedRates = *given;
    }
    return options;
}

} // namespace ovs::cli
