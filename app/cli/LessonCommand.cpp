#include "CancelledOutput.h"
#include "CliCommon.h"
#include "Commands.h"
#include "ExitStatus.h"
#include "LessonReport.h"
#include "WritableOutput.h"

#include "base/Printable.h"
#include "io/AtomicFileWriter.h"
#include "io/SameFile.h"
#include "lessons/LessonRunner.h"
#include "record/TraceCollector.h"

#include <cstdio>
#include <cstdlib>

namespace ovs::cli {

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
        if (!path.empty() && sameFile(path, markdownPath))
            throw UsageError("-o and --markdown name the same file: the table would replace the trace");
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
    const bool keep = !path.empty() && cli::leavesOutputAsItWas(collector.trace(), result.outcome.cancelled, path);
    int written = path.empty() || keep ? cli::kExitOk : writeTrace(collector.trace(), path);
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
    const int status = finish(result.outcome, keep ? path : "");
    return status != cli::kExitOk ? status : written;
}

} // namespace ovs::cli
