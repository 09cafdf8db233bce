// The comparison table and the selected op's details, read back as the plain
// text the panels show.
#include "../TestTimeouts.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "models/AnalysisCache.h"
#include "models/OpeningView.h"
#include "words/ColumnHelp.h"
#include "panels/FindingsView.h"
#include "panels/OpDetailsPanel.h"
#include "panels/SourceOpener.h"
#include "panels/SummaryPanel.h"
#include "style/DisplayText.h"
#include "timeline/TimelinePlot.h"
#include "window/MainWindow.h"
#include "window/WhatIfController.h"

#include "words/JudgementWords.h"
#include "analysis/RunAnalysis.h"
#include "document/TimeFrame.h"
#include "pipeline/PipelineRunner.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

namespace {

DeviceInfo simulatedH200()
{
    DeviceInfo device;
    device.name = "Simulated H200 (PCIe Gen5)";
    device.simulated = true;
    device.preset = "h200";
    device.detail = "PCIe Gen5 x16 model";
    device.asyncEngineCount = 2;
    return device;
}

Run makeRun(const char* pipeline, const char* name, std::int64_t wallNs, RunStatus status = RunStatus::Completed)
{
    Run run;
    run.name = name;
    run.pipeline = pipeline;
    run.device = simulatedH200();
    run.timing = "simulated";
    run.params = {8, 32ull << 20, 3, 1, 1};
    run.status = status;
    run.timedBeginNs = 1'000'000;
    run.timedEndNs = run.timedBeginNs + wallNs;
    run.verification.checked = status == RunStatus::Completed;
    run.verification.passed = status == RunStatus::Completed;
    run.verification.message = status == RunStatus::Completed ? "verified: all 67108864 floats equal input + 1"
                                                              : "not verified: the run was cancelled";
    if (status == RunStatus::Cancelled)
        run.error = "cancelled by the user";
    run.lanes = {{"host", LaneKind::HostThread}, {"stream 0", LaneKind::Stream}};
    Op upload;
    upload.kind = OpKind::Upload;
    upload.lane = 1;
    upload.chunk = 0;
    upload.startNs = 1'500'000;
    upload.endNs = 1'500'000 + 610'000;
    upload.execStartNs = 1'520'000;
    upload.execEndNs = upload.endNs;
    upload.bytes = 32ull << 20;
    upload.memory = HostMemoryKind::Pinned;
    Op stage;
    stage.kind = OpKind::StageIn;
    stage.lane = 0;
    stage.chunk = 0;
    stage.startNs = 1'000'000;
    stage.endNs = 1'450'000;
    stage.bytes = 32ull << 20;
    stage.memory = HostMemoryKind::Pinned;
    run.ops = {stage, upload};
    run.sortOps();
    return run;
}

const int kTimeoutMs = ovsTestTimeoutMs(30'000);

QStringList rowOf(const SummaryPanel& panel, int row)
{
    return panel.summaryText().split('\n').at(2 + row).split('\t');
}

Run simulated(PipelineKind kind)
{
    SimDevice device(*findSimPreset("h200"));
    RecordSink sink;
    CancelFlag cancel;
    PipelineConfig config;
    config.kind = kind;
    config.chunks = 8;
    config.chunkBytes = 4 << 20;
    return runPipeline(device, config, sink, cancel);
}

} // namespace

class TestSummaryPanel : public QObject {
    Q_OBJECT

private slots:
    void emptyDocumentSaysWhatToDo()
    {
        TraceDocument document;
        SummaryPanel panel(&document);
        QVERIFY(panel.summaryText().startsWith("No runs yet"));
        QCOMPARE(panel.summaryText().split('\n').size(), 2); // the hint and the header
    }

    // The headers and their tooltips are core's one table of columns
    // (words/ColumnHelp), the CLI's legend's words, in column order.
    void headersAreCoresTable()
    {
        TraceDocument document;
        SummaryPanel panel(&document);
        const std::vector<ColumnHelp>& columns = summaryPanelColumns();
        QCOMPARE(panel.table()->columnCount(), int(SummaryPanel::ColumnCount));
        QCOMPARE(columns.size(), std::size_t(SummaryPanel::ColumnCount));
        for (int c = 0; c < SummaryPanel::ColumnCount; ++c) {
            const ColumnHelp& column = columns[static_cast<std::size_t>(c)];
            QCOMPARE(panel.table()->headerItem()->text(c), QString::fromUtf8(column.header.data(), column.header.size()));
            QCOMPARE(panel.table()->headerItem()->toolTip(c), QString::fromUtf8(column.help.data(), column.help.size()));
        }
        QCOMPARE(panel.table()->headerItem()->text(SummaryPanel::HostShareColumn), QString("GPUs together"));
    }

    void comparesRunsAsTheSeedsTable_data()
    {
        QTest::addColumn<QList<int>>("order"); // 0: serialized, 1: overlapped
        QTest::addColumn<QStringList>("speedups");
        QTest::newRow("serialized first") << QList<int>{0, 1} << QStringList{"1.00x", "3.44x"};
        QTest::newRow("overlapped first") << QList<int>{1, 0} << QStringList{"3.44x", "1.00x"};
        QTest::newRow("no baseline") << QList<int>{1} << QStringList{"\u2013"};
    }

