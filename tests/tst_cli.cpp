// overlapscope-cli as a user meets it: exit codes, messages for bad usage
// and bad input, and the record -> convert round trip on the simulator.
#include "trace/TraceJson.h"

#include <QtTest>

class TestCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Result cli(const QStringList& args)
    {
        QProcess process;
        process.start(OVERLAPSCOPE_CLI_PATH, args);
        if (!process.waitForFinished(120000))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }
    QTemporaryDir m_dir;

private slots:
    void usageErrorsExitTwoWithAMessage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList{} << "Usage";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command";
        QTest::newRow("unknown option") << QStringList{"pipeline", "--chunkz", "3"} << "unknown option '--chunkz'";
        QTest::newRow("not a number") << QStringList{"pipeline", "--chunks", "abc"} << "not a whole number";
        QTest::newRow("zero chunk size") << QStringList{"pipeline", "--chunk-mib", "0"} << "--chunk-mib must be between";
        QTest::newRow("chunk not whole floats") << QStringList{"pipeline", "--chunk-bytes", "6"} << "multiple of 4";
        QTest::newRow("missing value") << QStringList{"pipeline", "--slots"} << "needs a value";
        QTest::newRow("unknown pipeline") << QStringList{"pipeline", "--pipelines", "magic"} << "unknown pipeline";
        QTest::newRow("unknown preset") << QStringList{"pipeline", "--device", "sim:voodoo"} << "unknown simulator preset";
        QTest::newRow("record without output") << QStringList{"record", "--device", "sim"} << "needs an output file";
        QTest::newRow("convert without format") << QStringList{"convert", "x.json", "-o", "y"} << "--to chrome";
        QTest::newRow("bad sizes") << QStringList{"bench", "--sizes", "1,,4"} << "empty item";
    }
    void usageErrorsExitTwoWithAMessage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void withoutAGpuCudaPointsToTheSimulator()
    {
        const Result devices = cli({"devices"});
        QCOMPARE(devices.exitCode, 0);
        if (devices.out.contains("cuda:0"))
            QSKIP("a CUDA GPU is present");
        const Result r = cli({"pipeline", "--device", "cuda"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no CUDA GPU") && r.err.contains("--device sim"), qPrintable(r.err));
    }

    void pipelineTableOnTheSimulator()
    {
        const Result r = cli({"pipeline", "--device", "sim", "--chunks", "4", "--chunk-mib", "1", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("[simulated]"));
        QVERIFY(r.out.contains("SIMULATED"));
        QCOMPARE(r.out.count("verified: all 1048576 floats equal input + 1"), 2);
        QVERIFY(r.out.contains("serialized pageable"));
        QVERIFY(r.out.contains("overlapped pinned"));
    }

    void recordThenConvert()
    {
        const QString trace = m_dir.filePath("t.json");
        const Result rec = cli({"record", "--device", "sim:rtx4090", "--chunks", "3", "--chunk-mib", "1", "--sizes", "1",
                                "--samples", "3", "--warmups", "1", "-o", trace, "--quiet"});
        QCOMPARE(rec.exitCode, 0);
        const auto loaded = ovs::loadTrace(trace.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(loaded.trace->runs.size(), std::size_t(2));
        QCOMPARE(loaded.trace->sweeps.size(), std::size_t(1));
        QVERIFY(loaded.trace->runs[0].device.simulated);

        const QString chrome = m_dir.filePath("t.chrome.json");
        QCOMPARE(cli({"convert", trace, "--to", "chrome", "-o", chrome}).exitCode, 0);
        QFile chromeFile(chrome);
        QVERIFY(chromeFile.open(QIODevice::ReadOnly));
        QVERIFY(chromeFile.readAll().contains("\"traceEvents\""));

        const QString csv = m_dir.filePath("t.csv");
        QCOMPARE(cli({"convert", trace, "--to", "csv", "-o", csv}).exitCode, 0);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const auto lines = csvFile.readAll().split('\n');
        std::size_t ops = 0;
        for (const auto& run : loaded.trace->runs)
            ops += run.ops.size();
        QCOMPARE(std::size_t(lines.size() - 2), ops); // header, rows, final newline
    }

    void malformedTraceIsAClearErrorAndWritesNothing()
    {
        const QString bad = m_dir.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"overlapscope-trace\",\"version\":1,\"runs\":[");
        f.close();
        const QString out = m_dir.filePath("never.csv");
        const Result r = cli({"convert", bad, "--to", "csv", "-o", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("bad.json") && r.err.contains("line 1"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void unwritableOutputFailsClearly()
    {
        const Result r = cli({"pipeline", "--device", "sim", "--chunks", "1", "--chunk-mib", "1", "--quiet", "-o",
                              m_dir.filePath("no/such/dir/t.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("could not write"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
