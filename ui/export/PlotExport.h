#pragma once

#include "export/ImageFormat.h"

#include <QByteArray>
#include <QString>

class QCustomPlot;

namespace ovs::ui {

// The one exporter of the timeline and the charts: renders a plot at a
// layout size (PNG at `scale` times the pixels of the same picture; SVG and
// PDF as vectors) into memory, checks the size caps first (ExportCaps), and
// writes the file atomically. The format is the path's extension's, or the
// export is refused. The plot is rendered as it is; callers lay it out for
// the size first (TimelinePlot::fitTo).
struct PlotExportOptions {
    int width = 1600;
    int height = 900;
    double scale = 1.0;
    QString title; // SVG/PDF document title
};

// Empty on failure, with the reason in `error`.
QByteArray renderPlot(QCustomPlot& plot, ImageFormat format, const PlotExportOptions& options, QString* error);
// renderPlot in the format of `path`'s extension, then written atomically.
bool exportPlot(QCustomPlot& plot, const QString& path, const PlotExportOptions& options, QString* error);

} // namespace ovs::ui
