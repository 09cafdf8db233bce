#include "CliCommon.h"
#include "Commands.h"
#include "ExitStatus.h"

#include "base/Printable.h"
#include "formats/ChromeTraceExport.h"
#include "formats/CsvExport.h"
#include "formats/TraceJson.h"
#include "io/SameFile.h"

#include <cstdio>

namespace ovs::cli {

int commandConvert(const CliArgs& args, const CancelFlag& cancel)
{
    if (args.positionals().size() != 1)
        throw UsageError("convert needs exactly one input trace");
    const std::string to = args.value("--to", "");
    if (to != "chrome" && to != "csv" && to != "native")
        throw UsageError("convert needs --to chrome, csv or native");
    const std::string path = outputPath(args, true, to == "csv" ? "csv" : "json");
    if (std::string why = whyOutputIsInput(path, args.positionals().front()); !why.empty())
        throw UsageError(why);
    std::string note;
    const Trace trace = readTrace(args.positionals().front(), args, cancel, &note);
    if (!note.empty()) // what an import read and skipped
        std::fprintf(stderr, "%s\n", echoed(note, kMessageLimit).c_str());
    std::string error;
    bool ok = false;
    if (to == "chrome")
        ok = exportChromeTrace(trace, path, &error);
    else if (to == "csv")
        ok = exportCsv(trace, path, &error);
    else
        ok = saveTrace(trace, path, &error);
    if (!ok) {
        printError(error); // the writer's message names the path once
        return cli::kExitFailed;
    }
    std::fprintf(stderr, "wrote %s\n", echoed(path).c_str());
    return cli::kExitOk;
}

} // namespace ovs::cli
