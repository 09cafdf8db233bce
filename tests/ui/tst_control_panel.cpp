// The run controls: the request mirrors the knobs, impossible parameters are
// shown inline and keep Run disabled, running locks the knobs.
#include "panels/ControlPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

class TestControlPanel : public QObject {
    Q_OBJECT

    template <typename T>
    static T* child(const ControlPanel& panel, const char* name)
    {
        T* widget = panel.findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }

private slots:
    void defaultsAreTheSeeds()
    {
        ControlPanel panel;
        const RunRequest request = panel.request();
        QCOMPARE(request.deviceSpec, QString("sim:h200"));
        // The seed's two pipelines, as the CLI runs by default.
        QCOMPARE(request.pipelines.size(), std::size_t(2));
        QCOMPARE(request.pipelines[0].kind, PipelineKind::Serialized);
        QCOMPARE(request.pipelines[1].kind, PipelineKind::Overlapped);
        for (std::size_t i = 0; i < request.pipelines.size(); ++i) {
            QCOMPARE(request.pipelines[i].chunks, 8);
            QCOMPARE(request.pipelines[i].chunkBytes, 32ull << 20);
            QCOMPARE(request.pipelines[i].slotCount, 3);
            QCOMPARE(request.pipelines[i].stagingThreads, 1);
            QCOMPARE(request.pipelines[i].kernelRepeats, 1);
        }
        QVERIFY(!request.runBench);
        QCOMPARE(request.bench.sizes, (std::vector<std::uint64_t>{1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20,
                                                                   256ull << 20}));
        QVERIFY(panel.problem().isEmpty());
        QVERIFY(child<QPushButton>(panel, "run")->isEnabled());
        QVERIFY(!child<QPushButton>(panel, "cancel")->isEnabled());
        // Until the device listing arrives: the simulated presets.
        auto* device = child<QComboBox>(panel, "device");
        QVERIFY(device->count() >= 2);
        for (int i = 0; i < device->count(); ++i)
            QVERIFY(device->itemText(i).endsWith("[simulated]"));
    }

    void requestReflectsTheKnobs_data()
    {
        QTest::addColumn<bool>("serialized");
        QTest::addColumn<bool>("overlapped");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("chunkMiB");
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<int>("repeats");
        QTest::addColumn<bool>("bench");
        QTest::addColumn<QString>("sizes");
        QTest::addColumn<QString>("device");
        QTest::newRow("overlapped only") << false << true << 64 << 4 << 4 << 1 << false << "1" << "sim:h200";
        QTest::newRow("serialized only") << true << false << 1 << 1 << 1 << 20 << false << "1" << "sim:rtx4090";
        QTest::newRow("sweep only") << false << false << 8 << 32 << 3 << 1 << true << "2, 8;32  128" << "sim:h200";
        QTest::newRow("everything") << true << true << 16 << 8 << 8 << 3 << true << "1,4" << "sim:rtx4090";
    }

