// The window as a user drives it: open good and bad traces (the view is kept
// on failure), run on the simulated device and watch the timeline fill, cancel.
#include "../TestRankFolder.h"
#include "../TestTimeouts.h"
#include "UiTestSupport.h"
#include "charts/OpRateChart.h"
#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "models/AnalysisCache.h"
#include "panels/BarCellDelegate.h"
#include "panels/ControlPanel.h"
#include "panels/FindingsView.h"
#include "panels/RanksPanel.h"
#include "panels/StepsView.h"
#include "panels/SummaryPanel.h"
#include "style/TimeFormat.h"
#include "timeline/TimelinePlot.h"
#include "window/AppSetup.h"
#include "window/MainWindow.h"
#include "window/RanksController.h"
#include "workers/RankLoader.h"
#include "workers/RunController.h"
#include "workers/TraceLoader.h"

#include "analysis/RunAnalysis.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "formats/TraceJson.h"
#include "ranks/RankFolder.h"
#include "ranks/RankSummaryJson.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QStyle>
#include <QTreeWidget>
#include <QtTest>

#include <set>

using namespace ovs;
using namespace ovs::ui;

namespace {

QString sourceTrace()
{
    return QString(OVERLAPSCOPE_SOURCE_DIR) + "/docs/traces/sim-h200-seed-defaults.json";
}

RunRequest smallRequest(int chunks, int chunkMiB)
{
    RunRequest request;
    request.deviceSpec = "sim:h200";
    for (auto kind : {PipelineKind::Serialized, PipelineKind::Overlapped}) {
        PipelineConfig config;
        config.kind = kind;
        config.chunks = chunks;
        config.chunkBytes = std::uint64_t(chunkMiB) << 20;
        request.pipelines.push_back(config);
    }
    request.runBench = false;
    return request;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;

    QString writeFile(const QString& name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(content);
        return path;
    }

    // Four ranks of one job (TestRankFolder.h), rank 2 the straggler (its
    // pageable copies 5 times as long), each rank's clock a little after
    // the one before, and a file that is no trace.
    QString writeRankFolder()
    {
        const QString folder = m_dir.filePath("ranks");
        QDir().mkpath(folder);
        for (int rank = 0; rank < 4; ++rank) {
            TestRank r;
            r.rank = rank;
            r.skewUs = 3 * rank;
            r.copyUs = rank == 2 ? 500 : 100;
            writeTestRank(folder + QString("/worker%1.pt.trace.json").arg(rank), r);
        }
        QFile junk(folder + "/notes.json");
        if (junk.open(QIODevice::WriteOnly))
            junk.write("not a trace");
        return folder;
    }

private slots:
    void initTestCase()
    {
        // Settings of its own: the window remembers its size and docks.
        QVERIFY(ovs::test::useTemporarySettings(m_settingsDir, "tst_main_window"));
        setUpApplicationFont();
    }

    void traceFirstLayout_data();
    void traceFirstLayout();
    void choosingACallSiteOutlinesItsCalls();
    void sizeAndDocksAreRemembered();

    void opensATrace()
    {
        MainWindow window;
        window.setInteractive(false);
        window.openTrace(sourceTrace());
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
        QVERIFY(window.document()->run(0).opCount() > 0);
        QVERIFY(window.viewState()->visibleEndNs() >= window.document()->endNs());
        QVERIFY(window.lastMessage().contains("2 runs"));
    }

    // While a trace is read the status bar shows how far and a Cancel
    // button; a cancelled load leaves the document as it was and says so,
    // and the bar goes. (The reader's own cancel, per window of the file,
    // is tst_trace_format's and tst_chrome_trace_import's.)
    void aTraceLoadShowsProgressAndCanBeCancelled()
    {
        MainWindow window;
        window.setInteractive(false);
        window.openTrace(sourceTrace());
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
        auto* bar = window.findChild<QProgressBar*>("loadProgress");
        auto* cancel = window.findChild<QPushButton*>("loadCancel");
        auto* loader = window.findChild<TraceLoader*>();
        QVERIFY(bar && cancel && loader);
        QVERIFY(bar->isHidden() && cancel->isHidden()); // the load ended

        // A second load in flight, as the loader reports it.
        window.openTrace(sourceTrace());
        QVERIFY(!bar->isHidden() && !cancel->isHidden());
        emit loader->progress(50, 200);
        QCOMPARE(bar->value(), 25);
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
        QTRY_VERIFY_WITH_TIMEOUT(bar->isHidden(), ovsTestTimeoutMs(10000));

        // Cancelled: nothing replaced, and said.
        const std::string firstRun = window.document()->run(0).run().name;
        window.openTrace(sourceTrace());
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(bar->isHidden(), ovsTestTimeoutMs(10000));
        QCOMPARE(window.document()->runCount(), 2);
        QCOMPARE(window.document()->run(0).run().name, firstRun);
        // The load may have ended before the click reached it: then it was
        // read, else cancelled and said so.
        QVERIFY2(window.lastMessage().contains("cancelled") || window.lastMessage().contains("2 runs"),
                 qPrintable(window.lastMessage()));
        emit loader->cancelled(sourceTrace());
        QVERIFY2(window.lastMessage().contains("cancelled: the window shows what it showed before"),
                 qPrintable(window.lastMessage()));
    }

    void summaryColumnsFitTheDefaultWindow()
    {
        // At the size the window opens with on a 1920 x 1080 screen (the
        // taskbar's 40 px off), no column of the summary is cut: each gets at
        // least what its contents need.
        MainWindow window;
        window.setInteractive(false);
        window.resize(MainWindow::firstOpenSize(QSize(1920, 1040)));
        window.dock("summary")->show();
        window.dock("summary")->raise();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openTrace(sourceTrace());
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
        auto* table = window.summaryPanel()->findChild<QTreeWidget*>();
        QVERIFY(table);
        QTRY_VERIFY_WITH_TIMEOUT(table->isVisible(), ovsTestTimeoutMs(5000));
        int total = 0;
        for (int column = 0; column < table->columnCount(); ++column) {
            if (table->isColumnHidden(column))
                continue;
            // The text and the style's text margin each side (as QItemDelegate pads it).
            const int padding = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
            int needed = table->header()->sectionSizeHint(column);
            for (int row = 0; row < table->topLevelItemCount(); ++row)
                needed = std::max(needed,
                                  table->fontMetrics().horizontalAdvance(table->topLevelItem(row)->text(column)) + padding);
            QVERIFY2(table->columnWidth(column) >= needed,
                     qPrintable(QString("column %1: %2 px of %3").arg(column).arg(table->columnWidth(column)).arg(needed)));
            total += table->columnWidth(column);
        }
        QVERIFY2(total <= table->viewport()->width(),
                 qPrintable(QString("%1 px of columns in %2 px").arg(total).arg(table->viewport()->width())));
    }

    void badFilesShowAnErrorAndKeepTheView_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated") << QByteArray("{\"format\":\"overlapscope-trace\",\"version\":1,\"runs\":[") << "line 1";
        QTest::newRow("not a trace") << QByteArray("\x89PNG\r\n\x1a\n binary") << "bad.json";
        QTest::newRow("newer version") << QByteArray("{\"format\":\"overlapscope-trace\",\"version\":99,\"runs\":[],\"sweeps\":[]}")
                                       << "99";
        QTest::newRow("empty") << QByteArray() << "bad.json";
    }
    void badFilesShowAnErrorAndKeepTheView()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        MainWindow window;
        window.setInteractive(false);
        window.openTrace(sourceTrace());
        QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
        window.viewState()->setVisibleRange(1000, 2'000'000);
        const auto start = window.viewState()->visibleStartNs();
        const auto end = window.viewState()->visibleEndNs();

