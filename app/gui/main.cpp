// overlapscope: the desktop window, and headless export of timelines from
// the command line with the very same renderer.

#include "charts/BandwidthChart.h"
#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "LessonSlideCommand.h"
#include "../cli/ExitStatus.h"

#include "document/Comparison.h"
#include "export/ExportCaps.h"
#include "export/ExportWhatIf.h"
#include "export/ImageFormat.h"
#include "export/PlotExport.h"
#include "export/TimelineExport.h"
#include "models/AnalysisCache.h"
#include "style/ColorVision.h"
#include "style/Theme.h"
#include "window/AppSetup.h"
#include "window/MainWindow.h"
#include "workers/RankLoader.h"

#include "io/SameFile.h"
#include "base/MessageText.h"
#include "formats/TraceJson.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

// The exit statuses: one table for both programs (README).
using ovs::cli::kExitBadInput;
using ovs::cli::kExitFailed;
using ovs::cli::kExitOk;
using ovs::cli::kExitUsage;

namespace {

const QStringList kValueOptions = {"-o",      "--output",      "--bandwidth", "--scale",       "--from-ms",
                                   "--to-ms", "--theme",       "--runs",      "--playhead-ms", "--max-trace-mib",
                                   "--width", "--height",   "--what-if"};

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

int fail(int status, const QString& message)
{
    // One line of at most 300 characters, whatever the arguments it quotes
    // hold (a 100,000-digit number, a line break).
    std::fprintf(stderr, "overlapscope: %s\n", ovs::messageText(message.toStdString(), 300).c_str());
    return status;
}

// A time in ms as ns, refused unless finite, >= 0 and within int64 ns.
std::optional<std::int64_t> parseMs(const QString& text)
{
    bool ok = false;
    const double ms = text.toDouble(&ok);
    // 9223372036854 ms is the last whole ms that int64 ns can hold.
    if (!ok || !std::isfinite(ms) || ms < 0 || ms > 9223372036854.0)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ms * 1e6));
}

// "A" or "A-B", counted from 1.
std::optional<std::pair<int, int>> parseRuns(const QString& text)
{
    const QStringList parts = text.split('-');
    if (parts.size() > 2)
        return std::nullopt;
    bool okFirst = false, okLast = true;
    const int first = parts[0].toInt(&okFirst);
    const int last = parts.size() == 2 ? parts[1].toInt(&okLast) : first;
    if (!okFirst || !okLast || first < 1 || last < first)
        return std::nullopt;
    return std::make_pair(first, last);
}

