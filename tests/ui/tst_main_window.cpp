// The window as a user drives it: open good and bad traces (the view is kept
// on failure), run on the simulated device and watch the timeline fill, cancel.
#include "../TestRankFolder.h"
#include "../TestTimeouts.h"
#include "charts/OpRateChart.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "panels/ControlPanel.h"
#include "panels/RanksPanel.h"
#include "panels/SummaryPanel.h"
#include "timeline/TimelinePlot.h"
#include "window/AppSetup.h"
#include "window/MainWindow.h"
#include "window/RanksController.h"
#include "workers/RankLoader.h"
#include "workers/RunController.h"
#include "workers/TraceLoader.h"

#include "formats/TraceJson.h"
#include "ranks/RankFolder.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QStyle>
#include <QTreeWidget>
#include <QtTest>

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
        QCoreApplication::setOrganizationName("OverlapScopeTest");
        setUpApplicationFont();
    }

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
        // At the size the window opens with, no column of the summary is
        // cut: each gets at least what its contents need.
        MainWindow window;
        window.setInteractive(false);
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