        window.openTrace(writeFile("bad.json", content));
        QTRY_VERIFY_WITH_TIMEOUT(window.lastMessage().contains("Could not") || window.lastMessage().contains(message),
                                 ovsTestTimeoutMs(10000));
        QVERIFY2(window.lastMessage().contains(message), qPrintable(window.lastMessage()));
        QCOMPARE(window.document()->runCount(), 2);
        QCOMPARE(window.document()->sourcePath(), sourceTrace());
        QCOMPARE(window.viewState()->visibleStartNs(), start);
        QCOMPARE(window.viewState()->visibleEndNs(), end);
    }

    // File > Compare: an example plain and with --fix, read and compared in
    // the background; the two runs stacked, aligned where their judged spans
    // start (the loop with the loop: each process's setup differs), under
    // the header with the diff's numbers; the GB/s chart overlays the two
    // from there. A trace that cannot be read is an error
    // that keeps the comparison shown.
    void comparesTwoTraces()
    {
        const QString data = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/profiled/what-if/";
        MainWindow window;
        window.setInteractive(false);
        window.compareTraces(data + "pageable_async.json", data + "pageable_async-fix.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->comparison() != nullptr, ovsTestTimeoutMs(30000));
        const TraceDocument& doc = *window.document();
        QCOMPARE(doc.runCount(), 2);
        QVERIFY(doc.run(0).run().name.starts_with("before: pageable_async (pid "));
        QVERIFY(doc.run(1).run().name.starts_with("after: pageable_async --fix (pid "));
        QVERIFY(doc.alignTimedRegions());
        const RunPairDiff& pair = doc.comparison()->diff.pairs.at(0);
        QCOMPARE(doc.displayOffsetNs(0) + pair.before.judgedBeginNs, doc.displayOffsetNs(1) + pair.after.judgedBeginNs);
        // Not the timed regions: the processes' setups differ in length.
        QVERIFY(doc.displayOffsetNs(0) + doc.run(0).run().timedBeginNs
                != doc.displayOffsetNs(1) + doc.run(1).run().timedBeginNs);
        const QString header = window.timeline()->headerText();
        QVERIFY2(header.contains("Before: pageable_async.json") && header.contains("After: pageable_async-fix.json")
                     && header.contains(QString::fromStdString(savedSentence(pair)))
                     && header.contains("resolved: pageable memory") && header.contains("of possible"),
                 qPrintable(header));
        QVERIFY2(window.windowTitle().contains("pageable_async.json vs pageable_async-fix.json"),
                 qPrintable(window.windowTitle()));
        // The per-op rates of both, from their judged spans' starts.
        const auto* rates = window.findChild<OpRateChart*>();
        QVERIFY(rates && rates->series(0, OpKind::Upload) && rates->series(1, OpKind::Upload));
        const auto firstUpload = [&](int run) {
            const RunTimeline& r = doc.run(run);
            std::int64_t first = std::numeric_limits<std::int64_t>::max();
            for (int lane = 0; lane < r.laneCount(); ++lane)
                for (const Op& op : r.laneOps(lane))
                    if (op.kind == OpKind::Upload && OpRateChart::opRate(op) > 0)
                        first = std::min(first, op.startNs);
            const RunSide& side = run == 0 ? pair.before : pair.after;
            return static_cast<double>(first - side.judgedBeginNs) / 1e6;
        };
        for (int run : {0, 1}) {
            QVERIFY(rates->series(run, OpKind::Upload)->dataCount() > 0);
            QCOMPARE(rates->series(run, OpKind::Upload)->data()->constBegin()->key, firstUpload(run));
        }

        window.compareTraces(data + "pageable_async.json", m_dir.filePath("missing.json"));
        QTRY_VERIFY_WITH_TIMEOUT(window.lastMessage().contains("missing.json"), ovsTestTimeoutMs(10000));
        QVERIFY(window.document()->comparison() != nullptr);
        QCOMPARE(window.document()->runCount(), 2);
    }

    void aLiveRunFillsTheTimeline()
    {
        MainWindow window;
        window.setInteractive(false);
        int changesBeforeFinish = 0;
        bool finished = false;
        bool ok = false;
        connect(window.document(), &TraceDocument::runChanged, this, [&] {
            if (!finished)
                ++changesBeforeFinish;
        });
        connect(window.runController(), &RunController::finished, this, [&](bool success, const QString&) {
            finished = true;
            ok = success;
        });
        window.runController()->start(smallRequest(6, 2));
        QTRY_VERIFY_WITH_TIMEOUT(finished, ovsTestTimeoutMs(60000));
        QVERIFY(ok);
        QCOMPARE(window.document()->runCount(), 2);
        QVERIFY(changesBeforeFinish > 2);
        for (int r = 0; r < 2; ++r) {
            const auto& run = window.document()->run(r).run();
            QVERIFY2(run.verification.passed, run.verification.message.c_str());
            QVERIFY(window.document()->run(r).opCount() > 0);
        }
        QVERIFY(window.document()->isModified());
        QVERIFY(window.timeline()->preferredHeight() > 200);
    }

    void opensAFolderOfRanks();
    void choosingARankOpensAndScrollsToIt();
    void aDroppedFolderOpensAsRanksAndItsDockComesBack();
    void cancellingRanksKeepsTheDocument();
    void severalFilesOrAFolderOpenAsRanks();
    void aFolderOfRankSummariesOpensTheirTraces();

    void cancelLeavesTheWindowUsable()
    {
        MainWindow window;
        window.setInteractive(false);
        bool finished = false;
        connect(window.runController(), &RunController::finished, this, [&](bool, const QString&) { finished = true; });
        bool cancelled = false;
        connect(window.document(), &TraceDocument::runChanged, this, [&] {
            if (!cancelled) {
                cancelled = true;
                window.runController()->cancel();
            }
        });
        window.runController()->start(smallRequest(64, 8));
        QTRY_VERIFY_WITH_TIMEOUT(finished, ovsTestTimeoutMs(120000));
        QVERIFY(window.document()->runCount() >= 1);
        QCOMPARE(window.document()->run(0).run().status, RunStatus::Cancelled);
        QVERIFY(!window.runController()->isRunning());

        // The next run works.
        finished = false;
        window.runController()->start(smallRequest(2, 1));
        QTRY_VERIFY_WITH_TIMEOUT(finished, ovsTestTimeoutMs(60000));
        const auto& last = window.document()->run(window.document()->runCount() - 1).run();
        QVERIFY2(last.verification.passed, last.verification.message.c_str());
    }
};

