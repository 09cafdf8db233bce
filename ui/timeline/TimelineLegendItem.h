#pragma once

#include "trace/Op.h"

#include <qcustomplot.h>

#include <optional>

namespace ovs::ui {

// One entry of the timeline's legend: an op kind (its colour swatch and
// label), or the timed region (the dashed marks and light band drawn over
// each run's measured wall-time window). The legend lists kinds, not
// plottables (each run is one plottable of many kinds), so
// QCPPlottableLegendItem does not fit.
class TimelineLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT

public:
    // kind: the op kind; nullopt: the timed region.
    TimelineLegendItem(QCPLegend* legend, std::optional<OpKind> kind);

    std::optional<OpKind> kind() const { return m_kind; }
    bool isTimedRegion() const { return !m_kind; }
    QString text() const;
    // The timed region's band and edge colours (the plottable's style).
    void setTimedRegionColors(const QColor& fill, const QColor& edge);

    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

protected:
    void draw(QCPPainter* painter) override;

private:
    QSize swatchSize() const;

    std::optional<OpKind> m_kind;
    QColor m_regionFill;
    QColor m_regionEdge;
};

} // namespace ovs::ui