    void comparesRunsAsTheSeedsTable()
    {
        QFETCH(QList<int>, order);
        QFETCH(QStringList, speedups);
        const Run runs[] = {makeRun("serialized", "serialized pageable", 322'000'000),
                            makeRun("overlapped", "overlapped pinned", 93'600'000)};
        Trace trace;
        for (int i : order)
            trace.runs.push_back(runs[i]);
        TraceDocument document;
        SummaryPanel panel(&document);
        document.setTrace(trace, "t.json");

        const QString text = panel.summaryText();
        QVERIFY2(text.contains("Simulated H200 (PCIe Gen5) [simulated]"), qPrintable(text));
        QVERIFY2(text.contains("PCIe Gen5 x16 model"), qPrintable(text));
        QVERIFY2(text.contains("timing: simulated"), qPrintable(text));
        for (int row = 0; row < order.size(); ++row) {
            const QStringList cells = rowOf(panel, row);
            QCOMPARE(cells.size(), int(SummaryPanel::ColumnCount));
            QCOMPARE(cells[SummaryPanel::RunColumn], QString::fromStdString(runs[order[row]].name));
            QCOMPARE(cells[SummaryPanel::DeviceColumn], QString("Simulated H200 (PCIe Gen5) [simulated]"));
            QCOMPARE(cells[SummaryPanel::StatusColumn], QString("completed"));
            QCOMPARE(cells[SummaryPanel::WallColumn], order[row] == 0 ? QString("322.000 ms") : QString("93.600 ms"));
            QCOMPARE(cells[SummaryPanel::SpeedupColumn], speedups[row]);
            QCOMPARE(cells[SummaryPanel::VerificationColumn], QString("verified: all 67108864 floats equal input + 1"));
            QCOMPARE(cells[SummaryPanel::OpsColumn], QString("2"));
        }
    }

    void speedupOnlyWithinOneWorkload()
    {
        Run serialized = makeRun("serialized", "serialized pageable", 322'000'000);
        Run overlapped = makeRun("overlapped", "overlapped pinned", 93'600'000);
        overlapped.params.chunks = 16; // another workload: nothing to compare with
        Trace trace;
        trace.runs = {serialized, overlapped};
        TraceDocument document;
        SummaryPanel panel(&document);
        document.setTrace(trace, "t.json");
        QCOMPARE(rowOf(panel, 1)[SummaryPanel::SpeedupColumn], QString("\u2013"));
    }

    // "Verified" is ours: a profiled or imported run has a dash, and why in
    // the tooltip (and the copied summary), never a red "not verified".
    void verificationOnlyForOurPipelines_data()
    {
        QTest::addColumn<QString>("pipeline");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("tooltip");
        QTest::addColumn<bool>("red");
        QTest::newRow("profiled") << "profile" << "not verified: a profiled program checks its own results"
                                  << "\u2014" << "A profiled program checks its own results. Verification applies only"
                                  << false;
        QTest::newRow("imported") << "pytorch" << "not verified: imported from a Kineto trace" << "\u2014"
                                  << "Imported from a Kineto trace. Verification applies only" << false;
        QTest::newRow("ours, not checked") << "overlapped" << "not verified: the run did not start" << "not verified"
                                           << "not verified: the run did not start" << true;
    }
    void verificationOnlyForOurPipelines()
    {
        QFETCH(QString, pipeline);
        QFETCH(QString, message);
        QFETCH(QString, word);
        QFETCH(QString, tooltip);
        QFETCH(bool, red);
        Run run = makeRun("overlapped", "a run", 40'000'000);
        run.pipeline = pipeline.toStdString();
        run.verification = {};
        run.verification.message = message.toStdString();
        Trace trace;
        trace.runs = {run};
        TraceDocument document;
        SummaryPanel panel(&document);
        document.setTrace(trace, "t.json");
        QTreeWidget* table = panel.table();
        QVERIFY(table);
        const QTreeWidgetItem* item = table->topLevelItem(0);
        QCOMPARE(item->text(SummaryPanel::VerificationColumn), word);
        QVERIFY2(item->toolTip(SummaryPanel::VerificationColumn).startsWith(tooltip),
                 qPrintable(item->toolTip(SummaryPanel::VerificationColumn)));
        QVERIFY(rowOf(panel, 0)[SummaryPanel::VerificationColumn].startsWith(tooltip));
        QCOMPARE(item->data(SummaryPanel::VerificationColumn, Qt::ForegroundRole).isValid(), red);
        QCOMPARE(item->data(SummaryPanel::StatusColumn, Qt::ForegroundRole).isValid(), red);
    }

    void liveAndCancelledRuns()
    {
        TraceDocument document;
        SummaryPanel panel(&document);
        const Run serialized = makeRun("serialized", "serialized pageable", 322'000'000);
        Run header = makeRun("overlapped", "overlapped pinned", 0);
        header.ops.clear();
        document.finishRun(document.beginRun(serialized), serialized);
        const int live = document.beginRun(header);
        QStringList cells = rowOf(panel, 1);
        QCOMPARE(cells[SummaryPanel::StatusColumn], QString("running"));
        QCOMPARE(cells[SummaryPanel::WallColumn], QString("\u2013"));
        QCOMPARE(cells[SummaryPanel::OpsColumn], QString("0"));

        const Run ops = makeRun("overlapped", "overlapped pinned", 0);
        document.addOps(live, ops.ops);
        QCOMPARE(rowOf(panel, 1)[SummaryPanel::OpsColumn], QString("2"));

        document.finishRun(live, makeRun("overlapped", "overlapped pinned", 40'000'000, RunStatus::Cancelled));
        cells = rowOf(panel, 1);
        QCOMPARE(cells[SummaryPanel::StatusColumn], QString("cancelled: cancelled by the user"));
        QCOMPARE(cells[SummaryPanel::SpeedupColumn], QString("\u2013")); // a cancelled run is not a result
        QCOMPARE(cells[SummaryPanel::VerificationColumn], QString("not verified: the run was cancelled"));
        QCOMPARE(rowOf(panel, 0)[SummaryPanel::SpeedupColumn], QString("1.00x"));

        document.clear();
        QCOMPARE(panel.summaryText().split('\n').size(), 2);
    }

