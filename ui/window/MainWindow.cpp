#include "window/MainWindow.h"

#include "charts/BandwidthChart.h"
#include "charts/OpRateChart.h"
#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "export/ExportCaps.h"
#include "export/PlotExport.h"
#include "export/TimelineExport.h"
#include "models/AnalysisCache.h"
#include "models/OpeningView.h"
#include "panels/ControlPanel.h"
#include "panels/FindingsView.h"
#include "panels/OpDetailsPanel.h"
#include "panels/StepsView.h"
#include "panels/SummaryPanel.h"
#include "timeline/TimelinePlot.h"
#include "window/CompareController.h"
#include "window/LessonController.h"
#include "window/PresentationMode.h"
#include "window/ProfileDialog.h"
#include "window/RanksController.h"
#include "panels/RanksPanel.h"
#include "window/ReplayController.h"
#include "window/ThemeMenu.h"
#include "window/WhatIfController.h"
#include "workers/BackgroundWorker.h"
#include "workers/ProfileController.h"
#include "workers/RunController.h"
#include "workers/TraceLoader.h"

#include "formats/ChromeTraceExport.h"
#include "formats/CsvExport.h"
#include "style/DisplayText.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QKeySequence>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <utility>

namespace ovs::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
// QMainWindow::saveState's version: a layout saved by a window with other
// docks is not restored (the first time's layout is used instead).
constexpr int kLayoutVersion = 31;
// Whether the Run panel stays when a trace is shown: the user's choice,
// from the View menu while a trace was shown.
const char* const kRunPanelWithTraces = "window/runPanelWithTraces";

// An Nsight Systems report (an SQLite database) opens as a trace but is no
// file of ours to save over: Save asks for a name instead.
bool isSqliteFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(16) == QByteArray("SQLite format 3\0", 16);
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new TraceDocument(this)), m_view(new ViewState(this)),
      m_runs(new RunController(m_document, this)), m_profiles(new ProfileController(m_document, this)),
      m_loader(new TraceLoader(this)),
      m_exports(new BackgroundWorker(this))
{
    setAcceptDrops(true);
    buildLayout();
    buildMenus();
    connectWorkers();
    connectProfiles();
    updateTitle();
    restoreLayout();
    m_runs->queryDevices();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout()
{
    // The timeline is the centre and takes the width: everything else docks
    // under it (as Perfetto's details and Nsight's Expert Systems table) or,
    // for the pipelines' controls, on the left only while they are wanted.
    m_timeline = new TimelinePlot(m_document, m_view);
    m_timelineArea = new QScrollArea;
    m_timelineArea->setWidget(m_timeline);
    m_timelineArea->setWidgetResizable(true);
    m_timelineArea->setFrameShape(QFrame::NoFrame);
    setCentralWidget(m_timelineArea);
    setDockNestingEnabled(true);
    // The Run panel, when shown, runs the whole height on the left; the
    // panels under the timeline stay under it (and the window's least
    // height is the taller of the two, not their sum: laptops' 768 px).
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);

    const auto makeDock = [this](const QString& title, const char* name, QWidget* widget) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(QString::fromLatin1(name));
        dock->setWidget(widget);
        return dock;
    };

    m_findings = new FindingsView(m_document);
    // A region picked in the band or the steps view shows its own findings.
    m_findings->followRegions(m_view);
    auto* findingsDock = makeDock(tr("Findings"), "findings", m_findings);
    // The answer stays on screen when presenting, as the summary did.
    findingsDock->setProperty(PresentationMode::kKeepDockProperty, true);
    addDockWidget(Qt::BottomDockWidgetArea, findingsDock);

    m_steps = new StepsView(m_document, m_view);
    auto* stepsDock = makeDock(tr("Steps"), "steps", m_steps);
    addDockWidget(Qt::BottomDockWidgetArea, stepsDock);
    splitDockWidget(findingsDock, stepsDock, Qt::Horizontal);

    m_details = new OpDetailsPanel(m_document, m_view);
    auto* detailsDock = makeDock(tr("Selected op"), "details", m_details);
    addDockWidget(Qt::BottomDockWidgetArea, detailsDock);
    splitDockWidget(stepsDock, detailsDock, Qt::Horizontal);

    m_summary = new SummaryPanel(m_document);
    m_bandwidth = new BandwidthChart(m_document);
    m_rates = new OpRateChart(m_document);
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_summary, tr("Summary"));
    m_tabs->addTab(m_bandwidth, tr("Bandwidth sweep"));
    m_tabs->addTab(m_rates, tr("Achieved GB/s per op"));
    auto* summaryDock = makeDock(tr("Summary and charts"), "summary", m_tabs);
    summaryDock->setProperty(PresentationMode::kKeepDockProperty, true);
    addDockWidget(Qt::BottomDockWidgetArea, summaryDock);
    tabifyDockWidget(findingsDock, summaryDock);
    findingsDock->raise();

    m_controls = new ControlPanel;
    auto* controlsDock = makeDock(tr("Run"), "controls", m_controls);
    addDockWidget(Qt::LeftDockWidgetArea, controlsDock);

    m_statusDevice = new QLabel;
    statusBar()->addPermanentWidget(m_statusDevice);

    // A trace being read: how far, and a way out (a 2 GB trace takes a while).
    m_loadProgress = new QProgressBar;
    m_loadProgress->setObjectName("loadProgress");
    m_loadProgress->setMaximumWidth(220);
    m_loadProgress->setRange(0, 100);
    m_loadProgress->setFormat(tr("reading %p%"));
    m_loadCancel = new QPushButton(tr("Cancel"));
    m_loadCancel->setObjectName("loadCancel");
    statusBar()->addPermanentWidget(m_loadProgress);
    statusBar()->addPermanentWidget(m_loadCancel);
    m_loadProgress->hide();
    m_loadCancel->hide();

    // The ranks of a folder: a dock under the window, shown once a folder opens.
    m_ranks = new RanksController(m_document, m_view, m_timeline, m_timelineArea, statusBar(), this);
    auto* ranksDock = makeDock(tr("Ranks"), "ranks", m_ranks->panel());
    addDockWidget(Qt::BottomDockWidgetArea, ranksDock);
    tabifyDockWidget(findingsDock, ranksDock);
    ranksDock->hide();
    findingsDock->raise();
    connect(m_ranks, &RanksController::opened, ranksDock, [this, ranksDock] {
        showTraceLayout();
        ranksDock->show();
        ranksDock->raise();
    });
    connect(m_ranks, &RanksController::notice, this, &MainWindow::showNotice);
    connect(m_ranks, &RanksController::error, this, &MainWindow::showError);
}

