// Issue 12, the window's part, end to end on the simulator: the device
// choice lists the multi specs from core's listing (asked on a worker), a
// run on sim:h200x2 goes through RunController's worker and lands with ops on
// both GPUs, the timeline groups it by device, and the summary shows how the
// two GPUs shared the host. Threaded (runs work on threads).
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "panels/ControlPanel.h"
#include "panels/SummaryPanel.h"
#include "timeline/LaneRows.h"
#include "timeline/TimelinePlot.h"
#include "workers/RunController.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTreeWidget>
#include <QtTest>

#include <set>

using namespace ovs;
using namespace ovs::ui;

namespace {

constexpr int kTimeoutMs = 120'000;

QTreeWidget* summaryTable(SummaryPanel& panel)
{
    return panel.table();
}

} // namespace

class TestMultiGpuWindow : public QObject {
    Q_OBJECT

private slots:
    void deviceChoiceListsTheMultiSpecs()
    {
        TraceDocument document;
        RunController controller(&document);
        ControlPanel panel;
        connect(&controller, &RunController::devicesListed, &panel, &ControlPanel::setDevices);
        QSignalSpy listed(&controller, &RunController::devicesListed);
        controller.queryDevices();
        QTRY_COMPARE_WITH_TIMEOUT(listed.count(), 1, kTimeoutMs);

        auto* combo = panel.findChild<QComboBox*>(QStringLiteral("device"));
        QVERIFY(combo);
        auto* model = qobject_cast<QStandardItemModel*>(combo->model());
        QVERIFY(model);
        // Every simulated preset as a two-GPU host, choosable, "[simulated]".
        for (const char* spec : {"sim:h200x2", "sim:rtx4090x2"}) {
            const int index = combo->findData(QString::fromLatin1(spec));
            QVERIFY2(index >= 0, spec);
            QVERIFY(model->item(index)->isEnabled());
            QVERIFY2(combo->itemText(index).contains("[simulated]"), qPrintable(combo->itemText(index)));
        }
        // cuda:all is offered: choosable with a GPU, else listed greyed with
        // the reason (this build machine may have none).
        const int all = combo->findData(QStringLiteral("cuda:all"));
        const auto devices = listed.at(0).at(0).value<QList<DeviceListing>>();
        bool gpu = false;
        for (const auto& device : devices)
            gpu = gpu || (device.spec.rfind("cuda:", 0) == 0 && device.available);
        if (gpu) {
            QVERIFY(all >= 0);
            QVERIFY(model->item(all)->isEnabled());
        } else if (all >= 0) {
            QVERIFY(!model->item(all)->isEnabled());
            QVERIFY(!combo->itemData(all, Qt::ToolTipRole).toString().isEmpty());
        }
        // Choosing the two-GPU host reaches the request.
        combo->setCurrentIndex(combo->findData(QStringLiteral("sim:h200x2")));
        QCOMPARE(panel.request().deviceSpec, QStringLiteral("sim:h200x2"));
    }

