#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QScrollArea;
class QTreeWidget;

namespace ovs::ui {

class AnalysisCache;
struct AnalysedRun;
class TraceDocument;

// The seed's comparison table for every run in the document: wall time,
// speedup over the serialized run of the same workload, copy/kernel overlap,
// distance from the run's bound, whether the output verified; a line about
// the device the figures come from; and each run's one-sentence diagnosis with what was
// judged (the loop, not the setup) and, for repeated regions such as
// profiler steps, the median and slowest instance and the findings common
// to most of them (as `analyze` words them). A run on
// several GPUs of one host also gets the host-share analysis (per-device
// upload rates, together against the sum alone, the bound). All of it is
// read from the document's AnalysisCache, which computes it off the GUI
// thread. The findings are a panel of their own (FindingsView).
class SummaryPanel : public QWidget {
    Q_OBJECT

public:
    // HostShareColumn: how GPUs of one host shared it (analyseHostShare),
    // shown only when a run has several devices.
    enum Column { RunColumn, DeviceColumn, StatusColumn, WallColumn, SpeedupColumn, OverlapColumn, BoundColumn,
                  HostShareColumn, VerificationColumn, OpsColumn, ColumnCount };

    explicit SummaryPanel(TraceDocument* document, QWidget* parent = nullptr);

    // What the panel shows, as plain text: the device line, then one
    // tab-separated line per row under a header line, then one
    // "run: diagnosis" line per analysed run with its judgement lines.
    QString summaryText() const;

    // True while finished runs are being analysed (by the document's
    // AnalysisCache; their overlap, bound, diagnosis and findings then read "…").
    bool isAnalysing() const;

    // The comparison table.
    QTreeWidget* table() const { return m_table; }

signals:
    // Every analysis asked for so far is shown.
    void analysed();

private:
    // The cells of one run's analysis, formatted from the cache's once.
    struct Analysis {
        std::shared_ptr<const AnalysedRun> source; // what they were formatted from; null: none yet
        QString overlap;
        QString overlapTip;
        QString bound;
        QString boundTip;
        QString diagnosis;
        // Several GPUs of one host: the cell, the per-device table as its
        // tooltip, and core's sentence naming the shared resource.
        QString hostShare;
        QString hostShareTip;
        QString hostShareDiagnosis;
        // What was judged and each repeated region's judgement: core's
        // lines (words/JudgementWords.h, as `analyze` prints them),
        // indented three spaces a level.
        QStringList judged;
    };

    void refresh();
    const Analysis& analysisOf(int run);
    static Analysis format(const std::shared_ptr<const AnalysedRun>& analysed);
    static void formatHostShare(const AnalysedRun& analysed, Analysis& out);

    QPointer<TraceDocument> m_document;
    AnalysisCache* m_cache;
    QLabel* m_deviceLine;
    QTreeWidget* m_table;
    QLabel* m_diagnoses;
    QScrollArea* m_diagnosesArea = nullptr;
    std::vector<Analysis> m_analyses;
    QStringList m_diagnosisLines; // plain text, for summaryText
};

} // namespace ovs::ui
