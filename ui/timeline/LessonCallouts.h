#pragma once

#include "lessons/Lesson.h"
#include "trace/Op.h"

#include <qcustomplot.h>

#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

namespace ovs::ui {

class TimelinePlot;

// What a lesson asks the class to look at, drawn on a timeline: for each
// focus a translucent band over its time range on its run's lanes, its ops
// outlined, and a callout box with its text beside the band (never over it,
// always inside the plot), joined to the band by a short line.
//
// Usage (the window's Lessons panel and the slide export):
//   setLessonFocus(plot, result.focus, result.measured);  // after the runs are in the plot's document
//   clearLessonFocus(plot);                               // next lesson, or a new document
//
// The plot's document must hold the lesson's runs in LessonResult order
// (document run i = measured.runs[i]), which is how a lesson's runs are
// loaded. Focus whose run is missing or that picked no op is skipped.
void setLessonFocus(TimelinePlot& plot, const std::vector<ResolvedFocus>& focus, const LessonMeasurements& measured);
void clearLessonFocus(TimelinePlot& plot);

// The one item that draws every focus of a plot. It lays itself out (bands,
// outlines, and the search for where each box goes) after the plot's layout
// whenever the view, the plot's geometry, font or palette changed, so it
// follows zoom, theme and font changes (presentation mode) and survives the
// plot rebuilding its rows; draw only paints that layout. Its colours come
// from the plot's palette, its text size from the plot's font.
class LessonCallouts : public QCPAbstractItem {
    Q_OBJECT

public:
    struct Callout {
        int run = -1;                // the document's run
        std::int64_t startNs = 0;    // the band, in the run's own time (as ops)
        std::int64_t endNs = 0;
        std::vector<Op> ops;         // outlined (lane and times are read)
        QString text;
    };

    explicit LessonCallouts(TimelinePlot* plot);

    void setCallouts(std::vector<Callout> callouts);
    const std::vector<Callout>& callouts() const { return m_callouts; }

    // Where the layout put each callout (widget pixels, one per callout,
    // empty rects for those not drawn: run missing or out of view): for
    // tests and for exports that check nothing was clipped.
    const std::vector<QRectF>& boxes() const { return m_layout.boxes; }
    const std::vector<QRectF>& bands() const { return m_layout.bands; }
    // How many times the layout was computed (tests: a paint alone does not).
    int layoutCount() const { return m_layoutCount; }

    // The item under a plot, if any.
    static LessonCallouts* of(const TimelinePlot& plot);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;

protected:
    void draw(QCPPainter* painter) override;

private:
    struct Layout {
        std::vector<QRectF> bands;                 // per callout; null: not drawn
        std::vector<std::vector<QRectF>> outlines; // per callout, its ops
        std::vector<QRectF> boxes;                 // per callout; null: no text or not drawn
    };
    // What the layout depends on; a new key lays out again.
    struct LayoutKey {
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        QRect viewport;
        std::vector<QRect> runs;
        qreal fontPoints = 0;
        QRgb background = 0;
        int revision = 0;
        bool operator==(const LayoutKey&) const = default;
    };

    LayoutKey currentKey() const;
    void layoutIfChanged();
    void layOut();
    void layOutBands();
    void layOutOutlines();
    void placeBoxes();

    TimelinePlot* m_plot;
    std::vector<Callout> m_callouts;
    Layout m_layout;
    LayoutKey m_laidOutFor;
    int m_revision = 0; // bumped by setCallouts
    int m_layoutCount = 0;
};

} // namespace ovs::ui
