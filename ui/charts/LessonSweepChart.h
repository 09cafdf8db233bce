#pragma once

#include "lessons/SweepPoints.h"

#include <qcustomplot.h>

namespace ovs::ui {

// A lesson's sweep as a chart: each run's wall time (points and a line)
// against the swept parameter on a log2 axis (chunk size in KiB/MiB, or
// kernel passes per chunk), the run's bound as a second line (the time it
// could not beat at the rates it was judged by), the fastest run ringed and
// named where the series names one (SweepSeries::best). The wall time axis is logarithmic when the runs span a wide range
// (the smallest chunks can take tens of times the best), so that the
// fill-and-drain cost of the largest chunks still shows. "[simulated]" in the title when any point is. Follows the palette
// (light, dark, presentation's high contrast) and the widget's font, so
// presentation mode scales it with everything else. Graph 0 is the wall
// time, graph 1 the bound.
class LessonSweepChart : public QCustomPlot {
    Q_OBJECT

public:
    explicit LessonSweepChart(QWidget* parent = nullptr);

    // Draws `series`; one with no points shows a hint instead.
    void setSeries(SweepSeries series);
    const SweepSeries& series() const { return m_series; }

    QString title() const;
    QCPGraph* wallGraph() const { return graph(0); }
    QCPGraph* boundGraph() const { return graph(1); }
    // The ring on the fastest run; hidden when there is none.
    const QCPItemTracer* bestMark() const { return m_best; }
    bool isShowingEmptyState() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void applyColours();
    void applyFonts();

    SweepSeries m_series;
    QCPTextElement* m_title;
    QCPItemText* m_emptyText;
    QCPItemTracer* m_best;
    QCPItemText* m_bestText;
    double m_scale = 1; // line widths and marks, with the font
};

} // namespace ovs::ui
