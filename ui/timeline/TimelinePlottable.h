#pragma once

#include "document/TimeFrame.h"
#include "document/ViewState.h"
#include "timeline/LaneRows.h"
#include "timeline/TimeAxisMapping.h"
#include "timeline/TimelineFolding.h"

#include <qcustomplot.h>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ovs::ui {

class RunTimeline;
class TraceDocument;

// Draws one run's lanes as rows (value = the lane's row in LaneRows: its
// index, or its place in its device's group; key = ns from the run's start)
// in its axis rect, and the group headers of a run on several GPUs. Per frame it binary-searches each lane for the
// visible ops and folds the sub-pixel ones (TimelineFolding), so cost follows
// the pixels, not the op count; nothing is allocated per op.
//
// It also draws what belongs to this run's rows: the regions band on top
// (RegionTracks: named ranges nested by depth, per thread, in their
// regionColor, with their names where they fit), the timed region, the
// highlighted ops (a finding's), the selected op's and region's outlines
// and the measurement band.
//
// As a ghost (setGhost) it draws a what-if run instead, at the display
// offset of the measured run `run` it belongs under: ops translucent and
// outlined in their kind's colours, no timed region, highlight or selection
// (those are the measured run's).
class TimelinePlottable : public QCPAbstractPlottable {
    Q_OBJECT

public:
    // Colours and fonts from the plot's palette, so light/dark and
    // presentation mode reach the drawing.
    struct Style {
        QColor stripe;       // every other lane's background
        QColor timedRegion;  // the seed's timed region
        QColor timedEdge;
        QColor highlight;    // the selected op's outline
        QColor measureFill;
        QColor measureEdge;
        QColor measureText;
        QColor measureLabelBackground;
        QColor playhead;     // the replay's playhead line
        QFont labelFont;     // chunk labels inside ops
        QColor groupBand;    // a device group's header row
        QColor groupText;
        QFont groupFont;
        QColor regionBand;   // the regions band's rows, behind the regions
        bool dark = false;   // regions take the theme's lightness (regionColor)
    };

    // Fraction of a lane's row that the op rectangles fill.
    static constexpr double kRowFill = 0.7;
    // And of a regions band's row: nested ranges nearly touch, like a flame graph.
    static constexpr double kRegionFill = 0.86;

    TimelinePlottable(QCPAxis* timeAxis, QCPAxis* laneAxis, const TraceDocument* document, int run,
                      const ViewState* view);

    int runIndex() const { return m_run; }
    // Draws `ghost` (a replayed run with the measured run's lanes) instead of
    // the document's run; null: the document's run again.
    void setGhost(std::shared_ptr<const RunTimeline> ghost) { m_ghost = std::move(ghost); }
    bool isGhost() const { return m_ghost != nullptr; }
    // The run drawn: the ghost, else the document's; null when neither is.
    const RunTimeline* timeline() const;
    void setStyle(const Style& style) { m_style = style; }
    // Where each lane is drawn (TimelinePlot recomputes it as lanes arrive).
    void setLaneRows(const LaneRows& rows) { m_laneRows = rows; }
    const LaneRows& laneRows() const { return m_laneRows; }

    // The op under a widget pixel (within a few pixels in time, inside the
    // row's band), or an invalid OpRef.
    // A ghost's ops are no document's: none.
    OpRef opAt(const QPointF& pixel) const;
    // The lane and index in timeline()'s laneOps of the op under a widget
    // pixel, ghost or not.
    std::optional<std::pair<int, int>> laneOpAt(const QPointF& pixel) const;
    // The region under a widget pixel in the regions band (the innermost on
    // its row), or an invalid RegionRef; a ghost has none.
    RegionRef regionAt(const QPointF& pixel) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    // The time axis as pixels now (the key axis' range over its rect).
    TimeAxisMapping axisMapping() const;
    double xOf(std::int64_t runNs) const; // in a frame: the run's time as a pixel
    void syncLaneRows() const;
    QRectF opRect(std::int64_t startNs, std::int64_t endNs, int lane, const QRect& clip) const;
    void drawTimedRegion(QCPPainter* painter, const QRect& clip) const;
    void drawRegionBand(QCPPainter* painter, const QRect& clip) const;
    void drawRegion(QCPPainter* painter, const QRectF& rect, const Region& region, bool selected) const;
    void drawLaneStripes(QCPPainter* painter, const QRect& clip) const;
    void drawGroupHeaders(QCPPainter* painter, const QRect& clip) const;
    void drawLane(QCPPainter* painter, const QRect& clip, int lane);
    void drawOp(QCPPainter* painter, const QRect& clip, const Op& op, int lane);
    void drawFolded(QCPPainter* painter, const QRect& clip, const TimelineFolding::Item& item, int lane) const;
    // A ghost's op or folded block: a translucent fill in its colour and an
    // outline in it (a dashed one where there is room).
    void drawGhost(QCPPainter* painter, const QRectF& rect, const QColor& color) const;
    void drawMarks(QCPPainter* painter, const QRect& clip, const TimelineFolding::Item& item, int lane) const;
    void drawSelection(QCPPainter* painter, const QRect& clip) const;
    void drawHighlight(QCPPainter* painter, const QRect& clip) const;
    void drawMeasurement(QCPPainter* painter, const QRect& clip) const;
    void drawPlayhead(QCPPainter* painter, const QRect& clip) const;
    // The playhead as a pixel x, when a replay runs.
    std::optional<double> playheadPixel() const;

    const TraceDocument* m_document;
    int m_run;
    std::shared_ptr<const RunTimeline> m_ghost;
    const ViewState* m_view;
    Style m_style;
    // Mutable: a plottable used on its own (no TimelinePlot to set them)
    // derives them from the run when its lane count changes (syncLaneRows).
    mutable LaneRows m_laneRows;
    std::vector<TimelineFolding::Item> m_items; // reused every frame
    // The run's place on the axis and the axis as pixels, taken once per
    // frame: opRect runs for every drawn op.
    RunAxis m_runAxis;
    TimeAxisMapping m_mapping;
};

} // namespace ovs::ui