void MainWindow::buildMenus()
{
    // In the menu bar's order.
    buildFileMenu();
    buildViewMenu();
    buildRunMenu();
    buildLessons();
    buildHelpMenu();
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New (clear runs)"), QKeySequence::New, this, [this] {
        if (isBusy()) {
            showNotice(tr("A run is in progress: cancel it first."));
            return;
        }
        const auto clear = [this] { m_document->clear(); };
        if (maybeSave(clear) == SaveFirst::Proceed)
            clear();
    });
    // Several files chosen at once open as the ranks of one job.
    file->addAction(tr("&Open trace…"), QKeySequence::Open, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open trace (several: the ranks of one job)"), QString(),
            tr("Traces (*.json *.sqlite);;OverlapScope, Chrome and PyTorch traces (*.json);;"
               "Nsight Systems reports, exported as SQLite (*.sqlite);;All files (*)"));
        openPaths(paths);
    });
    file->addAction(tr("Open &folder of ranks…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Open a folder of ranks (one trace per rank)"));
        if (!folder.isEmpty())
            openRanks({folder});
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("Co&mpare…"), this, [this] {
        const QString filter = tr("OverlapScope traces (*.json);;All files (*)");
        const QString before = QFileDialog::getOpenFileName(this, tr("Compare: the trace before"), QString(), filter);
        if (before.isEmpty())
            return;
        const QString after = QFileDialog::getOpenFileName(this, tr("Compare: the trace after"), before, filter);
        if (!after.isEmpty())
            compareTraces(before, after);
    });
    file->addAction(tr("&Profile program…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this, [this] {
        if (isBusy()) {
            showNotice(tr("A run is in progress: cancel it first."));
            return;
        }
        auto* dialog = new ProfileDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setRequest(ProfileDialog::remembered());
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            ProfileDialog::remember(dialog->request());
            profileProgram(dialog->request());
        });
        dialog->open(); // window-modal, never blocks the event loop
    });
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (m_document->sourcePath().isEmpty() || isSqliteFile(m_document->sourcePath())) {
            const QString path = QFileDialog::getSaveFileName(this, tr("Save trace"), "overlapscope-trace.json",
                                                              tr("OverlapScope traces (*.json)"));
            if (!path.isEmpty())
                saveTo(path);
        } else {
            saveTo(m_document->sourcePath());
        }
    });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save trace"), "overlapscope-trace.json",
                                                          tr("OverlapScope traces (*.json)"));
        if (!path.isEmpty())
            saveTo(path);
    });
    file->addSeparator();
    QMenu* image = file->addMenu(tr("&Export timeline"));
    image->addAction(tr("PNG image…"), this, [this] { exportTimeline("png"); });
    image->addAction(tr("SVG drawing…"), this, [this] { exportTimeline("svg"); });
    image->addAction(tr("PDF document…"), this, [this] { exportTimeline("pdf"); });
    file->addAction(tr("Export &chart (PNG, SVG or PDF)…"), this, [this] { exportChart(); });
    QMenu* trace = file->addMenu(tr("Export &trace"));
    trace->addAction(tr("Chrome trace JSON (Perfetto)…"), this, [this] { exportTrace("chrome"); });
    trace->addAction(tr("CSV of ops…"), this, [this] { exportTrace("csv"); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset zoom"), QKeySequence(Qt::Key_0), this, [this] { resetViewToDocument(); });
    QAction* align = view->addAction(tr("&Align runs at their timed region"));
    align->setCheckable(true);
    align->setToolTip(tr("Shift each run so that all timed regions start together, to compare wall times at a glance"));
    connect(align, &QAction::toggled, m_document, &TraceDocument::setAlignTimedRegions);
    connect(m_document, &TraceDocument::alignTimedRegionsChanged, align, &QAction::setChecked);
    m_whatIf = new WhatIfController(m_document, m_view, this);
    view->addAction(m_whatIf->allFixesAction());
    view->addAction(tr("&Pinned rate for the what-if..."), this, [this] { askPinnedRates(); });
    // Each run (rank) folds to its title row; a click on the title folds one.
    view->addAction(tr("&Collapse all ranks"), this, [this] { m_view->setAllCollapsed(m_document->runCount(), true); });
    view->addAction(tr("&Expand all ranks"), this, [this] { m_view->setAllCollapsed(m_document->runCount(), false); });
    // Every panel comes back from here once closed. The Ranks dock shows
    // itself when a folder opens; the Run panel when pipelines are run.
    view->addSeparator();
    const std::pair<const char*, QString> panels[] = {
        {"controls", tr("R&un panel")},        {"findings", tr("&Findings")},   {"steps", tr("S&teps")},
        {"summary", tr("Summary and c&harts")}, {"details", tr("Selected &op")}, {"ranks", tr("Ran&ks panel")},
    };
    for (const auto& [name, text] : panels) {
        QDockWidget* panel = dock(QString::fromLatin1(name));
        QAction* toggle = panel->toggleViewAction();
        toggle->setText(text);
        view->addAction(toggle);
    }
    // The Run panel chosen (shown or put away) while a trace is shown: the
    // choice for traces from now on. Triggered is the user's act only.
    connect(dock("controls")->toggleViewAction(), &QAction::triggered, this, [this](bool shown) {
        if (m_showsTrace)
            QSettings().setValue(kRunPanelWithTraces, shown);
    });
    // The findings, one after another: outlined, framed, their what-if drawn.
    QAction* next = view->addAction(tr("&Next finding"), this, [this] {
        dock("findings")->show();
        dock("findings")->raise();
        m_findings->stepFinding(1);
    });
    next->setObjectName("nextFinding");
    next->setShortcuts({QKeySequence(Qt::Key_F8), QKeySequence(Qt::Key_BracketRight)});
    QAction* previous = view->addAction(tr("&Previous finding"), this, [this] {
        dock("findings")->show();
        dock("findings")->raise();
        m_findings->stepFinding(-1);
    });
    previous->setObjectName("previousFinding");
    previous->setShortcuts({QKeySequence(Qt::SHIFT | Qt::Key_F8), QKeySequence(Qt::Key_BracketLeft)});
    view->addSeparator();
    view->addAction(tr("Zoom &in"), QKeySequence(Qt::CTRL | Qt::Key_Plus), this,
                    [this] { m_view->zoom(1.5, (m_view->visibleStartNs() + m_view->visibleEndNs()) / 2); });
    view->addAction(tr("Zoom &out"), QKeySequence(Qt::CTRL | Qt::Key_Minus), this,
                    [this] { m_view->zoom(1 / 1.5, (m_view->visibleStartNs() + m_view->visibleEndNs()) / 2); });
    // Teaching: replay, presentation mode, theme (their logic lives in
    // ReplayController, PresentationMode and ThemeMenu).
    view->addSeparator();
    m_replay = new ReplayController(m_document, m_view, this);
    view->addAction(m_replay->toggleAction());
    connect(m_replay, &ReplayController::statusChanged, this, [this](const QString& text) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text);
    });
    m_presentation = new PresentationMode(this);
    view->addAction(m_presentation->toggleAction());
    connect(m_presentation, &PresentationMode::activeChanged, this, [this] { fitTimelineHeight(); });
    view->addMenu(new ThemeMenu(this));
}