QTEST_MAIN(TestMainWindow)
// Issue 21: a folder of ranks in the window.
void TestMainWindow::opensAFolderOfRanks()
{
    const QString folder = writeRankFolder();
    MainWindow window;
    window.setInteractive(false);
    window.openRanks({folder});
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    const RankJob& job = *window.document()->ranks();
    // A small folder opens every rank; the bad file is said and skipped.
    QCOMPARE(window.document()->runCount(), 4);
    QVERIFY2(window.lastMessage().contains("notes.json"), qPrintable(window.lastMessage()));
    QVERIFY2(window.lastMessage().contains("4 ranks"), qPrintable(window.lastMessage()));

    // The panel's rows are the core's summaries.
    std::string error;
    const RankFolder core = readRanks(rankFilesIn(QFile::encodeName(folder).toStdString(), &error));
    QCOMPARE(core.ranks.size(), std::size_t(4));
    QVERIFY(core.straggler.row.has_value());
    const RanksPanel* panel = window.ranks()->panel();
    QTableWidget* table = panel->table();
    QCOMPARE(table->rowCount(), 4);
    for (int row = 0; row < 4; ++row) {
        const RankSummary& r = core.ranks[static_cast<std::size_t>(row)];
        QVERIFY2(table->item(row, RanksPanel::Rank)->text().startsWith(QString::fromStdString(r.label)),
                 qPrintable(table->item(row, RanksPanel::Rank)->text()));
        QCOMPARE(table->item(row, RanksPanel::MedianStep)->text(), QString::number(r.stepMedianNs / 1e6, 'f', 3));
        QCOMPARE(table->item(row, RanksPanel::Steps)->text(), QString::number(r.stepsJudged));
        QCOMPARE(table->item(row, RanksPanel::Bound)->text(), QString::fromStdString(r.bound));
        QCOMPARE(table->item(row, RanksPanel::Rank)->text().contains("straggler"),
                 core.straggler.row == static_cast<std::size_t>(row));
    }
    QCOMPARE(core.ranks[*core.straggler.row].rank, 2);
    QVERIFY2(panel->stragglerText().startsWith(QString::fromStdString(core.straggler.sentence)),
             qPrintable(panel->stragglerText()));
    QVERIFY2(panel->alignmentText().contains("ranks' shared clock"), qPrintable(panel->alignmentText()));

    // Every rank on the job's clock: its time 0 after the earliest rank's.
    QVERIFY(job.folder.alignment.sharedClock);
    for (int run = 0; run < 4; ++run)
        QCOMPARE(window.document()->displayOffsetNs(run),
                 core.alignment.offsetNs[job.rowOfRun[static_cast<std::size_t>(run)]]);
    QVERIFY(window.document()->displayOffsetNs(3) > window.document()->displayOffsetNs(0));
    QVERIFY(window.timeline()->runTitleText(2).contains("rank 2"));
}

