#pragma once

#include "document/ViewState.h"
#include "timeline/LaneRows.h"
#include "timeline/TimeAxisMapping.h"
#include "timeline/TimelineInteraction.h"

#include <qcustomplot.h>

#include <QPoint>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace ovs::ui {

class AnalysisCache;
class RefreshThrottle;
class RunTimeline;
class TimelineLegend;
class TimelinePlottable;
class TraceDocument;
struct TimelineStyle;
struct WhatIfGhost;

// The timeline: one axis rect per run, stacked, all on the ViewState's time
// range; a title row per run, lane names on the left, the time ruler under
// the last run and a legend of the op kinds present and the timed region.
// The window shows this widget; exports (TimelineExport) render another
// instance on the same document and a copy of the view, so both look the
// same and an export never disturbs the window.
//
// A what-if chosen in the view (ViewState::whatIf) is drawn as a ghost run
// directly under its measured run, once the document's AnalysisCache has
// replayed it: its own title row (the fixes and the saving) and axis rect,
// the same lanes, on the shared time axis from the measured run's start.
//
// Its parts: TimelineInteraction (what input does), TimeAxisMapping (time
// <-> pixels), TimelineStyle (colours and fonts), TimelineLegend and
// RefreshThrottle (live updates coalesced).
class TimelinePlot : public QCustomPlot {
    Q_OBJECT

public:
    // The tallest the window's widget gets: QCustomPlot keeps paint buffers
    // of the widget's size, so 65,535 lanes at full height would ask for
    // gigabytes. Past it, lanes share the height (and lose their labels
    // when rows get thinner than the text).
    static constexpr int kMaxWidgetHeight = 8192;

    TimelinePlot(TraceDocument* document, ViewState* view, QWidget* parent = nullptr);
    ~TimelinePlot() override;

    // The height at which every lane gets its full row at this width
    // (width <= 0: the widget's, or 1600 px when it has none).
    int preferredHeight(int width = 0) const;
    // Squeezed rows share pixels, up to this many lanes a pixel: thousands
    // of lanes read as a summary (where work is), each op still at least a
    // pixel tall.
    static constexpr int kLanesPerPixel = 8;

