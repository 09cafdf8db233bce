// `overlapscope-cli profile` as a user meets it, without a GPU: its own exit
// codes, the program's status passed through, the environment the program
// gets, and a recorded stream turned into a trace. (The stream is copied in
// by the "program", standing in for the injection library, which needs CUDA.)
#include "TestTimeouts.h"
#include "TestProfileStream.h"
#include "symbols/Symbolizer.h"
#include "formats/TraceJson.h"

#include <QtTest>

#include <chrono>
#include <csignal>

using namespace ovs;
using ovs::test::TestProfileStream;

class TestProfileCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString err;
    };
    Result profile(const QStringList& args)
    {
        QProcess process;
        process.start(OVERLAPSCOPE_CLI_PATH, QStringList{"profile"} + args);
        if (!process.waitForFinished(ovsTestTimeoutMs(60000)))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardError())};
    }
    // Any existing file will do where the program never initializes CUDA.
    QString fakeInjection() { return QStringLiteral(OVERLAPSCOPE_CLI_PATH); }
    QTemporaryDir m_dir;

private slots:
    void ownFailuresHaveTheirOwnCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no program") << QStringList{} << 125 << "needs a program";
        QTest::newRow("unknown option") << QStringList{"--bogus", "--", "true"} << 125 << "unknown option '--bogus'";
        QTest::newRow("output folder missing") << QStringList{"-o", "/no/such/folder/t.json", "--", "true"} << 125
                                               << "does not exist";
        QTest::newRow("program missing") << QStringList{"--", "/no/such/program"} << 127 << "No such file";
        QTest::newRow("command missing") << QStringList{"no-such-command-ovs"} << 127 << "not found in PATH";
        QTest::newRow("program is a folder") << QStringList{"--", "/tmp"} << 126 << "is a folder";
        QTest::newRow("injection missing") << QStringList{"--inject", "/no/such/lib.so", "--", "true"} << 122
                                           << "injection library";
    }
    void ownFailuresHaveTheirOwnCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Result r = profile(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void aRecordsFolderOfAnotherProfileIsRefused()
    {
        const QString records = m_dir.filePath("old-records");
        QVERIFY(QDir().mkpath(records));
        QFile old(records + "/77-1.ovsprof");
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.close();
        const Result r = profile({"--records", records, "-o", m_dir.filePath("x.json"), "--inject", fakeInjection(),
                                  "--", "true"});
        QCOMPARE(r.exitCode, 123);
        QVERIFY2(r.err.contains("already holds record streams"), qPrintable(r.err));
    }

    void helpListsTheExitCodes()
    {
        QProcess process;
        process.start(OVERLAPSCOPE_CLI_PATH, {"profile", "--help"});
        QVERIFY(process.waitForFinished(ovsTestTimeoutMs(10000)));
        QCOMPARE(process.exitCode(), 0);
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        for (const char* code : {"121", "122", "123", "125", "126", "127"})
            QVERIFY2(out.contains(QLatin1String(code)), code);
    }

    void theProgramsStatusPassesThroughAndANoCudaTraceIsWritten()
    {
        const QString trace = m_dir.filePath("nocuda.json");
        const Result r = profile({"-o", trace, "--inject", fakeInjection(), "--", "sh", "-c", "exit 5"});
        QCOMPARE(r.exitCode, 5);
        const TraceLoadResult loaded = loadTrace(trace.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
        QVERIFY(loaded.trace->runs[0].ops.empty());
        QVERIFY(loaded.trace->runs[0].error.find("no process of the program initialized CUDA") != std::string::npos);
        QVERIFY(r.err.contains("exit status 5"));
    }

    void theProgramGetsTheInjectionEnvironment()
    {
        const QString injection = QFileInfo(fakeInjection()).canonicalFilePath();
        const Result r = profile({"--quiet", "-o", m_dir.filePath("env.json"), "--inject", fakeInjection(), "--",
                                  "sh", "-c",
                                  "test \"$CUDA_INJECTION64_PATH\" = \"$0\" && test \"$NVTX_INJECTION64_PATH\" = \"$0\""
                                  " && test -d \"$OVERLAPSCOPE_PROFILE_OUT\"",
                                  injection});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err)); // --quiet
    }

    void syncRecordsAreAskedForOnlyWithTheOption()
    {
        // The injection library records CUPTI's synchronization records only
        // when the program's environment says so (they are costly).
        const auto run = [&](QStringList options, const QString& test) {
            options << "--quiet" << "-o" << m_dir.filePath("sync.json") << "--inject" << fakeInjection() << "--"
                    << "sh" << "-c" << test;
            return profile(options).exitCode;
        };
        QCOMPARE(run({}, "test -z \"$OVERLAPSCOPE_PROFILE_SYNC\""), 0);
        QCOMPARE(run({"--sync-records"}, "test \"$OVERLAPSCOPE_PROFILE_SYNC\" = 1"), 0);
    }

    void stacksAreAskedForAsTheOptionSays()
    {
        // The program's environment says what --stacks chose (off by
        // default: docs/profiling.md, "What call stacks cost"); a build
        // without call stacks refuses them by name.
        const auto run = [&](QStringList options, const QString& test) {
            options << "--quiet" << "-o" << m_dir.filePath("stacks.json") << "--inject" << fakeInjection() << "--"
                    << "sh" << "-c" << test;
            return profile(options);
        };
        const bool built = ovs::Symbolizer::available();
        QCOMPARE(run({}, "test \"$OVERLAPSCOPE_PROFILE_STACKS\" = off").exitCode, 0);
        QCOMPARE(run({"--stacks", "off"}, "test \"$OVERLAPSCOPE_PROFILE_STACKS\" = off").exitCode, 0);
        QCOMPARE(run({"--stacks", "sync"}, "test \"$OVERLAPSCOPE_PROFILE_STACKS\" = sync").exitCode, built ? 0 : 125);
        const Result all = run({"--stacks", "all"}, "test \"$OVERLAPSCOPE_PROFILE_STACKS\" = all");
        QCOMPARE(all.exitCode, built ? 0 : 125);
        const Result bad = run({"--stacks", "some"}, "true");
        QCOMPARE(bad.exitCode, 125);
        QVERIFY2(bad.err.contains("--stacks takes sync, all or off"), qPrintable(bad.err));
    }

    // Under its findings, `profile` says where a finding's line comes from:
    // --stacks for a native program, the PyTorch trace for a Python one.
    void theCallSitesHintFitsTheProgram_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QStringList>("program");
        QTest::addColumn<QString>("hint");
        QTest::addColumn<QString>("notHint");
        const QString stacks = "--stacks sync names the line";
        const QString python = "with_stack=True";
        QTest::newRow("native program") << QStringList{} << QStringList{"sh", "-c", "true"} << stacks << python;
        QTest::newRow("python interpreter") << QStringList{} << QStringList{"python3", "-c", "pass"} << python << stacks;
        QTest::newRow("python, stacks on") << QStringList{"--stacks", "sync"} << QStringList{"python3", "-c", "pass"}
                                           << python << stacks;
    }
    void theCallSitesHintFitsTheProgram()
    {
        QFETCH(QStringList, options);
        QFETCH(QStringList, program);
        QFETCH(QString, hint);
        QFETCH(QString, notHint);
        if (options.contains("--stacks") && !ovs::Symbolizer::available())
            QSKIP("this build has no call stacks (no libunwind or libdw)");
        const Result r = profile(options + QStringList{"-o", m_dir.filePath("hint.json"), "--inject", fakeInjection(), "--"}
                                 + program);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(hint), qPrintable(r.err));
        QVERIFY2(!r.err.contains(notHint), qPrintable(r.err));
    }

    // Ctrl-C while the program runs (issue 11, cancel on the CLI for the
    // profile job): the program is stopped, and what it recorded before is
    // written, its run marked cancelled.
    void ctrlCKeepsWhatWasRecorded()
    {
        const std::int64_t soon = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count()
                                  + 1'000'000'000;
        TestProfileStream s(4343, 1, std::string_view("./app", 5));
        s.clock(1'000'000, soon);
        s.context(1, 0, 7);
        s.memcpy(1'000'200, 1'000'800, profile::kCopyHtoD, profile::kMemoryPinned, profile::kMemoryDevice, 13, 1);
        // No end record: the process is still running when Ctrl-C comes (a
        // process whose stream had ended before it is kept as completed).
        const QString recorded = m_dir.filePath("interrupted.ovsprof");
        s.appendTo(recorded.toStdString());
        const QString trace = m_dir.filePath("interrupted.json");
        const QString ready = m_dir.filePath("ready");
        QProcess process;
        process.start(OVERLAPSCOPE_CLI_PATH,
                      {"profile", "-o", trace, "--inject", fakeInjection(), "--", "sh", "-c",
                       "cp \"$0\" \"$OVERLAPSCOPE_PROFILE_OUT/4343-1.ovsprof\"; touch \"$1\"; sleep 30", recorded, ready});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(ready), ovsTestTimeoutMs(30000));
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(ovsTestTimeoutMs(30000)));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains("trace written to"), qPrintable(err));
        const TraceLoadResult loaded = loadTrace(trace.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
        QCOMPARE(loaded.trace->runs[0].status, RunStatus::Cancelled);
        QCOMPARE(loaded.trace->runs[0].ops.size(), std::size_t(1));
    }

    void aProcessStreamBecomesARunOfTheTrace()
    {
        // CUPTI time 1'000'000 is read one second after now on the host, so
        // the ops land after the profile's start whatever the clocks say.
        const std::int64_t soon = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now().time_since_epoch())
                                      .count()
                                  + 1'000'000'000;
        TestProfileStream s(4242, 1, std::string_view("./pageable_async\0--chunks\0" "8", 27));
        s.clock(1'000'000, soon);
        s.context(1, 0, 7);
        s.api(1'000'100, 1'000'900, "cudaMemcpyAsync", 4242, 1);
        s.memcpy(1'000'200, 1'000'800, profile::kCopyHtoD, profile::kMemoryPageable, profile::kMemoryDevice, 13, 1);
        s.end();
        const QString recorded = m_dir.filePath("recorded.ovsprof");
        s.appendTo(recorded.toStdString());

        const QString trace = m_dir.filePath("profiled.json");
        const QString records = m_dir.filePath("records");
        const Result r = profile({"-o", trace, "--records", records, "--inject", fakeInjection(), "--", "sh", "-c",
                                  "cp \"$0\" \"$OVERLAPSCOPE_PROFILE_OUT/4242-1.ovsprof\"", recorded});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("trace written to"), qPrintable(r.err));
        QVERIFY(QFile::exists(records + "/4242-1.ovsprof")); // --records keeps the streams
        const TraceLoadResult loaded = loadTrace(trace.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
        const Run& run = loaded.trace->runs[0];
        QCOMPARE(run.name, std::string("pageable_async --chunks 8 (pid 4242)"));
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(run.ops.size(), std::size_t(2));
        QCOMPARE(run.lanes.size(), std::size_t(2));
        QCOMPARE(run.lanes[0].name, std::string("stream 13"));
        QCOMPARE(run.lanes[1].name, std::string("main thread"));
        QCOMPARE(run.ops[0].durationNs(), std::int64_t(600));
        // Names and correlation ids survive the trace file.
        QCOMPARE(run.nameOf(run.ops[0]), std::string("Memcpy HtoD (Pageable -> Device)"));
        QCOMPARE(run.ops[0].memory, HostMemoryKind::Pageable);
        QCOMPARE(run.nameOf(run.ops[1]), std::string("cudaMemcpyAsync"));
        QCOMPARE(run.ops[0].correlation, run.ops[1].correlation);
        // Host time `soon` is one second after the test read the clock, and the
        // profile launched after that read: the op lands after the launch and at
        // most a second after it (how much less is how slow the launch was:
        // a sanitizer build takes hundreds of ms).
        QVERIFY2(run.ops[0].startNs > 0 && run.ops[0].startNs <= 1'000'000'000,
                 std::to_string(run.ops[0].startNs).c_str());
    }
};

QTEST_GUILESS_MAIN(TestProfileCli)
#include "tst_profile_cli.moc"