void TestMainWindow::choosingARankOpensAndScrollsToIt()
{
    const QString folder = writeRankFolder();
    MainWindow window;
    window.setInteractive(false);
    window.resize(1000, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // A budget of 1 byte: only the straggler and the fastest rank open.
    window.ranks()->read({folder}, 1);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    QCOMPARE(window.document()->runCount(), 2);
    const RankJob* job = window.document()->ranks();
    QVERIFY(job->isOpen(2)); // the straggler
    QVERIFY(!job->isOpen(3));
    QCOMPARE(window.ranks()->panel()->table()->item(3, RanksPanel::Shown)->text(), QString("click to open"));
    window.viewState()->setVisibleRange(200'000, 900'000);
    window.viewState()->setCollapsed(0, true); // rank 0 or 1, whichever is the fastest
    const std::size_t foldedRow = job->rowOfRun[0];

    // Choosing rank 3 (a click on its row) loads it and shows it, in rank order.
    QTableWidget* table = window.ranks()->panel()->table();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(3, 0)).center());
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 3, ovsTestTimeoutMs(30000));
    job = window.document()->ranks();
    QVERIFY(job->isOpen(3));
    QCOMPARE(job->runOfRow[3], 2);
    QCOMPARE(window.viewState()->visibleStartNs(), std::int64_t{200'000});
    QCOMPARE(window.viewState()->visibleEndNs(), std::int64_t{900'000});
    QVERIFY(window.viewState()->isCollapsed(job->runOfRow[foldedRow]));
    QCOMPARE(table->item(3, RanksPanel::Shown)->text(), QString("shown"));
    // The timeline scrolled to it: its title at the top, as far as the area scrolls.
    auto* area = qobject_cast<QScrollArea*>(window.timeline()->parentWidget()->parentWidget()); // its viewport's
    QVERIFY(area);
    QTRY_COMPARE_WITH_TIMEOUT(area->verticalScrollBar()->value(),
                              std::min(window.timeline()->runTitleRect(2).top(), area->verticalScrollBar()->maximum()),
                              ovsTestTimeoutMs(5000));
    QVERIFY(area->verticalScrollBar()->value() > 0);
    // A rank already shown: scrolled to and unfolded, the zoom kept.
    window.ranks()->showRank(foldedRow);
    QVERIFY(!window.viewState()->isCollapsed(job->runOfRow[foldedRow]));
    QCOMPARE(window.viewState()->visibleEndNs(), std::int64_t{900'000});
}

void TestMainWindow::cancellingRanksKeepsTheDocument()
{
    const QString folder = writeRankFolder();
    MainWindow window;
    window.setInteractive(false);
    window.openTrace(sourceTrace());
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 2, ovsTestTimeoutMs(10000));
    window.openRanks({folder});
    window.ranks()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!window.ranks()->isBusy(), ovsTestTimeoutMs(30000));
    QVERIFY2(window.lastMessage().contains("Cancelled"), qPrintable(window.lastMessage()));
    QVERIFY(window.document()->ranks() == nullptr);
    QCOMPARE(window.document()->runCount(), 2);
    QCOMPARE(window.document()->sourcePath(), sourceTrace());
}

void TestMainWindow::severalFilesOrAFolderOpenAsRanks()
{
    const QString folder = writeRankFolder();
    MainWindow window;
    window.setInteractive(false);
    // Open with two files chosen: two ranks.
    window.openPaths({folder + "/worker1.pt.trace.json", folder + "/worker3.pt.trace.json"});
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    QCOMPARE(window.document()->runCount(), 2);
    QCOMPARE(window.document()->ranks()->folder.ranks[1].rank, 3);
    // One file: a trace as before, no ranks.
    window.openPaths({sourceTrace()});
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() == nullptr, ovsTestTimeoutMs(30000));
    QCOMPARE(window.document()->runCount(), 2);
    // A folder (as File > Open folder… or a drop give it): its four ranks.
    window.openPaths({folder});
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    QCOMPARE(window.document()->runCount(), 4);
}

// A folder dropped on the window opens as ranks, as File > Open folder does;
// the Ranks dock, once closed, comes back from the View menu.
void TestMainWindow::aDroppedFolderOpensAsRanksAndItsDockComesBack()
{
    const QString folder = writeRankFolder();
    MainWindow window;
    window.setInteractive(false);
    window.resize(1000, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The drop as the desktop sends it: the drag enters, then drops, with the folder's URL.
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(folder)});
    const QPoint at = window.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    QCOMPARE(window.document()->runCount(), 4);

    auto* dock = window.findChild<QDockWidget*>("ranks");
    QVERIFY(dock);
    QTRY_VERIFY(dock->isVisible());
    dock->close();
    QVERIFY(!dock->isVisible());
    QAction* fromMenu = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove('&') == "View")
            for (QAction* a : menu->menu()->actions())
                if (a == dock->toggleViewAction())
                    fromMenu = a;
    QVERIFY2(fromMenu, "View has the Ranks panel's entry");
    QVERIFY(fromMenu->isCheckable() && !fromMenu->isChecked());
    fromMenu->trigger();
    QVERIFY(dock->isVisible());
}

#include "tst_main_window.moc"

// Issue 31: the window for people who open traces. Each stored trace is
// opened at 1920 x 1080 (the window resized to the screen a user has; the
// suite runs offscreen, and the same test runs under Xvfb at that size:
// docs/gui.md says how), and the layout checked: the Run panel put away,
// the timeline taking the width, every finding a row in view with its
// saving's bar, its whole text in the details, its ghost's title in view
// and not cut, the keys that step through findings, and for a trace with
// steps, the steps view's bars against core's own judgement.
void TestMainWindow::traceFirstLayout_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("picture");
    const QString data = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/";
    QTest::newRow("Kineto steps") << data + "profiled/regions/torch_steps.json" << "window-trace-steps.png";
    QTest::newRow("Nsight report") << data + "nsight/cloverleaf-cuda_nsys_perlmutter-reduced.sqlite"
                                   << "window-trace-nsight.png";
    QTest::newRow("profile") << data + "profiled/what-if/sync_in_loop.json" << "window-trace-profile.png";
}

