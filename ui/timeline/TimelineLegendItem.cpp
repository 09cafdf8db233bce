#include "timeline/TimelineLegendItem.h"

#include "style/OpStyle.h"

#include <algorithm>
#include <cmath>

namespace ovs::ui {

TimelineLegendItem::TimelineLegendItem(QCPLegend* legend, std::optional<OpKind> kind)
    : QCPAbstractLegendItem(legend), m_kind(kind)
{
    setSelectable(false);
}

QString TimelineLegendItem::text() const
{
    return m_kind ? opKindLabel(*m_kind) : tr("Timed region (the run's wall time)");
}

void TimelineLegendItem::setTimedRegionColors(const QColor& fill, const QColor& edge)
{
    m_regionFill = fill;
    m_regionEdge = edge;
}

QSize TimelineLegendItem::swatchSize() const
{
    const int h = QFontMetrics(mFont).height();
    return {h * 2, h};
}

QSize TimelineLegendItem::minimumOuterSizeHint() const
{
    const QFontMetrics metrics(mFont);
    const QSize swatch = swatchSize();
    const int width = swatch.width() + mParentLegend->iconTextPadding() + metrics.horizontalAdvance(text());
    const int height = std::max(swatch.height(), metrics.height());
    return {width + mMargins.left() + mMargins.right(), height + mMargins.top() + mMargins.bottom()};
}

QSize TimelineLegendItem::maximumOuterSizeHint() const
{
    // Fixed size: columns stay compact and the legend row does not stretch.
    return minimumOuterSizeHint();
}

void TimelineLegendItem::draw(QCPPainter* painter)
{
    const QSize swatch = swatchSize();
    const QRect r = mRect;
    const QRectF box(r.left(), r.top() + (r.height() - swatch.height()) / 2.0, swatch.width(), swatch.height());
    painter->setAntialiasing(false);
    if (m_kind) {
        const QColor color = opColor(*m_kind);
        painter->setPen(QPen(color.darker(150), 1));
        painter->setBrush(color);
        painter->drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5));
    } else {
        // As the plottable draws it: a light band between two dashed edges.
        QColor fill = m_regionFill;
        fill.setAlpha(std::min(255, fill.alpha() * 3)); // the band alone is too faint at swatch size
        painter->fillRect(box, fill);
        painter->setPen(QPen(m_regionEdge, 1, Qt::DashLine));
        painter->drawLine(QPointF(std::round(box.left()), box.top()), QPointF(std::round(box.left()), box.bottom()));
        painter->drawLine(QPointF(std::round(box.right()) - 1, box.top()),
                          QPointF(std::round(box.right()) - 1, box.bottom()));
    }
    painter->setFont(mFont);
    painter->setPen(mTextColor);
    const int x = r.left() + swatch.width() + mParentLegend->iconTextPadding();
    painter->drawText(QRect(x, r.top(), r.right() - x + 1, r.height()), Qt::AlignLeft | Qt::AlignVCenter, text());
}

} // namespace ovs::ui
