#pragma once

#include <QStyledItemDelegate>

namespace ovs::ui {

// A cell drawn as a horizontal bar with its text beside it: a finding's
// saving against the judged span, a step's duration against the slowest.
// Bars are read before words (hotspot's and VTune's cost columns), so the
// biggest win or the slowest step is seen at a glance. A cell without a
// fraction is drawn as any other.
//
// Roles on the cell: FractionRole (double, 0..1: the bar's length),
// EstimateRole (bool: drawn hatched and outlined, for a number that is an
// estimate rather than a replay), MarkRole (double, 0..1: a tick across the
// bar, e.g. the median step), EmphasisRole (bool: the bar in the accent of
// a warning, e.g. the slowest step).
class BarCellDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    enum Role {
        FractionRole = Qt::UserRole + 40,
        EstimateRole,
        MarkRole,
        EmphasisRole,
    };
    // The bar's share of the cell; the rest holds the text.
    static constexpr double kBarShare = 0.58;

    explicit BarCellDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace ovs::ui
