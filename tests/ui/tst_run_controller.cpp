// The seam between the window and the device: runs on the simulated H200
// fill the document live, batch by batch, from a worker thread; cancel,
// refusals and device errors come back as signals; the GUI thread never waits.
#include "../TestTimeouts.h"
#include "UiTestSupport.h"
#include "document/TraceDocument.h"
#include "workers/RunController.h"

#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include <memory>

using namespace ovs;
using namespace ovs::ui;

namespace {

const int kTimeoutMs = ovsTestTimeoutMs(60'000);

RunRequest pipelinesRequest(int chunks, int chunkMiB)
{
    RunRequest request;
    request.deviceSpec = "sim:h200";
    for (const auto& info : pipelineKinds()) {
        PipelineConfig config;
        config.kind = info.kind;
        config.chunks = chunks;
        config.chunkBytes = std::uint64_t(chunkMiB) << 20;
        config.slotCount = 3;
        request.pipelines.push_back(config);
    }
    return request;
}

RunRequest sweepRequest()
{
    RunRequest request;
    request.deviceSpec = "sim:h200";
    request.runBench = true;
    request.bench.sizes = {1ull << 20, 2ull << 20};
    request.bench.warmups = 0;
    request.bench.samples = 2;
    return request;
}

} // namespace

class TestRunController : public QObject {
    Q_OBJECT

private slots:
    void runsFillTheDocumentAndVerify()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy started(&controller, &RunController::started);
        QSignalSpy finished(&controller, &RunController::finished);
        QSignalSpy progress(&controller, &RunController::progress);
        QSignalSpy added(&document, &TraceDocument::runAdded);

        QVERIFY(controller.start(pipelinesRequest(4, 1)));
        QCOMPARE(started.count(), 1);
        QVERIFY(controller.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(!controller.isRunning());

        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        const QString message = finished.at(0).at(1).toString();
        const int strategies = static_cast<int>(pipelineKinds().size());
        QVERIFY2(message.startsWith(QString("%1 runs verified").arg(strategies)), qPrintable(message));
        QVERIFY2(message.contains("[simulated]"), qPrintable(message));
        QCOMPARE(added.count(), strategies);
        QCOMPARE(document.runCount(), strategies);
        for (int i = 0; i < document.runCount(); ++i) {
            const RunTimeline& run = document.run(i);
            QVERIFY(!run.isLive());
            QCOMPARE(run.run().status, RunStatus::Completed);
            QVERIFY2(run.run().verification.passed, run.run().verification.message.c_str());
            QVERIFY(run.run().device.simulated);
            QVERIFY(run.opCount() > 0);
            QCOMPARE(run.run().params.chunks, 4);
        }
        QCOMPARE(document.run(0).run().pipeline, std::string("serialized"));
        QCOMPARE(document.run(1).run().pipeline, std::string("overlapped"));
        QVERIFY(document.isModified());

        // Progress covers the whole request, in order, ending at 1.
        QVERIFY(progress.count() >= 8);
        double last = -1;
        for (const auto& args : progress) {
            const double fraction = args.at(0).toDouble();
            QVERIFY(fraction >= 0 && fraction <= 1);
            QVERIFY2(fraction >= last, qPrintable(QString("%1 after %2").arg(fraction).arg(last)));
            last = fraction;
        }
        QCOMPARE(last, 1.0);
    }

