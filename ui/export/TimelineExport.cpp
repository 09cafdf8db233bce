#include "export/TimelineExport.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/ExportCaps.h"
#include "export/ExportError.h"
#include "export/PlotExport.h"
#include "timeline/TimelinePlot.h"

#include <QWidget>

namespace ovs::ui {

namespace {

constexpr int kDefaultWidth = 1600;

} // namespace

bool TimelineExport::write(TraceDocument& document, const ViewState& view, const QString& path,
                           const TimelineExportOptions& options, const QWidget* lookFrom, QString* error,
                           bool* overCaps)
{
    if (overCaps)
        *overCaps = false;
    const auto refuse = [&](const QString& message) {
        if (overCaps)
            *overCaps = true;
        return exportFailed(error, message);
    };
    QString why;
    const auto format = imageFormatForPath(path, &why);
    if (!format)
        return exportFailed(error, why);

    ViewState copy;
    TimelinePlot plot(&document, &copy);
    if (lookFrom) {
        plot.setPalette(lookFrom->palette());
        plot.setFont(lookFrom->font());
    }
    // After the plot's constructor, which shows everything.
    copy.setExtent(view.extentNs());
    copy.setVisibleRange(view.visibleStartNs(), view.visibleEndNs());
    copy.setSelection(view.selection());
    if (const auto measurement = view.measurement())
        copy.setMeasurement(measurement->first, measurement->second);
    if (const auto playhead = view.playhead())
        copy.setPlayhead(*playhead); // a replay exports as it stands
    // The what-if ghost shown, as the document's analysis cache has it.
    copy.setWhatIf(view.whatIf());
    // Folded runs stay folded: the picture is what the window shows.
    for (const int run : view.collapsedRuns())
        copy.setCollapsed(run, true);

    const int width = options.width > 0 ? options.width : kDefaultWidth;
    const int cap = ExportCaps::kMaxSidePixels;
    int height = options.height;
    // One multi-argument arg() each: a path may itself hold "%1".
    const QString lanes = QStringLiteral("%1 lanes in %2 runs").arg(plot.totalLanes()).arg(document.runCount());
    const QString capText = QString::number(cap);
    if (height <= 0) {
        height = plot.preferredHeight(width);
        if (height > cap)
            return refuse(QStringLiteral("cannot export %1: %2 need %3 px at full row height, over the cap of "
                                         "%4 px a side; give a height (--height, at most %4) to squeeze the "
                                         "lanes into")
                              .arg(path, lanes, QString::number(height), capText));
    }
    const int least = plot.minimumFitHeight(width);
    if (height < least) {
        const QString hint = least > cap ? QStringLiteral("; past the cap of %1 px, export fewer runs (--runs)").arg(cap)
                                         : QStringLiteral("; raise the height (--height)");
        return refuse(QStringLiteral("cannot export %1: %2 need at least %3 px (squeezed to %4 lanes a pixel), "
                                     "more than the %5 px given%6")
                          .arg(path, lanes, QString::number(least), QString::number(TimelinePlot::kLanesPerPixel),
                               QString::number(height), hint));
    }

    // exportPlot checks the caps too; here, so the refusal is told apart.
    if (const QString over = ExportCaps::check(*format, width, height, options.scale); !over.isEmpty())
        return refuse(QStringLiteral("cannot export %1: %2").arg(path, over));

    plot.resize(width, height);
    plot.fitTo(width, height);
    PlotExportOptions plotOptions;
    plotOptions.width = width;
    plotOptions.height = height;
    plotOptions.scale = options.scale;
    plotOptions.title = QStringLiteral("OverlapScope timeline");
    return exportPlot(plot, path, plotOptions, error);
}

} // namespace ovs::ui
