#include "timeline/TimelineLegendItem.h"

#include "style/OpStyle.h"

namespace ovs::ui {

TimelineLegendItem::TimelineLegendItem(QCPLegend* legend, OpKind kind) : QCPAbstractLegendItem(legend), m_kind(kind)
{
    setSelectable(false);
}

QString TimelineLegendItem::text() const
{
    return opKindLabel(m_kind);
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
    const QColor color = opColor(m_kind);
    painter->setAntialiasing(false);
    painter->setPen(QPen(color.darker(150), 1));
    painter->setBrush(color);
    painter->drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5));
    painter->setFont(mFont);
    painter->setPen(mTextColor);
    const int x = r.left() + swatch.width() + mParentLegend->iconTextPadding();
    painter->drawText(QRect(x, r.top(), r.right() - x + 1, r.height()), Qt::AlignLeft | Qt::AlignVCenter, text());
}

} // namespace ovs::ui