    void runsSpreadOverTwoSimulatedGpus()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        RunRequest request = pipelinesRequest(4, 1);
        request.deviceSpec = "sim:h200x2";
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(message));
        QVERIFY2(message.contains("2 GPUs"), qPrintable(message));
        QCOMPARE(document.runCount(), static_cast<int>(pipelineKinds().size()));
        for (int i = 0; i < document.runCount(); ++i) {
            const Run& run = document.run(i).run();
            QVERIFY2(run.verification.passed, run.verification.message.c_str());
            QCOMPARE(run.deviceCount(), 2);
            QVERIFY(std::any_of(run.lanes.begin(), run.lanes.end(),
                                [](const Lane& lane) { return lane.kind == LaneKind::Stream && lane.device == 1; }));
        }
    }

    void opsArriveLiveInBatches()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        int changes = 0;
        int liveOpBatches = 0;
        std::size_t lastOps = 0;
        connect(&document, &TraceDocument::runChanged, this, [&](int run) {
            ++changes;
            const RunTimeline& timeline = document.run(run);
            if (timeline.isLive() && timeline.opCount() > lastOps) {
                ++liveOpBatches;
                lastOps = timeline.opCount();
            }
            if (!timeline.isLive())
                lastOps = 0;
        });

        const RunRequest request = pipelinesRequest(48, 4);
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(finished.at(0).at(0).toBool());

        std::size_t totalOps = 0;
        for (int i = 0; i < document.runCount(); ++i)
            totalOps += document.run(i).opCount();
        // Ops showed while the runs were going, in more than one batch, and in
        // far fewer batches than there are ops.
        QVERIFY2(liveOpBatches >= 2, qPrintable(QString::number(liveOpBatches)));
        QVERIFY2(std::size_t(liveOpBatches) * 4 < totalOps,
                 qPrintable(QString("%1 batches for %2 ops").arg(liveOpBatches).arg(totalOps)));
        QVERIFY(changes > liveOpBatches);
    }

    void sweepFillsPointByPoint()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        std::vector<std::size_t> seen;
        connect(&document, &TraceDocument::sweepsChanged, this, [&] {
            if (!document.sweeps().empty())
                seen.push_back(document.sweeps().back().points.size());
        });

        QVERIFY(controller.start(sweepRequest()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QVERIFY2(finished.at(0).at(1).toString().contains("bandwidth sweep of 10 cells measured"),
                 qPrintable(finished.at(0).at(1).toString()));

        QCOMPARE(document.runCount(), 0);
        QCOMPARE(document.sweeps().size(), std::size_t(1));
        const BandwidthSweep& sweep = document.sweeps().front();
        QCOMPARE(sweep.points.size(), std::size_t(10)); // 2 sizes x (2 pageable + 2 pinned + bidir)
        QCOMPARE(sweep.timing, std::string("simulated"));
        for (const auto& point : sweep.points)
            QVERIFY(point.gbps > 0);
        // Header, then every cell as it was measured, then the finished sweep.
        for (std::size_t cells = 0; cells <= 10; ++cells)
            QVERIFY2(std::find(seen.begin(), seen.end(), cells) != seen.end(), qPrintable(QString::number(cells)));
    }

    void cancelMidRunKeepsWhatWasRecorded()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        bool cancelled = false;
        connect(&document, &TraceDocument::runChanged, this, [&] {
            if (!cancelled) {
                cancelled = true;
                controller.cancel();
            }
        });

        QVERIFY(controller.start(pipelinesRequest(64, 8)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(cancelled);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(finished.at(0).at(1).toString().contains("cancelled"), qPrintable(finished.at(0).at(1).toString()));
        // The first run ends Cancelled; the second never starts.
        QCOMPARE(document.runCount(), 1);
        QCOMPARE(document.run(0).run().status, RunStatus::Cancelled);
        QVERIFY(!document.run(0).isLive());
        QVERIFY(document.run(0).opCount() < std::size_t(64 * 3));

        // The controller is ready for the next request.
        QVERIFY(controller.start(pipelinesRequest(2, 1)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
        QVERIFY2(finished.at(1).at(0).toBool(), qPrintable(finished.at(1).at(1).toString()));
        QCOMPARE(document.runCount(), 1 + static_cast<int>(pipelineKinds().size()));
    }

    void deviceErrors_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown device") << "gpu0" << "unknown device 'gpu0'";
        QTest::newRow("unknown preset") << "sim:a100x" << "unknown simulator preset 'a100x'";
        QTest::newRow("bad ordinal") << "cuda:one" << "bad device 'cuda:one'";
    }

    void deviceErrors()
    {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy started(&controller, &RunController::started);
        QSignalSpy finished(&controller, &RunController::finished);
        RunRequest request = pipelinesRequest(2, 1);
        request.deviceSpec = spec;
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(started.count(), 1);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(message.contains("unknown") || message.contains("expected cuda:N"));
        QCOMPARE(document.runCount(), 0);
        QVERIFY(!controller.isRunning());
    }

    void cudaWithoutGpuSaysWhatToDo()
    {
        std::string why;
        if (cudaDeviceAvailable(&why))
            QSKIP("a CUDA GPU answers here");
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        RunRequest request = pipelinesRequest(2, 1);
        request.deviceSpec = "cuda";
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("no CUDA GPU available") && message.contains("sim"), qPrintable(message));
    }

    void impossibleRequestsAreRefused_data()
    {
        QTest::addColumn<RunRequest>("request");
        QTest::addColumn<QString>("expected");
        RunRequest noChunks = pipelinesRequest(2, 1);
        noChunks.pipelines.back().chunks = 0;
        QTest::newRow("no chunks") << noChunks << "chunk count must be between 1 and 1000000";
        RunRequest badSlots = pipelinesRequest(2, 1);
        badSlots.pipelines.back().slotCount = 65;
        QTest::newRow("too many slots") << badSlots << "slot count must be between 1 and 64";
        RunRequest nothing;
        QTest::newRow("nothing to run") << nothing << "nothing to run";
        RunRequest noSizes = sweepRequest();
        noSizes.bench.sizes.clear();
        QTest::newRow("sweep without sizes") << noSizes << "no transfer sizes";
        RunRequest noDevice = pipelinesRequest(2, 1);
        noDevice.deviceSpec = " ";
        QTest::newRow("no device") << noDevice << "no device";
    }

    void impossibleRequestsAreRefused()
    {
        QFETCH(RunRequest, request);
        QFETCH(QString, expected);
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy started(&controller, &RunController::started);
        QSignalSpy refused(&controller, &RunController::refused);
        QVERIFY(!controller.start(request));
        QCOMPARE(refused.count(), 1);
        QVERIFY2(refused.at(0).at(0).toString().contains(expected), qPrintable(refused.at(0).at(0).toString()));
        QCOMPARE(started.count(), 0);
        QVERIFY(!controller.isRunning());
    }

    void startWhileRunningIsRefused()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy started(&controller, &RunController::started);
        QSignalSpy refused(&controller, &RunController::refused);
        QSignalSpy finished(&controller, &RunController::finished);
        QVERIFY(controller.start(pipelinesRequest(64, 8)));
        QVERIFY(!controller.start(pipelinesRequest(2, 1)));
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.at(0).at(0).toString().contains("already in progress"));
        QCOMPARE(started.count(), 1);
        QCOMPARE(finished.count(), 0);
        controller.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QCOMPARE(started.count(), 1);
    }

    void guiThreadStaysResponsive()
    {
        // A sweep that cannot end on its own while the test waits (10,000
        // samples of 64 MiB in each of its cells: terabytes of copies, many
        // minutes), after a first size whose cells are over at once. A timer on the GUI thread counts its ticks
        // once that cell's point is in the document with the sweep still
        // going, and after a few cancels it: the run ends cancelled only if
        // the GUI thread's event loop turned while the worker was mid-run.
        // Had start() done the work itself, it would not have returned.
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        RunRequest request;
        request.runBench = true;
        request.bench.sizes = {sizeof(float), 64ull << 20};
        request.bench.warmups = 0;
        request.bench.samples = kMaxSamples;
        int ticksWhileLive = 0;
        QTimer timer;
        timer.setInterval(5);
        connect(&timer, &QTimer::timeout, this, [&] {
            const bool pointArrived = !document.sweeps().empty() && !document.sweeps().front().points.empty();
            if (!pointArrived || !controller.isRunning() || !finished.isEmpty())
                return;
            if (++ticksWhileLive == 3)
                controller.cancel();
        });
        timer.start();
        QVERIFY(controller.start(request));
        QVERIFY(finished.wait(kTimeoutMs));
        timer.stop();
        QVERIFY2(ticksWhileLive >= 3, qPrintable(QString("%1 ticks while the sweep ran").arg(ticksWhileLive)));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.startsWith("cancelled"), qPrintable(message));
    }

    void destroyingDuringARunCancelsAndWaits()
    {
        TraceDocument document;
        auto controller = std::make_unique<RunController>(&document);
        bool sawOps = false;
        connect(&document, &TraceDocument::runChanged, this, [&](int run) { sawOps = document.run(run).opCount() > 0; });
        QVERIFY(controller->start(pipelinesRequest(64, 8)));
        QTRY_VERIFY_WITH_TIMEOUT(sawOps, kTimeoutMs);
        controller.reset(); // must neither crash nor leave the worker touching freed memory
        QCOMPARE(document.runCount(), 1);
        // Nothing arrives after the controller is gone: the worker has
        // ended, so whatever it sent is posted already, and none of it lands.
        const std::size_t ops = document.run(0).opCount();
        QVERIFY(ovs::test::deliverPostedEvents(kTimeoutMs));
        QCOMPARE(document.run(0).opCount(), ops);
    }

    void documentResetDuringARunDropsTheRest()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy finished(&controller, &RunController::finished);
        bool cleared = false;
        connect(&document, &TraceDocument::runChanged, this, [&] {
            if (!cleared) {
                cleared = true;
                QTimer::singleShot(0, &document, &TraceDocument::clear);
            }
        });
        RunRequest request = pipelinesRequest(16, 2);
        request.pipelines.resize(1);
        QVERIFY(controller.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
        QVERIFY(cleared);
        QCOMPARE(document.runCount(), 0);
    }

    void devicesAreListedOnAWorker()
    {
        TraceDocument document;
        RunController controller(&document);
        QSignalSpy listed(&controller, &RunController::devicesListed);
        controller.queryDevices();
        QVERIFY(controller.isListingDevices());
        controller.queryDevices(); // ignored while the first is going
        // Idle again only once every listing asked for has been delivered.
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isListingDevices(), kTimeoutMs);
        QCOMPARE(listed.count(), 1);
        const auto devices = listed.at(0).at(0).value<QList<DeviceListing>>();
        bool sawH200 = false;
        for (const auto& device : devices) {
            if (device.spec == "sim:h200") {
                sawH200 = true;
                QVERIFY(device.available);
                QVERIFY(QString::fromStdString(device.label).endsWith("[simulated]"));
            }
        }
        QVERIFY(sawH200);
    }
};

QTEST_MAIN(TestRunController)
#include "tst_run_controller.moc"