// The pinned rates the findings price pinning at, as --pinned-rate gives
// them to the CLI: a trace that measured none, of a device the class table
// does not know, gets its pinning replayed; empty goes back to the trace's.
void MainWindow::askPinnedRates()
{
    AnalysisCache* cache = AnalysisCache::of(m_document);
    const GivenPinnedRates current = cache->pinnedRates();
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Pinned rate"),
        tr("Pinned copy rates for the what-if, H2D,D2H in GB/s (one figure: both ways).\n"
           "Empty: the trace's own, else the device class table's (docs/what-if.md)."),
        QLineEdit::Normal, current.given() ? QString::fromStdString(pinnedRatesText(current)) : QString(), &ok);
    if (!ok)
        return;
    GivenPinnedRates rates;
    if (!text.trimmed().isEmpty()) {
        std::string error;
        const auto given = parsePinnedRates(text.trimmed().toStdString(), &error);
        if (!given) {
            showNotice(QString::fromStdString(error));
            return;
        }
        rates = *given;
    }
    cache->setPinnedRates(rates);
    statusBar()->showMessage(rates.given() ? tr("Findings judged at pinned rates %1 GB/s").arg(QString::fromStdString(pinnedRatesText(rates)))
                                           : tr("Findings judged at the trace's own pinned rates"));
}