    void overlapBoundAndDiagnosisPerRun()
    {
        Trace trace;
        trace.runs = {simulated(PipelineKind::Serialized), simulated(PipelineKind::Overlapped)};
        TraceDocument document;
        SummaryPanel panel(&document);
        document.setTrace(trace, "t.json");
        // Analysed on the panel's worker: the cells say so until it is back.
        QVERIFY(panel.isAnalysing());
        QCOMPARE(rowOf(panel, 0)[SummaryPanel::OverlapColumn], QString("\u2026"));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isAnalysing(), ovsTestTimeoutMs(5000));

        for (int row = 0; row < 2; ++row) {
            const Run& run = trace.runs[static_cast<std::size_t>(row)];
            const RunAnalysis a = analyzeRun(run, {}, &trace.runs[0]);
            const QStringList cells = rowOf(panel, row);
            QCOMPARE(cells.size(), int(SummaryPanel::ColumnCount));
            QCOMPARE(cells[SummaryPanel::OverlapColumn], QString("%1%").arg(a.metrics.overlapPercent, 0, 'f', 0));
            QCOMPARE(cells[SummaryPanel::BoundColumn], QString("%1x of bound").arg(a.findings.verdict.distance, 0, 'f', 2));
        }
        QCOMPARE(rowOf(panel, 0)[SummaryPanel::OverlapColumn], QString("0%"));
        QVERIFY(rowOf(panel, 1)[SummaryPanel::BoundColumn].startsWith("1.0"));

        // Under the table, one line per run: its name, then the diagnosis
        // (the findings are a panel of their own).
        const QStringList lines = panel.summaryText().split('\n');
        QCOMPARE(lines.size(), 2 + 2 + 2);
        QVERIFY2(lines[4].startsWith("serialized pageable: serialized: copies, kernels and host copies never overlap"),
                 qPrintable(lines[4]));
        QVERIFY2(lines[5].startsWith("overlapped pinned: host staging bound: "), qPrintable(lines[5]));
        const auto* label = panel.findChild<QLabel*>("diagnoses");
        QVERIFY(label);
        QVERIFY(label->isVisibleTo(&panel));
        QVERIFY2(label->text().contains("<b>overlapped pinned</b>: host staging bound: "), qPrintable(label->text()));

        document.clear();
        QCOMPARE(panel.summaryText().split('\n').size(), 2);
        QVERIFY(!label->isVisibleTo(&panel));
    }

    void oneAnalysisPerRunForEveryView()
    {
        // Two views of one document read one cache: each run is analysed
        // once, and both show the same.
        Trace trace;
        trace.runs = {simulated(PipelineKind::Serialized), simulated(PipelineKind::Overlapped)};
        TraceDocument document;
        SummaryPanel first(&document);
        SummaryPanel second(&document);
        AnalysisCache* cache = AnalysisCache::of(&document);
        QCOMPARE(AnalysisCache::of(&document), cache);
        QSignalSpy analysed(cache, &AnalysisCache::analysed);
        QSignalSpy idle(cache, &AnalysisCache::idle);
        document.setTrace(trace, "t.json");
        QVERIFY(first.isAnalysing() && second.isAnalysing());
        QTRY_VERIFY_WITH_TIMEOUT(idle.count() > 0, kTimeoutMs);
        QCOMPARE(analysed.count(), 2);
        QVERIFY(!first.isAnalysing());
        QCOMPARE(first.summaryText(), second.summaryText());
        QVERIFY(cache->analysisIfReady(0) && cache->analysisIfReady(1));

        // A run added later: only it is analysed.
        const Run third = simulated(PipelineKind::Overlapped);
        document.finishRun(document.beginRun(third), third);
        QTRY_COMPARE_WITH_TIMEOUT(analysed.count(), 3, kTimeoutMs);
        QCOMPARE(analysed.last().at(0).toInt(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!first.isAnalysing(), kTimeoutMs);
        QCOMPARE(analysed.count(), 3);
        QCOMPARE(first.summaryText(), second.summaryText());
    }

    void liveAndCancelledRunsHaveNoBound()
    {
        TraceDocument document;
        SummaryPanel panel(&document);
        const int live = document.beginRun(makeRun("overlapped", "overlapped pinned", 0));
        QStringList cells = rowOf(panel, 0);
        QCOMPARE(cells[SummaryPanel::OverlapColumn], QString("\u2013"));
        QCOMPARE(cells[SummaryPanel::BoundColumn], QString("\u2013"));
        QCOMPARE(panel.summaryText().split('\n').size(), 3); // no diagnosis while it runs

        document.finishRun(live, makeRun("overlapped", "overlapped pinned", 40'000'000, RunStatus::Cancelled));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isAnalysing(), ovsTestTimeoutMs(5000));
        cells = rowOf(panel, 0);
        QCOMPARE(cells[SummaryPanel::OverlapColumn], QString("\u2013"));
        QCOMPARE(cells[SummaryPanel::BoundColumn], QString("\u2013"));
        // Its diagnosis line (its findings follow it).
        QVERIFY2(panel.summaryText().contains("\noverlapped pinned: cancelled: cancelled by the user; the 2 ops recorded "
                                              "before it stopped are shown, but a partial run has no bound"),
                 qPrintable(panel.summaryText()));
    }

