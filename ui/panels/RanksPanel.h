#pragma once

#include <QString>
#include <QWidget>

#include <cstddef>

class QLabel;
class QTableWidget;

namespace ovs::ui {

class TraceDocument;

// The ranks of a folder (docs/ranks.md's table): per rank its steps, median
// and slowest step, GPU busy, overlap, top finding and its cost, bound; the
// straggler marked, and above the table the straggler's sentence and how
// well the ranks' clocks line up. Choosing a rank asks the window to show
// it (rankChosen), which opens it first where its trace was not kept.
// Empty, with a hint, unless the document shows a folder of ranks.
class RanksPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { Rank, Steps, MedianStep, SlowestStep, Collectives, GpuBusy, Overlap, TopFinding, Cost, Bound, Shown, ColumnCount };

    explicit RanksPanel(TraceDocument* document, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    QString stragglerText() const;
    QString alignmentText() const;

signals:
    // A rank's row was chosen (clicked or activated): its folder row.
    void rankChosen(std::size_t row);

private:
    void refresh();

    TraceDocument* m_document;
    QLabel* m_straggler;
    QLabel* m_alignment;
    QTableWidget* m_table;
};

} // namespace ovs::ui
