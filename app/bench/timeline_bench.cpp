// Loads and renders synthetic traces of 10k, 100k and 1M ops with the same
// TimelinePlot the window uses, offscreen, and prints a table:
//   overlapscope-timeline-bench [--sizes 10000,100000,1000000] [--width 1600] [--keep DIR]
//   overlapscope-timeline-bench --ranks DIR [--width 1600] [--view-height 700]
//   overlapscope-timeline-bench --open FILE [--width 1600]
// --open has the window itself (MainWindow, offscreen) open FILE as File >
// Open does: read on its loader thread with the progress bar, the timeline
// drawn, then the analyses the window asks for. Prints the seconds from the
// request to each, the process's CPU seconds and its peak resident memory.
// --ranks reads a folder of ranks as the window does (every trace kept:
// readRanks, then the document on the job's clock) and times the replot of
// the window's timeline widget (its height capped as the window caps it)
// with every rank shown, zoomed, and every rank folded: drawn whole (as an
// export draws it) and in a scroll area --view-height px tall (the window).
// --keep writes the traces into DIR (t<ops>.json) and leaves them there, for
// measuring other tools (the headless export) on the same files.
// The traces have the overlapped pipeline's shape (host staging, then upload,
// kernel, download rotating over 3 streams), so folding sees realistic runs
// of small ops.

#include "window/AppSetup.h"
#include "window/MainWindow.h"
#include "models/AnalysisCache.h"
#include "timeline/TimelinePlot.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "workers/RankLoader.h"

#include "ranks/RankFolder.h"

#include "formats/TraceJson.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTimer>

#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace ovs;

