#pragma once

#include <QString>

class QWidget;

namespace ovs::ui {

class TraceDocument;
class ViewState;

// Picture of the timeline for a file, from the window or headless. It
// renders a TimelinePlot of its own on the same document and a copy of the
// view (range, selection, measurement, the what-if ghost), so the window's
// widget, legend and layout are never touched, and a headless export looks
// like the window.
struct TimelineExportOptions {
    int width = 0;      // layout width; <= 0: 1600 px
    int height = 0;     // layout height; <= 0: every lane at full height
    double scale = 1.0; // PNG pixels per layout pixel
};

class TimelineExport {
public:
    // lookFrom: a widget whose palette and font the picture takes (the
    // window's timeline, for dark mode and presentation fonts); may be null.
    // Refuses, with the figures, a picture past ExportCaps: at full lane
    // height, it asks for a height to squeeze the lanes into; below a pixel
    // a lane, for fewer runs. `overCaps`, when given, tells that refusal (a
    // matter of the options asked for) from a picture that could not be
    // rendered or written.
    static bool write(TraceDocument& document, const ViewState& view, const QString& path,
                      const TimelineExportOptions& options, const QWidget* lookFrom, QString* error,
                      bool* overCaps = nullptr);
};

} // namespace ovs::ui
