#include "CliCommon.h"
#include "Commands.h"
#include "ConsoleReport.h"
#include "ExitStatus.h"

#include "analysis/AnalysisJson.h"
#include "analysis/RunAnalysis.h"
#include "base/Printable.h"
#include "formats/TraceJson.h"
#include "pipeline/PipelineConfig.h"

#include <algorithm>
#include <cstdio>

namespace ovs::cli {

int commandAnalyze(const CliArgs& args)
{
    if (args.positionals().size() != 1)
        throw UsageError("analyze needs exactly one trace");
    const std::string& path = args.positionals().front();
    auto loaded = loadTrace(path, maxTraceBytes(args));
    if (!loaded.trace)
        throw BadInput(loaded.error); // it names the file once
    Trace& trace = *loaded.trace;
    AnalysisOptions options;
    options.region = args.value("--region", "");
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
    if (pipelines) {
        cli::printPipelineTable(stdout, trace.runs);
        cli::printAnalysis(stdout, trace);
        cli::printAnalysisSummary(stdout, trace);
    } else {
        cli::printProgramRunTable(stdout, trace.runs);
    }
    const std::vector<RunAnalysis> analyses = analyzeTrace(trace, options, &notes);
    for (const std::string& note : notes)
        printError(note);
    cli::printFindings(stdout, trace, analyses);
    return 0;
}

} // namespace ovs::cli