int exportHeadless(const QStringList& args)
{
    QString input, output, bandwidth, whatIf;
    QString compared; // --compare: the after trace (input is the before)
    bool compare = false;
    double scale = 1.0;
    std::optional<std::int64_t> fromNs, toNs;
    std::optional<std::pair<int, int>> runs;
    std::optional<std::int64_t> playheadNs;
    std::shared_ptr<const ovs::ui::Comparison> comparison;
    bool align = false;
    bool dark = false;
    int width = 1600, height = 0;
    std::uint64_t maxTraceBytes = ovs::kDefaultMaxTraceBytes;
    QStringList seen;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        // A repeated option is refused rather than letting the last one win silently.
        if (a.startsWith('-')) {
            const QString name = a == "--output" ? QStringLiteral("-o") : a;
            if (seen.contains(name))
                return fail(kExitUsage, QString("%1 given twice").arg(a));
            seen << name;
        }
        // Checked here, so a missing value returns through main and QApplication.
        if (kValueOptions.contains(a) && i + 1 >= args.size())
            return fail(kExitUsage, QString("%1 needs a value").arg(a));
        auto next = [&]() -> const QString& { return args[++i]; };
        bool ok = true;
        QString range;
        if (a == "-o" || a == "--output") {
            output = next();
        } else if (a == "--align") {
            align = true;
        } else if (a == "--compare") {
            compare = true;
        } else if (a == "--bandwidth") {
            bandwidth = next();
        } else if (a == "--scale") {
            scale = next().toDouble(&ok), ok = ok && scale >= 0.25 && scale <= 8;
            range = "0.25 to 8";
        } else if (a == "--from-ms" || a == "--to-ms") {
            auto& target = a == "--from-ms" ? fromNs : toNs;
            target = parseMs(next());
            ok = target.has_value();
            range = "a finite time in ms, 0 to 9223372036854";
        } else if (a == "--theme") {
            const auto theme = ovs::ui::Theme::parse(next());
            ok = theme && *theme != ovs::ui::ThemeChoice::System;
            dark = theme == ovs::ui::ThemeChoice::Dark;
            range = "light or dark";
        } else if (a == "--playhead-ms") {
            playheadNs = parseMs(next());
            ok = playheadNs.has_value();
            range = "a finite time in ms, 0 to 9223372036854";
        } else if (a == "--what-if") {
            whatIf = next();
        } else if (a == "--runs") {
            runs = parseRuns(next());
            ok = runs.has_value();
            range = "A or A-B, runs counted from 1";
        } else if (a == "--max-trace-mib") {
            const qlonglong mib = next().toLongLong(&ok);
            ok = ok && mib >= 1 && mib <= static_cast<qlonglong>(ovs::kMaxTraceBytesCeiling >> 20);
            maxTraceBytes = ok ? static_cast<std::uint64_t>(mib) << 20 : maxTraceBytes;
            range = QString("1 to %1").arg(ovs::kMaxTraceBytesCeiling >> 20);
        } else if (a == "--width") {
            width = next().toInt(&ok), ok = ok && width >= 200 && width <= ovs::ui::ExportCaps::kMaxSidePixels;
            range = QString("200 to %1").arg(ovs::ui::ExportCaps::kMaxSidePixels);
        } else if (a == "--height") {
            height = next().toInt(&ok), ok = ok && height >= 100 && height <= ovs::ui::ExportCaps::kMaxSidePixels;
            range = QString("100 to %1").arg(ovs::ui::ExportCaps::kMaxSidePixels);
        } else if (a.startsWith('-')) {
            return fail(kExitUsage, QString("unknown option '%1' (see --help)").arg(a));
        } else if (input.isEmpty()) {
            input = a;
        } else if (compared.isEmpty()) {
            compared = a; // refused below unless --compare asked for two traces
        } else {
            return fail(kExitUsage, QString("unexpected argument '%1'").arg(a));
        }
        if (!ok)
            return fail(kExitUsage, QString("bad value '%1' for %2 (%3)").arg(args[i], a, range));
    }
    if (!compare && !compared.isEmpty())
        return fail(kExitUsage, QString("unexpected argument '%1'").arg(compared));
    if (compare && (compared.isEmpty() || output.isEmpty()))
        return fail(kExitUsage, "export --compare needs two traces, BEFORE AFTER, and -o OUT (see --help)");
    if (compare && (runs || !whatIf.isEmpty()))
        return fail(kExitUsage, QString("%1 does not go with --compare").arg(runs ? "--runs" : "--what-if"));
    if (input.isEmpty() || output.isEmpty())
        return fail(kExitUsage, "export needs a trace and -o OUT (see --help)");
    if (fromNs.has_value() != toNs.has_value() || (fromNs && *toNs <= *fromNs))
        return fail(kExitUsage, "give both --from-ms and --to-ms, with from < to");
    QString error;
    if (!ovs::ui::imageFormatForPath(output, &error))
        return fail(kExitUsage, error);
    if (!bandwidth.isEmpty() && !ovs::ui::imageFormatForPath(bandwidth, &error))
        return fail(kExitUsage, error);
    if (!whatIf.isEmpty() && !ovs::ui::isExportWhatIfId(whatIf, &error))
        return fail(kExitUsage, error);

    // Before the trace is read: a refused export writes nothing.
    const std::string inputPath = QFile::encodeName(input).toStdString();
    const std::string comparedPath = QFile::encodeName(compared).toStdString();
    const std::string outputPath = QFile::encodeName(output).toStdString();
    const std::string bandwidthPath = QFile::encodeName(bandwidth).toStdString();
    for (const std::string& out : {outputPath, bandwidthPath})
        for (const std::string& in : {inputPath, comparedPath}) {
            if (in.empty())
                continue;
            if (const std::string why = ovs::whyOutputIsInput(out, in); !why.empty())
                return fail(kExitUsage, QString::fromStdString(why));
        }
    if (!bandwidth.isEmpty() && ovs::sameFile(outputPath, bandwidthPath))
        return fail(kExitUsage, "-o and --bandwidth name the same file: the chart would replace the timeline");

    // A folder: the ranks of one job, read as the window reads them (every
    // rank under RankLoader::kOpenAllBytes, else the slowest and the fastest).
    std::shared_ptr<ovs::ui::RankRead> ranks;
    ovs::TraceLoadResult loaded;
    if (!compare && QFileInfo(input).isDir()) {
        if (runs)
            return fail(kExitUsage, "--runs: not with a folder of ranks");
        ranks = ovs::ui::RankLoader::readNow({input}, ovs::ui::RankLoader::kOpenAllBytes, {}, {}, &error);
        if (!ranks)
            return fail(kExitBadInput, error);
        for (const ovs::RankFile& file : ranks->folder.files)
            if (!file.error.empty())
                std::fprintf(stderr, "skipped %s\n", ovs::clippedMessage(file.error).c_str());
        loaded.trace = std::move(ranks->opened);
    } else {
        loaded = ovs::loadTrace(inputPath, maxTraceBytes);
    }
    if (!loaded.trace)
        return fail(kExitBadInput, QString::fromStdString(loaded.error));
    if (compare) {
        auto after = ovs::loadTrace(comparedPath, maxTraceBytes);
        if (!after.trace)
            return fail(kExitBadInput, QString::fromStdString(after.error));
        // Both made into the document's one trace: each pair's runs, and the sweeps.
        ovs::ui::ComparisonBuild build =
            ovs::ui::buildComparison(std::move(*loaded.trace), std::move(*after.trace), input, compared);
        if (!build.trace)
            return fail(kExitUsage, build.error);
        loaded.trace = std::move(build.trace);
        comparison = std::move(build.comparison);
    }
    if (runs) {
        auto& all = loaded.trace->runs;
        if (static_cast<std::size_t>(runs->first) > all.size())
            return fail(kExitUsage, QString("--runs %1-%2: the trace has %3 runs").arg(runs->first).arg(runs->second).arg(all.size()));
        all.erase(all.begin() + std::min<std::size_t>(all.size(), static_cast<std::size_t>(runs->second)), all.end());
        all.erase(all.begin(), all.begin() + (runs->first - 1));
    }
    if (!bandwidth.isEmpty() && loaded.trace->sweeps.empty())
        return fail(kExitUsage, "--bandwidth: the trace has no bandwidth sweep to render");

    ovs::ui::TraceDocument document;
    ovs::ui::ViewState view;
    // Moved, not copied: a loaded name may be hundreds of MiB.
    if (comparison) {
        document.setComparison(std::move(*loaded.trace), comparison); // aligned
    } else if (ranks) {
        document.setRanks(std::move(*loaded.trace), ranks->rows, std::move(ranks->folder), input);
    } else {
        document.setTrace(std::move(*loaded.trace), input);
        document.setAlignTimedRegions(align);
    }
    loaded.trace.reset();
    view.setExtent(document.endNs());
    view.resetView();
    if (fromNs)
        view.setVisibleRange(*fromNs, *toNs);
    if (playheadNs)
        view.setPlayhead(*playheadNs);
    if (!whatIf.isEmpty() && !ovs::ui::chooseExportWhatIf(document, view, whatIf, &error))
        return fail(kExitUsage, error);
    // A what-if is replayed over the judged span (the loop, not the setup):
    // without a range of its own, the picture frames it as the window opens
    // once the runs are analysed (the judged span is their analysis).
    if (!whatIf.isEmpty() && !fromNs) {
        ovs::ui::AnalysisCache* cache = ovs::ui::AnalysisCache::of(&document);
        for (int run = 0; run < document.runCount(); ++run)
            cache->analysis(run);
        cache->finishPending();
        if (const ovs::ui::AxisSpan work = ovs::ui::TimeFrame(document).openingView(*cache); !work.isEmpty())
            view.setVisibleRange(work.startNs, work.endNs);
    }
    // Light unless asked: exports are mostly printed or put on slides.
    QApplication::setPalette(ovs::ui::Theme::palette(dark));
    ovs::ui::TimelineExportOptions options;
    options.width = width;
    options.height = height;
    options.scale = scale;
    bool overCaps = false;
    if (!ovs::ui::TimelineExport::write(document, view, output, options, nullptr, &error, &overCaps))
        return fail(overCaps ? kExitUsage : kExitFailed, error);
    std::fprintf(stderr, "wrote %s\n", qPrintable(output));

    if (!bandwidth.isEmpty()) {
        ovs::ui::BandwidthChart chart(&document);
        ovs::ui::PlotExportOptions chartOptions;
        chartOptions.width = 1000;
        chartOptions.height = 600;
        chartOptions.scale = scale;
        chartOptions.title = "OverlapScope bandwidth sweep";
        chart.resize(chartOptions.width, chartOptions.height);
        if (!ovs::ui::exportPlot(chart, bandwidth, chartOptions, &error))
            return fail(kExitFailed, error);
        std::fprintf(stderr, "wrote %s\n", qPrintable(bandwidth));
    }
    return kExitOk;
}

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
        return exportHeadless(args.mid(1));
    if (args.size() > 1 || (args.size() == 1 && args.front().startsWith('-')))
        return fail(kExitUsage, "usage: overlapscope [TRACE.json] (see --help)");

    ovs::ui::Theme::captureSystemPalette(); // before the remembered theme replaces it
    ovs::ui::MainWindow window;
    window.show();
    if (!args.isEmpty())
        window.openTrace(args.front());
    return app.exec();
}