void MainWindow::buildRunMenu()
{
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                   [this] { m_controls->requestRun(); });
    run->addAction(tr("&Cancel"), QKeySequence(Qt::CTRL | Qt::Key_Period), this, [this] { cancelWork(); });
}

void MainWindow::buildLessons()
{
    // The menu, the dock beside the run controls, and the run a lesson asks
    // for (its logic lives in LessonController). After the view menu: a
    // lesson drives the replay and the presentation mode.
    m_lessons = new LessonController(m_document, m_view, m_runs, m_timeline, this);
    m_lessons->setTeachingModes(m_presentation, m_replay);
    menuBar()->addMenu(m_lessons->menu());
    addDockWidget(Qt::LeftDockWidgetArea, m_lessons->dock());
    if (auto* controls = findChild<QDockWidget*>("controls"))
        tabifyDockWidget(controls, m_lessons->dock());
    connect(m_runs, &RunController::devicesListed, m_lessons, &LessonController::setDevices);
    connect(m_lessons, &LessonController::focusChosen, this, &MainWindow::showFindingOps);
    connect(m_lessons, &LessonController::runWanted, this, [this] {
        if (isBusy()) {
            showNotice(tr("A run is in progress: cancel it first."));
            return;
        }
        const auto start = [this] { m_lessons->start(); };
        if (maybeSave(start) == SaveFirst::Proceed)
            start();
    });
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard and mouse"), this, [this] {
        QMessageBox::information(
            this, tr("Keyboard and mouse"),
            tr("<b>Timeline</b><br>"
               "Ctrl+wheel: zoom time around the cursor &nbsp; Shift+wheel: pan &nbsp; wheel: scroll the runs<br>"
               "Drag: pan &nbsp; Shift+drag: zoom to a range &nbsp; Ctrl+drag: measure an interval<br>"
               "W / S: zoom in / out &nbsp; A / D: pan left / right &nbsp; 0: reset view &nbsp; Esc: clear measurement<br>"
               "Hover an op for its details; click to select it. Click a region in the band: its own findings.<br><br>"
               "<b>Findings</b><br>"
               "F8 or ]: next finding &nbsp; Shift+F8 or [: previous finding (its ops outlined and framed, its "
               "what-if drawn under the run) &nbsp; click a step in the Steps view: frame it and list its own "
               "findings; Esc on the timeline: back to the judged span<br><br>"
               "<b>Replay</b> (F6)<br>"
               "Space: play / pause &nbsp; Left / Right: previous / next op start &nbsp; + / −: speed (0.1x to 10x) "
               "&nbsp; Home: back to the start<br><br>"
               "<b>Presentation mode</b> (F5): full screen, large text, high contrast; Esc leaves.<br>"
               "With a lesson open, Space / Right / Page Down: next lesson step &nbsp; Left / Up / Page Up: "
               "previous (the replay's keys while it is on)."));
    });
    help->addAction(tr("&About OverlapScope"), this, [this] {
        QMessageBox::about(this, tr("About OverlapScope"),
                           tr("<b>OverlapScope %1</b><br>Are my copies and kernels overlapping, and if not, why?")
                               .arg(QString::fromLatin1(OVERLAPSCOPE_VERSION)));
    });
}

