// overlapscope: the desktop window, and headless export of timelines from
// the command line with the very same renderer.

#include "Failure.h"
#include "LessonSlideCommand.h"
#include "TimelineExportCommand.h"
#include "../cli/ExitStatus.h"

#include "style/ColorVision.h"
#include "style/Theme.h"
#include "window/AppSetup.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QStringList>

#include <cstdio>
#include <string>

// The exit statuses: one table for both programs (README).
using ovs::cli::kExitOk;
using ovs::cli::kExitUsage;

namespace {

const char* kUsageText = R"(overlapscope: visual profiler for CUDA copy/compute overlap

Usage:
  overlapscope [TRACE.json]               open the window (optionally with a trace)
  overlapscope export TRACE.json -o OUT   render the timeline without a display
  overlapscope export DIR -o OUT          a folder of ranks, on the job's clock, as File > Open folder shows it
      OUT's extension picks the format: .png, .svg or .pdf (anything else is refused)
      --scale F        PNG pixel scale (2 doubles the resolution of the same layout; default 1)
      --width N        layout width in pixels (default 1600)
      --height N       layout height (default: what the lanes need); lanes squeeze to fit
      --from-ms T      start of the time range shown (default: the whole trace)
      --to-ms T        end of the time range shown
      --runs A[-B]     only runs A to B (counted from 1)
      --align          shift the runs so that their timed regions start together
      --bandwidth OUT  also render the bandwidth sweep chart (.png, .svg or .pdf)
      --theme T        light (default, for print) or dark
      --playhead-ms T  a replay frozen at T: ops that start later are hidden, later parts cut
      --what-if ID     draw the what-if of the first run's finding ID (a kind id as `analyze --json`
                       prints it, e.g. pageable-memory) as a ghost run under it; all: every fix at once.
                       Framed, unless --from-ms says otherwise, on the judged span the replay covers
      --pinned-rate H2D,D2H  the findings and the what-if at these pinned rates (GB/s), as
                       overlapscope-cli analyze --pinned-rate
      --max-trace-mib N  read traces up to N MiB (default 2048, at most 4095)
  overlapscope export --compare BEFORE AFTER -o OUT   two traces compared, for slides: each pair of runs
      (paired by name, as overlapscope-cli diff pairs them) stacked, before above after, aligned where
      their judged spans start, under a header with what changed (active span saved, overlap, engine
      busy times, findings resolved, changed and new); the options above but --runs and --what-if
  overlapscope export --lesson NAME -o DIR   run a lesson and write its numbered 1920x1080 PNG slides
      (01-title, 02-question, one per thing to look at, results, the whole timeline) and DIR/index.md
      --device D       auto (default: the CUDA GPU if one answers, else sim:h200), cuda, sim, sim:PRESET
      --from TRACE     no run: the lesson as recorded by overlapscope-cli lesson NAME -o TRACE
                       (e.g. on a GPU server), judged again; give the --chunk-mib it ran with
      --theme T        light (default) or dark
      --chunk-mib N    the lesson's chunk size (default: the lessons' own); small makes it quick
      --only KINDS     only these slides, e.g. focus,results (of: title, question, focus, sweep,
                       results, timeline); the others keep their numbers
      --quiet          no progress lines
  overlapscope export --lesson --list     the lessons, in course order
  overlapscope palette-check              print the op colours' distances (normal vision,
                                          simulated deuteranopia and protanopia) as markdown
  overlapscope --help | --version

Pictures are capped at 32768 px a side, and PNGs at 128 MP in all.
Exit status (as overlapscope-cli's): 0 success; 1 writing a file failed, or a lesson's run failed;
2 bad usage (also: an output that is the input, a picture over the caps); 3 a trace that cannot be
read or is malformed; 4 the device asked for is not available; 5 a lesson's run did not verify;
130 cancelled (Ctrl-C; the slides written stay).
)";

} // namespace

int main(int argc, char** argv)
{
    const bool headless = argc > 1 && (std::string(argv[1]) == "export" || std::string(argv[1]) == "palette-check");
    // Export must work on servers with no display at all.
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::fputs(kUsageText, stdout);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "--version") {
        std::printf("overlapscope %s\n", OVERLAPSCOPE_VERSION);
        return 0;
    }

    ovs::ui::setUpRuntimeDirectory();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("OverlapScope");
    QApplication::setApplicationName("OverlapScope");
    QApplication::setApplicationVersion(OVERLAPSCOPE_VERSION);
    ovs::ui::setUpApplicationFont();

    QStringList args = QApplication::arguments().mid(1);
    if (!args.isEmpty() && args.front() == "palette-check") {
        std::fputs(qPrintable(ovs::ui::ColorVision::opPaletteReport()), stdout);
        return kExitOk;
    }
    if (headless && args.contains(QStringLiteral("--lesson")))
        return exportLessonSlides(args.mid(1));
    if (headless)
        return exportTimeline(args.mid(1));
    if (args.size() > 1 || (args.size() == 1 && args.front().startsWith('-')))
        return fail(kExitUsage, "usage: overlapscope [TRACE.json] (see --help)");

    ovs::ui::Theme::captureSystemPalette(); // before the remembered theme replaces it
    ovs::ui::MainWindow window;
    window.show();
    if (!args.isEmpty())
        window.openTrace(args.front());
    return app.exec();
}