    void detailsOfTheSelectedOp()
    {
        TraceDocument document;
        ViewState view;
        OpDetailsPanel panel(&document, &view);
        QCOMPARE(panel.detailsText(), QString("Click an op in the timeline to see its details."));

        Trace trace;
        trace.runs = {makeRun("overlapped", "overlapped pinned", 93'600'000)};
        document.setTrace(trace, "t.json");
        view.setSelection({0, 1, 0}); // the upload on stream 0
        const QString text = panel.detailsText();
        for (const char* expected : {"Kind: Upload (HtoD)", "Run: overlapped pinned", "Lane: stream 0", "Chunk: 0",
                                     "Start: 1.500 ms", "End: 2.110 ms", "Duration: 610 \u00b5s", "Interval (ns): 1500000 .. 2110000",
                                     "Bytes: 32 MiB (33554432 B)", "Rate: 55.0 GB/s", "Host memory: pinned",
                                     "Engine ran: 1.520 ms to 2.110 ms (590 \u00b5s)", "Queued: 20.0 \u00b5s",
                                     "Engine rate: 56.9 GB/s", "Device: Simulated H200 (PCIe Gen5) [simulated]"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text));

        view.setSelection({0, 0, 0}); // the staging copy: host time only
        QVERIFY(panel.detailsText().contains("Kind: Stage in (host memcpy)"));
        QVERIFY(!panel.detailsText().contains("Engine ran"));

        // A selection the document no longer has falls back to the hint.
        document.clear();
        QCOMPARE(panel.detailsText(), QString("Click an op in the timeline to see its details."));
    }

    // The window's pinned rate (View > Pinned rate for the what-if, as the
    // CLI's --pinned-rate): every run is analysed again at it, and the
    // findings' cost says where the rate came from, before and after.
    // Each editor takes the line its own way; the variable may carry
    // arguments of its own.
    void editorCommands_data()
    {
        QTest::addColumn<QString>("editor");
        QTest::addColumn<QStringList>("command");
        const QString f = QStringLiteral("/home/me/train.py");
        QTest::newRow("vim") << "vim" << QStringList{"vim", "+42", f};
        QTest::newRow("emacsclient with arguments") << "emacsclient -n" << QStringList{"emacsclient", "-n", "+42", f};
        QTest::newRow("VS Code, by path") << "/usr/bin/code --wait" << QStringList{"/usr/bin/code", "--wait", "-g", f + ":42"};
        QTest::newRow("Kate") << "kate" << QStringList{"kate", "-l", "42", f};
        QTest::newRow("Sublime Text") << "subl" << QStringList{"subl", f + ":42"};
        QTest::newRow("none set") << "" << QStringList{};
    }

    void editorCommands()
    {
        QFETCH(QString, editor);
        QFETCH(QStringList, command);
        QCOMPARE(editorCommand(editor, QStringLiteral("/home/me/train.py"), 42), command);
    }