void MainWindow::connectWorkers()
{
    connect(m_controls, &ControlPanel::runRequested, this, [this](const RunRequest& request) {
        if (isBusy()) {
            showNotice(tr("A run is already in progress."));
            return;
        }
        showRunLayout();
        m_runs->start(request);
    });
    connect(m_controls, &ControlPanel::cancelRequested, this, [this] { cancelWork(); });
    connect(m_runs, &RunController::started, this, [this] {
        m_controls->setRunning(true);
        showNotice(tr("Running…"));
    });
    connect(m_runs, &RunController::progress, m_controls, &ControlPanel::setProgress);
    connect(m_runs, &RunController::refused, this, [this](const QString& why) { showError(tr("Run"), why); });
    connect(m_runs, &RunController::finished, m_controls, &ControlPanel::showFinished);
    connect(m_runs, &RunController::finished, this, [this](bool ok, const QString& message) {
        m_controls->setRunning(false);
        if (ok)
            showNotice(message);
        else
            showError(tr("Run"), message);
        if (m_closeAfterCancel)
            close();
    });
    connect(m_runs, &RunController::devicesListed, m_controls, &ControlPanel::setDevices);

    m_compare = new CompareController(this);
    connect(m_compare, &CompareController::ready, this,
            [this](const std::shared_ptr<Trace>& trace, const std::shared_ptr<const Comparison>& comparison) {
                if (isBusy()) {
                    showNotice(tr("Ignored the comparison: a run started while it was made."));
                    return;
                }
                m_document->setComparison(std::move(*trace), comparison);
                showTraceLayout();
                showNotice(tr("Compared %1 with %2").arg(QFileInfo(comparison->beforePath).fileName(),
                                                         QFileInfo(comparison->afterPath).fileName()));
            });
    connect(m_compare, &CompareController::failed, this,
            [this](const QString& message) { showError(tr("Could not compare"), message); });
    connectLoader();

    // The axis extent follows the document; a new document resets the view.
    connect(m_document, &TraceDocument::reset, this, [this] {
        m_view->setHighlight({}); // ops of the document that was replaced
        m_view->clearWhatIf();
        m_view->setSelectedRegion({});
        m_view->setAllCollapsed(0, false); // run indices of the document that was replaced
        showOpeningView();
        fitTimelineHeight();
        updateTitle();
    });
    connect(m_document, &TraceDocument::runAdded, this, [this] {
        resetViewToDocument();
        fitTimelineHeight();
    });
    connect(m_document, &TraceDocument::runChanged, this, [this] {
        // While recording, keep the whole run in view as it grows, unless the
        // user has zoomed in to look at something.
        const bool wasShowingAll = m_view->visibleStartNs() <= 0 && m_view->visibleEndNs() >= m_view->extentNs();
        m_view->setExtent(m_document->endNs());
        if (wasShowingAll)
            m_view->resetView();
        fitTimelineHeight();
    });
    connect(m_document, &TraceDocument::modifiedChanged, this, [this] { updateTitle(); });
    connect(AnalysisCache::of(m_document), &AnalysisCache::analysed, this, &MainWindow::followOpeningView);

    connect(m_findings, &FindingsView::findingSelected, this, &MainWindow::showFindingOps);
    // A call site chosen in its details: its calls outlined and framed in the finding's place.
    connect(m_findings, &FindingsView::callSiteChosen, this, &MainWindow::showFindingOps);
    connect(m_findings, &FindingsView::whatIfChosen, m_whatIf, &WhatIfController::choose);
    // The steps view shows itself where a run has steps, and goes where none has.
    connect(m_steps, &StepsView::stepsChanged, this, [this] {
        if (m_steps->hasSteps() != m_hadSteps && m_showsTrace) {
            QDockWidget* steps = dock("steps");
            steps->setVisible(m_steps->hasSteps());
            // Shown beside the findings: a third of the width, not the sliver a new dock gets.
            if (m_steps->hasSteps() && !steps->isFloating() && dockWidgetArea(steps) == Qt::BottomDockWidgetArea)
                resizeDocks({dock("findings"), steps, dock("details")},
                            {width() * 46 / 100, width() * 38 / 100, width() * 16 / 100}, Qt::Horizontal);
        }
        m_hadSteps = m_steps->hasSteps();
    });
    connect(m_whatIf, &WhatIfController::notice, this, &MainWindow::showNotice);
    // A ghost adds rows under its run; a folded run drops its rows.
    connect(m_timeline, &TimelinePlot::ghostChanged, this, [this] {
        fitTimelineHeight();
        // Once laid out at its new height: the run and its ghost's title in view.
        if (const int run = m_timeline->ghostRun(); run >= 0)
            QTimer::singleShot(0, this, [this, run] { scrollToRun(run); });
    });
    connect(m_timeline, &TimelinePlot::rowsFolded, this, &MainWindow::fitTimelineHeight);
}

// Trace files read and written on the loader's thread: the bar and Cancel
// while a load runs, the document when it ends, the title when a save does.
void MainWindow::connectLoader()
{
    connect(m_loader, &TraceLoader::progress, this, [this](qint64 done, qint64 total) {
        m_loadProgress->setValue(total > 0 ? static_cast<int>(done * 100 / total) : 0);
    });
    connect(m_loadCancel, &QPushButton::clicked, m_loader, &TraceLoader::cancelLoads);
    connect(m_loader, &TraceLoader::loaded, this, [this](const QString& path, const std::shared_ptr<Trace>& trace) {
        loadEnded();
        onTraceLoaded(path, std::move(*trace));
    });
    connect(m_loader, &TraceLoader::failed, this, [this](const QString& path, const QString& message) {
        Q_UNUSED(path);
        loadEnded();
        showError(tr("Could not open trace"), message); // the loader's message names the file once
    });
    connect(m_loader, &TraceLoader::cancelled, this, [this](const QString& path) {
        loadEnded();
        showNotice(tr("Opening %1 cancelled: the window shows what it showed before").arg(path));
    });
    connect(m_loader, &TraceLoader::saved, this, [this](const QString& path) {
        m_document->markSaved(path);
        addRecentFile(path);
        showNotice(tr("Saved %1").arg(path));
        updateTitle();
        if (auto then = std::exchange(m_afterSave, nullptr))
            then();
    });
    connect(m_loader, &TraceLoader::saveFailed, this, [this](const QString&, const QString& message) {
        m_afterSave = nullptr;
        showError(tr("Could not save trace"), message); // the writer's message names the file
    });
}

