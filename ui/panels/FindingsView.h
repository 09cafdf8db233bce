#pragma once

#include "document/ViewState.h"

#include "replay/Fix.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QLabel;
class QUrl;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace ovs {
struct Finding;
}

namespace ovs::ui {

class AnalysisCache;
struct AnalysedRun;
class TraceDocument;

// The findings panel: each finished run's findings (core/analysis, as
// `analyze` prints them), read from the document's AnalysisCache, a row
// each under a row per run: the cost (right-aligned, "≈" where it is an
// estimate), a bar of the saving against the judged span (hatched for an
// estimate), where the cost comes from, the kind, the ops and the first
// line of the cause. Choosing one selects and highlights its ops on the
// timeline and asks for its what-if ghost; the details under the list give
// its whole text: cause, fix, what-if, where the judged span is made of
// steps, what the fix saves in each step, and the lines its calls came
// from. Choosing one of those outlines its calls and the GPU work they
// enqueued on the timeline (in the finding's place, until another finding
// or line is chosen) and opens the file at its line in the user's editor
// where the file is on this machine (SourceOpener.h).
//
// Its scope is each run's judged span, or one region a user picked (in the
// regions band or the steps view: a step judged on its own, as core judges
// each instance, on the cache's worker); the line above the list says
// which, with a link back to the judged span.
class FindingsView : public QWidget {
    Q_OBJECT

public:
    // A run's row spans every column; its text is in RunColumn.
    enum Column { CostColumn, SavingColumn, SourceColumn, KindColumn, OpsColumn, CauseColumn, ColumnCount };
    static constexpr int RunColumn = CostColumn;
    // On a finding's row (CostColumn): its cost in ns (qint64), and whether
    // it is replayed (bool).
    enum Role { CostNsRole = Qt::UserRole + 10, ReplayedRole };

    explicit FindingsView(TraceDocument* document, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    // What the details under the list say (plain text; empty when no
    // finding is chosen).
    QString detailText() const;
    // Each run's findings as plain text: "Findings of RUN:", then one
    // indented tab-separated line each (kind, cost, ops, cause, fix).
    QStringList textLines() const;
    // Finding rows listed, over every run.
    int findingCount() const;

    // The findings of one region of a run alone (run, index in its
    // Run::regions), or of each run's judged span again (-1, -1).
    void showRegion(int run, int region);
    RegionRef shownRegion() const { return m_region; }
    // Follows the view's picked region (the regions band, the steps view):
    // the region picked there is shown, and the link back to the judged
    // span puts the pick down.
    void followRegions(ViewState* view);
    // The line above the list, as plain text (empty when hidden).
    QString scopeText() const;
    // Chooses the chosen finding's call site `index` (Finding::sources), as
    // its link in the details does; -1 puts it down (the finding's ops
    // outlined again). Which one is chosen: -1 for none.
    void chooseCallSite(int index);
    int chosenCallSite() const { return m_chosenSite; }

public slots:
    // The next (delta 1) or previous (-1) finding, from the chosen one (or
    // the first, when none is); stops at the ends. The window's keys.
    void stepFinding(int delta);

signals:
    // The user picked a finding: the ops it concerns, as the timeline holds
    // them (the first kMaxFindingOps; empty when it names none), and the
    // run. run = -1 when no finding is selected any more.
    void findingSelected(int run, const std::vector<ovs::ui::OpRef>& ops);
    // The what-if to show for the choice: the finding's fixes where the run
    // was replayed; run = -1 (fixes 0) for none.
    void whatIfChosen(int run, ovs::FixSet fixes);
    // The user chose one of the finding's call sites: its calls and the GPU
    // ops they enqueued (FindingSource::ops), as the timeline holds them,
    // to outline in the finding's place.
    void callSiteChosen(int run, const std::vector<ovs::ui::OpRef>& ops);

private:
    void refresh();
    void rebuild();
    void onChosen();
    void updateDetail();
    void updateScope();
    // The region is on show and its analysis not in yet.
    bool regionPending() const;
    // Every finding's row, top to bottom.
    std::vector<QTreeWidgetItem*> findingItems() const;
    // The finding of the current row and its run; finding null where none is chosen.
    struct Chosen {
        int run = -1;
        const AnalysedRun* analysed = nullptr;
        const Finding* finding = nullptr;
    };
    Chosen chosen() const;
    const Finding* chosenFinding() const { return chosen().finding; }
    // Ops of the analysed copy of `run` (indices into its ops) as the
    // timeline holds them, each found by binary search.
    std::vector<OpRef> refsOf(int run, const AnalysedRun& a, const std::vector<std::uint32_t>& ops) const;
    QString sourcesHtml(const Finding& finding) const;

    QPointer<TraceDocument> m_document;
    AnalysisCache* m_cache;
    QPointer<ViewState> m_view;
    QLabel* m_scope;
    QTreeWidget* m_tree;
    QTextBrowser* m_detail;
    // Invalid: each run's judged span; else the region whose findings show
    // (m_shown then holds its analysis at its run, null elsewhere).
    RegionRef m_region;
    // What the list shows, run by run: rebuilt only when one changes, so
    // live batches of another run keep the user's selection.
    std::vector<std::shared_ptr<const AnalysedRun>> m_shown;
    bool m_listed = false; // m_shown is what the tree holds (false after a reset: rebuilt even when alike)
    // The timeline shows a finding's outline this view asked for.
    bool m_outlining = false;
    // Why the last call site chosen did not open; cleared on the next choice.
    QString m_sourceProblem;
    // The chosen finding's call site whose calls are outlined; -1 for none.
    int m_chosenSite = -1;
};

} // namespace ovs::ui
