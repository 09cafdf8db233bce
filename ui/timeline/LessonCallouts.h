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

// The one item that draws every focus of a plot. It reads the run's axis
// rect at every paint, so it follows zoom, layout, theme and font changes
// (presentation mode) and survives the plot rebuilding its rows. Its colours
// come from the plot's palette, its text size from the plot's font.
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

    // Where the last paint put each callout (widget pixels, one per callout,
    // empty rects for those not drawn: run missing or out of view): for
    // tests and for exports that check nothing was clipped.
    const std::vector<QRectF>& boxes() const { return m_boxes; }
    const std::vector<QRectF>& bands() const { return m_bands; }

    // The item under a plot, if any.
    static LessonCallouts* of(const TimelinePlot& plot);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;

protected:
    void draw(QCPPainter* painter) override;

private:
    TimelinePlot* m_plot;
    std::vector<Callout> m_callouts;
    std::vector<QRectF> m_boxes;
    std::vector<QRectF> m_bands;
};

} // namespace ovs::ui