void MainWindow::showFindingOps(int run, const std::vector<OpRef>& ops)
{
    m_view->setHighlight(ops);
    if (run < 0 || ops.empty())
        return;
    // Select the first (its details show) and zoom to all of them, on the
    // shared axis where the run sits at its display offset.
    m_view->setSelection(ops.front());
    const RunTimeline& timeline = m_document->run(run);
    std::int64_t start = std::numeric_limits<std::int64_t>::max();
    std::int64_t end = std::numeric_limits<std::int64_t>::min();
    for (const OpRef& ref : ops) {
        const Op& op = timeline.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
        start = std::min(start, op.startNs);
        end = std::max(end, op.endNs);
    }
    const AxisSpan framed = TimeFrame::frame(TimeFrame(*m_document).toAxis(run, start, end), FramePolicy::Fit);
    m_view->setVisibleRange(framed.startNs, framed.endNs);
    // The run's rows in view too, when the timeline scrolls.
    scrollToRun(run);
}

void MainWindow::scrollToRun(int run)
{
    const QCPAxisRect* rect = m_timeline->runAxisRect(run);
    if (!rect)
        return;
    // Laid out at the widget's current height before the rects are read.
    m_timeline->replot(QCustomPlot::rpImmediateRefresh);
    QRect wanted = m_timeline->runTitleRect(run).united(rect->outerRect());
    if (m_timeline->ghostRun() == run && m_timeline->ghostAxisRect())
        wanted = wanted.united(m_timeline->ghostTitleRect()).united(m_timeline->ghostAxisRect()->outerRect());
    QScrollBar* bar = m_timelineArea->verticalScrollBar();
    const int height = m_timelineArea->viewport()->height();
    int value = bar->value();
    if (wanted.height() > height)
        value = wanted.top(); // the title first: what is drawn is named
    else if (wanted.top() < value)
        value = wanted.top();
    else if (wanted.bottom() > value + height)
        value = wanted.bottom() - height + 1;
    bar->setValue(std::clamp(value, bar->minimum(), bar->maximum()));
}

void MainWindow::connectProfiles()
{
    connect(m_profiles, &ProfileController::started, this, [this] {
        showTraceLayout();
        m_controls->setRunning(true);
        showNotice(tr("Profiling…"));
    });
    // Elapsed time, processes, GPU ops and API calls, every few hundred ms.
    connect(m_profiles, &ProfileController::progress, this, [this](const QString& what) {
        m_controls->setProgress(-1.0, what);
        statusBar()->showMessage(what);
    });
    connect(m_profiles, &ProfileController::refused, this, [this](const QString& why) { showError(tr("Profile"), why); });
    connect(m_profiles, &ProfileController::finished, this, [this](bool ok, const QString& message) {
        m_controls->setRunning(false);
        m_controls->showFinished(ok, message.section('\n', 0, 0));
        if (ok) {
            showNotice(message);
            showOpeningView();
        } else {
            showError(tr("Profile"), message);
        }
        if (m_closeAfterCancel)
            close();
    });
}

void MainWindow::openPaths(const QStringList& paths)
{
    if (paths.size() == 1 && !QFileInfo(paths.front()).isDir())
        openTrace(paths.front());
    else if (!paths.isEmpty())
        openRanks(paths);
}

void MainWindow::openRanks(const QStringList& paths)
{
    if (isBusy()) {
        showNotice(tr("A run is in progress: cancel it before opening ranks."));
        return;
    }
    const auto open = [this, paths] { m_ranks->read(paths); };
    if (maybeSave(open) == SaveFirst::Proceed)
        open();
}

bool MainWindow::isBusy() const
{
    return m_runs->isRunning() || m_profiles->isRunning();
}

void MainWindow::cancelWork()
{
    m_runs->cancel();
    m_profiles->cancel();
    m_loader->cancelLoads();
}

void MainWindow::loadEnded()
{
    if (m_loadsInFlight > 0)
        --m_loadsInFlight;
    m_loadProgress->setVisible(m_loadsInFlight > 0);
    m_loadCancel->setVisible(m_loadsInFlight > 0);
}

void MainWindow::profileProgram(const ProfileRequest& request)
{
    if (isBusy()) {
        showNotice(tr("A run is in progress: cancel it first."));
        return;
    }
    m_profiles->start(request);
}

void MainWindow::openTrace(const QString& path)
{
    if (isBusy()) {
        showNotice(tr("A run is in progress: cancel it before opening a trace."));
        return;
    }
    const auto open = [this, path] {
        m_ranks->cancel(); // the trace asked for last is the one shown
        showNotice(tr("Opening %1…").arg(path));
        ++m_loadsInFlight;
        m_loadProgress->setValue(0);
        m_loadProgress->show();
        m_loadCancel->show();
        m_loader->load(path);
    };
    if (maybeSave(open) == SaveFirst::Proceed)
        open();
}

void MainWindow::compareTraces(const QString& beforePath, const QString& afterPath)
{
    if (isBusy()) {
        showNotice(tr("A run is in progress: cancel it before comparing traces."));
        return;
    }
    const auto start = [this, beforePath, afterPath] {
        showNotice(tr("Comparing %1 with %2…").arg(beforePath, afterPath));
        m_compare->compare(beforePath, afterPath);
    };
    if (maybeSave(start) == SaveFirst::Proceed)
        start();
}

