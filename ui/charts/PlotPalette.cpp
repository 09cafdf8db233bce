#include "charts/PlotPalette.h"

#include "style/ColorMix.h"

#include <qcustomplot.h>

#include <QEvent>

namespace ovs::ui {

void PlotPalette::follow(QCustomPlot* plot)
{
    auto* filter = new PlotPalette(plot);
    plot->installEventFilter(filter);
    apply(plot);
}

void PlotPalette::apply(QCustomPlot* plot)
{
    const QPalette palette = plot->palette();
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor axis = mixColors(background, text, 0.55);
    const QColor grid = mixColors(background, text, 0.15);
    plot->setBackground(background);
    for (int i = 0; i < plot->axisRectCount(); ++i) {
        QCPAxisRect* rect = plot->axisRect(i);
        for (QCPAxis* a : rect->axes()) {
            a->setBasePen(QPen(axis));
            a->setTickPen(QPen(axis));
            a->setSubTickPen(QPen(axis));
            a->setTickLabelColor(text);
            a->setLabelColor(text);
            a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
            a->grid()->setSubGridPen(QPen(mixColors(background, text, 0.07), 1, Qt::DotLine));
        }
    }
    if (plot->legend) {
        plot->legend->setBrush(background);
        plot->legend->setBorderPen(QPen(axis));
        plot->legend->setTextColor(text);
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = plot->legend->item(i))
                item->setTextColor(text);
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* label = qobject_cast<QCPItemText*>(plot->item(i)))
            label->setColor(text);
    for (int r = 0; r < plot->plotLayout()->rowCount(); ++r)
        for (int c = 0; c < plot->plotLayout()->columnCount(); ++c)
            if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(r, c)))
                title->setTextColor(text);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotPalette::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        if (auto* plot = qobject_cast<QCustomPlot*>(watched))
            apply(plot);
    return QObject::eventFilter(watched, event);
}

} // namespace ovs::ui