    // A finding's details list the lines its calls came from, a link each
    // where the file is on this machine, which opens it at the line in
    // $VISUAL; the PyTorch calls behind them; and the note without stacks.
    void findingDetailsListCallSites()
    {
        const TraceLoadResult loaded = loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/pytorch-pageable-sync.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QTemporaryDir dir;
        const QString here = dir.filePath(QStringLiteral("train.py"));
        QFile file(here);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        for (const bool withSites : {false, true}) {
            Trace trace = *loaded.trace;
            Run& run = trace.runs.at(0);
            if (withSites) {
                // Half the calls from a line here, half from one of another machine.
                run.stacksRecorded = true;
                run.sourceSites = {{here.toStdString(), 3, "step"}, {"/elsewhere/eval.py", 9, "evaluate"}};
                std::uint32_t k = 0;
                for (std::size_t i = 0; i < run.ops.size(); ++i)
                    if (run.ops[i].kind == OpKind::ApiCall) {
                        OpSource source = run.sourceOf(i) ? *run.sourceOf(i) : OpSource{};
                        source.site = 1 + (k++ % 2);
                        run.setSource(i, source);
                    }
            }
            TraceDocument document;
            FindingsView findings(&document);
            SummaryPanel panel(&document);
            document.setTrace(trace, "pytorch-pageable-sync.json");
            QTRY_VERIFY_WITH_TIMEOUT(!panel.isAnalysing(), kTimeoutMs);
            QTreeWidgetItem* runItem = findings.tree()->topLevelItem(0);
            QVERIFY(runItem);
            QTreeWidgetItem* pageable = nullptr;
            for (int i = 0; i < runItem->childCount(); ++i)
                if (runItem->child(i)->text(FindingsView::KindColumn) == toString(FindingKind::PageableCopies))
                    pageable = runItem->child(i);
            QVERIFY(pageable);
            findings.tree()->setCurrentItem(pageable);
            const QString text = findings.detailText();
            QVERIFY2(text.contains(QStringLiteral("In PyTorch: .cpu() / .to(\"cpu\") without non_blocking, from aten::copy_")),
                     qPrintable(text));
            QCOMPARE(text.contains(QStringLiteral("with_stack=True")), !withSites);
            QCOMPARE(text.contains(QStringLiteral("Called from:")), withSites);
            if (!withSites)
                continue;
            QVERIFY2(text.contains(here + QStringLiteral(":3 in step (")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("/elsewhere/eval.py:9 (not on this machine) in evaluate (")), qPrintable(text));
            auto* browser = findings.findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
            QVERIFY(browser);
            const QString html = browser->toHtml();
            // One link per source (a line's calls of two causes are two
            // sources), a file of another machine's too: it outlines the calls.
            const int links = int(html.count(QStringLiteral("href=\"source:")));
            QVERIFY(links >= 2);
            QCOMPARE(links, int(text.count(here + QStringLiteral(":3 in step (")))
                                + int(text.count(QStringLiteral("/elsewhere/eval.py:9 (not on this machine) in evaluate ("))));
            // The link opens the file at its line in $VISUAL (a script that writes what it was given).
            const QString out = dir.filePath(QStringLiteral("opened.txt"));
            const QString script = dir.filePath(QStringLiteral("editor.sh"));
            QFile editor(script);
            QVERIFY(editor.open(QIODevice::WriteOnly));
            editor.write(QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1'\n").arg(out).toUtf8());
            editor.close();
            QVERIFY(editor.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
            const QByteArray before = qgetenv("VISUAL");
            qputenv("VISUAL", script.toUtf8());
            // The link of a source of the file here.
            const auto analysed = AnalysisCache::of(&document)->analysisIfReady(0);
            QVERIFY(analysed);
            int here3 = -1;
            for (const Finding& f : analysed->analysis.findings.findings)
                if (f.kind == FindingKind::PageableCopies)
                    for (std::size_t k = 0; k < f.sources.size() && here3 < 0; ++k)
                        if (f.sources[k].file == here.toStdString())
                            here3 = static_cast<int>(k);
            QVERIFY(here3 >= 0);
            emit browser->anchorClicked(QUrl(QStringLiteral("source:%1").arg(here3)));
            QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo(out).size() > 0, qPrintable(findings.detailText()), kTimeoutMs);
            qputenv("VISUAL", before);
            QFile opened(out);
            QVERIFY(opened.open(QIODevice::ReadOnly));
            QCOMPARE(QString::fromUtf8(opened.readAll()), QStringLiteral("+3\n") + here + QLatin1Char('\n'));
        }
    }

    // An Nsight report's site has a function and a module, no line: the
    // details name both (never "line 0"), and choosing it outlines its
    // calls and their GPU ops and opens nothing, the module being no file
    // to edit (the stored 2022.2 export, recorded with CUDA backtraces).
    void findingDetailsNameAModuleWithoutLine()
    {
        const TraceLoadResult loaded =
            loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/nsight/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        TraceDocument document;
        FindingsView findings(&document);
        SummaryPanel panel(&document);
        document.setTrace(*loaded.trace, "saxpy.sqlite");
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isAnalysing(), kTimeoutMs);
        QTreeWidgetItem* runItem = findings.tree()->topLevelItem(0);
        QVERIFY(runItem);
        QTreeWidgetItem* sync = nullptr;
        for (int i = 0; i < runItem->childCount(); ++i)
            if (runItem->child(i)->text(FindingsView::KindColumn) == toString(FindingKind::SyncCopies))
                sync = runItem->child(i);
        QVERIFY(sync);
        findings.tree()->setCurrentItem(sync);
        const QString text = findings.detailText();
        QVERIFY2(text.contains(QStringLiteral(
                     "main in the module /global/u2/o/ocankur/apps/chatterbug/saxpy-mpi-cuda/saxpy-mpi-cuda (4 calls)")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("saxpy-mpi-cuda:0")), qPrintable(text));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("opened.txt"));
        const QString script = dir.filePath(QStringLiteral("editor.sh"));
        QFile editor(script);
        QVERIFY(editor.open(QIODevice::WriteOnly));
        editor.write(QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1'\n").arg(out).toUtf8());
        editor.close();
        QVERIFY(editor.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        const QByteArray before = qgetenv("VISUAL");
        qputenv("VISUAL", script.toUtf8());
        std::vector<std::vector<OpRef>> chosen;
        connect(&findings, &FindingsView::callSiteChosen, this,
                [&](int, const std::vector<OpRef>& ops) { chosen.push_back(ops); });
        findings.chooseCallSite(0);
        qputenv("VISUAL", before);
        QCOMPARE(chosen.size(), std::size_t(1));
        // The 4 synchronous copies and the copy each made.
        QCOMPARE(chosen.front().size(), std::size_t(8));
        QVERIFY(findings.detailText().contains(QStringLiteral("(4 calls) \u2014 outlined on the timeline")));
        QTest::qWait(200);
        QVERIFY(!QFileInfo::exists(out));
    }

    void aGivenPinnedRateJudgesAgain()
    {
        const TraceLoadResult loaded = loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/pytorch-pageable-sync.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        TraceDocument document;
        SummaryPanel panel(&document);
        FindingsView findings(&document);
        AnalysisCache* cache = AnalysisCache::of(&document);
        document.setTrace(*loaded.trace, "pytorch-pageable-sync.json");
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isAnalysing(), kTimeoutMs);
        const auto pageableTip = [&] {
            QTreeWidgetItem* run = findings.tree()->topLevelItem(0);
            for (int i = 0; run && i < run->childCount(); ++i)
                if (run->child(i)->text(FindingsView::KindColumn) == toString(FindingKind::PageableCopies))
                    return run->child(i)->toolTip(FindingsView::CostColumn);
            return QString();
        };
        QVERIFY2(pageableTip().endsWith("; rate assumed for H200 on PCIe Gen5 x16"), qPrintable(pageableTip()));
        QSignalSpy invalidated(cache, &AnalysisCache::invalidated);
        cache->setPinnedRates({25, 26});
        QCOMPARE(invalidated.count(), 1);
        cache->setPinnedRates({25, 26}); // the same: nothing to do again
        QCOMPARE(invalidated.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(cache->analysisIfReady(0) && !panel.isAnalysing(), kTimeoutMs);
        QCOMPARE(cache->analysisIfReady(0)->analysis.rates.pinnedH2DGBps, 25.0);
        QTRY_VERIFY_WITH_TIMEOUT(pageableTip().endsWith("; rate given: 25.0 GB/s H2D, 26.0 GB/s D2H"), kTimeoutMs);
    }

    void findingsOfAProfiledRunSelectTheirOps()
    {
        // A program recorded on the H200 by `overlapscope-cli profile`: its
        // copies are from pageable memory.
        const TraceLoadResult loaded =
            loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/pageable_async.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        MainWindow window;
        window.setInteractive(false);
        window.document()->setTrace(*loaded.trace, "pageable_async.json");
        QTRY_VERIFY_WITH_TIMEOUT(!window.summaryPanel()->isAnalysing(), kTimeoutMs);
        QTreeWidget* tree = window.findingsPanel()->tree();
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* runItem = tree->topLevelItem(0);
        QVERIFY2(runItem->text(FindingsView::RunColumn).startsWith(QStringLiteral("pageable_async (pid 2749) \u00b7 ")),
                 qPrintable(runItem->text(FindingsView::RunColumn)));

        // The same findings as the core's analysis, in its order.
        const Run& run = loaded.trace->runs[0];
        const RunFindings expected = analyzeFindings(run, loaded.trace->sweeps);
        QVERIFY(!expected.findings.empty());
        QCOMPARE(runItem->childCount(), static_cast<int>(expected.findings.size()));
        QTreeWidgetItem* pageable = nullptr;
        std::size_t pageableIndex = 0;
        for (int i = 0; i < runItem->childCount(); ++i) {
            const Finding& f = expected.findings[static_cast<std::size_t>(i)];
            QTreeWidgetItem* item = runItem->child(i);
            QCOMPARE(item->text(FindingsView::KindColumn), QString::fromStdString(findingWords(f)));
            QCOMPARE(item->text(FindingsView::CauseColumn), QString::fromStdString(f.cause).section('\n', 0, 0));
            QCOMPARE(item->toolTip(FindingsView::CauseColumn), QString::fromStdString(f.cause));
            QCOMPARE(item->text(FindingsView::OpsColumn), QString::number(f.opCount));
            QCOMPARE(item->data(FindingsView::CostColumn, FindingsView::CostNsRole).toLongLong(), f.costNs);
            // An estimate reads as one: "≈" before its cost, and its source says so.
            QCOMPARE(item->text(FindingsView::CostColumn).startsWith(QStringLiteral("\u2248 ")),
                     f.costSource == CostSource::Estimate);
            QCOMPARE(item->text(FindingsView::SourceColumn),
                     f.costSource == CostSource::Replay ? QString("replay") : QString("estimate"));
            if (f.kind == FindingKind::PageableCopies) {
                pageable = item;
                pageableIndex = static_cast<std::size_t>(i);
            }
        }
        QVERIFY(pageable);
        const QString text = window.findingsPanel()->textLines().join('\n');
        QVERIFY2(text.contains("Findings of pageable_async (pid 2749):"), qPrintable(text));

        // Choosing it highlights its ops (the pageable copies), selects the
        // first and zooms to them; the details give its whole text.
        ViewState* view = window.viewState();
        const Finding& f = expected.findings[pageableIndex];
        QVERIFY(window.findingsPanel()->detailText().isEmpty());
        tree->setCurrentItem(pageable);
        QVERIFY2(window.findingsPanel()->detailText().contains("Cause: " + QString::fromStdString(f.cause))
                     && window.findingsPanel()->detailText().contains("Fix: " + QString::fromStdString(f.fix)),
                 qPrintable(window.findingsPanel()->detailText()));
        QCOMPARE(view->highlight().size(), f.ops.size());
        const RunTimeline& timeline = window.document()->run(0);
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        std::int64_t last = 0;
        int copies = 0;
        for (const OpRef& ref : view->highlight()) {
            QCOMPARE(ref.run, 0);
            const Op& op = timeline.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
            // The copies, and the calls that issued them.
            QVERIFY(op.kind == OpKind::Upload || op.kind == OpKind::Download || op.kind == OpKind::ApiCall);
            if (op.kind != OpKind::ApiCall) {
                QCOMPARE(op.memory, HostMemoryKind::Pageable);
                ++copies;
            }
            first = std::min(first, op.startNs);
            last = std::max(last, op.endNs);
        }
        QCOMPARE(copies, 32);
        QCOMPARE(view->selection(), view->highlight().front());
        QVERIFY(view->visibleStartNs() <= first && view->visibleEndNs() >= last);
        QVERIFY(view->visibleEndNs() - view->visibleStartNs() < view->extentNs());

        // A finding of few ops zooms in closer than the whole run.
        const auto small = std::find_if(expected.findings.begin(), expected.findings.end(), [](const Finding& x) {
            return x.opCount == 1;
        });
        if (small != expected.findings.end()) {
            tree->setCurrentItem(runItem->child(static_cast<int>(small - expected.findings.begin())));
            QCOMPARE(view->highlight().size(), std::size_t(1));
        }

        if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            tree->setCurrentItem(pageable);
            window.resize(1500, 950);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) + "/window-finding.png"));
        }
        // Its what-if is drawn where the replay costed it; else the line
        // under the list says why not.
        tree->setCurrentItem(pageable);
        FindingsView* findings = window.findingsPanel();
        QCOMPARE(view->whatIf().isValid(), f.costSource == CostSource::Replay);
        if (f.costSource != CostSource::Replay)
            QVERIFY2(findings->detailText().contains("What if: none: "), qPrintable(findings->detailText()));

        // Choosing the run's row clears the highlight.
        tree->setCurrentItem(runItem);
        QVERIFY(view->highlight().empty());
        tree->setCurrentItem(pageable);
        QVERIFY(!view->highlight().empty());
        // A new document drops the findings and their highlight.
        window.document()->clear();
        QVERIFY(view->highlight().empty());
        QCOMPARE(tree->topLevelItemCount(), 0);
    }

    void choosingAFindingShowsItsWhatIf()
    {
        // A program recorded on the H200 with all its work on one stream:
        // the replay with a stream per chunk costs the finding.
        const TraceLoadResult loaded = loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/one_stream.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        MainWindow window;
        window.setInteractive(false);
        window.document()->setTrace(*loaded.trace, "one_stream.json");
        QTRY_VERIFY_WITH_TIMEOUT(!window.summaryPanel()->isAnalysing(), kTimeoutMs);
        const RunFindings expected = analyzeFindings(loaded.trace->runs[0], loaded.trace->sweeps);
        QVERIFY2(expected.whatIf.replayed, expected.whatIf.why.c_str());
        QTreeWidget* tree = window.findingsPanel()->tree();
        QTreeWidgetItem* runItem = tree->topLevelItem(0);
        QCOMPARE(runItem->childCount(), static_cast<int>(expected.findings.size()));
        const auto indexOf = [&](auto predicate) {
            const auto it = std::find_if(expected.findings.begin(), expected.findings.end(), predicate);
            return it == expected.findings.end() ? -1 : static_cast<int>(it - expected.findings.begin());
        };
        const int oneStream = indexOf([](const Finding& x) { return x.kind == FindingKind::OneStream; });
        const int noFix = indexOf([](const Finding& x) { return x.fixes == 0; });
        QVERIFY(oneStream >= 0 && noFix >= 0);
        const Finding& f = expected.findings[static_cast<std::size_t>(oneStream)];
        QCOMPARE(f.costSource, CostSource::Replay);

        // Chosen: the ghost under the run, the measured lanes first (the
        // fix adds streams), the saving in its title.
        ViewState* view = window.viewState();
        TimelinePlot* timeline = window.timeline();
        FindingsView* findings = window.findingsPanel();
        tree->setCurrentItem(runItem->child(oneStream));
        QCOMPARE(view->whatIf(), (WhatIfChoice{0, f.fixes}));
        QTRY_COMPARE_WITH_TIMEOUT(timeline->ghostRun(), 0, kTimeoutMs);
        const Run& measured = window.document()->run(0).run();
        const Run& ghost = timeline->ghostTimeline()->run();
        QVERIFY(ghost.lanes.size() >= measured.lanes.size());
        for (std::size_t i = 0; i < measured.lanes.size(); ++i)
            QCOMPARE(ghost.lanes[i].name, measured.lanes[i].name);
        const QString title = timeline->ghostTitleText();
        QVERIFY2(title.startsWith("what if: a stream per chunk \u2014 replay ") && title.contains(" saves "),
                 qPrintable(title));
        QVERIFY2(findings->detailText().contains("What if: a stream per chunk, drawn under the run"),
                 qPrintable(findings->detailText()));
        QVERIFY(timeline->ghostAxisRect()->outerRect().top() >= timeline->runAxisRect(0)->outerRect().bottom());

        // A finding with no fix to replay: none, and why.
        tree->setCurrentItem(runItem->child(noFix));
        QVERIFY(!view->whatIf().isValid());
        QCOMPARE(timeline->ghostRun(), -1);
        QVERIFY2(findings->detailText().contains("What if: none: no replayable fix: cost is an estimate"),
                 qPrintable(findings->detailText()));

        // Every fix at once, from the View menu.
        QAction* all = window.whatIf()->allFixesAction();
        QVERIFY(expected.whatIf.allFixes != 0);
        QVERIFY(all->isEnabled());
        all->trigger();
        QCOMPARE(view->whatIf(), (WhatIfChoice{0, expected.whatIf.allFixes}));
        QVERIFY(all->isChecked());
        QTRY_COMPARE_WITH_TIMEOUT(timeline->ghostRun(), 0, kTimeoutMs);
        all->trigger();
        QVERIFY(!view->whatIf().isValid());
        QCOMPARE(timeline->ghostRun(), -1);

        // Choosing another replaces it; the run's row clears it; so does a
        // new document.
        tree->setCurrentItem(runItem->child(oneStream));
        QTRY_COMPARE_WITH_TIMEOUT(timeline->ghostRun(), 0, kTimeoutMs);
        tree->setCurrentItem(runItem);
        QVERIFY(!view->whatIf().isValid());
        QCOMPARE(timeline->ghostRun(), -1);
        tree->setCurrentItem(runItem->child(oneStream));
        QTRY_COMPARE_WITH_TIMEOUT(timeline->ghostRun(), 0, kTimeoutMs);
        window.document()->clear();
        QVERIFY(!view->whatIf().isValid());
        QCOMPARE(timeline->ghostRun(), -1);
    }
    // A PyTorch loop profiled as steps (tests/data/profiled/regions): the
    // window opens on the whole run and frames the judged span once the
    // cache has judged it; the summary says what was judged and each step's
    // judgement in core's words; a step picked in the regions band shows
    // its own findings (judged on the cache's worker), and the link above
    // the list goes back to the judged span.
    void pickedRegionShowsItsOwnFindings()
    {
        const TraceLoadResult loaded =
            loadTrace(OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/regions/torch_steps.json");
        QVERIFY2(loaded.trace, loaded.error.c_str());
        const auto& runs = loaded.trace->runs;
        const int index = static_cast<int>(std::max_element(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
                                               return a.regions.size() < b.regions.size();
                                           }) - runs.begin());
        const Run& run = runs[static_cast<std::size_t>(index)];
        const RunAnalysis expected = analyzeRun(run, loaded.trace->sweeps, nullptr);
        QCOMPARE(expected.regions.size(), std::size_t(1));
        const RegionJudgement& steps = expected.regions.front();

        MainWindow window;
        window.setInteractive(false);
        ViewState* view = window.viewState();
        window.document()->setTrace(*loaded.trace, "torch_steps.json");
        // Not judged yet (that is the worker's): the whole run shows.
        QVERIFY(view->visibleStartNs() <= 0 && view->visibleEndNs() >= window.document()->endNs());
        QTRY_VERIFY_WITH_TIMEOUT(!window.summaryPanel()->isAnalysing(), kTimeoutMs);
        const AnalysisCache* cache = AnalysisCache::of(window.document());
        const AxisSpan opening = openingView(*window.document(), *cache);
        QVERIFY(!opening.isEmpty());
        // Framed (moved inside the extent where its margin runs past the end).
        const AxisSpan judged = judgedAxisSpan(*window.document(), index, *cache);
        QVERIFY(view->visibleStartNs() <= judged.startNs && view->visibleEndNs() >= judged.endNs);
        QCOMPARE(view->visibleEndNs() - view->visibleStartNs(), opening.endNs - opening.startNs);
        QVERIFY(opening.endNs - opening.startNs < window.document()->endNs() / 2);

        const QString text = window.summaryPanel()->summaryText();
        QVERIFY2(text.contains(QString::fromStdString(judgedSentence(run, expected))), qPrintable(text));
        for (const WordsLine& line : regionJudgementWords(run, steps))
            QVERIFY2(text.contains(QString::fromStdString(line.text)), qPrintable(QString::fromStdString(line.text)));
        FindingsView* findings = window.findingsPanel();
        QVERIFY2(findings->scopeText().startsWith("Findings over each run's judged span"),
                 qPrintable(findings->scopeText()));
        if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            window.resize(1500, 950);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) + "/window-judged.png"));
        }
        QTreeWidget* tree = findings->tree();

        // The slowest step, picked: judged alone, as core judges each step.
        const std::uint32_t slowest = steps.slowestRegion;
        const QString name = QString::fromStdString(run.regions[slowest].name);
        view->setSelectedRegion({index, static_cast<int>(slowest)});
        QCOMPARE(findings->shownRegion(), (RegionRef{index, static_cast<int>(slowest)}));
        QVERIFY2(findings->scopeText().contains("analysing"), qPrintable(findings->scopeText()));
        QTRY_VERIFY_WITH_TIMEOUT(!findings->scopeText().contains("analysing"), kTimeoutMs);
        QVERIFY2(findings->scopeText().startsWith("Findings of " + name + " alone"), qPrintable(findings->scopeText()));
        const RunAnalysis one = judgeRegionInstance(run, expected.rates, slowest, regionSpan(run, slowest));
        QCOMPARE(spanNs(one.judged.span.beginNs, one.judged.span.endNs), steps.slowestNs);
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* stepItem = tree->topLevelItem(0);
        QVERIFY2(stepItem->text(FindingsView::RunColumn).startsWith(name + " in "),
                 qPrintable(stepItem->text(FindingsView::RunColumn)));
        QCOMPARE(stepItem->childCount(), static_cast<int>(one.findings.findings.size()));
        QVERIFY(!one.findings.findings.empty());
        for (int i = 0; i < stepItem->childCount(); ++i) {
            const Finding& f = one.findings.findings[static_cast<std::size_t>(i)];
            QCOMPARE(stepItem->child(i)->text(FindingsView::KindColumn), QString::fromStdString(findingWords(f)));
            QCOMPARE(stepItem->child(i)->toolTip(FindingsView::CauseColumn), QString::fromStdString(f.cause));
        }
        QVERIFY(window.findingsPanel()->textLines().join('\n').contains("Findings of " + name + " in "));
        // A finding of the step outlines the step's ops, and draws no ghost
        // (the replay is of the judged span).
        const auto withOps = std::find_if(one.findings.findings.begin(), one.findings.findings.end(),
                                          [](const Finding& f) { return !f.ops.empty(); });
        QVERIFY(withOps != one.findings.findings.end());
        tree->setCurrentItem(stepItem->child(static_cast<int>(withOps - one.findings.findings.begin())));
        QVERIFY(!view->highlight().empty());
        const RunTimeline& timeline = window.document()->run(index);
        for (const OpRef& ref : view->highlight()) {
            const Op& op = timeline.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
            QVERIFY(op.startNs >= one.judged.span.beginNs && op.startNs <= one.judged.span.endNs);
        }
        QVERIFY(!view->whatIf().isValid());
        if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            window.resize(1500, 950);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) + "/window-region-findings.png"));
        }

        // Back, by the link: the band's pick is put down, the judged span's
        // findings are listed again.
        auto* scope = findings->findChild<QLabel*>("findingsScope");
        QVERIFY(scope);
        emit scope->linkActivated(QStringLiteral("judged"));
        QVERIFY(!view->selectedRegion().isValid());
        QCOMPARE(findings->shownRegion(), RegionRef{});
        QVERIFY(view->highlight().empty());
        QCOMPARE(tree->topLevelItemCount(), static_cast<int>(runs.size()));
        QTreeWidgetItem* runItem = tree->topLevelItem(index);
        QVERIFY(runItem->text(FindingsView::RunColumn).startsWith(displayText(run.name) + " \u00b7 "));
        QCOMPARE(runItem->childCount(), static_cast<int>(expected.findings.findings.size()));
        // And by Escape's way (the pick cleared), from another step.
        view->setSelectedRegion({index, static_cast<int>(steps.medianRegion)});
        QCOMPARE(findings->shownRegion().index, static_cast<int>(steps.medianRegion));
        view->setSelectedRegion({});
        QCOMPARE(findings->shownRegion(), RegionRef{});
    }
};

QTEST_MAIN(TestSummaryPanel)
#include "tst_summary_panel.moc"
