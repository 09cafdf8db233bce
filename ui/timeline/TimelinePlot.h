#pragma once

#include "document/ViewState.h"

#include <qcustomplot.h>

#include <QPoint>
#include <QString>
#include <QTimer>

#include <cstdint>

#include <vector>

namespace ovs::ui {

class TimelineLegendItem;
class TimelinePlottable;
class TraceDocument;

// The timeline: one axis rect per run, stacked, all on the ViewState's time
// range; a title row per run, lane names on the left, the time ruler under
// the last run and a legend of the op kinds present. The window shows this
// widget and exports render it (exportImage), so both look the same.
//
// Interaction (Perfetto / Nsight Systems conventions):
//   Ctrl+wheel, pinch     zoom time around the cursor
//   wheel                 left to the parent (scrolls a surrounding view)
//   Shift+wheel, h-wheel  pan time
//   W / S, + / -          zoom in / out around the cursor (else the centre)
//   A / D, Left / Right   pan by a tenth of the view
//   0, Home               show everything (ViewState::resetView)
//   left drag             pan
//   Shift+drag, right drag  zoom to the dragged time range
//   Ctrl+drag             measure the interval (Ctrl+click clears it)
//   click                 select the op (empty space clears)
//   double click          zoom to the op
//   hover                 tooltip (opTooltipText)
//   Esc                   clear the measurement, else the selection
// Only time zooms and pans; lanes keep their rows.
class TimelinePlot : public QCustomPlot {
    Q_OBJECT

public:
    TimelinePlot(TraceDocument* document, ViewState* view, QWidget* parent = nullptr);

    // Renders the current view to a file: "png" (width x height layout,
    // rendered at `scale`, so scale 2 doubles the pixels of the same
    // picture), "svg" or "pdf" (vector). width <= 0: the widget's width, or
    // 1600 px when it has none; height <= 0: preferredHeight(width).
    // Works without the widget ever being shown. On failure returns false
    // and says why in `error`.
    bool exportImage(const QString& path, const QString& format, int width, int height, double scale,
                     QString* error);

    // The height at which every lane gets its full row at this width.
    int preferredHeight(int width = 0) const;
    // Pixels per lane row (grows with the font for presentation mode).
    int rowHeight() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The op under a widget position (as hover and click find it).
    OpRef opAt(const QPoint& pos) const;
    // What the hover tooltip shows at `pos`; empty where there is no op.
    QString toolTipTextAt(const QPoint& pos) const;

    // For tests and exports: the axis rect of a run and the time an x pixel means.
    QCPAxisRect* runAxisRect(int run) const;
    double timeAtPixel(double x) const;
    double pixelAtTime(double ns) const;

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct RunRow {
        QCPTextElement* title = nullptr;
        QCPAxisRect* rect = nullptr;
        TimelinePlottable* plottable = nullptr;
    };
    enum class Drag { None, Pending, Pan, ZoomBand, Measure };

    void rebuild();
    void scheduleRefresh();
    void refresh();
    void refreshRun(int run);
    void updateExtent();
    void applyVisibleRange();
    void applyStyle();
    void layoutRows();
    void layoutLegend(int width);
    void rebuildLegend();
    std::uint32_t kindsPresent() const;
    std::vector<TimelineLegendItem*> legendItems() const;
    int legendColumns(int width) const;
    int legendHeight(int width) const;
    int rulerHeight() const;
    QFont baseFont() const;
    QString runTitle(int run) const;
    int laneLabelWidth() const;
    int plotLeftMargin() const;
    bool inPlotColumn(const QPoint& pos) const;
    double zoomCenter() const;
    void clearDrag();

    TraceDocument* m_document;
    ViewState* m_view;
    std::vector<RunRow> m_rows;
    QCPLegend* m_legend = nullptr;
    QCPTextElement* m_emptyNote = nullptr;
    std::uint32_t m_legendKinds = 0; // bit per OpKind present
    QTimer m_refreshTimer;
    bool m_syncing = false;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    qint64 m_pressStartNs = 0;
    qint64 m_pressEndNs = 0;
    double m_pressNsPerPixel = 0;
    qint64 m_measureAnchorNs = 0;
    QPoint m_bandEnd;
    QPoint m_lastMousePos;
    bool m_mouseInside = false;
};

} // namespace ovs::ui