    // The least height the lanes can be squeezed into (kLanesPerPixel):
    // titles, margins, ruler and legend are not squeezed.
    int minimumFitHeight(int width = 0) const;
    // Pixels per lane row (grows with the font for presentation mode).
    int rowHeight() const;
    int totalLanes() const;
    // Lays out legend and lane labels for a picture of this size, as a
    // resize does; exports call it before rendering a widget never shown.
    void fitTo(int width, int height);
    // Whether lane rows are tall enough at the current size for their names.
    bool laneLabelsShown() const { return m_laneLabels; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The op under a widget position (as hover and click find it).
    OpRef opAt(const QPoint& pos) const;
    // The region under a widget position in a run's regions band (a click
    // there selects it and zooms to it).
    RegionRef regionAt(const QPoint& pos) const;
    // What the hover tooltip shows at `pos`; empty where there is no op or region.
    QString toolTipTextAt(const QPoint& pos) const;

    // For tests and exports: the axis rect of a run, the time axis as
    // pixels, and the time an x pixel means.
    QCPAxisRect* runAxisRect(int run) const;
    // The lane axis row `lane` of `run` is drawn on (LaneRows: the lane
    // itself for one device; its place in its device's group for several).
    int laneRow(int run, int lane) const;
    // The run's rows: lanes and, on several GPUs, the group headers.
    const LaneRows* laneRows(int run) const;
    // The what-if ghost drawn: its axis rect, the run it is under (-1: no
    // ghost is drawn), the run as replayed, and its title.
    QCPAxisRect* ghostAxisRect() const { return m_ghost ? m_ghost->rect : nullptr; }
    int ghostRun() const { return m_ghost ? m_ghostOf : -1; }
    const RunTimeline* ghostTimeline() const;
    QString ghostTitleText() const;
    // The ghost's title row in widget pixels, and its text as drawn
    // (wrapped to the width: wrapTitle); empty when no ghost is drawn.
    QRect ghostTitleRect() const;
    QString ghostTitleShown() const;
    // A run's title row, in widget pixels: clicking it folds the run to its
    // title or unfolds it (ViewState::setCollapsed).
    QRect runTitleRect(int run) const;
    QString runTitleText(int run) const;
    // The comparison's header drawn above the runs (CompareHeader); empty
    // unless the document shows a comparison.
    QString headerText() const;
    // The document drawn (read-only use: lesson callouts place themselves by
    // its runs' display offsets).
    const TraceDocument* document() const { return m_document; }
    TimeAxisMapping mapping() const;
    double timeAtPixel(double x) const { return mapping().timeAt(x); }
    double pixelAtTime(double ns) const { return mapping().pixelAt(ns); }

signals:
    // A ghost appeared, was replaced or went: the preferred height changed.
    void ghostChanged();
    // Runs were folded or unfolded: the preferred height changed.
    void rowsFolded();

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
    // QCustomPlot's layout pass, once per replot: then only the runs in view
    // get their lanes drawn (drawOnlyRunsInView).
    void updateLayout() override;

private:
    // The time axis' title: what t = 0 is for each run.
    QString timeAxisLabel() const;
    struct RunRow {
        QCPTextElement* title = nullptr;
        QCPAxisRect* rect = nullptr;
        TimelinePlottable* plottable = nullptr;
        int laidOutRows = -1; // rows when layoutRows last ran: lanes arriving live change it
        LaneRows ticked;      // the rows the lane labels were made for
        int layoutRow = 0;    // the title's row in the plot layout; the rect is on the next
        int run = 0;          // the document run it draws (a ghost: the run it is under)
    };

    void rebuild();
    RunRow makeRow(int run);
    // The window shows a part of a tall timeline (32 ranks are over 6000 px
    // in its scroll area): a replot draws the lanes of the runs in view
    // only, and a paint that shows more than was drawn (a scroll, a taller
    // area) asks for another. A plot not shown (exports) draws every run.
    void drawOnlyRunsInView();
    // ViewState's folded runs changed: rows, heights and titles follow.
    void applyCollapsed();
    // The run whose title row holds `pos`, or -1.
    int runTitleAt(const QPoint& pos) const;
    // Every run's row with the ghost's after its run's, top to bottom.
    std::vector<const RunRow*> layoutOrder() const;
    // The ghost the view asks for, when the cache has it replayed; null if none.
    std::shared_ptr<const WhatIfGhost> wantedGhost() const;
    void updateGhost();
    void tickLanes(RunRow& row, const RunTimeline& timeline);
    // The lane axis' labels: lanes by name, and the first row of each
    // thread's regions band.
    static std::vector<std::pair<int, QString>> rowLabels(const LaneRows& rows, const RunTimeline& timeline);
    void refresh();
    void refreshRun(int run);
    void updateExtent();
    void applyVisibleRange();
    void applyStyle();
    void layoutRows();
    void rebuildLegend();
    std::uint32_t kindsPresent() const;
    bool anyTimedRegion() const;
    int rulerHeight() const;
    int fixedHeight(int width) const;
    QString runTitle(int run) const;
    // Rows of a run's lanes (LaneRows: lanes plus a run on several GPUs'
    // group headers).
    int rowCount(int run) const;
    int laneLabelWidth() const;
    int plotLeftMargin() const;
    bool inPlotColumn(const QPoint& pos) const;
    std::optional<double> cursorX() const;
    // Hands the interaction the current mapping before it acts.
    TimelineInteraction& interaction();
    void endDrag();

    TraceDocument* m_document;
    ViewState* m_view;
    AnalysisCache* m_cache;
    std::vector<RunRow> m_rows;
    std::optional<RunRow> m_ghost;
    int m_ghostOf = -1;                          // the run it is drawn under
    std::uint32_t m_ghostFixes = 0;
    std::shared_ptr<const WhatIfGhost> m_ghostShown; // what it draws
    TimelineLegend* m_legend = nullptr;
    QCPTextElement* m_emptyNote = nullptr;
    QCPTextElement* m_header = nullptr; // a comparison's numbers, above the runs
    RefreshThrottle* m_refresh;
    TimelineInteraction m_interaction;
    bool m_syncing = false;
    bool m_laneLabels = true;
    QRect m_drawnArea; // widget pixels the last replot drew every run's lanes in

    QPoint m_pressPos;
    QPoint m_lastMousePos;
    bool m_mouseInside = false;
};

} // namespace ovs::ui
