#pragma once

#include "trace/Op.h"

#include <qcustomplot.h>

namespace ovs::ui {

// One op kind in the timeline's legend: its colour swatch and label. The
// legend lists kinds, not plottables (each run is one plottable of many
// kinds), so QCPPlottableLegendItem does not fit.
class TimelineLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT

public:
    TimelineLegendItem(QCPLegend* legend, OpKind kind);

    OpKind kind() const { return m_kind; }
    QString text() const;

    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

protected:
    void draw(QCPPainter* painter) override;

private:
    QSize swatchSize() const;

    OpKind m_kind;
};

} // namespace ovs::ui