void TestMainWindow::traceFirstLayout()
{
    QFETCH(QString, path);
    QFETCH(QString, picture);
    const TraceLoadResult loaded = loadTrace(path.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());

    MainWindow window;
    window.setInteractive(false);
    window.resize(1920, 1080);
    QVERIFY(ovs::test::showActive(window));
    window.dock("controls")->show(); // as pipelines would have left it
    window.openTrace(path);
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), static_cast<int>(loaded.trace->runs.size()),
                              ovsTestTimeoutMs(60000));
    AnalysisCache* cache = AnalysisCache::of(window.document());
    FindingsView* findings = window.findingsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!cache->isAnalysing() && findings->findingCount() > 0, ovsTestTimeoutMs(120000));
    QCoreApplication::processEvents();

    // The Run panel is put away; the timeline takes the width.
    QVERIFY(!window.dock("controls")->isVisible());
    QVERIFY(window.dock("findings")->isVisible());
    const double share = static_cast<double>(window.centralWidget()->width()) / window.width();
    QVERIFY2(share >= 0.95, qPrintable(QString("the timeline takes %1 of the width").arg(share)));
    QVERIFY2(window.centralWidget()->height() >= 0.45 * window.height(),
             qPrintable(QString("the timeline is %1 px tall").arg(window.centralWidget()->height())));

    // Every finding a row in view, without scrolling (room for at least 6).
    QTreeWidget* tree = findings->tree();
    const QRect viewport = tree->viewport()->rect();
    int rowsInView = 0;
    int findingRows = 0;
    std::vector<const Finding*> expected;
    for (int run = 0; run < window.document()->runCount(); ++run)
        if (const auto a = cache->analysisIfReady(run))
            for (const Finding& f : a->analysis.findings.findings)
                expected.push_back(&f);
    std::vector<QTreeWidgetItem*> items;
    for (int r = 0; r < tree->topLevelItemCount(); ++r) {
        QTreeWidgetItem* runItem = tree->topLevelItem(r);
        for (int i = 0; i < runItem->childCount(); ++i, ++findingRows) {
            QTreeWidgetItem* item = runItem->child(i);
            items.push_back(item);
            if (viewport.contains(tree->visualItemRect(item)))
                ++rowsInView;
            const Finding& f = *expected.at(static_cast<std::size_t>(findingRows));
            // The saving's bar: the cost against the judged span, hatched for an estimate.
            const auto a = cache->analysisIfReady(runItem->child(i)->data(FindingsView::RunColumn, Qt::UserRole).toInt());
            const double judged = static_cast<double>(spanNs(a->analysis.judged.span.beginNs, a->analysis.judged.span.endNs));
            QCOMPARE(item->data(FindingsView::SavingColumn, BarCellDelegate::FractionRole).toDouble(),
                     static_cast<double>(f.costNs) / judged);
            QCOMPARE(item->data(FindingsView::SavingColumn, BarCellDelegate::EstimateRole).toBool(),
                     f.costSource == CostSource::Estimate);
            QCOMPARE(item->textAlignment(FindingsView::CostColumn) & Qt::AlignRight, Qt::AlignRight);
        }
    }
    QCOMPARE(static_cast<std::size_t>(findingRows), expected.size());
    QCOMPARE(rowsInView, findingRows);
    const int rowHeight = tree->visualItemRect(tree->topLevelItem(0)).height();
    QVERIFY2(viewport.height() >= 7 * rowHeight, qPrintable(QString("%1 px for rows of %2").arg(viewport.height()).arg(rowHeight)));
    // Headers and their tooltips from the one table of columns.
    for (int column = 0; column < FindingsView::ColumnCount; ++column)
        QVERIFY(!tree->headerItem()->toolTip(column).isEmpty());

    // The keys step through the findings: the first, then the next.
    QAction* next = window.findChild<QAction*>("nextFinding");
    QVERIFY(next && next->shortcuts().contains(QKeySequence(Qt::Key_F8)));
    QTest::keyClick(&window, Qt::Key_F8);
    QTreeWidgetItem* first = items.front();
    QCOMPARE(tree->currentItem(), first);
    const Finding& chosen = *expected.front();
    QVERIFY2(findings->detailText().contains(QString::fromStdString(chosen.cause)), qPrintable(findings->detailText()));
    QVERIFY(!window.viewState()->highlight().empty() || chosen.ops.empty());
    if (findingRows > 1) {
        QTest::keyClick(&window, Qt::Key_BracketRight);
        QCOMPARE(tree->currentItem(), items[1]);
        QTest::keyClick(&window, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(tree->currentItem(), first);
    }

    // The biggest replayed finding's ghost: its title in view and whole.
    const auto replayed = std::find_if(expected.begin(), expected.end(), [&](const Finding* f) {
        return f->costSource == CostSource::Replay && f->fixes != 0;
    });
    if (replayed != expected.end()) {
        tree->setCurrentItem(items[static_cast<std::size_t>(replayed - expected.begin())]);
        TimelinePlot* timeline = window.timeline();
        QTRY_VERIFY_WITH_TIMEOUT(timeline->ghostRun() >= 0, ovsTestTimeoutMs(60000));
        QCoreApplication::processEvents();
        QTest::qWait(50);
        const QRect title = timeline->ghostTitleRect();
        const QFontMetrics metrics(timeline->font());
        for (const QString& line : timeline->ghostTitleShown().split('\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= title.width(), qPrintable(line));
        QVERIFY(timeline->ghostTitleShown().simplified() == timeline->ghostTitleText().simplified());
        auto* area = qobject_cast<QScrollArea*>(window.centralWidget());
        QVERIFY(area);
        const QRect shown(QPoint(0, area->verticalScrollBar()->value()), area->viewport()->size());
        QVERIFY2(shown.contains(title), qPrintable(QString("ghost title at %1..%2, view %3..%4")
                                                      .arg(title.top()).arg(title.bottom())
                                                      .arg(shown.top()).arg(shown.bottom())));
    }

    // The steps: core's judgement of every region group, bar by bar.
    StepsView* steps = window.stepsView();
    std::size_t groups = 0;
    for (int run = 0; run < window.document()->runCount(); ++run) {
        const Run& r = loaded.trace->runs[static_cast<std::size_t>(run)];
        const RunAnalysis core = analyzeRun(r, loaded.trace->sweeps, nullptr);
        for (std::size_t g = 0; g < core.regions.size(); ++g) {
            const RegionJudgement& j = core.regions[g];
            QTreeWidgetItem* group = steps->tree()->topLevelItem(static_cast<int>(groups++));
            QVERIFY(group);
            QCOMPARE(group->childCount(), static_cast<int>(j.spans.size()));
            for (int i = 0; i < group->childCount(); ++i) {
                QTreeWidgetItem* step = group->child(i);
                const std::uint32_t region = j.group.regions[static_cast<std::size_t>(i)];
                const std::int64_t duration = spanNs(j.spans[static_cast<std::size_t>(i)].beginNs,
                                                     j.spans[static_cast<std::size_t>(i)].endNs);
                QCOMPARE(step->data(StepsView::StepColumn, StepsView::RegionRole).toInt(), static_cast<int>(region));
                QCOMPARE(step->data(StepsView::StepColumn, StepsView::DurationNsRole).toLongLong(), duration);
                QCOMPARE(step->data(StepsView::BarColumn, BarCellDelegate::FractionRole).toDouble(),
                         static_cast<double>(duration) / static_cast<double>(j.slowestNs));
                QCOMPARE(step->data(StepsView::BarColumn, BarCellDelegate::MarkRole).toDouble(),
                         static_cast<double>(j.medianNs) / static_cast<double>(j.slowestNs));
                QCOMPARE(step->data(StepsView::BarColumn, BarCellDelegate::EmphasisRole).toBool(), region == j.slowestRegion);
                QCOMPARE(step->text(StepsView::BarColumn).startsWith("slowest"), region == j.slowestRegion);
                if (region == j.medianRegion && region != j.slowestRegion)
                    QCOMPARE(step->text(StepsView::BarColumn), QString("median"));
                // The findings that hold in it, with the step's share of their replayed saving.
                for (const Finding& f : core.findings.findings) {
                    if (g >= f.stepSavingsNs.size() || !f.stepSavingsNs[g].at(static_cast<std::size_t>(i)))
                        continue;
                    const std::int64_t saving = *f.stepSavingsNs[g][static_cast<std::size_t>(i)];
                    const QString words = QString::fromStdString(findingWords(f)) + " "
                                          + TimeFormat::duration(static_cast<double>(saving));
                    QCOMPARE(step->text(StepsView::FindingsColumn).contains(words),
                             static_cast<double>(saving) >= thresholds::kMinCostShare * static_cast<double>(duration));
                }
            }
            // Chosen: the timeline framed on it, its own findings listed.
            QTreeWidgetItem* slowest = nullptr;
            for (int i = 0; i < group->childCount(); ++i)
                if (group->child(i)->data(StepsView::StepColumn, StepsView::RegionRole).toInt() == static_cast<int>(j.slowestRegion))
                    slowest = group->child(i);
            QVERIFY(slowest);
            steps->tree()->setCurrentItem(slowest);
            QCOMPARE(window.viewState()->selectedRegion(), (RegionRef{run, static_cast<int>(j.slowestRegion)}));
            const AxisSpan framed = TimeFrame(*window.document()).region(run, r.regions[j.slowestRegion]);
            QCOMPARE(window.viewState()->visibleStartNs(), framed.startNs);
            QCOMPARE(window.viewState()->visibleEndNs(), framed.endNs);
            QCOMPARE(findings->shownRegion(), (RegionRef{run, static_cast<int>(j.slowestRegion)}));
            QTRY_VERIFY_WITH_TIMEOUT(findings->tree()->topLevelItemCount() == 1, ovsTestTimeoutMs(60000));
            window.viewState()->setSelectedRegion({});
        }
    }
    QCOMPARE(steps->groupCount(), static_cast<int>(groups));
    QCOMPARE(window.dock("steps")->isVisible(), groups > 0);

    // OVERLAPSCOPE_SCREENSHOT_DIR=DIR keeps the window's picture (docs/gui.md's),
    // with the biggest finding chosen.
    if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        // The list was listed again (a step's findings, then the judged span's).
        std::vector<QTreeWidgetItem*> again;
        for (int r = 0; r < tree->topLevelItemCount(); ++r)
            for (int i = 0; i < tree->topLevelItem(r)->childCount(); ++i)
                again.push_back(tree->topLevelItem(r)->child(i));
        QCOMPARE(again.size(), items.size());
        tree->setCurrentItem(replayed != expected.end() ? again[static_cast<std::size_t>(replayed - expected.begin())]
                                                        : again.front());
        QTRY_VERIFY_WITH_TIMEOUT(replayed == expected.end() || window.timeline()->ghostRun() >= 0, ovsTestTimeoutMs(60000));
        QTest::qWait(100);
        QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) + "/" + picture));
    }
}

