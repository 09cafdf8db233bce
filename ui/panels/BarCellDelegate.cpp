#include "panels/BarCellDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace ovs::ui {

BarCellDelegate::BarCellDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

void BarCellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QVariant fraction = index.data(FractionRole);
    if (!fraction.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The row's background and selection as the style draws them, no text.
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

    const QRect cell = option.rect.adjusted(3, 4, -3, -4);
    const int track = static_cast<int>(cell.width() * kBarShare);
    const double share = std::clamp(fraction.toDouble(), 0.0, 1.0);
    const bool estimate = index.data(EstimateRole).toBool();
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette& palette = option.palette;
    QColor colour = index.data(EmphasisRole).toBool() ? QColor(0xd0, 0x5a, 0x3c) : palette.color(QPalette::Highlight);
    if (selected)
        colour = palette.color(QPalette::HighlightedText);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    // The track: where 100% would end, faint, so bars compare across rows.
    QColor trackColour = palette.color(QPalette::Text);
    trackColour.setAlpha(28);
    painter->fillRect(QRect(cell.left(), cell.top(), track, cell.height()), trackColour);
    // At least a pixel: a saving of 0.1% is still there.
    const QRect bar(cell.left(), cell.top(), std::max(1, static_cast<int>(track * share + 0.5)), cell.height());
    if (estimate) {
        // An estimate: hatched under a dashed outline, never as solid as a replay.
        QColor light = colour;
        light.setAlpha(70);
        painter->fillRect(bar, light);
        painter->fillRect(bar, QBrush(colour, Qt::BDiagPattern));
        QPen dashed(colour, 1, Qt::DashLine);
        painter->setPen(dashed);
        painter->drawRect(bar.adjusted(0, 0, -1, -1));
    } else {
        painter->fillRect(bar, colour);
    }
    if (const QVariant mark = index.data(MarkRole); mark.isValid()) {
        const int x = cell.left() + static_cast<int>(track * std::clamp(mark.toDouble(), 0.0, 1.0) + 0.5);
        painter->setPen(QPen(palette.color(selected ? QPalette::HighlightedText : QPalette::Text), 2));
        painter->drawLine(x, option.rect.top() + 1, x, option.rect.bottom() - 1);
    }
    const QString text = index.data(Qt::DisplayRole).toString();
    if (!text.isEmpty()) {
        painter->setPen(palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        painter->setFont(option.font);
        const QRect textRect(cell.left() + track + 6, option.rect.top(), cell.width() - track - 6, option.rect.height());
        painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
                          option.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width()));
    }
    painter->restore();
}

QSize BarCellDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.data(FractionRole).isValid()) {
        // Room for a readable bar beside the text.
        const int text = option.fontMetrics.horizontalAdvance(index.data(Qt::DisplayRole).toString()) + 12;
        size.setWidth(std::max(size.width(), static_cast<int>(text / (1.0 - kBarShare))));
    }
    return size;
}

} // namespace ovs::ui