namespace {

// Resident set size in bytes, from /proc (Linux), after handing freed heap
// pages back so that what was released does not count.
long long residentBytes()
{
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    long long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * 4096;
}

Trace syntheticTrace(std::size_t targetOps)
{
    Run run;
    run.name = "synthetic overlapped";
    run.pipeline = "overlapped";
    run.device.name = "Synthetic device";
    run.device.simulated = true;
    run.timing = "simulated";
    run.lanes = {{"host", LaneKind::HostThread}, {"stream 0", LaneKind::Stream}, {"stream 1", LaneKind::Stream},
                 {"stream 2", LaneKind::Stream}};
    // Per chunk: stage in, upload, kernel, download, stage out = 5 ops.
    const std::size_t chunks = targetOps / 5;
    run.params.chunks = static_cast<int>(chunks);
    run.params.chunkBytes = 1 << 20;
    run.params.slotCount = 3;
    std::vector<std::int64_t> streamReady(3, 0);
    std::int64_t host = 0;
    const std::uint64_t bytes = 1 << 20;
    for (std::size_t c = 0; c < chunks; ++c) {
        const int chunk = static_cast<int>(c);
        const auto stream = static_cast<std::uint16_t>(1 + c % 3);
        Op in{.startNs = host, .endNs = host + 160'000, .bytes = bytes, .chunk = chunk, .lane = 0,
              .kind = OpKind::StageIn, .memory = HostMemoryKind::Pinned};
        host = in.endNs;
        run.ops.push_back(in);
        std::int64_t t = std::max(host, streamReady[stream - 1]);
        for (OpKind kind : {OpKind::Upload, OpKind::Kernel, OpKind::Download}) {
            const std::int64_t d = kind == OpKind::Kernel ? 4'000 : 19'000;
            run.ops.push_back({.startNs = t, .endNs = t + d, .bytes = bytes, .chunk = chunk, .lane = stream,
                               .kind = kind,
                               .memory = kind == OpKind::Kernel ? HostMemoryKind::None : HostMemoryKind::Pinned});
            t += d + 500;
        }
        streamReady[stream - 1] = t;
        Op out{.startNs = host, .endNs = host + 150'000, .bytes = bytes, .chunk = chunk, .lane = 0,
               .kind = OpKind::StageOut, .memory = HostMemoryKind::Pinned};
        host = out.endNs + 1'000;
        run.ops.push_back(out);
    }
    run.timedBeginNs = 0;
    run.timedEndNs = host;
    run.verification = {true, true, 0, "synthetic: not a real run"};
    run.sortOps();
    Trace trace;
    trace.tool = "overlapscope-timeline-bench";
    trace.runs.push_back(std::move(run));
    return trace;
}

// CPU seconds of a clock (this thread's, the process's): on a machine shared
// with other work, wall time says more about the neighbours than about us.
double cpuSeconds(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

double threadCpuSeconds()
{
    return cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
}

double medianMs(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The median of 9 replots: the replotting thread's CPU ms (what a free
// core would take; the machine is shared) and the wall ms.
struct ReplotMs {
    double cpu = 0;
    double wall = 0;
};

ReplotMs medianReplotMs(QCustomPlot& plot)
{
    std::vector<double> cpu;
    std::vector<double> wall;
    QElapsedTimer timer;
    for (int i = 0; i < 9; ++i) {
        const double before = threadCpuSeconds();
        timer.start();
        plot.replot();
        wall.push_back(timer.nsecsElapsed() / 1e6);
        cpu.push_back((threadCpuSeconds() - before) * 1e3);
    }
    return {medianMs(cpu), medianMs(wall)};
}

int benchRanks(const QString& folder, int width, int viewHeight)
{
    std::string error;
    const std::vector<std::string> files = rankFilesIn(folder.toStdString(), &error);
    if (files.empty()) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    double megabytes = 0;
    for (const std::string& file : files)
        megabytes += static_cast<double>(QFileInfo(QString::fromStdString(file)).size()) / 1e6;
    QElapsedTimer timer;
    timer.start();
    QString why;
    const auto result = ui::RankLoader::readNow({folder}, std::numeric_limits<std::uint64_t>::max(), {}, {}, &why);
    if (!result) {
        std::fprintf(stderr, "%s\n", qPrintable(why));
        return 1;
    }
    ui::RankRead& read = *result;
    const double readS = timer.nsecsElapsed() / 1e9;
    std::size_t ops = 0;
    for (const Run& run : read.opened.runs)
        ops += run.ops.size();
    const std::size_t runs = read.opened.runs.size();

    timer.restart();
    ui::TraceDocument document;
    ui::ViewState view;
    document.setRanks(std::move(read.opened), read.rows, std::move(read.folder), folder);
    view.setExtent(document.endNs());
    view.resetView();
    ui::TimelinePlot plot(&document, &view);
    // The window's widget: every lane at full height up to the cap.
    const int height = std::min(plot.preferredHeight(width), ui::TimelinePlot::kMaxWidgetHeight);
    plot.resize(width, height);
    plot.replot();
    const double toViewS = timer.nsecsElapsed() / 1e9;

    // Replots of every rank at three zooms, then with every rank folded:
    // first the whole widget drawn (a plot not shown: an export), then as
    // the window shows it, in a scroll area of `viewHeight` px where only
    // the runs in view are drawn.
    const std::int64_t mid = document.endNs() / 2;
    const std::int64_t half = std::max<std::int64_t>(document.endNs() / 2000, 1000);
    const auto measure = [&] {
        std::vector<ReplotMs> ms;
        view.resetView();
        ms.push_back(medianReplotMs(plot));
        view.setVisibleRange(mid - 50 * half, mid + 50 * half);
        ms.push_back(medianReplotMs(plot));
        view.setVisibleRange(mid - half, mid + half);
        ms.push_back(medianReplotMs(plot));
        view.resetView();
        view.setAllCollapsed(document.runCount(), true);
        ms.push_back(medianReplotMs(plot));
        view.setAllCollapsed(document.runCount(), false);
        return ms;
    };
    const std::vector<ReplotMs> whole = measure();
    QScrollArea area;
    area.setWidget(&plot);
    area.setWidgetResizable(true);
    plot.setMinimumHeight(height);
    area.resize(width + 20, viewHeight);
    area.show();
    QApplication::processEvents();
    const std::vector<ReplotMs> window = measure();
    area.takeWidget(); // the plot is this function's, not the area's

    std::printf("| ranks (runs) | ops | files MB | read s | to view s | widget px | drawn | replot all, CPU ms (wall) "
                "| 1/10 | 1/1000 | all folded |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
    const auto row = [&](const char* drawn, const std::vector<ReplotMs>& ms) {
        std::printf("| %zu (%zu) | %zu | %.0f | %.1f | %.2f | %dx%d | %s | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | "
                    "%.1f (%.1f) |\n",
                    files.size(), runs, ops, megabytes, readS, toViewS, width, height, drawn, ms[0].cpu, ms[0].wall,
                    ms[1].cpu, ms[1].wall, ms[2].cpu, ms[2].wall, ms[3].cpu, ms[3].wall);
    };
    row("whole widget (export)", whole);
    char windowed[64];
    std::snprintf(windowed, sizeof windowed, "window, %d px in view", viewHeight);
    row(windowed, window);
    return 0;
}


double processCpuSeconds()
{
    return cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
}

int benchOpen(const QString& path, int width)
{
    ui::MainWindow window;
    window.setInteractive(false);
    window.resize(width, 1000);
    window.show();
    QApplication::processEvents();
    QElapsedTimer timer;
    double drawnS = -1, analysedS = -1;
    const double cpuBefore = processCpuSeconds();
    QObject::connect(window.timeline(), &QCustomPlot::afterReplot, [&] {
        if (drawnS < 0 && window.document()->runCount() > 0)
            drawnS = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    });
    ui::AnalysisCache* cache = ui::AnalysisCache::of(window.document());
    QObject::connect(cache, &ui::AnalysisCache::idle, [&] {
        if (drawnS >= 0 && analysedS < 0) {
            analysedS = static_cast<double>(timer.nsecsElapsed()) / 1e9;
            QApplication::quit();
        }
    });
    // A load that never ends: give up after 10 minutes.
    QTimer::singleShot(600'000, &window, [] { QApplication::quit(); });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        // A load that failed says why and leaves the document empty.
        if (!window.isLoading() && window.document()->runCount() == 0)
            QApplication::quit();
    });
    poll.start(100);
    timer.start();
    window.openTrace(path);
    QApplication::exec();
    if (drawnS < 0 || analysedS < 0) {
        std::fprintf(stderr, "%s: not opened (%s)\n", qPrintable(path), qPrintable(window.lastMessage()));
        return 1;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("| file MB | runs | ops | timeline drawn s | analysed s | CPU s | peak RSS MB |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    std::size_t ops = 0;
    for (int r = 0; r < window.document()->runCount(); ++r)
        ops += window.document()->run(r).opCount();
    std::printf("| %.1f | %d | %zu | %.2f | %.2f | %.2f | %.0f |\n",
                static_cast<double>(QFileInfo(path).size()) / 1e6, window.document()->runCount(), ops, drawnS,
                analysedS, processCpuSeconds() - cpuBefore, static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ui::setUpApplicationFont();

    std::vector<std::size_t> sizes = {10'000, 100'000, 1'000'000};
    int width = 1600;
    int viewHeight = 700;
    const QStringList args = QApplication::arguments();
    QString ranks;
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == "--ranks")
            ranks = args[i + 1];
        else if (args[i] == "--sizes") {
            sizes.clear();
            for (const auto& s : args[i + 1].split(','))
                sizes.push_back(s.toULongLong());
        } else if (args[i] == "--view-height") {
            viewHeight = args[i + 1].toInt();
        } else if (args[i] == "--width") {
            width = args[i + 1].toInt();
        }
    }
    if (!ranks.isEmpty())
        return benchRanks(ranks, width, viewHeight);
    for (int i = 1; i + 1 < args.size(); ++i)
        if (args[i] == "--open")
            return benchOpen(args[i + 1], width);

    QTemporaryDir temporary;
    QString folder = temporary.path();
    for (int i = 1; i + 1 < args.size(); i += 2)
        if (args[i] == "--keep")
            folder = args[i + 1];
    const QDir dir(folder);
    std::printf("| ops | file MB | load s (CPU s) | to view s | replot full ms | replot zoomed ms | resident bytes/op |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::size_t target : sizes) {
        const std::string path = dir.filePath(QString("t%1.json").arg(target)).toStdString();
        std::string error;
        {
            const Trace trace = syntheticTrace(target);
            if (!saveTrace(trace, path, &error)) {
                std::fprintf(stderr, "could not write %s: %s\n", path.c_str(), error.c_str());
                return 1;
            }
        }
        const double fileMb = static_cast<double>(QFileInfo(QString::fromStdString(path)).size()) / 1e6;

        QElapsedTimer timer;
        const long long before = residentBytes();
        timer.start();
        const double cpu = threadCpuSeconds();
        auto loaded = loadTrace(path);
        const double loadS = timer.nsecsElapsed() / 1e9;
        const double loadCpuS = threadCpuSeconds() - cpu;
        if (!loaded.trace) {
            std::fprintf(stderr, "%s\n", loaded.error.c_str());
            return 1;
        }
        const std::size_t ops = loaded.trace->runs.front().ops.size();

        timer.restart();
        auto* document = new ui::TraceDocument;
        auto* view = new ui::ViewState;
        document->setTrace(*loaded.trace, QString::fromStdString(path));
        loaded.trace.reset(); // what stays is what the view holds
        view->setExtent(document->endNs());
        view->resetView();
        auto* plot = new ui::TimelinePlot(document, view);
        plot->resize(width, plot->preferredHeight());
        plot->replot();
        const double toViewS = timer.nsecsElapsed() / 1e9;
        // What the window holds for the trace once the parsed file is gone.
        const long long held = residentBytes() - before;

        auto timeReplots = [&] {
            std::vector<double> samples;
            for (int i = 0; i < 9; ++i) {
                timer.restart();
                plot->replot();
                samples.push_back(timer.nsecsElapsed() / 1e6);
            }
            return medianMs(samples);
        };
        const double full = timeReplots();
        // Zoomed to 1/1000 of the run, in its middle.
        const std::int64_t mid = document->endNs() / 2;
        const std::int64_t half = std::max<std::int64_t>(document->endNs() / 2000, 1000);
        view->setVisibleRange(mid - half, mid + half);
        const double zoomed = timeReplots();

        std::printf("| %zu | %.1f | %.3f (%.3f) | %.3f | %.2f | %.2f | %.0f |\n", ops, fileMb, loadS, loadCpuS, toViewS,
                    full, zoomed, static_cast<double>(held) / static_cast<double>(ops));
        std::fflush(stdout);
        delete plot;
        delete view;
        delete document;
    }
    return 0;
}