// Issue 30: a finding's call site, chosen in its details, outlines on the
// timeline exactly the calls attributed to it and the GPU ops they
// enqueued, in the finding's place; another site or finding replaces it.
// On the stored Kineto trace with stacks, whose pageable-memory finding has
// one line of three PyTorch causes (three sites of disjoint calls).
void TestMainWindow::choosingACallSiteOutlinesItsCalls()
{
    const QString path = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/pytorch-implicit-syncs-stack.json";
    // A file that happens to be here opens in nothing.
    const bool hadVisual = qEnvironmentVariableIsSet("VISUAL");
    const QByteArray visual = qgetenv("VISUAL");
    const auto restore = qScopeGuard([&] {
        if (hadVisual)
            qputenv("VISUAL", visual);
        else
            qunsetenv("VISUAL");
    });
    qputenv("VISUAL", "true");
    MainWindow window;
    window.setInteractive(false);
    window.resize(1920, 1080);
    QVERIFY(ovs::test::showActive(window));
    window.openTrace(path);
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 1, ovsTestTimeoutMs(60000));
    AnalysisCache* cache = AnalysisCache::of(window.document());
    FindingsView* findings = window.findingsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(!cache->isAnalysing() && findings->findingCount() > 0, ovsTestTimeoutMs(120000));
    const auto a = cache->analysisIfReady(0);
    QVERIFY(a);
    const Run& run = *a->run;
    const RunTimeline& timeline = window.document()->run(0);
    QTreeWidgetItem* runItem = findings->tree()->topLevelItem(0);
    const auto findingAt = [&](int row) {
        return &a->analysis.findings.findings.at(
            static_cast<std::size_t>(runItem->child(row)->data(FindingsView::RunColumn, Qt::UserRole + 1).toInt()));
    };
    int pageable = -1;
    int other = -1;
    for (int i = 0; i < runItem->childCount(); ++i) {
        if (findingAt(i)->kind == FindingKind::PageableCopies)
            pageable = i;
        else if (other < 0)
            other = i; // the bound: no ops, so nothing outlined
    }
    QVERIFY(pageable >= 0 && other >= 0);
    const Finding& finding = *findingAt(pageable);
    QVERIFY2(finding.sources.size() >= 2, "the finding has two sites to choose between");
    // The highlight as ops of the analysed run (their indices): each ref's op found there.
    const auto highlighted = [&] {
        std::set<std::uint32_t> ops;
        for (const OpRef& ref : window.viewState()->highlight()) {
            const Op& op = timeline.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
            const auto at = std::find_if(run.ops.begin(), run.ops.end(), [&](const Op& o) {
                return o.lane == op.lane && o.startNs == op.startNs && o.endNs == op.endNs && o.kind == op.kind
                       && o.correlation == op.correlation;
            });
            if (at != run.ops.end())
                ops.insert(static_cast<std::uint32_t>(at - run.ops.begin()));
        }
        return ops;
    };
    const auto refCount = [&] { return window.viewState()->highlight().size(); };
    findings->tree()->setCurrentItem(runItem->child(pageable));
    QCOMPARE(highlighted(), std::set<std::uint32_t>(finding.ops.begin(), finding.ops.end()));
    QCOMPARE(findings->chosenCallSite(), -1);

    auto* browser = findings->findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
    QVERIFY(browser);
    std::set<std::uint32_t> seen;
    for (int k = 0; k < static_cast<int>(finding.sources.size()); ++k) {
        const FindingSource& source = finding.sources[static_cast<std::size_t>(k)];
        // Its link in the details (every site has one).
        QVERIFY(browser->toHtml().contains(QStringLiteral("href=\"source:%1\"").arg(k)));
        emit browser->anchorClicked(QUrl(QStringLiteral("source:%1").arg(k)));
        QCOMPARE(findings->chosenCallSite(), k);
        QVERIFY2(findings->detailText().contains(QStringLiteral("outlined on the timeline")), qPrintable(findings->detailText()));
        const std::set<std::uint32_t> ops = highlighted();
        QCOMPARE(refCount(), ops.size()); // every ref an op of the run, once
        // Exactly the site's calls: as many as it counts, each of this line...
        std::set<std::uint32_t> calls;
        std::set<std::uint32_t> correlations;
        for (const std::uint32_t i : ops) {
            const Op& op = run.ops[i];
            if (isStreamLaneOp(op.kind))
                continue;
            calls.insert(i);
            correlations.insert(op.correlation);
            const OpSource* from = run.sourceOf(i);
            QVERIFY(from);
            const SourceSite* site = run.siteAt(from->site);
            QVERIFY(site);
            QCOMPARE(site->file, source.file);
            QCOMPARE(site->line, source.line);
            QCOMPARE(site->function, source.function);
        }
        QCOMPARE(calls.size(), source.calls);
        // ... and the GPU ops they enqueued, each call's (its correlation), and no other.
        for (std::uint32_t i = 0; i < run.ops.size(); ++i)
            if (isGpuOp(run.ops[i].kind) && correlations.contains(run.ops[i].correlation)
                && std::none_of(run.ops.begin(), run.ops.begin() + i, [&](const Op& o) {
                       return isGpuOp(o.kind) && o.correlation == run.ops[i].correlation;
                   }))
                QVERIFY2(ops.contains(i), "a call's GPU op is outlined with it");
        for (const std::uint32_t i : ops)
            QVERIFY(!isStreamLaneOp(run.ops[i].kind) || correlations.contains(run.ops[i].correlation));
        // Another site's calls are not this one's (a line's causes apart).
        for (const std::uint32_t i : calls)
            QVERIFY2(seen.insert(i).second, "a call outlined for two sites");
    }
    // OVERLAPSCOPE_SCREENSHOT_DIR=DIR keeps the window with the first site chosen.
    if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        findings->chooseCallSite(0);
        QTest::qWait(100);
        // The sites at the top of the details.
        QVERIFY(browser->find(QStringLiteral("Called from:")));
        browser->verticalScrollBar()->setValue(browser->verticalScrollBar()->value() + browser->cursorRect().top());
        QTextCursor cursor = browser->textCursor();
        cursor.clearSelection();
        browser->setTextCursor(cursor);
        QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) + "/window-call-site.png"));
    }

    // Back to the finding's own ops, then another finding: the site put down.
    findings->chooseCallSite(-1);
    QCOMPARE(highlighted(), std::set<std::uint32_t>(finding.ops.begin(), finding.ops.end()));
    findings->chooseCallSite(0);
    findings->tree()->setCurrentItem(runItem->child(other));
    QCOMPARE(findings->chosenCallSite(), -1);
    QCOMPARE(highlighted(), std::set<std::uint32_t>(findingAt(other)->ops.begin(), findingAt(other)->ops.end()));
    QVERIFY(!findings->detailText().contains(QStringLiteral("outlined on the timeline")));
}

