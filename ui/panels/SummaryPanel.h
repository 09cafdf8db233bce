#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QScrollArea;
class QTreeWidget;

namespace ovs::ui {

class TraceDocument;

// The seed's comparison table for every run in the document: wall time,
// speedup over the serialized run of the same workload, copy/kernel overlap,
// distance from the run's bound, whether the output verified; a line about
// the device the figures come from; and under the table each finished run's
// one-sentence diagnosis (core/analysis, as the CLI prints it).
class SummaryPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { RunColumn, DeviceColumn, StatusColumn, WallColumn, SpeedupColumn, OverlapColumn, BoundColumn,
                  VerificationColumn, OpsColumn, ColumnCount };

    explicit SummaryPanel(TraceDocument* document, QWidget* parent = nullptr);

    // What the panel shows, as plain text: the device line, then one
    // tab-separated line per row under a header line, then one
    // "run: diagnosis" line per analysed run.
    QString summaryText() const;

private:
    // What the analysis said of one run, kept until the run changes: a
    // finished run is analysed once, not on every live batch of another.
    struct Analysis {
        bool valid = false;
        std::size_t opCount = 0;
        int status = 0;
        QString overlap;
        QString overlapTip;
        QString bound;
        QString boundTip;
        QString diagnosis;
    };

    void refresh();
    const Analysis& analysisOf(int run);

    QPointer<TraceDocument> m_document;
    QLabel* m_deviceLine;
    QTreeWidget* m_table;
    QLabel* m_diagnoses;
    QScrollArea* m_diagnosesArea = nullptr;
    std::vector<Analysis> m_analyses;
    QStringList m_diagnosisLines; // plain text, for summaryText
};

} // namespace ovs::ui
