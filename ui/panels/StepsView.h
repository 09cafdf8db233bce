#pragma once

#include "document/ViewState.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ovs::ui {

class AnalysisCache;
struct AnalysedRun;
class TraceDocument;

// The steps at a glance: each repeated region group that core judged
// instance by instance (profiler steps, an NVTX range, --region; the
// run's RunAnalysis::regions), a row per run and group ("ProfilerStep#N in
// RUN: 5 steps, median ..., slowest ..."), under it a row per judged
// instance: its duration, a bar against the slowest (the slowest in red,
// the median's tick on every bar, the median row and slowest row named),
// and the findings of the whole judged span that hold in it with what their
// fix saves there (Finding::stepSavingsNs: the step's share of the replayed
// saving; "holds" as core counts it, at least kMinCostShare of the step).
//
// Choosing a step picks its region in the view (ViewState::setSelectedRegion)
// and frames the timeline on it, as a click in the regions band does: the
// findings panel, which follows the pick, lists the step's own findings.
// Everything is read from the document's AnalysisCache.
class StepsView : public QWidget {
    Q_OBJECT

public:
    enum Column { StepColumn, DurationColumn, BarColumn, FindingsColumn, ColumnCount };
    // On a step's row (StepColumn): the run, its Run::regions index and its
    // duration in ns (qint64).
    enum Role { RunRole = Qt::UserRole + 20, RegionRole, DurationNsRole };

    StepsView(TraceDocument* document, ViewState* view, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    // Groups listed (a row per run and group); step rows under them.
    int groupCount() const;
    // Whether any run has steps to show (the window shows the view then).
    bool hasSteps() const { return groupCount() > 0; }
    // The line above the list, as plain text.
    QString headerText() const;

signals:
    // The rows changed (an analysis came in, a new document).
    void stepsChanged();

private:
    void refresh();
    void rebuild();
    void onChosen();
    void followPick(int run, int region);

    QPointer<TraceDocument> m_document;
    QPointer<ViewState> m_view;
    AnalysisCache* m_cache;
    QLabel* m_header;
    QTreeWidget* m_tree;
    std::vector<std::shared_ptr<const AnalysedRun>> m_shown;
    bool m_listed = false;
};

} // namespace ovs::ui