// The window opens the first time filling most of the screen, and then at
// the size and dock layout it closed with; the Run panel's choice for
// traces, made from the View menu, holds for the next trace.
void TestMainWindow::sizeAndDocksAreRemembered()
{
    QSettings().remove("window");
    const QString trace = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/profiled/what-if/sync_in_loop.json";
    {
        MainWindow first;
        first.setInteractive(false);
        const QScreen* screen = first.screen();
        QVERIFY(screen);
        // On a small screen (offscreen's is 800 x 800) no less than the docks need.
        const QSize available = screen->availableGeometry().size();
        const QSize wanted = MainWindow::firstOpenSize(available);
        QVERIFY(first.width() >= wanted.width() && first.height() >= wanted.height());
        if (available.width() >= 1280 && available.height() >= 800)
            QCOMPARE(first.size(), wanted);
        QVERIFY(ovs::test::showActive(first));
        QVERIFY(first.dock("controls")->isVisible()); // nothing open yet: running pipelines is one way in
        first.openTrace(trace);
        QTRY_COMPARE_WITH_TIMEOUT(first.document()->runCount(), 1, ovsTestTimeoutMs(30000));
        QVERIFY(!first.dock("controls")->isVisible());
        // Asked for from the View menu while a trace shows: kept for traces.
        first.dock("controls")->toggleViewAction()->trigger();
        QVERIFY(first.dock("controls")->isVisible());
        first.resize(1280, 900);
        first.dock("details")->close();
        QVERIFY(first.close());
    }
    MainWindow second;
    second.setInteractive(false);
    QCOMPARE(second.size(), QSize(1280, 900));
    QVERIFY(ovs::test::showActive(second));
    QVERIFY(!second.dock("details")->isVisible());
    second.openTrace(trace);
    QTRY_COMPARE_WITH_TIMEOUT(second.document()->runCount(), 1, ovsTestTimeoutMs(30000));
    QVERIFY(second.dock("controls")->isVisible());
    // Put away again: traces open without it.
    second.dock("controls")->toggleViewAction()->trigger();
    second.openTrace(trace);
    QTRY_VERIFY_WITH_TIMEOUT(!second.isLoading(), ovsTestTimeoutMs(30000));
    QVERIFY(!second.dock("controls")->isVisible());
    QSettings().remove("window");
}

