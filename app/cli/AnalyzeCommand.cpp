#include "CliCommon.h"
#include "Commands.h"
#include "ConsoleReport.h"
#include "ExitStatus.h"
#include "RanksReport.h"

#include "json/AnalysisJson.h"
#include "analysis/RunAnalysis.h"
#include "base/Printable.h"
#include "formats/TraceJson.h"
#include "pipeline/PipelineConfig.h"
#include "ranks/RankSummaryJson.h"
#include "ranks/RanksJson.h"

#include <algorithm>
#include <cstdio>

#include <sys/stat.h>

namespace ovs::cli {

namespace {

bool isFolder(const std::string& path)
{
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// A folder, or several files: the ranks of one job (docs/ranks.md).
int analyzeRanks(const CliArgs& args, const CancelFlag& cancel)
{
    std::vector<std::string> paths;
    if (args.positionals().size() == 1 && isFolder(args.positionals().front())) {
        std::string error;
        paths = rankFilesIn(args.positionals().front(), &error);
        if (paths.empty())
            throw BadInput(error);
    } else {
        paths = args.positionals();
    }
    RankReadOptions options;
    options.maxBytes = maxTraceBytes(args);
    options.analysis = analysisOptions(args);
    // Progress and what each file's import said go to stderr, so that
    // --json stays parseable.
    options.onRead = [](std::size_t done, std::size_t total, const RankFile& file) {
        if (!file.error.empty())
            printError("skipped " + file.error);
        std::fprintf(stderr, "read %zu of %zu: %s\n", done, total, echoed(file.path).c_str());
    };
    // Ctrl-C: the files not read yet are left, and nothing is printed.
    options.cancelled = [&cancel] { return cancel.isCancelled(); };
    const RankFolder folder = readRanks(paths, options);
    if (cancel.isCancelled())
        throw ReadInterrupted("reading the ranks cancelled");
    for (const std::string& note : folder.notes)
        printError(note);
    if (folder.ranks.empty())
        throw BadInput("none of the " + std::to_string(paths.size()) + " files could be read as a trace");
    if (args.has("--json")) {
        const std::string json = ranksJson(folder);
        std::fwrite(json.data(), 1, json.size(), stdout);
        return cli::kExitOk;
    }
    printRanks(stdout, folder);
    return cli::kExitOk;
}

// `analyze --rank-summary TRACE [-o S.json]`: the one file's rank summary,
// made where the trace is (a node of a job system) so that only it travels;
// `analyze S1.json S2.json ...` merges them as it merges traces
// (docs/ranks.md, "Ranks past one machine").
int writeRankSummary(const CliArgs& args)
{
    if (args.positionals().size() != 1 || isFolder(args.positionals().front()))
        throw UsageError("analyze --rank-summary needs one trace");
    const std::string output = outputPath(args, false);
    RankReadOptions options;
    options.maxBytes = maxTraceBytes(args);
    options.analysis = analysisOptions(args);
    const RankFileSummary summary = summarizeRankFile(args.positionals().front(), options);
    for (const std::string& note : summary.file.notes)
        printError(note);
    const std::string json = rankSummaryJson(summary);
    if (output.empty()) {
        std::fwrite(json.data(), 1, json.size(), stdout);
    } else {
        std::string error;
        if (!writeTextFileAtomically(output, json, &error)) {
            printError(error);
            return cli::kExitFailed;
        }
        std::fprintf(stderr, "rank summary written to %s\n", echoed(output).c_str());
    }
    // A trace that cannot be read still gets its summary (the merge then
    // lists it as skipped, as `analyze DIR` does), and the status says so.
    if (!summary.file.error.empty()) {
        printError(summary.file.error);
        return cli::kExitBadInput;
    }
    return cli::kExitOk;
}

} // namespace

int commandAnalyze(const CliArgs& args, const CancelFlag& cancel)
{
    if (args.positionals().empty())
        throw UsageError("analyze needs a trace, a folder of traces or several traces");
    if (args.has("--rank-summary"))
        return writeRankSummary(args);
    // One rank summary alone is a job of one rank, read as ranks are.
    if (args.positionals().size() > 1 || isFolder(args.positionals().front())
        || isRankSummaryFile(args.positionals().front()))
        return analyzeRanks(args, cancel);
    const std::string& path = args.positionals().front();
    const AnalysisOptions options = analysisOptions(args);
    std::string note;
    Trace trace = readTrace(path, args, cancel, &note);
    // What an import read and skipped (Chrome, Kineto, Nsight): on stderr,
    // so that --json stays parseable.
    if (!note.empty())
        std::fprintf(stderr, "%s\n", echoed(note, kMessageLimit).c_str());
    std::vector<std::string> notes;
    if (args.has("--json")) {
        // Names as they are: JSON escapes what a console would not show.
        const std::string json = analysisJson(trace, analyzeTrace(trace, options, &notes));
        for (const std::string& note : notes)
            printError(note);
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
    const std::vector<RunAnalysis> analyses = analyzeTrace(trace, options, &notes);
    for (const std::string& note : notes)
        printError(note);
    if (pipelines) {
        cli::printPipelineTable(stdout, trace.runs);
        cli::printAnalysis(stdout, trace, analyses);
        cli::printAnalysisSummary(stdout, trace, analyses);
    } else {
        cli::printProgramRunTable(stdout, trace.runs);
    }
    cli::printFindings(stdout, trace, analyses);
    cli::printRanksOfTrace(stdout, trace, analyses, path);
    return 0;
}

} // namespace ovs::cli