void MainWindow::onTraceLoaded(const QString& path, Trace&& trace)
{
    if (isBusy()) {
        showNotice(tr("Ignored %1: a run started while it was loading.").arg(path));
        return;
    }
    std::size_t ops = 0;
    for (const auto& run : trace.runs)
        ops += run.ops.size();
    const std::size_t runs = trace.runs.size();
    const std::size_t sweeps = trace.sweeps.size();
    // Moved into the document, not copied: the window is the loaded trace's
    // only reader, and a loaded name may be hundreds of MiB.
    m_document->setTrace(std::move(trace), path);
    showTraceLayout();
    addRecentFile(path);
    showNotice(tr("Opened %1: %2 runs, %3 ops, %4 bandwidth sweeps")
                   .arg(QFileInfo(path).fileName())
                   .arg(runs)
                   .arg(ops)
                   .arg(sweeps));
}

void MainWindow::resetViewToDocument()
{
    m_openingShown.reset();
    m_view->setExtent(m_document->endNs());
    m_view->resetView();
}

void MainWindow::showOpeningView()
{
    // A profiled or imported run opens on its work, the judged span; the
    // setup before it is one "show all" (0, Home) away. The judged span is
    // part of the run's analysis, which the cache computes on its worker:
    // until it is in, the whole run shows, and the view follows it when it
    // arrives (followOpeningView).
    m_view->setExtent(m_document->endNs());
    AnalysisCache* cache = AnalysisCache::of(m_document);
    for (int run = 0; run < m_document->runCount(); ++run)
        cache->analysis(run);
    frameOpeningView();
}

void MainWindow::frameOpeningView()
{
    if (const AxisSpan work = openingView(*m_document, *AnalysisCache::of(m_document)); !work.isEmpty())
        m_view->setVisibleRange(work.startNs, work.endNs);
    else
        m_view->resetView();
    m_openingShown = AxisSpan{m_view->visibleStartNs(), m_view->visibleEndNs()};
}

void MainWindow::followOpeningView()
{
    // Only while the view is still the one the window opened on: a user
    // who zoomed or picked something in the meantime keeps what they chose.
    if (!m_openingShown)
        return;
    if (*m_openingShown != AxisSpan{m_view->visibleStartNs(), m_view->visibleEndNs()}) {
        m_openingShown.reset();
        return;
    }
    frameOpeningView();
}

void MainWindow::fitTimelineHeight()
{
    // Bounded: past kMaxWidgetHeight the lanes share the height instead of
    // asking QCustomPlot for paint buffers of any size.
    m_timeline->setMinimumHeight(std::min(m_timeline->preferredHeight(), TimelinePlot::kMaxWidgetHeight));
}

void MainWindow::showError(const QString& title, const QString& message)
{
    m_lastMessage = message;
    statusBar()->showMessage(message.section('\n', 0, 0) + ' ' + message.section('\n', 1), 15000);
    if (m_interactive) {
        auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // window-modal, never blocks the event loop
    }
}

void MainWindow::showNotice(const QString& message)
{
    m_lastMessage = message;
    statusBar()->showMessage(message, 10000);
}

void MainWindow::updateTitle()
{
    QString name = m_document->sourcePath().isEmpty() ? tr("untitled") : QFileInfo(m_document->sourcePath()).fileName();
    if (const Comparison* c = m_document->comparison())
        name = tr("%1 vs %2").arg(QFileInfo(c->beforePath).fileName(), QFileInfo(c->afterPath).fileName());
    setWindowTitle(tr("%1%2 — OverlapScope").arg(name, m_document->isModified() ? "*" : ""));
    if (m_document->runCount() > 0)
        m_statusDevice->setText(displayText(m_document->run(0).run().device.label()));
}

MainWindow::SaveFirst MainWindow::maybeSave(std::function<void()> afterSave)
{
    if (!m_document->isModified() || !m_interactive)
        return SaveFirst::Proceed;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved recording"), tr("The current runs have not been saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return SaveFirst::Cancelled;
    if (answer == QMessageBox::Discard)
        return SaveFirst::Proceed;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save trace"), "overlapscope-trace.json",
                                                      tr("OverlapScope traces (*.json)"));
    if (path.isEmpty())
        return SaveFirst::Cancelled;
    // Written in the background like any save; the action waits for it
    // and is dropped if the save fails (the error says why).
    m_afterSave = std::move(afterSave);
    saveTo(path);
    return SaveFirst::Saving;
}

void MainWindow::saveTo(const QString& path)
{
    m_loader->save(path, m_document->toTrace());
}