// Issue 32: a folder of rank summaries (made where the traces are,
// `analyze --rank-summary`) opens as the folder of their traces does: the
// same rows, and a rank's trace read from the path its summary names when
// it is opened.
void TestMainWindow::aFolderOfRankSummariesOpensTheirTraces()
{
    const QString folder = writeRankFolder();
    const QString summaries = m_dir.filePath("summaries");
    QVERIFY(QDir().mkpath(summaries));
    std::string error;
    const std::vector<std::string> traces = rankFilesIn(QFile::encodeName(folder).toStdString(), &error);
    for (std::size_t i = 0; i < traces.size(); ++i)
        QVERIFY2(writeTextFileAtomically(summaries.toStdString() + "/s" + std::to_string(i) + ".json",
                                         rankSummaryJson(summarizeRankFile(traces[i])), &error),
                 error.c_str());
    MainWindow window;
    window.setInteractive(false);
    window.openRanks({summaries});
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->ranks() != nullptr, ovsTestTimeoutMs(30000));
    const RankJob* job = window.document()->ranks();
    const RankFolder core = readRanks(traces);
    QCOMPARE(job->folder.ranks.size(), core.ranks.size());
    for (std::size_t row = 0; row < core.ranks.size(); ++row) {
        QCOMPARE(job->folder.ranks[row].label, core.ranks[row].label);
        QCOMPARE(job->folder.ranks[row].stepMedianNs, core.ranks[row].stepMedianNs);
        QCOMPARE(job->folder.files[job->folder.ranks[row].file].path, core.files[core.ranks[row].file].path);
    }
    // The straggler and the fastest rank open, read from their traces.
    QCOMPARE(window.document()->runCount(), 2);
    QVERIFY(job->isOpen(*core.straggler.row));
    QVERIFY(window.timeline()->runTitleText(0).contains("rank "));
    // Another rank opens when chosen.
    std::size_t closed = 0;
    while (job->isOpen(closed))
        ++closed;
    window.ranks()->showRank(closed);
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->runCount(), 3, ovsTestTimeoutMs(30000));
    QVERIFY(window.document()->ranks()->isOpen(closed));
}
