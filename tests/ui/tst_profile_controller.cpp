// File > Profile program… without a GPU: the dialog's request (arguments
// split like a shell, environment lines, problems), and the worker that runs
// the program under the injection library and fills the document live. The
// "program" is a shell that copies a hand-made record stream where the
// injection library would write it (see TestProfileStream.h), so the live
// fill, cancel and the messages are exercised for real; a program that never
// touches CUDA gives a run with a note.
#include "../TestTimeouts.h"
#include "../TestProfileStream.h"

#include "document/TraceDocument.h"
#include "panels/ControlPanel.h"
#include "window/MainWindow.h"
#include "window/ProfileDialog.h"
#include "workers/ProfileController.h"

#include "devicefactory/DeviceFactory.h"
#include "formats/TraceJson.h"

#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QStatusBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cerrno>
#include <csignal>

using namespace ovs;
using namespace ovs::ui;
using ovs::test::TestProfileStream;

namespace {

const int kTimeoutMs = ovsTestTimeoutMs(60'000);

// Any existing file stands in for the injection library where the program
// never initializes CUDA: the driver is never asked to load it.
QString fakeInjection()
{
    return QStringLiteral(OVERLAPSCOPE_GUI_PATH);
}

ProfileRequest shellRequest(const QString& script, const QString& extraArgs = {})
{
    ProfileRequest r;
    r.program = QStringLiteral("/bin/sh");
    r.arguments = QStringLiteral("-c '%1'").arg(script) + (extraArgs.isEmpty() ? QString() : " " + extraArgs);
    r.injectionLibrary = fakeInjection();
    return r;
}

// One process's stream, as the injection library writes it, with no end
// record: the process is still running. Its CUPTI clock maps one second
// after now, so its ops land after the profile's start.
void writeStream(const QString& path)
{
    const std::int64_t soon = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count()
                              + 1000000000;
    TestProfileStream s(4242, 1, std::string_view("./pageable_async\0--chunks\0" "8", 27));
    s.clock(1000000, soon);
    s.context(1, 0, 7);
    s.api(1000100, 1000900, "cudaMemcpyAsync", 4242, 1);
    s.memcpy(1000200, 1000800, profile::kCopyHtoD, profile::kMemoryPageable, profile::kMemoryDevice, 13, 1);
    s.kernel(1001000, 1003000, "scale(float*, int)", 13, 2);
    s.appendTo(path.toStdString());
}

} // namespace

class TestProfileController : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings away from the user's
        QCoreApplication::setOrganizationName("OverlapScopeTest");
        QCoreApplication::setApplicationName("tst_profile_controller");
        QVERIFY(m_dir.isValid());
    }

    void requestProblems_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("environment");
        QTest::addColumn<QString>("problem"); // a part of it; empty: none
        QTest::newRow("fine") << "./app" << "--n 3 \"a b\"" << "" << "A=1\n\n# note\nB=x=y" << "";
        QTest::newRow("no program") << "  " << "" << "" << "" << "no program";
        QTest::newRow("open double quote") << "app" << "\"a b" << "" << "" << "double quote";
        QTest::newRow("open single quote") << "app" << "it's" << "" << "" << "single quote";
        QTest::newRow("not NAME=VALUE") << "app" << "" << "" << "A=1\nnot an assignment" << "'not an assignment'";
        QTest::newRow("name starts with a digit") << "app" << "" << "" << "1A=2" << "not NAME=VALUE";
        QTest::newRow("folder missing") << "app" << "" << "/no/such/folder" << "" << "does not exist";
    }
    void requestProblems()
    {
        QFETCH(QString, program);
        QFETCH(QString, arguments);
        QFETCH(QString, folder);
        QFETCH(QString, environment);
        QFETCH(QString, problem);
        ProfileRequest r;
        r.program = program;
        r.arguments = arguments;
        r.workingDirectory = folder;
        r.environment = environment;
        if (problem.isEmpty())
            QVERIFY2(r.problem().isEmpty(), qPrintable(r.problem()));
        else
            QVERIFY2(r.problem().contains(problem), qPrintable(r.problem()));

        // The dialog says the same and will not accept.
        ProfileDialog dialog;
        dialog.setRequest(r);
        QCOMPARE(dialog.problemText(), r.problem());
    }

    void argumentsAndEnvironmentAsAShellWouldPassThem()
    {
        ProfileRequest r;
        r.program = " ./app ";
        r.arguments = "--size 64 \"a b\" 'c \"d\"' e\\ f \"g\\\"h\" '' x";
        r.environment = "A=1\n  # comment\n\nB=two words\n";
        r.workingDirectory = m_dir.path();
        const profile::ProfileRequest core = r.toCore();
        const std::vector<std::string> argv{"./app", "--size", "64", "a b", "c \"d\"", "e f", "g\"h", "", "x"};
        QCOMPARE(core.program, argv);
        QCOMPARE(core.environment, (std::vector<std::string>{"A=1", "B=two words"}));
        QCOMPARE(core.workingDirectory, m_dir.path().toStdString());
        // The command line quotes what needs it, so it splits back the same.
        QCOMPARE(r.commandLine(), QStringLiteral("./app --size 64 'a b' 'c \"d\"' 'e f' 'g\"h' '' x"));
    }

    void theDialogRemembersTheLastRequest()
    {
        ProfileRequest r;
        r.program = "/usr/bin/python3";
        r.arguments = "train.py --epochs 1";
        r.workingDirectory = m_dir.path();
        r.environment = "CUDA_VISIBLE_DEVICES=0";
        ProfileDialog::remember(r);
        ProfileDialog dialog;
        dialog.setRequest(ProfileDialog::remembered());
        const ProfileRequest back = dialog.request();
        QCOMPARE(back.program, r.program);
        QCOMPARE(back.arguments, r.arguments);
        QCOMPARE(back.workingDirectory, r.workingDirectory);
        QCOMPARE(back.environment, r.environment);
        QVERIFY(dialog.problemText().isEmpty());
        // A picture of it, to look at (scripts/ and the brief ask for one).
        if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog.show();
            QVERIFY(dialog.grab().save(QString::fromLocal8Bit(dir) + "/profile-dialog.png"));
        }
    }

    void aProgramWithoutCudaGivesARunWithANote()
    {
        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        QSignalSpy progress(&controller, &ProfileController::progress);
        QVERIFY(controller.start(shellRequest("sleep 0.2")));
        QVERIFY(controller.isRunning());
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!controller.isRunning());
        QCOMPARE(finished.at(0).at(0).toBool(), false); // a note to read, not a success
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("exit status 0"), qPrintable(message));
        QVERIFY2(message.contains("no process of the program initialized CUDA"), qPrintable(message));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(document.runCount(), 1);
        const RunTimeline& run = document.run(0);
        QVERIFY(!run.isLive());
        QCOMPARE(run.opCount(), std::size_t(0));
        QCOMPARE(run.run().status, RunStatus::Completed);
        QVERIFY(run.run().error.find("no process of the program initialized CUDA") != std::string::npos);
        // Provenance: the trace says it was profiled, and what ran.
        const Trace trace = document.toTrace();
        QVERIFY2(trace.tool.find("profile -- /bin/sh -c 'sleep 0.2'") != std::string::npos, trace.tool.c_str());
        QVERIFY(document.isModified());
    }

    void opsReachTheDocumentWhileTheProgramRunsAndCancelKeepsThem()
    {
        const QString stream = m_dir.filePath("live.ovsprof");
        writeStream(stream);
        TraceDocument document;
        ProfileController controller(&document);
        controller.setStopGrace(std::chrono::milliseconds(500));
        QSignalSpy finished(&controller, &ProfileController::finished);
        // The program hands its stream over, then keeps running until stopped.
        QVERIFY(controller.start(
            shellRequest("cp \"$0\" \"$OVERLAPSCOPE_PROFILE_OUT/4242-1.ovsprof\" && exec sleep 600", stream)));
        QTRY_VERIFY_WITH_TIMEOUT(document.runCount() == 1 && document.run(0).opCount() == 3, kTimeoutMs);
        // Live: the program has not ended, the run is still growing.
        QVERIFY(controller.isRunning());
        QCOMPARE(finished.count(), 0);
        const RunTimeline& live = document.run(0);
        QVERIFY(live.isLive());
        QCOMPARE(live.run().name, std::string("pageable_async --chunks 8 (pid 4242)"));
        // Names arrived with the ops that carry them.
        QStringList names;
        for (int lane = 0; lane < live.laneCount(); ++lane)
            for (const Op& op : live.laneOps(lane))
                names << QString::fromStdString(live.run().nameOf(op));
        QVERIFY2(names.contains("cudaMemcpyAsync"), qPrintable(names.join(", ")));
        QVERIFY2(!names.filter(QRegularExpression("^scale\\(float\\*, int\\) \\[grid 64x1x1")).isEmpty(),
                 qPrintable(names.join(", ")));

        controller.cancel();
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.startsWith("cancelled"), qPrintable(message));
        QVERIFY2(message.contains("killed by signal 2"), qPrintable(message)); // SIGINT stopped it
        QCOMPARE(document.runCount(), 1);
        const RunTimeline& run = document.run(0);
        QVERIFY(!run.isLive());
        QCOMPARE(run.run().status, RunStatus::Cancelled);
        QCOMPARE(run.opCount(), std::size_t(3)); // what was recorded is kept
    }

    // On a GPU, what the window does for a user: a real CUDA program
    // (examples/seed_pipelines, its CUDA runtime linked statically) under the
    // real injection library. Its copies and kernels reach the document while
    // it runs (it runs about a second; the library flushes every 100 ms), and
    // they carry CUPTI's engine times. Skips, saying why, without a GPU or
    // where the toolkit was missing at build time.
    void aRealCudaProgramFillsTheDocumentLive()
    {
        std::string why;
        if (!cudaDeviceAvailable(&why))
            QSKIP(("no CUDA GPU: " + why).c_str());
        const QString build = QFileInfo(QStringLiteral(OVERLAPSCOPE_GUI_PATH)).absolutePath() + "/../..";
        const QString program =
            qEnvironmentVariable("OVERLAPSCOPE_EXAMPLES_DIR", build + "/examples") + "/seed_pipelines";
        const QString injection = build + "/app/cli/liboverlapscope-inject.so";
        if (!QFileInfo::exists(program))
            QSKIP(qPrintable("the example programs are not built (" + program + ")"));
        if (!QFileInfo::exists(injection))
            QSKIP(qPrintable("the injection library is not built (" + injection + ")"));

        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        ProfileRequest r;
        r.program = program;
        r.injectionLibrary = injection;
        QVERIFY(controller.start(r));
        // Each time ops reach the document: how many the run holds while it
        // is still live (the program has not ended).
        std::size_t seenWhileRunning = 0;
        connect(&document, &TraceDocument::runChanged, this, [&](int changed) {
            if (document.run(changed).isLive())
                seenWhileRunning = std::max(seenWhileRunning, document.run(changed).opCount());
        });
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.count(), 1);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("exit status 0"), qPrintable(message));
        QVERIFY2(seenWhileRunning > 0, "no op reached the document before the program ended");
        QCOMPARE(document.runCount(), 1);
        const RunTimeline& run = document.run(0);
        QVERIFY(!run.isLive());
        int uploads = 0, downloads = 0, kernels = 0, engineTimed = 0;
        for (int lane = 0; lane < run.laneCount(); ++lane)
            for (const Op& op : run.laneOps(lane)) {
                const bool counted = op.kind == OpKind::Upload || op.kind == OpKind::Download
                                     || op.kind == OpKind::Kernel;
                uploads += op.kind == OpKind::Upload;
                downloads += op.kind == OpKind::Download;
                kernels += op.kind == OpKind::Kernel;
                engineTimed += counted && op.hasExec();
            }
        qInfo("seed_pipelines: %zu ops in the window while it ran, %zu at the end (%d uploads, %d downloads, "
              "%d kernels)", seenWhileRunning, run.opCount(), uploads, downloads, kernels);
        // The seed's two pipelines: 8 chunks each way, 8 kernels, twice.
        QVERIFY(uploads >= 16 && downloads >= 16 && kernels >= 16);
        QCOMPARE(engineTimed, uploads + downloads + kernels);
    }

    void cuptiHeldByAnotherProfilerIsSaid()
    {
        // What the injection library writes when nsys or ncu holds CUPTI.
        TestProfileStream s(4343, 1, std::string_view("./app", 5));
        s.note(profile::kNoteNotRecorded,
               "CUPTI is in use by another profiler (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): this process "
               "is not recorded");
        s.end();
        const QString stream = m_dir.filePath("held.ovsprof");
        s.appendTo(stream.toStdString());
        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        QVERIFY(controller.start(shellRequest("cp \"$0\" \"$OVERLAPSCOPE_PROFILE_OUT/4343-1.ovsprof\"", stream)));
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("CUPTI is in use by another profiler"), qPrintable(message));
        QCOMPARE(document.runCount(), 1);
        QVERIFY(document.run(0).run().error.find("in use by another profiler") != std::string::npos);
    }

    void aProgramThatIgnoresSigintGetsSigterm()
    {
        TraceDocument document;
        ProfileController controller(&document);
        controller.setStopGrace(std::chrono::milliseconds(300));
        QSignalSpy finished(&controller, &ProfileController::finished);
        QSignalSpy progress(&controller, &ProfileController::progress);
        // The program says when its trap is set: a SIGINT before it would end it.
        const QString ready = m_dir.filePath("sigint-trap-set");
        QVERIFY(controller.start(
            shellRequest("trap \"\" INT; echo > \"$0\"; while :; do sleep 0.05; done", ready)));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(ready), kTimeoutMs);
        controller.cancel();
        QVERIFY(finished.wait(kTimeoutMs));
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("killed by signal 15"), qPrintable(message));
        QCOMPARE(document.run(0).run().status, RunStatus::Cancelled);
    }

    void destroyingTheControllerStopsTheProgram()
    {
        const QString pidFile = m_dir.filePath("pid");
        TraceDocument document;
        {
            ProfileController controller(&document);
            controller.setStopGrace(std::chrono::milliseconds(300));
            // Ignores SIGINT: only SIGTERM (or SIGKILL) ends it.
            QVERIFY(controller.start(
                shellRequest("trap \"\" INT; echo $$ > \"$0\"; while :; do sleep 0.05; done", pidFile)));
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, kTimeoutMs);
        }
        QFile file(pidFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const pid_t pid = static_cast<pid_t>(file.readAll().trimmed().toInt());
        QVERIFY(pid > 0);
        // Gone, and reaped: no zombie left behind.
        QVERIFY(::kill(pid, 0) != 0);
        QCOMPARE(errno, ESRCH);
    }

    void problemsAreMessagesNotCrashes_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("injection");
        QTest::addColumn<QString>("message");
        QTest::newRow("not found") << "/no/such/program" << fakeInjection() << "No such file";
        QTest::newRow("not in PATH") << "no-such-command-ovs" << fakeInjection() << "not found in PATH";
        QTest::newRow("a folder") << "/tmp" << fakeInjection() << "is a folder";
        QTest::newRow("injection missing") << "true" << "/no/such/liboverlapscope-inject.so"
                                           << "injection library";
    }
    void problemsAreMessagesNotCrashes()
    {
        QFETCH(QString, program);
        QFETCH(QString, injection);
        QFETCH(QString, message);
        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        ProfileRequest r;
        r.program = program;
        r.injectionLibrary = injection;
        QVERIFY(controller.start(r));
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString text = finished.at(0).at(1).toString();
        QVERIFY2(text.startsWith("Could not profile"), qPrintable(text));
        QVERIFY2(text.contains(message), qPrintable(text));
        QCOMPARE(document.runCount(), 0); // nothing ran
    }

    void theWorkingFolderAndEnvironmentReachTheProgram()
    {
        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        const QString folder = QFileInfo(m_dir.path()).canonicalFilePath();
        ProfileRequest r = shellRequest("test \"$(pwd -P)\" = \"$0\" && test \"$GREETING\" = \"hello world\"", folder);
        r.workingDirectory = folder;
        r.environment = "GREETING=hello world";
        QVERIFY(controller.start(r));
        QVERIFY(finished.wait(kTimeoutMs));
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("exit status 0"), qPrintable(message));
    }

    void aRelativeProgramRunsFromTheWorkingFolder()
    {
        QFile script(m_dir.filePath("exit7.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nexit 7\n");
        script.close();
        QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
        TraceDocument document;
        ProfileController controller(&document);
        QSignalSpy finished(&controller, &ProfileController::finished);
        ProfileRequest r;
        r.program = "./exit7.sh";
        r.workingDirectory = m_dir.path();
        r.injectionLibrary = fakeInjection();
        QVERIFY(controller.start(r));
        QVERIFY(finished.wait(kTimeoutMs));
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("exit status 7"), qPrintable(message));
    }

    void aBusyControllerRefusesAnotherProfile()
    {
        TraceDocument document;
        ProfileController controller(&document);
        controller.setStopGrace(std::chrono::milliseconds(300));
        QSignalSpy refused(&controller, &ProfileController::refused);
        QSignalSpy finished(&controller, &ProfileController::finished);
        QVERIFY(controller.start(shellRequest("exec sleep 600")));
        QVERIFY(!controller.start(shellRequest("true")));
        QCOMPARE(refused.count(), 1);
        ProfileRequest bad;
        controller.cancel();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!controller.start(bad)); // no program
        QCOMPARE(refused.count(), 2);
    }

    void theWindowProfilesAndCancels()
    {
        const QString stream = m_dir.filePath("window.ovsprof");
        writeStream(stream);
        MainWindow window;
        window.setInteractive(false);
        window.profileProgram(
            shellRequest("cp \"$0\" \"$OVERLAPSCOPE_PROFILE_OUT/4242-1.ovsprof\" && exec sleep 600", stream));
        QVERIFY(window.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->runCount() == 1 && window.document()->run(0).opCount() == 3,
                                 kTimeoutMs);
        // No end is known: the progress bar says busy, the status bar what is going on.
        auto* bar = window.controlPanel()->findChild<QProgressBar*>("progress");
        QVERIFY(bar);
        QTRY_COMPARE_WITH_TIMEOUT(bar->maximum(), 0, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains("GPU ops"), kTimeoutMs);
        QSignalSpy finished(window.profileController(), &ProfileController::finished);
        // The window's Cancel action (Run > Cancel), as the user presses it.
        QAction* cancel = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == QObject::tr("&Cancel"))
                cancel = a;
        QVERIFY(cancel);
        cancel->trigger();
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(!window.isBusy());
        QVERIFY(bar->maximum() > 0);
        QVERIFY2(window.lastMessage().startsWith("cancelled"), qPrintable(window.lastMessage()));
        QCOMPARE(window.document()->run(0).run().status, RunStatus::Cancelled);
        // The profiled run saves like any trace, to look at with `overlapscope export`.
        if (const QByteArray dir = qgetenv("OVERLAPSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            std::string error;
            QVERIFY2(saveTrace(window.document()->toTrace(), dir.toStdString() + "/profiled-fake.json", &error),
                     error.c_str());
        }

        // A missing program is a message in the window, not a crash.
        ProfileRequest missing;
        missing.program = "/no/such/program";
        missing.injectionLibrary = fakeInjection();
        window.profileProgram(missing);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.lastMessage().contains("No such file"), kTimeoutMs);
        QCOMPARE(window.document()->runCount(), 1);
    }
};

QTEST_MAIN(TestProfileController)
#include "tst_profile_controller.moc"