    void windowRunOnTwoSimulatedGpus()
    {
        TraceDocument document;
        RunController controller(&document);
        ViewState view;
        TimelinePlot plot(&document, &view);
        SummaryPanel summary(&document);
        QSignalSpy finished(&controller, &RunController::finished);

        RunRequest request;
        request.deviceSpec = QStringLiteral("sim:h200x2");
        PipelineConfig config;
        config.kind = PipelineKind::Overlapped;
        config.chunks = 8;
        config.chunkBytes = 1ull << 20;
        config.slotCount = 3;
        request.pipelines = {config};
        QVERIFY(controller.start(request));
        QVERIFY(controller.isRunning()); // on the worker: start() returned at once
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));

        QCOMPARE(document.runCount(), 1);
        const RunTimeline& timeline = document.run(0);
        const Run& run = timeline.run();
        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
        QCOMPARE(run.deviceCount(), 2);
        QVERIFY(run.device.simulated && run.deviceAt(1).simulated);
        // Ops on stream lanes of both GPUs.
        std::set<int> devicesWithOps;
        for (int lane = 0; lane < timeline.laneCount(); ++lane)
            if (run.lanes[static_cast<std::size_t>(lane)].kind == LaneKind::Stream && !timeline.laneOps(lane).empty())
                devicesWithOps.insert(run.lanes[static_cast<std::size_t>(lane)].device);
        QCOMPARE(devicesWithOps, (std::set<int>{0, 1}));

        // The timeline groups it: GPU 0, GPU 1, then the host threads.
        // (The finished run replaces its live lanes, in device order; the
        // plot's throttled refresh relabels them.)
        plot.resize(1000, 700);
        plot.replot();
        const LaneRows* rows = plot.laneRows(0);
        QVERIFY(rows && rows->grouped());
        QVERIFY(*rows == LaneRows::of(run));
        const auto ticker = plot.runAxisRect(0)->axis(QCPAxis::atLeft)->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const auto labelsMatch = [&] {
            // Every lane's row labelled with its lane (the regions band's
            // rows, the pipeline's loop and chunks on each GPU's host
            // thread, carry labels of their own).
            int labelled = 0;
            for (int row = 0; row < rows->rowCount(); ++row) {
                const int lane = rows->laneAt(row);
                if (lane < 0)
                    continue;
                if (ticker->ticks().value(row) != QString::fromStdString(run.lanes[std::size_t(lane)].name))
                    return false;
                ++labelled;
            }
            return labelled == timeline.laneCount();
        };
        QTRY_VERIFY_WITH_TIMEOUT(labelsMatch(), kTimeoutMs);
        QCOMPARE(int(rows->headers.size()), 3);
        QVERIFY2(rows->headers[0].text.startsWith("GPU 0 \u00b7 ") && rows->headers[0].text.endsWith("[simulated]"),
                 qPrintable(rows->headers[0].text));
        QVERIFY(rows->headers[1].text.startsWith("GPU 1 \u00b7 "));
        QCOMPARE(rows->headers[2].device, -1);
        for (int row = rows->headers[0].row + 1; row < rows->headers[1].row; ++row)
            QCOMPARE(int(run.lanes[static_cast<std::size_t>(rows->laneAt(row))].device), 0);
        for (int row = rows->headers[2].row + 1; row < rows->rowCount(); ++row)
            QCOMPARE(run.lanes[static_cast<std::size_t>(rows->laneAt(row))].kind, LaneKind::HostThread);

        // The summary: the host-share column shown, per device in its tip,
        // and the diagnosis naming the shared resource.
        QTRY_VERIFY_WITH_TIMEOUT(!summary.isAnalysing(), kTimeoutMs);
        QTreeWidget* table = summaryTable(summary);
        QVERIFY(table);
        QVERIFY(!table->isColumnHidden(SummaryPanel::HostShareColumn));
        QTreeWidgetItem* item = table->topLevelItem(0);
        const QString cell = item->text(SummaryPanel::HostShareColumn);
        QVERIFY2(cell.contains("GB/s"), qPrintable(cell));
        const QString tip = item->toolTip(SummaryPanel::HostShareColumn);
        QVERIFY2(tip.contains("GPU 0 (") && tip.contains("GPU 1 (") && tip.contains("Host: "), qPrintable(tip));
        QVERIFY2(item->text(SummaryPanel::DeviceColumn).startsWith("2 \u00d7 ")
                     || table->isColumnHidden(SummaryPanel::DeviceColumn),
                 qPrintable(item->text(SummaryPanel::DeviceColumn)));
        const QString text = summary.summaryText();
        QVERIFY2(text.contains("(several GPUs): ") && (text.contains("host memory") || text.contains("link")),
                 qPrintable(text));
    }

    void cancelKeepsTheFinishedRun()
    {
        // Two pipelines on the two-GPU host; cancel once the second starts:
        // the first stays as it finished, on both GPUs; the second ends
        // cancelled with what it recorded. The timeline follows live.
        TraceDocument document;
        RunController controller(&document);
        ViewState view;
        TimelinePlot plot(&document, &view);
        plot.resize(900, 600);
        QSignalSpy finished(&controller, &RunController::finished);
        bool cancelled = false;
        connect(&document, &TraceDocument::runAdded, this, [&] {
            if (document.runCount() == 2 && !cancelled) {
                cancelled = true;
                controller.cancel();
            }
        });
        RunRequest request;
        request.deviceSpec = QStringLiteral("sim:h200x2");
        PipelineConfig config;
        config.chunks = 8;
        config.chunkBytes = 1ull << 20;
        request.pipelines = {config, config};
        request.pipelines[1].chunks = 64;
        request.pipelines[1].chunkBytes = 8ull << 20;
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(cancelled);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(finished.at(0).at(1).toString().contains("cancelled"), qPrintable(finished.at(0).at(1).toString()));
        QCOMPARE(document.runCount(), 2);
        const Run& first = document.run(0).run();
        QCOMPARE(first.status, RunStatus::Completed);
        QVERIFY2(first.verification.passed, first.verification.message.c_str());
        QCOMPARE(first.deviceCount(), 2);
        QCOMPARE(document.run(1).run().status, RunStatus::Cancelled);
        QVERIFY(!document.run(1).isLive());
        plot.replot();
        QVERIFY(plot.laneRows(0) && plot.laneRows(0)->grouped());
        // Whatever the cancelled run recorded is drawn, one row per lane.
        const LaneRows* second = plot.laneRows(1);
        QVERIFY(second);
        QCOMPARE(int(second->rowOfLane.size()), document.run(1).laneCount());
    }

    void singleDeviceRunHidesTheHostShare()
    {
        TraceDocument document;
        RunController controller(&document);
        SummaryPanel summary(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        RunRequest request;
        request.deviceSpec = QStringLiteral("sim:h200");
        PipelineConfig config;
        config.chunks = 4;
        config.chunkBytes = 1ull << 20;
        request.pipelines = {config};
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!summary.isAnalysing(), kTimeoutMs);
        QTreeWidget* table = summaryTable(summary);
        QVERIFY(table);
        QVERIFY(table->isColumnHidden(SummaryPanel::HostShareColumn));
        QVERIFY(!summary.summaryText().contains("(several GPUs)"));
    }
};

QTEST_MAIN(TestMultiGpuWindow)
#include "tst_multi_gpu_window.moc"
