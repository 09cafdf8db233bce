#pragma once

#include <QObject>

class QCustomPlot;

namespace ovs::ui {

// Makes a chart (a plain QCustomPlot) follow its widget palette: background,
// axes, tick labels, grid, legend and text items, now and on every palette
// change, so the charts go dark with the theme and high-contrast in
// presentation mode. Data colours are the chart's own and stay.
class PlotPalette : public QObject {
    Q_OBJECT

public:
    // Owned by the plot.
    static void follow(QCustomPlot* plot);
    static void apply(QCustomPlot* plot);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace ovs::ui
