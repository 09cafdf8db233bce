// Starting the program to profile and stopping it: clear reasons when it
// cannot start, its exit status as a shell would report it, and a stop
// request that escalates from SIGINT to SIGTERM.
#include "TestTimeouts.h"
#include "profile/ProgramLauncher.h"

#include <QtTest>

#include <csignal>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <functional>
#include <thread>

using namespace ovs::profile;

namespace {

const int kTimeoutMs = ovsTestTimeoutMs(30'000);

// Checks `done` every few milliseconds until it holds; false if it did not
// within kTimeoutMs. `between` runs before each check.
bool waitUntil(const std::function<bool()>& done, const std::function<void()>& between = {})
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kTimeoutMs);
    for (;;) {
        if (between)
            between();
        if (done())
            return true;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

ExitStatus runToEnd(ProgramLauncher& launcher, const std::function<void()>& between = {})
{
    waitUntil([&] { return launcher.poll(); }, between);
    return launcher.status();
}

} // namespace

class TestProgramLauncher : public QObject {
    Q_OBJECT

private slots:
    void resolveSaysWhyAProgramCannotRun_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("problem");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing path") << "/no/such/program" << int(LaunchProblem::NotFound) << "No such file";
        QTest::newRow("missing command") << "no-such-command-ovs" << int(LaunchProblem::NotFound) << "not found in PATH";
        QTest::newRow("a folder") << "/tmp" << int(LaunchProblem::NotExecutable) << "is a folder";
        QTest::newRow("empty") << "" << int(LaunchProblem::NotFound) << "no program given";
    }
    void resolveSaysWhyAProgramCannotRun()
    {
        QFETCH(QString, name);
        QFETCH(int, problem);
        QFETCH(QString, message);
        LaunchProblem found = LaunchProblem::None;
        std::string why;
        QVERIFY(ProgramLauncher::resolve(name.toStdString(), &found, &why).empty());
        QCOMPARE(int(found), problem);
        QVERIFY2(QString::fromStdString(why).contains(message), why.c_str());
    }

    void resolveRefusesAFileWithoutExecutePermission()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("script");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\n");
        file.close();
        LaunchProblem found = LaunchProblem::None;
        std::string why;
        QVERIFY(ProgramLauncher::resolve(path.toStdString(), &found, &why).empty());
        QCOMPARE(found, LaunchProblem::NotExecutable);
    }

    void resolveFindsCommandsInPath()
    {
        LaunchProblem found = LaunchProblem::NotFound;
        std::string why;
        const std::string sh = ProgramLauncher::resolve("sh", &found, &why);
        QCOMPARE(found, LaunchProblem::None);
        QVERIFY(sh.ends_with("/sh"));
    }

    void exitStatusIsWhatAShellReports_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("shellStatus");
        QTest::addColumn<QString>("text");
        QTest::newRow("success") << "exit 0" << 0 << "exit status 0";
        QTest::newRow("failure") << "exit 3" << 3 << "exit status 3";
        QTest::newRow("killed") << "kill -9 $$" << 137 << "killed by signal 9";
    }
    void exitStatusIsWhatAShellReports()
    {
        QFETCH(QString, script);
        QFETCH(int, shellStatus);
        QFETCH(QString, text);
        ProgramLauncher launcher;
        LaunchProblem problem = LaunchProblem::None;
        std::string why;
        QVERIFY2(launcher.start({"/bin/sh", "-c", script.toStdString()}, {}, &problem, &why), why.c_str());
        const ExitStatus status = runToEnd(launcher);
        QCOMPARE(status.shellStatus(), shellStatus);
        QVERIFY(QString::fromStdString(status.text()).startsWith(text));
    }

    void theProgramSeesTheGivenEnvironment()
    {
        ProgramLauncher launcher;
        LaunchProblem problem = LaunchProblem::None;
        std::string why;
        ::setenv("OVS_TEST_REPLACED", "old", 1);
        QVERIFY(launcher.start({"/bin/sh", "-c", "test \"$OVS_TEST_REPLACED$OVS_TEST_ADDED\" = newadded"},
                               {"OVS_TEST_REPLACED=new", "OVS_TEST_ADDED=added"}, &problem, &why));
        QCOMPARE(runToEnd(launcher).shellStatus(), 0);
    }

    // The profiler may have turned huge pages off for itself (the
    // allocator does on a VM that hands freed memory back, MallocConf.cpp):
    // the program it starts runs with the system's setting, and the
    // profiler keeps its own.
    void theProgramGetsTheSystemsHugePages()
    {
#ifdef __linux__
        QFile status("/proc/self/status");
        QVERIFY(status.open(QIODevice::ReadOnly));
        if (!status.readAll().contains("THP_enabled:"))
            QSKIP("this kernel does not say whether a process has huge pages (/proc/PID/status THP_enabled)");
        if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) != 0 || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
            QSKIP("this process cannot turn its huge pages off");
        ProgramLauncher launcher;
        LaunchProblem problem = LaunchProblem::None;
        std::string why;
        const bool started = launcher.start({"/bin/sh", "-c", "grep -Eq '^THP_enabled:[[:space:]]*1' /proc/self/status"},
                                            {}, &problem, &why);
        const int mine = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
        prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
        QVERIFY2(started, why.c_str());
        QCOMPARE(runToEnd(launcher).shellStatus(), 0); // the child had them
        QCOMPARE(mine, 1);                             // this process still had them off
#else
        QSKIP("Linux only");
#endif
    }

    void stopSendsSigintThenSigterm()
    {
        // The program survives SIGINT (it notes it in a file and goes on),
        // so only the escalation ends it. It says when its trap is set.
        QTemporaryDir dir;
        const QString ready = dir.filePath("ready");
        const QString interrupted = dir.filePath("interrupted");
        ProgramLauncher launcher;
        LaunchProblem problem = LaunchProblem::None;
        std::string why;
        QVERIFY(launcher.start({"/bin/sh", "-c", "trap 'echo > \"$1\"' INT; echo > \"$0\"; while :; do sleep 0.05; done",
                                ready.toStdString(), interrupted.toStdString()},
                               {}, &problem, &why));
        QVERIFY(waitUntil([&] { return QFile::exists(ready); }));
        launcher.requestStop();
        QVERIFY(launcher.stopRequested());
        QVERIFY(waitUntil([&] { return QFile::exists(interrupted); })); // SIGINT came
        QVERIFY(!launcher.poll());                                       // and the program went on
        const ExitStatus status = runToEnd(launcher, [&] { launcher.escalateAfter(std::chrono::milliseconds(100)); });
        QVERIFY(!status.exited);
        QCOMPARE(status.signal, SIGTERM);
    }
};

QTEST_APPLESS_MAIN(TestProgramLauncher)
#include "tst_program_launcher.moc"
