#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace ovs::ui {

class TraceDocument;

// The seed's comparison table for every run in the document: wall time,
// speedup over the serialized run of the same workload, whether the output
// verified; plus a line about the device the figures come from.
class SummaryPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { RunColumn, DeviceColumn, StatusColumn, WallColumn, SpeedupColumn, VerificationColumn, OpsColumn,
                  ColumnCount };

    explicit SummaryPanel(TraceDocument* document, QWidget* parent = nullptr);

    // What the panel shows, as plain text: the device line, then one
    // tab-separated line per row under a header line.
    QString summaryText() const;

private:
    void refresh();

    QPointer<TraceDocument> m_document;
    QLabel* m_deviceLine;
    QTreeWidget* m_table;
};

} // namespace ovs::ui
