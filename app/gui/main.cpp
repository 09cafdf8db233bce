// overlapscope: the desktop window, and headless export of timelines from
// the command line with the very same renderer.

#include "window/AppSetup.h"
#include "charts/BandwidthChart.h"
#include "window/MainWindow.h"
#include "timeline/TimelinePlot.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"

#include "trace/TraceJson.h"

#include <QApplication>
#include <QFileInfo>
#include <QStringList>

#include <cstdio>
#include <cstdlib>

namespace {

const char* kUsage = R"(overlapscope: visual profiler for CUDA copy/compute overlap

Usage:
  overlapscope [TRACE.json]               open the window (optionally with a trace)
  overlapscope export TRACE.json -o OUT   render the timeline without a display
      OUT's extension picks the format: .png, .svg or .pdf
      --scale F        PNG pixel scale (2 doubles the resolution of the same layout; default 1)
      --width N        layout width in pixels (default 1600)
      --height N       layout height (default: what the lanes need)
      --from-ms T      start of the time range shown (default: the whole trace)
      --to-ms T        end of the time range shown
      --align          shift the runs so that their timed regions start together
      --bandwidth OUT  also render the bandwidth sweep chart (PNG/PDF)
  overlapscope --help | --version

Exit status: 0 success, 1 could not write, 2 bad usage or unreadable trace.
)";

int fail(int status, const QString& message)
{
    std::fprintf(stderr, "overlapscope: %s\n", qPrintable(message));
    return status;
}

int exportHeadless(const QStringList& args)
{
    QString input, output, bandwidth;
    double scale = 1.0;
    double fromMs = -1, toMs = -1;
    bool align = false;
    int width = 1600, height = 0;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        auto next = [&](const char* what) -> QString {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "overlapscope: %s needs a value\n", what);
                std::exit(2);
            }
            return args[++i];
        };
        bool ok = true;
        if (a == "-o" || a == "--output")
            output = next("-o");
        else if (a == "--align")
            align = true;
        else if (a == "--bandwidth")
            bandwidth = next("--bandwidth");
        else if (a == "--scale")
            scale = next("--scale").toDouble(&ok), ok = ok && scale >= 0.25 && scale <= 8;
        else if (a == "--from-ms")
            fromMs = next("--from-ms").toDouble(&ok), ok = ok && fromMs >= 0;
        else if (a == "--to-ms")
            toMs = next("--to-ms").toDouble(&ok), ok = ok && toMs > 0;
        else if (a == "--width")
            width = next("--width").toInt(&ok), ok = ok && width >= 200 && width <= 20000;
        else if (a == "--height")
            height = next("--height").toInt(&ok), ok = ok && height >= 100 && height <= 20000;
        else if (a.startsWith('-'))
            return fail(2, QString("unknown option '%1' (see --help)").arg(a));
        else if (input.isEmpty())
            input = a;
        else
            return fail(2, QString("unexpected argument '%1'").arg(a));
        if (!ok)
            return fail(2, QString("bad value for %1 (scale 0.25-8, width 200-20000, height 100-20000, "
                                   "times in ms >= 0)").arg(a));
    }
    if (input.isEmpty() || output.isEmpty())
        return fail(2, "export needs a trace and -o OUT (see --help)");
    if ((fromMs >= 0) != (toMs >= 0) || (fromMs >= 0 && toMs <= fromMs))
        return fail(2, "give both --from-ms and --to-ms, with from < to");
    const QString format = QFileInfo(output).suffix().toLower();
    if (format != "png" && format != "svg" && format != "pdf")
        return fail(2, QString("cannot tell the format of '%1': use .png, .svg or .pdf").arg(output));

    const auto loaded = ovs::loadTrace(input.toStdString());
    if (!loaded.trace)
        return fail(2, QString::fromStdString(loaded.error));

    ovs::ui::TraceDocument document;
    ovs::ui::ViewState view;
    document.setTrace(*loaded.trace, input);
    document.setAlignTimedRegions(align);
    view.setExtent(document.endNs());
    view.resetView();
    if (fromMs >= 0)
        view.setVisibleRange(static_cast<std::int64_t>(fromMs * 1e6), static_cast<std::int64_t>(toMs * 1e6));
    ovs::ui::TimelinePlot plot(&document, &view);
    plot.resize(width, height > 0 ? height : plot.preferredHeight());
    QString error;
    if (!plot.exportImage(output, format, width, height > 0 ? height : plot.preferredHeight(), scale, &error))
        return fail(1, error);
    std::fprintf(stderr, "wrote %s\n", qPrintable(output));

    if (!bandwidth.isEmpty()) {
        if (document.sweeps().empty())
            return fail(1, "the trace has no bandwidth sweep to render");
        ovs::ui::BandwidthChart chart(&document);
        chart.resize(1000, 600);
        const bool ok = bandwidth.endsWith(".pdf", Qt::CaseInsensitive) ? chart.savePdf(bandwidth, 1000, 600)
                                                                         : chart.savePng(bandwidth, 1000, 600, scale);
        if (!ok)
            return fail(1, QString("could not write %1").arg(bandwidth));
        std::fprintf(stderr, "wrote %s\n", qPrintable(bandwidth));
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const bool headless = argc > 1 && std::string(argv[1]) == "export";
    // Export must work on servers with no display at all.
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "--version") {
        std::printf("overlapscope %s\n", OVERLAPSCOPE_VERSION);
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName("OverlapScope");
    QApplication::setApplicationName("OverlapScope");
    QApplication::setApplicationVersion(OVERLAPSCOPE_VERSION);
    ovs::ui::setUpApplicationFont();

    QStringList args = QApplication::arguments().mid(1);
    if (headless)
        return exportHeadless(args.mid(1));
    if (args.size() > 1 || (args.size() == 1 && args.front().startsWith('-')))
        return fail(2, "usage: overlapscope [TRACE.json] (see --help)");

    ovs::ui::MainWindow window;
    window.show();
    if (!args.isEmpty())
        window.openTrace(args.front());
    return app.exec();
}