void MainWindow::exportTimeline(const QString& format)
{
    if (m_document->runCount() == 0) {
        showNotice(tr("Nothing to export: run a pipeline or open a trace first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export timeline"), "timeline." + format,
                                                      format.toUpper() + " (*." + format + ")");
    if (path.isEmpty())
        return;
    TimelineExportOptions options;
    if (format == "png") {
        bool ok = false;
        options.scale = QInputDialog::getDouble(this, tr("PNG scale"), tr("Scale factor (2 for high-DPI slides):"),
                                                2.0, 0.5, 8.0, 1, &ok);
        if (!ok)
            return;
    }
    options.width = std::max(m_timeline->width(), 1200);
    // Every lane at full height where that fits the cap, else squeezed into it.
    options.height = std::min(m_timeline->preferredHeight(options.width), ExportCaps::kMaxSidePixels);
    QString error;
    if (!TimelineExport::write(*m_document, *m_view, path, options, m_timeline, &error))
        showError(tr("Could not export timeline"), error);
    else
        showNotice(tr("Exported %1").arg(path));
}

void MainWindow::exportChart()
{
    auto* chart = qobject_cast<QCustomPlot*>(m_tabs->currentWidget());
    if (!chart) {
        showNotice(tr("Pick the bandwidth sweep or the GB/s per op tab first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), "chart.png",
                                                      tr("PNG, SVG or PDF (*.png *.svg *.pdf)"));
    if (path.isEmpty())
        return;
    PlotExportOptions options;
    options.width = std::max(chart->width(), 1000);
    options.height = std::max(chart->height(), 600);
    options.scale = 2.0;
    options.title = m_tabs->tabText(m_tabs->currentIndex());
    QString error;
    if (!exportPlot(*chart, path, options, &error))
        showError(tr("Could not export chart"), error);
    else
        showNotice(tr("Exported %1").arg(path));
    chart->replot(); // toPainter laid it out for the picture's size
}

void MainWindow::exportTrace(const QString& format)
{
    const bool chrome = format == "chrome";
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export trace"), chrome ? "trace.perfetto.json" : "ops.csv",
        chrome ? tr("Chrome trace JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    auto trace = std::make_shared<Trace>(m_document->toTrace());
    m_exports->post([this, trace, path, chrome]() -> BackgroundWorker::Delivery {
        std::string error;
        bool ok = false;
        try {
            ok = chrome ? exportChromeTrace(*trace, path.toStdString(), &error)
                        : exportCsv(*trace, path.toStdString(), &error);
        } catch (const std::bad_alloc&) {
            error = "not enough memory";
        }
        return [this, path, ok, message = QString::fromStdString(error)] {
            if (ok)
                showNotice(tr("Exported %1").arg(path));
            else
                showError(tr("Could not export trace"), message);
        };
    });
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] { openTrace(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isBusy()) {
        // Never free under work in flight: cancel, let the run drain (or the
        // profiled program stop), then close.
        m_closeAfterCancel = true;
        cancelWork();
        showNotice(tr("Cancelling the run before closing…"));
        event->ignore();
        return;
    }
    if (maybeSave([this] { close(); }) != SaveFirst::Proceed) {
        event->ignore(); // cancelled, or closing again once the save is written
        return;
    }
    saveLayout();
    event->accept();
}

QSize MainWindow::firstOpenSize(const QSize& available)
{
    // Most of the screen, not all: the desktop's own edges stay in reach.
    return {std::max(960, available.width() * 92 / 100), std::max(640, available.height() * 92 / 100)};
}

QDockWidget* MainWindow::dock(const QString& name) const
{
    return findChild<QDockWidget*>(name, Qt::FindDirectChildrenOnly);
}

void MainWindow::restoreLayout()
{
    const QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) {
        const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
        const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000);
        const QSize size = firstOpenSize(available.size());
        resize(size);
        move(available.center() - QPoint(size.width() / 2, size.height() / 2));
    }
    if (!restoreState(settings.value("window/state").toByteArray(), kLayoutVersion))
        m_defaultDocksPending = true;
    // The steps view shows when a run has steps.
    dock("steps")->hide();
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState(kLayoutVersion));
}

void MainWindow::applyDefaultDockSizes()
{
    // The findings get room for a dozen rows and their details; the
    // timeline keeps the larger part of the height.
    QDockWidget* findings = dock("findings");
    resizeDocks({findings}, {std::max(300, height() * 42 / 100)}, Qt::Vertical);
    resizeDocks({findings, dock("details")}, {width() * 62 / 100, width() * 18 / 100}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (std::exchange(m_defaultDocksPending, false))
        applyDefaultDockSizes();
}

void MainWindow::showTraceLayout()
{
    m_showsTrace = true;
    dock("controls")->setVisible(QSettings().value(kRunPanelWithTraces, false).toBool());
    dock("steps")->setVisible(m_steps->hasSteps());
    dock("findings")->show();
    dock("findings")->raise();
}

void MainWindow::showRunLayout()
{
    m_showsTrace = false;
    dock("controls")->show();
    dock("summary")->show();
    dock("summary")->raise(); // the pipelines' comparison table
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // One file opens as a trace; a folder or several files as ranks.
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    openPaths(paths);
}

} // namespace ovs::ui
