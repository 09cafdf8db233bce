#pragma once

#include "document/ViewState.h"
#include "workers/BackgroundWorker.h"

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QScrollArea;
class QTreeWidget;

namespace ovs::ui {

class TraceDocument;

// The seed's comparison table for every run in the document: wall time,
// speedup over the serialized run of the same workload, copy/kernel overlap,
// distance from the run's bound, whether the output verified; a line about
// the device the figures come from; each finished run's findings (cause,
// cost, ops, fix: core/analysis, as `analyze` prints them), which select and
// highlight their ops on the timeline; and each run's one-sentence diagnosis.
// A run on several GPUs of one host also gets the host-share analysis
// (per-device upload rates, together against the sum alone, the bound).
class SummaryPanel : public QWidget {
    Q_OBJECT

public:
    // HostShareColumn: how GPUs of one host shared it (analyseHostShare),
    // shown only when a run has several devices.
    enum Column { RunColumn, DeviceColumn, StatusColumn, WallColumn, SpeedupColumn, OverlapColumn, BoundColumn,
                  HostShareColumn, VerificationColumn, OpsColumn, ColumnCount };
    enum FindingColumn { FindingKindColumn, FindingCostColumn, FindingOpsColumn, FindingCauseColumn, FindingFixColumn,
                         FindingColumnCount };

    explicit SummaryPanel(TraceDocument* document, QWidget* parent = nullptr);

    // What the panel shows, as plain text: the device line, then one
    // tab-separated line per row under a header line, then one
    // "run: diagnosis" line per analysed run, then each run's findings
    // ("Findings of RUN:", then one indented tab-separated line each).
    QString summaryText() const;

    // True while finished runs are being analysed on the panel's worker
    // (their overlap, bound, diagnosis and findings then read "…").
    bool isAnalysing() const { return m_analysing > 0; }

    // The findings list: one row per run, a child row per finding.
    QTreeWidget* findingsTree() const { return m_findings; }

signals:
    // The user picked a finding: the ops it concerns, as the timeline holds
    // them (the first kMaxFindingOps; empty when it names none), and the
    // run. run = -1 when no finding is selected any more.
    void findingSelected(int run, const std::vector<ovs::ui::OpRef>& ops);
    // Every analysis asked for so far is shown.
    void analysed();

private:
    // What the analysis said of one run, kept until the run changes: a
    // finished run is analysed once, not on every live batch of another.
    struct AnalysedFinding {
        QString kind;
        QString cause;
        QString fix;
        std::int64_t costNs = 0;
        std::size_t opCount = 0;
        std::vector<Op> ops; // copies of the ops it concerns, located again on selection
    };
    struct Analysis {
        bool valid = false;
        bool pending = false; // on the worker, for this opCount and status
        std::size_t opCount = 0;
        int status = 0;
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
        std::vector<AnalysedFinding> findings;
    };

    void refresh();
    void refreshFindings();
    void onFindingChosen();
    const Analysis& analysisOf(int run);
    // On the worker: everything shown of one run, from copies.
    static Analysis analyse(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* baseline);
    // On the worker too: the host-share cells of a run on several GPUs.
    static void hostShareOf(const Run& run, const std::vector<BandwidthSweep>& sweeps, Analysis& out);

    QPointer<TraceDocument> m_document;
    QLabel* m_deviceLine;
    QTreeWidget* m_table;
    QTreeWidget* m_findings;
    QLabel* m_findingDetail;
    // The timeline shows a finding's outline this panel asked for.
    bool m_outlining = false;
    QString m_findingsKey; // what the findings list shows, to rebuild it only when that changes
    QLabel* m_diagnoses;
    QScrollArea* m_diagnosesArea = nullptr;
    std::vector<Analysis> m_analyses;
    QStringList m_diagnosisLines; // plain text, for summaryText
    int m_generation = 0; // bumped when every analysis is invalidated
    int m_analysing = 0;  // jobs posted, not yet delivered
    // Last: destroyed first, waiting for an analysis in progress (its result,
    // addressed to this panel, is then dropped).
    BackgroundWorker m_analyzer;
};

} // namespace ovs::ui
