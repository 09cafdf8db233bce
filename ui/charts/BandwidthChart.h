#pragma once

#include <qcustomplot.h>

#include <QPointer>

#include <cstdint>
#include <set>

namespace ovs::ui {

class TraceDocument;

// The transfer bandwidth sweep: GB/s against transfer size (log2 axis), one
// curve per host memory kind and direction, as the seed's benchmark table
// but drawn. Shows the document's latest sweep and grows cell by cell while
// one is being measured. A comparison's two sweeps are overlaid.
class BandwidthChart : public QCustomPlot {
    Q_OBJECT

public:
    explicit BandwidthChart(TraceDocument* document, QWidget* parent = nullptr);

    // Index in the document's sweeps of the one drawn; -1 when there is none.
    int shownSweep() const { return m_shown; }
    // In a comparison where both traces have a sweep: the before's, drawn
    // faded under the after's (shownSweep); -1 otherwise.
    int comparedSweep() const { return m_comparedWith; }
    QString title() const;
    // The hint drawn in place of curves when there is nothing to show.
    bool isShowingEmptyState() const;

private:
    void rebuild();
    // `sizes` must not be empty.
    void setSizeTicks(const std::set<std::uint64_t>& sizes);

    QPointer<TraceDocument> m_document;
    QCPTextElement* m_title;
    QCPItemText* m_emptyText;
    int m_shown = -1;
    int m_comparedWith = -1;
};

} // namespace ovs::ui