    void requestReflectsTheKnobs()
    {
        QFETCH(bool, serialized);
        QFETCH(bool, overlapped);
        QFETCH(int, chunks);
        QFETCH(int, chunkMiB);
        QFETCH(int, slotCount);
        QFETCH(int, repeats);
        QFETCH(bool, bench);
        QFETCH(QString, sizes);
        QFETCH(QString, device);
        ControlPanel panel;
        child<QCheckBox>(panel, "pipeline:serialized")->setChecked(serialized);
        child<QCheckBox>(panel, "pipeline:overlapped")->setChecked(overlapped);
        child<QSpinBox>(panel, "chunks")->setValue(chunks);
        child<QSpinBox>(panel, "chunkMiB")->setValue(chunkMiB);
        child<QSpinBox>(panel, "slots")->setValue(slotCount);
        child<QSpinBox>(panel, "kernelRepeats")->setValue(repeats);
        child<QCheckBox>(panel, "bench")->setChecked(bench);
        child<QLineEdit>(panel, "benchSizes")->setText(sizes);
        auto* combo = child<QComboBox>(panel, "device");
        combo->setCurrentIndex(combo->findData(device));

        const RunRequest request = panel.request();
        QCOMPARE(request.deviceSpec, device);
        QCOMPARE(request.pipelines.size(), std::size_t(serialized) + std::size_t(overlapped));
        if (serialized)
            QCOMPARE(request.pipelines.front().kind, PipelineKind::Serialized);
        if (overlapped)
            QCOMPARE(request.pipelines.back().kind, PipelineKind::Overlapped);
        for (const auto& config : request.pipelines) {
            QCOMPARE(config.chunks, chunks);
            QCOMPARE(config.chunkBytes, std::uint64_t(chunkMiB) << 20);
            QCOMPARE(config.slotCount, slotCount);
            QCOMPARE(config.kernelRepeats, repeats);
        }
        QCOMPARE(request.runBench, bench);
        QString error;
        QCOMPARE(request.bench.sizes, ControlPanel::parseSizes(sizes, &error));
        QVERIFY(panel.problem().isEmpty());
        QVERIFY(request.problem().isEmpty());

        QSignalSpy requested(&panel, &ControlPanel::runRequested);
        child<QPushButton>(panel, "run")->click();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).value<RunRequest>().pipelines.size(), request.pipelines.size());
        QCOMPARE(requested.at(0).at(0).value<RunRequest>().deviceSpec, device);
    }

    void everyStrategyCanBeChosenWithStagingThreads()
    {
        ControlPanel panel;
        for (const auto& kind : pipelineKinds()) {
            auto* box = child<QCheckBox>(panel, qPrintable(QString("pipeline:%1").arg(kind.id)));
            QCOMPARE(box->text(), QString::fromUtf8(kind.title));
            QCOMPARE(box->toolTip(), QString::fromUtf8(kind.description));
            box->setChecked(true);
        }
        child<QSpinBox>(panel, "stagingThreads")->setValue(4);
        const RunRequest request = panel.request();
        QCOMPARE(request.pipelines.size(), pipelineKinds().size());
        for (std::size_t i = 0; i < request.pipelines.size(); ++i) {
            QCOMPARE(request.pipelines[i].kind, pipelineKinds()[i].kind);
            QCOMPARE(request.pipelines[i].stagingThreads, 4);
        }
        QVERIFY(panel.problem().isEmpty());
        auto* threads = child<QSpinBox>(panel, "stagingThreads");
        QCOMPARE(threads->minimum(), 1);
        QCOMPARE(threads->maximum(), 64);
        panel.setRunning(true);
        QVERIFY(!threads->isEnabled());
    }

    void parseSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<qulonglong>>("mib");
        QTest::addColumn<QString>("error");
        QTest::newRow("seed") << "1, 4, 16, 64, 256" << QList<qulonglong>{1, 4, 16, 64, 256} << "";
        QTest::newRow("spaces") << " 2  8 " << QList<qulonglong>{2, 8} << "";
        QTest::newRow("empty") << " , " << QList<qulonglong>{} << "at least one";
        QTest::newRow("word") << "1, four" << QList<qulonglong>{} << "\u201cfour\u201d is not a whole number of MiB";
        QTest::newRow("fraction") << "1.5" << QList<qulonglong>{} << "not a whole number";
        QTest::newRow("zero") << "0" << QList<qulonglong>{} << "between 1 and 16384 MiB (got 0)";
        QTest::newRow("too big") << "32768" << QList<qulonglong>{} << "between 1 and 16384 MiB";
    }

    void parseSizes()
    {
        QFETCH(QString, text);
        QFETCH(QList<qulonglong>, mib);
        QFETCH(QString, error);
        QString message;
        const auto sizes = ControlPanel::parseSizes(text, &message);
        QCOMPARE(sizes.size(), std::size_t(mib.size()));
        for (int i = 0; i < mib.size(); ++i)
            QCOMPARE(sizes[std::size_t(i)], std::uint64_t(mib[i]) << 20);
        if (error.isEmpty())
            QVERIFY(message.isEmpty());
        else
            QVERIFY2(message.contains(error), qPrintable(message));
    }

    void problemsAreShownInline_data()
    {
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("chunkMiB");
        QTest::addColumn<bool>("anyPipeline");
        QTest::addColumn<bool>("bench");
        QTest::addColumn<QString>("sizes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("more than the host has") << 1'000'000 << 16384 << true << false << "1"
                                                << "of host memory";
        QTest::newRow("nothing to run") << 8 << 32 << false << false << "1" << "nothing to run";
        QTest::newRow("bad sweep sizes") << 8 << 32 << true << true << "1, x" << "Sweep sizes:";
    }

    void problemsAreShownInline()
    {
        QFETCH(int, chunks);
        QFETCH(int, chunkMiB);
        QFETCH(bool, anyPipeline);
        QFETCH(bool, bench);
        QFETCH(QString, sizes);
        QFETCH(QString, expected);
        ControlPanel panel;
        panel.show();
        auto* problem = child<QLabel>(panel, "problem");
        auto* run = child<QPushButton>(panel, "run");
        QVERIFY(!problem->isVisible());

        child<QSpinBox>(panel, "chunks")->setValue(chunks);
        child<QSpinBox>(panel, "chunkMiB")->setValue(chunkMiB);
        for (const auto& kind : pipelineKinds())
            child<QCheckBox>(panel, qPrintable(QString("pipeline:%1").arg(kind.id)))->setChecked(anyPipeline);
        child<QCheckBox>(panel, "bench")->setChecked(bench);
        child<QLineEdit>(panel, "benchSizes")->setText(sizes);

        QVERIFY2(panel.problem().contains(expected), qPrintable(panel.problem()));
        QVERIFY(problem->isVisible());
        QCOMPARE(problem->text(), panel.problem());
        QVERIFY(!run->isEnabled());
        QSignalSpy requested(&panel, &ControlPanel::runRequested);
        panel.requestRun();
        QCOMPARE(requested.count(), 0);

        // Putting it right clears the message.
        child<QSpinBox>(panel, "chunks")->setValue(2);
        child<QSpinBox>(panel, "chunkMiB")->setValue(1);
        child<QCheckBox>(panel, "pipeline:overlapped")->setChecked(true);
        child<QLineEdit>(panel, "benchSizes")->setText("1");
        QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
        QVERIFY(!problem->isVisible());
        QVERIFY(run->isEnabled());
    }

    void runningLocksTheKnobs()
    {
        ControlPanel panel;
        QSignalSpy cancelled(&panel, &ControlPanel::cancelRequested);
        QSignalSpy requested(&panel, &ControlPanel::runRequested);
        auto* run = child<QPushButton>(panel, "run");
        auto* cancel = child<QPushButton>(panel, "cancel");
        panel.setRunning(true);
        QVERIFY(panel.isRunning());
        QVERIFY(!run->isEnabled());
        QVERIFY(cancel->isEnabled());
        for (const char* name : {"device", "chunks", "chunkMiB", "slots", "kernelRepeats", "bench"})
            QVERIFY2(!child<QWidget>(panel, name)->isEnabled(), name);
        panel.requestRun();
        QCOMPARE(requested.count(), 0);

        panel.setProgress(0.25, "overlapped pinned: chunk 2 of 8");
        QCOMPARE(child<QProgressBar>(panel, "progress")->value(), 250);
        QCOMPARE(child<QLabel>(panel, "status")->text(), QString("overlapped pinned: chunk 2 of 8"));

        cancel->click();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!cancel->isEnabled()); // once is enough: the run is draining
        cancel->click();
        QCOMPARE(cancelled.count(), 1);

        panel.setRunning(false);
        panel.showFinished(false, "cancelled; kept what was recorded (0 of 2 runs completed)");
        QVERIFY(run->isEnabled());
        QVERIFY(!cancel->isEnabled());
        for (const char* name : {"device", "chunks", "chunkMiB", "slots", "kernelRepeats", "bench"})
            QVERIFY2(child<QWidget>(panel, name)->isEnabled(), name);
        QVERIFY(child<QLabel>(panel, "status")->text().startsWith("cancelled"));
    }

    void keyboardRunsAndCancels()
    {
        ControlPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy requested(&panel, &ControlPanel::runRequested);
        QSignalSpy cancelled(&panel, &ControlPanel::cancelRequested);
        auto* chunks = child<QSpinBox>(panel, "chunks");
        chunks->setFocus();
        QTest::keyClick(chunks, Qt::Key_Return);
        QCOMPARE(requested.count(), 1);
        QTest::keyClick(child<QLineEdit>(panel, "benchSizes"), Qt::Key_Enter);
        QCOMPARE(requested.count(), 2);

        panel.setRunning(true);
        QTest::keyClick(chunks, Qt::Key_Escape);
        QCOMPARE(cancelled.count(), 1);
    }

    void devicesFromTheListing()
    {
        ControlPanel panel;
        auto* combo = child<QComboBox>(panel, "device");
        auto* model = qobject_cast<QStandardItemModel*>(combo->model());
        QVERIFY(model);

        // No GPU: listed (so the user sees why) but not choosable.
        panel.setDevices({{"cuda", "CUDA GPU", false, "built without the CUDA toolkit"},
                          {"sim:h200", "Simulated H200 (PCIe Gen5) [simulated]", true, ""},
                          {"sim:rtx4090", "Simulated RTX 4090 [simulated]", true, ""}});
        QCOMPARE(combo->count(), 3);
        QVERIFY(!model->item(0)->isEnabled());
        QCOMPARE(combo->itemData(0, Qt::ToolTipRole).toString(), QString("built without the CUDA toolkit"));
        QCOMPARE(panel.request().deviceSpec, QString("sim:h200"));

        // A GPU answers: preferred until the user picks something else.
        const QList<DeviceListing> withGpu = {{"cuda:0", "NVIDIA H200", true, ""},
                                              {"sim:h200", "Simulated H200 (PCIe Gen5) [simulated]", true, ""},
                                              {"sim:rtx4090", "Simulated RTX 4090 [simulated]", true, ""}};
        panel.setDevices(withGpu);
        QCOMPARE(panel.request().deviceSpec, QString("cuda:0"));

        QTest::keyClick(combo, Qt::Key_Down); // the user picks the next one
        QCOMPARE(panel.request().deviceSpec, QString("sim:h200"));
        panel.setDevices(withGpu);
        QCOMPARE(panel.request().deviceSpec, QString("sim:h200"));
    }
};

QTEST_MAIN(TestControlPanel)
#include "tst_control_panel.moc"
