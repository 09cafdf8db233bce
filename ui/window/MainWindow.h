#pragma once

#include "document/TimeFrame.h"
#include "document/ViewState.h"

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTabWidget;

namespace ovs {
struct Trace;
}

namespace ovs::ui {

class BackgroundWorker;
class BandwidthChart;
class CompareController;
class ControlPanel;
class FindingsView;
class LessonController;
class OpDetailsPanel;
class OpRateChart;
class PresentationMode;
class ProfileController;
class RanksController;
struct ProfileRequest;
class ReplayController;
class RunController;
class StepsView;
class SummaryPanel;
class TimelinePlot;
class TraceDocument;
class TraceLoader;
class ViewState;
class WhatIfController;

// The window, trace first: the stacked per-run timelines take the width;
// under them the findings (a full panel, the answer), the steps of a run
// with repeated regions, the selected op's details, and the summary with
// its charts (tabbed with the findings). The Run panel (pipelines' controls)
// docks on the left when pipelines are run or the user asks for it (View);
// a trace opened, dropped, profiled or compared puts it away unless the
// user chose to keep it (remembered). Size and dock layout are remembered
// (QSettings); the first time the window fills most of the screen.
// It owns the document, the view state and the two background workers (runs
// and file I/O); widgets only read the document.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    TraceDocument* document() const { return m_document; }
    ViewState* viewState() const { return m_view; }
    TimelinePlot* timeline() const { return m_timeline; }
    RunController* runController() const { return m_runs; }
    ProfileController* profileController() const { return m_profiles; }
    ControlPanel* controlPanel() const { return m_controls; }
    SummaryPanel* summaryPanel() const { return m_summary; }
    FindingsView* findingsPanel() const { return m_findings; }
    StepsView* stepsView() const { return m_steps; }
    // The docks by role: "controls" (Run), "findings", "steps", "summary",
    // "details" (Selected op), "ranks".
    QDockWidget* dock(const QString& name) const;
    // The size the window opens with the first time, on a screen of this
    // available geometry: most of it.
    static QSize firstOpenSize(const QSize& available);
    ReplayController* replay() const { return m_replay; }
    PresentationMode* presentation() const { return m_presentation; }
    LessonController* lessons() const { return m_lessons; }
    WhatIfController* whatIf() const { return m_whatIf; }
    RanksController* ranks() const { return m_ranks; }
    // The last error or notice shown to the user (also in the status bar).
    QString lastMessage() const { return m_lastMessage; }

    // Starts loading a trace in the background; the view changes only if it loads.
    void openTrace(const QString& path);
    // File > Open folder…, several files opened or dropped at once: reads
    // them as the ranks of one job (RanksController), in the background.
    void openRanks(const QStringList& paths);
    // What Open and a drop do with their paths: one file opens as a trace,
    // a folder or several files as ranks.
    void openPaths(const QStringList& paths);
    // File > Compare…: starts reading and comparing two traces in the
    // background; the document becomes the comparison once it is made.
    void compareTraces(const QString& beforePath, const QString& afterPath);
    // File > Profile program… once its dialog is accepted: starts the
    // program under the injection library; its runs join the document live.
    void profileProgram(const ProfileRequest& request);
    // A pipeline run or a profile is in progress.
    bool isBusy() const;
    // A trace asked for by openTrace is still being read.
    bool isLoading() const { return m_loadsInFlight > 0; }

    // When false (tests, scripted use), errors go to the status bar and
    // lastMessage() only, without a modal dialog.
    void setInteractive(bool interactive) { m_interactive = interactive; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void buildFileMenu();
    void buildViewMenu();
    void askPinnedRates();
    void buildRunMenu();
    void buildLessons();
    void buildHelpMenu();
    void buildLayout();
    // The size and dock layout of last time (QSettings), else the first
    // time's; saved when the window closes.
    void restoreLayout();
    void saveLayout() const;
    // The first time's dock sizes: the findings a good part of the height,
    // the timeline the rest.
    void applyDefaultDockSizes();
    // The window shows a trace (opened, dropped, profiled, compared, a
    // folder of ranks): the Run panel goes unless the user keeps it, the
    // findings come to the front.
    void showTraceLayout();
    // Pipelines are run: the Run panel shows, with the summary's table.
    void showRunLayout();
    // The run's title and rows (and its ghost's title) in view in the
    // timeline's scroll area, the title first where not all fit.
    void scrollToRun(int run);
    void connectWorkers();
    void connectLoader();
    void connectProfiles();
    void cancelWork();
    // A trace load ended (read, failed or cancelled): the bar goes with the last.
    void loadEnded();
    // The summary's finding chosen: highlight, select and zoom to its ops.
    void showFindingOps(int run, const std::vector<OpRef>& ops);
    void onTraceLoaded(const QString& path, Trace&& trace);
    void showError(const QString& title, const QString& message);
    void showNotice(const QString& message);
    void updateTitle();
    void fitTimelineHeight();
    void resetViewToDocument();
    // Opens on the runs' judged spans (asking for their analyses); until
    // those are in, on everything.
    void showOpeningView();
    void frameOpeningView();
    // A run's analysis arrived: the opening view takes in its judged span.
    void followOpeningView();
    // Before replacing the document: asks to save unsaved runs. Proceed: go
    // ahead now; Saving: `afterSave` runs once the save is written.
    enum class SaveFirst { Proceed, Saving, Cancelled };
    SaveFirst maybeSave(std::function<void()> afterSave);
    void saveTo(const QString& path);
    void exportTimeline(const QString& format);
    void exportChart();
    void exportTrace(const QString& format);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();

    TraceDocument* m_document;
    ViewState* m_view;
    RunController* m_runs;
    ProfileController* m_profiles;
    TraceLoader* m_loader;
    BackgroundWorker* m_exports; // Chrome and CSV exports
    TimelinePlot* m_timeline = nullptr;
    QScrollArea* m_timelineArea = nullptr;
    ControlPanel* m_controls = nullptr;
    SummaryPanel* m_summary = nullptr;
    FindingsView* m_findings = nullptr;
    StepsView* m_steps = nullptr;
    BandwidthChart* m_bandwidth = nullptr;
    OpRateChart* m_rates = nullptr;
    OpDetailsPanel* m_details = nullptr;
    QTabWidget* m_tabs = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_statusDevice = nullptr;
    QProgressBar* m_loadProgress = nullptr;
    QPushButton* m_loadCancel = nullptr;
    int m_loadsInFlight = 0; // trace loads asked for and not yet ended
    ReplayController* m_replay = nullptr;
    PresentationMode* m_presentation = nullptr;
    LessonController* m_lessons = nullptr;
    WhatIfController* m_whatIf = nullptr;
    CompareController* m_compare = nullptr;
    RanksController* m_ranks = nullptr;
    QString m_lastMessage;
    // The range the opening view set, while the view still shows it (the
    // user has not moved it): the judged spans arriving reframe it.
    std::optional<AxisSpan> m_openingShown;
    std::function<void()> m_afterSave;
    bool m_interactive = true;
    bool m_closeAfterCancel = false;
    // The document came from a trace, not from the Run panel's pipelines.
    bool m_showsTrace = false;
    // Dock sizes still to be set the first time the window shows (no saved layout).
    bool m_defaultDocksPending = false;
    // Whether the steps view had steps, the last time its rows changed.
    bool m_hadSteps = false;
};

} // namespace ovs::ui
