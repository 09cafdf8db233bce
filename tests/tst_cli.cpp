// overlapscope-cli as a user meets it: exit codes, messages for bad usage
// and bad input, and the record -> convert round trip on the simulator.
#include "TestRankFolder.h"
#include "TestTimeouts.h"
#include "../app/cli/ExitStatus.h"

#include "formats/TraceJson.h"
#include "ranks/RankFolder.h"
#include "ranks/RankNames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <sqlite3.h>

#include <csignal>

#include <unistd.h>

class TestCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Result cli(const QStringList& args, const QString& workingDirectory = {})
    {
        QProcess process;
        process.setWorkingDirectory(workingDirectory);
        process.start(OVERLAPSCOPE_CLI_PATH, args);
        if (!process.waitForFinished(ovsTestTimeoutMs(120000)))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }
    // Starts the CLI, waits until stderr has shown `marks` in order, sends
    // SIGINT (as Ctrl-C does), and waits for it to end.
    Result interruptAfter(const QStringList& args, const QStringList& marks)
    {
        QProcess process;
        process.setReadChannel(QProcess::StandardError);
        process.start(OVERLAPSCOPE_CLI_PATH, args);
        QString err;
        int mark = 0;
        qsizetype from = 0;
        while (mark < marks.size() && process.state() != QProcess::NotRunning && process.waitForReadyRead(60000)) {
            err += QString::fromUtf8(process.readAllStandardError());
            while (mark < marks.size()) {
                const qsizetype at = err.indexOf(marks[mark], from);
                if (at < 0)
                    break;
                from = at + marks[mark].size();
                ++mark;
            }
        }
        if (mark < marks.size()) {
            process.kill();
            process.waitForFinished();
            return {-2, {}, err + QString::fromUtf8(process.readAllStandardError())};
        }
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        if (!process.waitForFinished(ovsTestTimeoutMs(120000)))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                err + QString::fromUtf8(process.readAllStandardError())};
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
        QTest::newRow("no staging threads") << QStringList{"pipeline", "--device", "sim", "--staging-threads", "0"}
                                            << "--staging-threads must be between 1 and 64";
        QTest::newRow("too many staging threads") << QStringList{"pipeline", "--staging-threads", "65"}
                                                  << "--staging-threads must be between 1 and 64";
        QTest::newRow("all among others") << QStringList{"pipeline", "--pipelines", "serialized,all"}
                                          << "unknown pipeline 'all'";
        QTest::newRow("unknown preset") << QStringList{"pipeline", "--device", "sim:voodoo"} << "unknown simulator preset";
        QTest::newRow("record without output") << QStringList{"record", "--device", "sim"} << "needs an output file";
        QTest::newRow("convert without format") << QStringList{"convert", "x.json", "-o", "y"} << "--to chrome";
        QTest::newRow("bad sizes") << QStringList{"bench", "--sizes", "1,,4"} << "empty item";
        QTest::newRow("analyze without a trace") << QStringList{"analyze"}
                                                 << "analyze needs a trace, a folder of traces or several traces";
        QTest::newRow("repeated option") << QStringList{"pipeline", "--chunks", "2", "--chunks", "3"}
                                         << "option --chunks is given more than once";
        QTest::newRow("repeated flag") << QStringList{"pipeline", "--quiet", "--quiet"}
                                       << "option --quiet is given more than once";
        QTest::newRow("repeated inline") << QStringList{"bench", "--sizes=1", "--sizes=4"}
                                         << "option --sizes is given more than once";
        QTest::newRow("diff of one trace") << QStringList{"diff", "a.json"} << "diff needs two traces: BEFORE AFTER";
        QTest::newRow("diff, --run once") << QStringList{"diff", "a.json", "b.json", "--run", "1"}
                                          << "--run is given twice or not at all";
        QTest::newRow("diff, --run without a value") << QStringList{"diff", "a.json", "b.json", "--run"}
                                                     << "option --run needs a value";
        QTest::newRow("diff, unknown option") << QStringList{"diff", "a.json", "b.json", "--frob"}
                                              << "unknown option '--frob'";
        QTest::newRow("lesson without a name") << QStringList{"lesson"} << "lesson needs exactly one lesson name";
        QTest::newRow("unknown lesson") << QStringList{"lesson", "magic"} << "unknown lesson 'magic' (known: pageable-vs-pinned";
        QTest::newRow("lesson and list") << QStringList{"lesson", "issue-order", "--list"} << "not both";
        QTest::newRow("unknown issue order") << QStringList{"pipeline", "--pipelines", "pinned-data", "--issue-order", "sideways"}
                                             << "--issue-order takes depth-first, breadth-first";
        QTest::newRow("csv into a .json name") << QStringList{"convert", "x.json", "--to", "csv", "-o", "out.json"}
                                               << "out.json is named .json but gets CSV: name it .csv";
        QTest::newRow("chrome into a .csv name") << QStringList{"convert", "x.json", "--to", "chrome", "-o", "out.CSV"}
                                                 << "name it .json";
        QTest::newRow("trace into a picture name") << QStringList{"record", "--device", "sim", "-o", "trace.png"}
                                                   << "trace.png is named .png but gets JSON";
        QTest::newRow("markdown into a .json name") << QStringList{"lesson", "issue-order", "--markdown", "t.json"}
                                                    << "name it .md";
        QTest::newRow("pinned rate not a number") << QStringList{"analyze", "x.json", "--pinned-rate", "fast"}
                                                  << "--pinned-rate fast: a pinned rate is H2D,D2H in GB/s";
        QTest::newRow("pinned rate of zero, diff") << QStringList{"diff", "a.json", "b.json", "--pinned-rate", "0,5"}
                                                   << "--pinned-rate 0,5: a pinned rate is H2D,D2H";
        QTest::newRow("variant on the seed's path") << QStringList{"pipeline", "--pipelines", "overlapped",
                                                                   "--stream-sync", "blocking"}
                                                    << "not to overlapped";
    }

    // A lesson from the CLI: its question before the runs, then the table,
    // the answer, the checks and the takeaway; the list in course order.
    void lessonPrintsQuestionTableAndTakeaway()
    {
        const Result list = cli({"lesson", "--list"});
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out.trimmed().split('\n').size(), 10);
        QVERIFY(list.out.startsWith(" 1  pageable-vs-pinned"));

        const Result r = cli({"lesson", "both-directions", "--device", "sim:h200", "--chunk-mib", "1", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("[simulated]"), qPrintable(r.out));
        const auto predict = r.out.indexOf("Predict:");
        const auto answer = r.out.indexOf("Answer: ");
        QVERIFY(predict > 0 && answer > predict);
        QVERIFY(r.out.indexOf("pipeline ", predict) > predict); // the runs' table after the question
        QVERIFY(r.out.contains("Checks ("));
        QVERIFY(r.out.contains("Takeaway:"));
        QVERIFY2(!r.out.contains('{'), qPrintable(r.out)); // every number filled in
    }
    void usageErrorsExitTwoWithAMessage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    // Echoed input is escaped and clipped: a 100,000-digit number or a
    // terminal escape in an argument comes back short and harmless.
    void hostileInputIsEchoedShortAndEscaped_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString digits(100000, '9');
        const QString escape = QStringLiteral("\x1b]0;pwned\x07");
        QTest::newRow("huge number") << QStringList{"pipeline", "--chunks", digits};
        QTest::newRow("huge pipeline name") << QStringList{"pipeline", "--pipelines", digits};
        QTest::newRow("escape in a value") << QStringList{"pipeline", "--chunks", escape};
        QTest::newRow("escape in a device") << QStringList{"pipeline", "--device", escape + digits};
        QTest::newRow("escape in a command") << QStringList{escape + digits};
    }
    void hostileInputIsEchoedShortAndEscaped()
    {
        QFETCH(QStringList, args);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(r.err.size() < 600, qPrintable(QString::number(r.err.size())));
        QVERIFY(!r.err.contains(QChar(0x1b)));
        QVERIFY(!r.err.contains(QChar(0x07)));
    }

    // Each meaning its own status, and --help says which is which.
    void exitStatusOfTheJobs_data()
    {
        QTest::addColumn<int>("unverified");
        QTest::addColumn<int>("failed");
        QTest::addColumn<bool>("cancelled");
        QTest::addColumn<int>("status");
        QTest::newRow("all went well") << 0 << 0 << false << int(ovs::cli::kExitOk);
        QTest::newRow("a run failed") << 0 << 1 << false << int(ovs::cli::kExitFailed);
        QTest::newRow("a run did not verify") << 1 << 0 << false << int(ovs::cli::kExitUnverified);
        QTest::newRow("cancelled") << 0 << 0 << true << int(ovs::cli::kExitCancelled);
        QTest::newRow("wrong result before the cancel") << 1 << 0 << true << int(ovs::cli::kExitUnverified);
        QTest::newRow("failure before the cancel") << 0 << 1 << true << int(ovs::cli::kExitFailed);
        QTest::newRow("failed and unverified") << 1 << 1 << false << int(ovs::cli::kExitUnverified);
    }
    void exitStatusOfTheJobs()
    {
        QFETCH(int, unverified);
        QFETCH(int, failed);
        QFETCH(bool, cancelled);
        QFETCH(int, status);
        ovs::JobOutcome outcome;
        outcome.runsUnverified = unverified;
        outcome.runsFailed = failed;
        for (int i = 0; i < unverified + failed; ++i)
            outcome.problems.push_back("a problem");
        outcome.cancelled = cancelled;
        QCOMPARE(int(ovs::cli::exitStatusOf(outcome)), status);
        const Result help = cli({"--help"});
        QVERIFY(help.out.contains(QString("  %1 ").arg(status)));
    }

    void withoutAGpuCudaPointsToTheSimulator()
    {
        const Result devices = cli({"devices"});
        QCOMPARE(devices.exitCode, 0);
        if (devices.out.contains("cuda:0"))
            QSKIP("a CUDA GPU is present");
        const Result r = cli({"pipeline", "--device", "cuda"});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitNoDevice));
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

    void everyStrategyOnTheSimulator()
    {
        const Result r = cli({"pipeline", "--device", "sim:h200", "--pipelines", "all", "--chunks", "4", "--chunk-mib",
                              "1", "--staging-threads", "4", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count("verified: all 1048576 floats equal input + 1"), 6);
        for (const char* title : {"serialized pageable", "overlapped pinned, 4 staging threads", "registered host memory",
                                  "data already pinned", "pageable async", "pinned, one stream"})
            QVERIFY2(r.out.contains(title), title);
    }

    void helpListsEveryStrategy()
    {
        const Result r = cli({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* id : {"registered", "pinned-data", "pageable-async", "pinned-one-stream", "--staging-threads"})
            QVERIFY2(r.out.contains(id), id);
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
        auto lines = csvFile.readAll().split('\n');
        // Comment lines (docs/csv-format.md) name the runs; the rest is the table.
        lines.removeIf([](const QByteArray& line) { return line.startsWith('#'); });
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
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains("bad.json") && r.err.contains("line 1"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // Every column of the analysis summary has a legend line under the table.
    void everySummaryColumnIsExplained()
    {
        const Result r = cli({"pipeline", "--device", "sim:h200", "--chunks", "2", "--chunk-mib", "1", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split('\n');
        const qsizetype title = lines.indexOf(QStringLiteral("Analysis (each column explained under the table)"));
        QVERIFY2(title >= 0 && title + 1 < lines.size(), qPrintable(r.out));
        QStringList headers = lines[title + 1].split('|', Qt::SkipEmptyParts);
        for (QString& header : headers)
            header = header.trimmed();
        QCOMPARE(headers.size(), 13);
        for (const QString& header : headers) {
            const QString legend = "  " + header + ": ";
            bool found = false;
            for (const QString& line : lines)
                found = found || (line.startsWith(legend) && line.size() > legend.size() + 10);
            QVERIFY2(found, qPrintable(header + " has no legend line in:\n" + r.out));
        }
    }

    void analyzeTheRecordedH200Trace()
    {
        // Not __FILE__: with ccache's base_dir it is relative to the build directory.
        const QString trace = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../docs/traces/h200-seed-defaults.json");
        const Result r = cli({"analyze", QDir::cleanPath(trace)});
        QCOMPARE(r.exitCode, 0);
        for (const char* expected :
             {"## serialized pageable", "## overlapped pinned", "| wall time | 93.598 ms |",
              "| copies overlapping kernels |", "| H2D overlapping D2H |", "| host staging |", "| host waiting (main thread) |",
              "| speedup vs serialized | 3.44x |", "bandwidth sweep of NVIDIA H200 (256 MiB medians)",
              "| **binding: transfer** |", "| **binding: serial** |",
              "host memcpy not measured (no host-staging bound: record with the bandwidth sweep)",
              "- serialized pageable: serialized: copies, kernels and host copies never overlap; 67% of wall time in "
              "pageable downloads at 1.24 GB/s",
              "- overlapped pinned: host staging bound: 99% of wall time in single-thread memcpy at 5.81 GB/s"})
            QVERIFY2(r.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + r.out));
    }

    // --pinned-rate H2D,D2H: analyze and diff judge pinning at the given
    // rates, and say the rate was given; device-classes prints the table
    // the rates are otherwise assumed from.
    void pinnedRateOption_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("words");
        const QString kineto = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/pytorch-pageable-sync.json");
        const QString nsight = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/nsight/cloverleaf-cuda_nsys_perlmutter-reduced.sqlite");
        QTest::newRow("analyze, Kineto") << QStringList{"analyze", kineto, "--pinned-rate", "25,26"}
                                         << QStringList{"1. pageable memory: its fix saves ",
                                                        "(replay, rate given: 25.0 GB/s H2D, 26.0 GB/s D2H)"};
        QTest::newRow("analyze, Nsight, one figure") << QStringList{"analyze", nsight, "--pinned-rate", "20"}
                                                     << QStringList{"pageable memory: its fix saves ",
                                                                    "(replay, rate given: 20.0 GB/s H2D, 20.0 GB/s D2H)"};
        QTest::newRow("analyze --json") << QStringList{"analyze", "--json", kineto, "--pinned-rate", "25,26"}
                                        << QStringList{"\"costRate\":\"rate given: 25.0 GB/s H2D, 26.0 GB/s D2H\""};
        QTest::newRow("without it, assumed") << QStringList{"analyze", kineto}
                                             << QStringList{"(replay, rate assumed for H200 on PCIe Gen5 x16)"};
        QTest::newRow("diff") << QStringList{"diff", kineto, kineto, "--pinned-rate", "25,26"}
                              << QStringList{"(replay, rate given: 25.0 GB/s H2D, 26.0 GB/s D2H)"};
        QTest::newRow("device-classes") << QStringList{"device-classes"}
                                        << QStringList{"| device name has | class | link to host memory |",
                                                       "| A100 SXM4 | A100 SXM4 | PCIe Gen4 x16 | 27.7 | 27.7 |",
                                                       "| H200 | H200 | PCIe Gen5 x16 | 55.4 | 55.3 | 99.1 | measured"};
    }
    void pinnedRateOption()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, words);
        const Result r = cli(args);
        QCOMPARE(r.exitCode, 0);
        for (const QString& w : words)
            QVERIFY2(r.out.contains(w), qPrintable(w + "\nin:\n" + r.out));
    }

    // docs/what-if.md holds the table as the build prints it
    // (scripts/regenerate-device-class-docs.py): a figure changed in the
    // code and not in the doc fails here.
    void deviceClassTableInTheDocs()
    {
        QFile doc(QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../docs/what-if.md")));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const QString begin = "<!-- device-classes:begin -->\n", end = "<!-- device-classes:end -->";
        const auto from = text.indexOf(begin), to = text.indexOf(end);
        QVERIFY(from >= 0 && to > from);
        const Result r = cli({"device-classes"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(text.mid(from + begin.size(), to - from - begin.size()).trimmed(), r.out.trimmed());
    }

    // Any trace gets the findings: here the pageable_async example profiled
    // on the H200 (tests/data/profiled), a run of no pipeline of ours.
    void analyzePrintsTheFindings()
    {
        const Result r = cli({"analyze", QStringLiteral(OVERLAPSCOPE_TEST_DATA "/profiled/pageable_async.json")});
        QCOMPARE(r.exitCode, 0);
        for (const char* expected :
             {"Findings (per run", "## pageable_async (pid 2749)",
              "| device | streams | H2D | D2H | device copies | kernels | memsets | copy with kernel | H2D with D2H | "
              "GPU idle |",
              "| NVIDIA H200 | 3 | ",
              // No pinned copy in this older profile: pinning is replayed at
              // the rate the device class table has for the H200.
              "1. pageable memory: its fix saves ", " ms (replay, rate assumed for H200 on PCIe Gen5 x16) (",
              "   fix: allocate the host buffers pinned",
              "2. bound: costs ", "transfer bound: the GPU idles"})
            QVERIFY2(r.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + r.out));
        // A program of no pipeline of ours has no chunks or bounds to tabulate:
        // it gets a run table, and no "Pipeline: 0 chunks" header.
        QVERIFY2(r.out.contains("| run | source | wall ms | GPU ops | status |")
                     && r.out.contains("| pageable_async (pid 2749) | profile | "),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains("Pipeline: ") && !r.out.contains("| pipeline | wall ms |"), qPrintable(r.out));
        // Our pipelines keep their tables and diagnosis, and get the section too.
        const QString trace = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../docs/traces/h200-seed-defaults.json");
        const Result p = cli({"analyze", QDir::cleanPath(trace)});
        QVERIFY2(p.out.contains("| **binding: transfer** |") && p.out.contains("Findings (per run")
                     && p.out.contains("What if (replay of the GPU's active span): replay ")
                     && p.out.contains("1. pageable memory: its fix saves ") && p.out.contains(" ms (replay) ("),
                 qPrintable(p.out));
    }

    // `diff` of a stored H200 example plain and with --fix: the runs pair by
    // program, and every number of either side is the one `analyze --json`
    // gives for that trace alone; the pitfall is resolved with its cost.
    void diffComparesBeforeAndAfter()
    {
        const QString before = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/profiled/what-if/memcpy_around_kernel.json");
        const QString after = QStringLiteral(OVERLAPSCOPE_TEST_DATA "/profiled/what-if/memcpy_around_kernel-fix.json");
        const Result text = cli({"diff", before, after});
        QCOMPARE(text.exitCode, 0);
        for (const char* expected :
             {"## memcpy_around_kernel (pid 713) -> memcpy_around_kernel --fix (pid 724) (paired by program)\nsaved ",
              "%) of the active span: 13.101 ms -> 6.048 ms", "| active span (first GPU work to last) | ",
              "| copies with kernels (overlap achieved) | 0.000 | ", "| overlap achieved of possible | 0% | ",
              "| NVIDIA H200: H2D busy | ", "- resolved: synchronous copies + sync in the loop: ", "- changed: bound: "})
            QVERIFY2(text.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text.out));

        const Result json = cli({"diff", "--json", before, after});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject diff = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(diff["schema"].toInt(), 2);
        const QJsonArray pairs = diff["pairs"].toArray();
        QCOMPARE(pairs.size(), 1);
        const QJsonObject pair = pairs[0].toObject();
        QCOMPARE(pair["matchedBy"].toString(), QString("program"));
        double active[2] = {};
        int side = 0;
        for (const QString& which : {QString("before"), QString("after")}) {
            const Result alone = cli({"analyze", "--json", which == "before" ? before : after});
            QCOMPARE(alone.exitCode, 0);
            const QJsonObject run = QJsonDocument::fromJson(alone.out.toUtf8()).object()["runs"].toArray()[0].toObject();
            const QJsonObject s = pair[which].toObject();
            QCOMPARE(s["name"].toString(), run["name"].toString());
            QCOMPARE(s["wallMs"].toDouble(), run["wallMs"].toDouble());
            QCOMPARE(s["activeSpanMs"].toDouble(), run["activeSpanMs"].toDouble());
            QCOMPARE(s["allFixesMs"].toDouble(), run["whatIf"].toObject()["allFixesMs"].toDouble());
            active[side++] = run["activeSpanMs"].toDouble();
            // Each finding of the trace alone, once, on its side, at its cost.
            for (const QJsonValue f : run["findings"].toArray()) {
                int found = 0;
                for (const QJsonValue d : pair["findings"].toArray()) {
                    const QJsonValue mine = d.toObject()[which];
                    found += mine.isObject() && mine["kind"] == f["kind"] && mine["costMs"] == f["costMs"];
                }
                QVERIFY2(found == 1, qPrintable(f["kind"].toString() + " in " + which));
            }
        }
        QVERIFY(active[1] < active[0]);
        QCOMPARE(pair["savedMs"].toDouble(), active[0] - active[1]);
        QCOMPARE(pair["savedPercent"].toDouble(), 100 * (active[0] - active[1]) / active[0]);
        const QJsonObject first = pair["findings"].toArray()[0].toObject();
        QCOMPARE(first["change"].toString(), QString("resolved"));
        QCOMPARE(first["kind"].toString(), QString("sync-copies+host-sync"));
        QVERIFY(first["after"].isNull());
        QVERIFY(pair["overlapChangePercent"].toDouble() > 90);

        // Chosen by hand: by name without its pid, and by position.
        const Result chosen = cli({"diff", before, after, "--run", "memcpy_around_kernel", "--run=1"});
        QCOMPARE(chosen.exitCode, 0);
        QVERIFY2(chosen.out.contains("(chosen with --run)"), qPrintable(chosen.out));
        const Result noSuchRun = cli({"diff", before, after, "--run", "1", "--run", "2"});
        QCOMPARE(noSuchRun.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(noSuchRun.err.contains("there is no run 2: the trace holds 1 run"), qPrintable(noSuchRun.err));
        // Runs that pair by nothing: a usage error that lists them.
        const QString pipelines = QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../docs/traces/h200-seed-defaults.json"));
        const Result unpaired = cli({"diff", before, pipelines});
        QCOMPARE(unpaired.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(unpaired.err.contains("choose them with --run A --run B") && unpaired.err.contains("1 'serialized pageable'"),
                 qPrintable(unpaired.err));
        // Pipelines pair by name; a missing trace is bad input.
        const Result same = cli({"diff", pipelines, pipelines});
        QCOMPARE(same.exitCode, 0);
        QVERIFY2(same.out.contains("## serialized pageable -> serialized pageable (paired by name)\nsaved 0.000 ms (0.0%)")
                     && same.out.contains("## overlapped pinned -> overlapped pinned (paired by name)"),
                 qPrintable(same.out));
        const Result missing = cli({"diff", before, m_dir.filePath("gone.json")});
        QCOMPARE(missing.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(missing.err.contains("gone.json"), qPrintable(missing.err));
    }

    void analyzeAMissingTraceIsBadInput()
    {
        const Result r = cli({"analyze", m_dir.filePath("no-such-trace.json")});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains("no-such-trace.json"), qPrintable(r.err));
    }

    void analyzeABadTraceIsBadInput()
    {
        const QString bad = m_dir.filePath("truncated.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"overlapscope-trace\",\"version\":1,\"runs\":[");
        f.close();
        const Result r = cli({"analyze", bad});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains("truncated.json") && r.err.contains("line 1"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // The read size limit is an option: a trace above it is refused with the
    // sizes and the option named; raised, the same file reads.
    void traceSizeLimitIsAnOption()
    {
        const QString trace = m_dir.filePath("big.json");
        Result r = cli({"record", "--device", "sim", "--chunks", "2", "--chunk-mib", "1", "--sizes", "1",
                        "--warmups", "1", "--samples", "1", "--quiet", "-o", trace});
        QCOMPARE(r.exitCode, 0);
        QFile f(trace);
        QVERIFY(f.open(QIODevice::Append));
        f.write(QByteArray(1 << 20, ' ')); // still valid JSON, now above 1 MiB
        f.close();
        r = cli({"analyze", "--max-trace-mib", "1", trace});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains("above the size limit for traces of 1.0 MiB") && r.err.contains("--max-trace-mib"),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        r = cli({"convert", trace, "--to", "csv", "-o", m_dir.filePath("big.csv"), "--max-trace-mib", "1"});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY(!QFile::exists(m_dir.filePath("big.csv")));
        r = cli({"analyze", "--max-trace-mib", "2", trace});
        QCOMPARE(r.exitCode, 0);
        r = cli({"analyze", "--max-trace-mib", "4096", trace});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(r.err.contains("--max-trace-mib must be between 1 and 4095"), qPrintable(r.err));
    }

    void everyRunEndsWithItsDiagnosis()
    {
        const Result r = cli({"pipeline", "--device", "sim:h200", "--chunks", "8", "--chunk-mib", "4", "--quiet"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("| pipeline | wall ms | H2D busy | D2H busy | compute busy | overlap |"), qPrintable(r.out));
        QVERIFY2(r.out.contains("- serialized pageable: serialized: "), qPrintable(r.out));
        QVERIFY2(r.out.contains("- overlapped pinned: host staging bound: "), qPrintable(r.out));
        QVERIFY2(r.out.contains("(simulator preset h200)"), qPrintable(r.out));
    }

    // Ctrl-C during each kind of job: the trace written holds every job that
    // finished and the one in flight, marked cancelled (issue 11: a Ctrl-C
    // in the sweep used to write an empty trace over the file).
    void ctrlCKeepsWhatWasRecorded_data()
    {
        QTest::addColumn<QStringList>("marks");
        QTest::addColumn<int>("runs");
        QTest::addColumn<bool>("sweep");
        QTest::addColumn<bool>("fileBefore");
        QTest::newRow("first pipeline, no file before") << QStringList{"job 1 of 3", "chunk 3 of 16"} << 1 << false << false;
        QTest::newRow("second pipeline") << QStringList{"job 2 of 3", "chunk 3 of 16"} << 2 << false << true;
        QTest::newRow("sweep") << QStringList{"job 3 of 3: bandwidth sweep", "MiB pageable HtoD"} << 2 << true << true;
    }
    void ctrlCKeepsWhatWasRecorded()
    {
        QFETCH(QStringList, marks);
        QFETCH(int, runs);
        QFETCH(bool, sweep);
        QFETCH(bool, fileBefore);
        const QString trace = m_dir.filePath(QString("interrupted-%1.json").arg(QTest::currentDataTag()).replace(' ', '-'));
        QFile previous(trace);
        if (fileBefore) {
            QVERIFY(previous.open(QIODevice::WriteOnly));
            previous.write("an earlier trace");
            previous.close();
        }
        // Many kernel passes make every chunk and cell take long enough to
        // be interrupted, in little memory.
        const Result r = interruptAfter({"record", "--device", "sim:h200", "--chunks", "16", "--chunk-mib", "1",
                                         "--kernel-repeats", "400", "--sizes", "1,32,32", "-o", trace},
                                        marks);
        QVERIFY2(r.exitCode != -2, qPrintable("never saw the marks in:\n" + r.err));
        QCOMPARE(r.exitCode, 130);
        QVERIFY2(r.err.contains("cancelled; kept what was recorded"), qPrintable(r.err));
        // The signal lands when it lands: on a loaded machine the job the
        // marks named may have finished before it, and the next one was
        // interrupted instead. What was kept must match the job that was
        // running (the last one stderr announced), never an earlier one.
        const qsizetype lastJob = r.err.lastIndexOf("job ");
        QVERIFY2(lastJob >= 0, qPrintable(r.err));
        const int job = r.err.mid(lastJob + 4, 1).toInt();
        const int markedJob = marks.front().mid(4, 1).toInt();
        QVERIFY2(job >= markedJob, qPrintable(r.err));
        if (job != markedJob) {
            qWarning("the interrupt landed in job %d, not %d (a loaded machine): judged as that job", job, markedJob);
            runs = job == 1 ? 1 : 2;
            sweep = job == 3;
        }
        const auto loaded = ovs::loadTrace(trace.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(int(loaded.trace->runs.size()), runs);
        for (int i = 0; i < runs; ++i) {
            const bool last = i == runs - 1;
            QCOMPARE(loaded.trace->runs[std::size_t(i)].status,
                     last && !sweep ? ovs::RunStatus::Cancelled : ovs::RunStatus::Completed);
            QVERIFY(!loaded.trace->runs[std::size_t(i)].ops.empty());
        }
        QCOMPARE(loaded.trace->sweeps.size(), std::size_t(sweep ? 1 : 0));
        if (sweep) {
            QVERIFY(!loaded.trace->sweeps[0].points.empty());
            QVERIFY(loaded.trace->sweeps[0].points.size() < 15); // 3 sizes x 5 cells: it stopped
            QFile written(trace);
            QVERIFY(written.open(QIODevice::ReadOnly));
            QVERIFY(written.readAll().contains("\"status\":\"cancelled\""));
        }
    }

    // Ctrl-C before any run finished (issue 22): the trace would hold one
    // cancelled run, so a file already there is left as it was, and stderr
    // says so; the status is still 130.
    void ctrlCBeforeAnyRunFinishedLeavesTheOldFile_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("record") << "record";
        QTest::newRow("pipeline") << "pipeline";
    }
    void ctrlCBeforeAnyRunFinishedLeavesTheOldFile()
    {
        QFETCH(QString, command);
        const QString trace = m_dir.filePath(command + "-old.json");
        const QByteArray old = "{\"an earlier trace\": true}\n";
        QFile previous(trace);
        QVERIFY(previous.open(QIODevice::WriteOnly));
        previous.write(old);
        previous.close();
        QStringList args{command, "--device", "sim:h200", "--chunks", "16", "--chunk-mib", "1", "--kernel-repeats", "400",
                         "-o", trace};
        if (command == "record")
            args << "--sizes" << "1";
        const Result r = interruptAfter(args, {"job 1 of ", "chunk 3 of 16"});
        QVERIFY2(r.exitCode != -2, qPrintable("never saw the marks in:\n" + r.err));
        QCOMPARE(r.exitCode, 130);
        QVERIFY2(r.err.contains("cancelled before any run finished: nothing written") && r.err.contains("left as it was"),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("trace written"), qPrintable(r.err));
        QVERIFY(previous.open(QIODevice::ReadOnly));
        QCOMPARE(previous.readAll(), old);
        QCOMPARE(QDir(m_dir.path()).entryList({"." + command + "-old.json*"}, QDir::Files | QDir::Hidden), QStringList());
    }

    // A convert whose output is its input is refused before anything is
    // read or written, however the output's path reaches the file.
    void outputThatIsTheInputIsRefused_data()
    {
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("output");
        QTest::newRow("the same path") << "chrome" << "@same.json" << "@same.json";
        QTest::newRow("./same.json") << "chrome" << "same.json" << "./same.json";
        QTest::newRow("absolute and relative") << "native" << "@same.json" << "same.json";
        QTest::newRow("a symbolic link") << "chrome" << "same.json" << "link.json";
        QTest::newRow("a hard link") << "native" << "same.json" << "hard.json";
        QTest::newRow("csv to itself") << "csv" << "same.csv" << "same.csv";
    }
    void outputThatIsTheInputIsRefused()
    {
        QFETCH(QString, to);
        QFETCH(QString, input);
        QFETCH(QString, output);
        QTemporaryDir dir;
        const QString trace = dir.filePath("same.json");
        QCOMPARE(cli({"pipeline", "--device", "sim", "--chunks", "2", "--chunk-mib", "1", "--quiet", "-o", trace}).exitCode,
                 0);
        // A CSV named as the input: the file's name, not its content, is what counts.
        QVERIFY(QFile::copy(trace, dir.filePath("same.csv")));
        QVERIFY(QFile::link("same.json", dir.filePath("link.json")));
        QCOMPARE(::link(QFile::encodeName(trace).constData(), QFile::encodeName(dir.filePath("hard.json")).constData()), 0);
        const auto path = [&](const QString& p) { return p.startsWith('@') ? dir.filePath(p.mid(1)) : p; };
        QFile file(dir.filePath(input.startsWith('@') ? input.mid(1) : input));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();
        const Result r = cli({"convert", path(input), "--to", to, "-o", path(output)}, dir.path());
        QCOMPARE(r.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(r.err.contains("is the input") && r.err.contains("name another output file"), qPrintable(r.err));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).size(), 4);
    }

    // Long names are printed shortened, as the window shows them: a run,
    // lane or API call name of megabytes costs a line, not megabytes.
    void longNamesArePrintedShortened()
    {
        const QString path = m_dir.filePath("long-names.json");
        QCOMPARE(cli({"pipeline", "--device", "sim", "--chunks", "2", "--chunk-mib", "1", "--quiet", "-o", path}).exitCode,
                 0);
        auto loaded = ovs::loadTrace(path.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        const std::size_t huge = 4u << 20;
        loaded.trace->runs[0].name = std::string(huge, 'n');
        loaded.trace->runs[0].device.name = std::string(huge, 'd');
        for (std::size_t i = 0; i < loaded.trace->runs[0].lanes.size(); ++i)
            loaded.trace->runs[0].lanes[i].name = std::string(huge, 'l') + std::to_string(i); // names differ
        std::string error;
        QVERIFY2(ovs::saveTrace(*loaded.trace, path.toStdString(), &error), error.c_str());
        const Result r = cli({"analyze", path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.size() < 64 * 1024, qPrintable(QString::number(r.out.size())));
        // The window's rule (base/ShortenedText.h): 255 characters and "…".
        QVERIFY2(r.out.contains(QString(255, 'n') + QChar(0x2026) + " |"), qPrintable(r.out.left(2000)));
        QVERIFY(!r.out.contains(QString(256, 'n')));
        QVERIFY(!r.out.contains(QString(256, 'd')));
        QVERIFY(!r.out.contains(QString(256, 'l')));
    }

    // Every reader looks at the first bytes before reading a file whole: a
    // 3 GiB file of zero bytes (sparse: no disk) is refused by what it
    // starts with, not read; an SQLite database is named as such.
    void inputsAreJudgedByTheirFirstBytes_data()
    {
        QTest::addColumn<QByteArray>("start");
        QTest::addColumn<qint64>("size");
        QTest::addColumn<QString>("message");
        QTest::newRow("3 GiB of zero bytes") << QByteArray() << (qint64(3) << 30)
                                             << "not a JSON trace: it starts with bytes 00 00 00 00 00 00 00 00";
        QTest::newRow("an SQLite database") << QByteArray("SQLite format 3\0", 16) << (qint64(3) << 30)
                                            << "Nsight Systems report: the SQLite database cannot be read";
        QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\x00", 4) << qint64(1024) << "gunzip";
        QTest::newRow("text") << QByteArray("Name:\tbash\n") << qint64(0) << "it starts with \"Name: bash";
    }
    void inputsAreJudgedByTheirFirstBytes()
    {
        QFETCH(QByteArray, start);
        QFETCH(qint64, size);
        QFETCH(QString, message);
        const QString path = m_dir.filePath("first-bytes.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(start), start.size());
        if (size > start.size())
            QVERIFY(file.resize(size)); // a hole: costs no disk
        file.close();
        for (const QStringList& args : {QStringList{"analyze", path}, QStringList{"convert", path, "--to", "csv", "-o",
                                                                                   m_dir.filePath("never.csv")}}) {
            const Result r = cli(args + QStringList{"--max-trace-mib", "4095"});
            QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
            QVERIFY2(r.err.contains(message) && r.err.contains("first-bytes.json"), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        QVERIFY(!QFile::exists(m_dir.filePath("never.csv")));
        QVERIFY(file.remove());
    }

    // A folder of ranks (docs/ranks.md): each run labelled with its rank
    // from the trace, the clocks aligned on the ranks' shared clock with the
    // step starts' spread, the straggler marked with the finding that
    // differs on it, and each rank's numbers those of `analyze --json` of
    // its file alone.
    void analyzeAFolderOfRanks()
    {
        const QString dir = m_dir.filePath("ranks");
        QVERIFY(QDir().mkpath(dir));
        QStringList files;
        for (int r = 0; r < 3; ++r) { // torch.profiler's names: no rank in them
            files << dir + QString("/host_%1.1700000000%2.pt.trace.json").arg(4100 + r).arg(r);
            QVERIFY(writeTestRank(files.back(), {r, 7 * r, r == 2 ? 400 : 100}));
        }
        const Result text = cli({"analyze", dir});
        QCOMPARE(text.exitCode, 0);
        for (const char* expected :
             {"Ranks: 3 runs from 3 of 3 files", "| rank 0 | host_4100.", "| rank 2 **straggler** | host_4102.",
              "Clocks: aligned on the ranks' shared clock; step starts across ranks spread 0.014 ms (median over 6 "
              "steps), at most 0.014 ms (ProfilerStep#0)",
              "Straggler: rank 2 is the straggler: median step ", "; pageable memory costs it "})
            QVERIFY2(text.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text.out));
        QVERIFY2(text.err.contains("read 3 of 3: "), qPrintable(text.err));

        const Result r = cli({"analyze", "--json", dir});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["schema"].toInt(), 1);
        const QJsonArray ranks = doc["ranks"].toArray();
        QCOMPARE(ranks.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject rank = ranks[i].toObject();
            QCOMPARE(rank["label"].toString(), QString("rank %1").arg(i));
            QCOMPARE(rank["rankSource"].toString(), QString("trace"));
            QCOMPARE(rank["straggler"].toBool(), i == 2);
            QCOMPARE(rank["clockOffsetMs"].toDouble(), 0.007 * i);
            // The file alone: its steps' judgement is the row.
            const Result alone = cli({"analyze", "--json", files[i]});
            QCOMPARE(alone.exitCode, 0);
            const QJsonObject steps =
                QJsonDocument::fromJson(alone.out.toUtf8())["runs"][0]["regions"][0].toObject();
            QCOMPARE(steps["name"].toString(), QString("ProfilerStep#N"));
            QCOMPARE(rank["steps"].toInt(), steps["judged"].toInt());
            QCOMPARE(rank["stepMedianMs"].toDouble(), steps["medianMs"].toDouble());
            QCOMPARE(rank["stepSlowestMs"].toDouble(), steps["slowestMs"].toDouble());
            QCOMPARE(rank["findings"].toArray().size(), steps["findings"].toArray().size());
            QVERIFY(!steps["findings"].toArray().isEmpty());
            QCOMPARE(rank["findings"][0]["kind"].toString(), steps["findings"][0]["kind"].toString());
            QCOMPARE(rank["findings"][0]["costMs"].toDouble(), steps["findings"][0]["medianCostMs"].toDouble());
        }
        QVERIFY(ranks[2]["stepMedianMs"].toDouble() > 1.5 * ranks[0]["stepMedianMs"].toDouble());
        const QJsonObject alignment = doc["alignment"].toObject();
        QVERIFY(alignment["sharedClock"].toBool());
        QCOMPARE(alignment["stepsCompared"].toInt(), 6);
        QCOMPARE(alignment["medianSpreadMs"].toDouble(), 0.014);
        QCOMPARE(alignment["worstSpreadMs"].toDouble(), 0.014);
        QCOMPARE(doc["straggler"]["label"].toString(), QString("rank 2"));
        QCOMPARE(doc["straggler"]["finding"].toString(), QString("pageable-memory"));
        QVERIFY(doc["straggler"]["extraCostMs"].toDouble() > 0);
        // The core's API in-process: tst_chrome_trace_import's
        // readRanksKeepsWhatIsAsked (under ThreadSanitizer a process that
        // started a QProcess may not start threads: Qt's vfork shares TSan's
        // state with the child).
    }

    // Without distributedInfo a rank comes from the file's name, else the
    // file's name labels it; a bad file is said and skipped, the others
    // read; a rank two files give is shown twice, named with the files.
    void ranksFromNamesBadFilesAndDuplicates()
    {
        const QString dir = m_dir.filePath("named-ranks");
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeTestRank(dir + "/rank7.json", {}));
        QVERIFY(writeTestRank(dir + "/worker_3.json", {}));
        QVERIFY(writeTestRank(dir + "/other.json", {}));
        QVERIFY(writeTestRank(dir + "/.hidden.json", {})); // not read
        QFile junk(dir + "/junk.json");
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("hello");
        junk.close();
        const Result r = cli({"analyze", "--json", dir});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("skipped ") && r.err.contains("junk.json") && r.err.contains("not a JSON trace"),
                 qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["files"].toArray().size(), 4);
        QStringList labels, sources;
        for (const QJsonValue rank : doc["ranks"].toArray()) {
            labels << rank["label"].toString();
            sources << rank["rankSource"].toString();
        }
        QCOMPARE(labels, (QStringList{"rank 3", "rank 7", "other.json"}));
        QCOMPARE(sources, (QStringList{"file name", "file name", "none"}));
        QVERIFY(doc["straggler"].isNull()); // the same trace three times: no straggler
        QVERIFY2(doc["verdict"].toString().startsWith("no straggler: "), qPrintable(doc["verdict"].toString()));

        // Several files named on the command line are read the same way.
        const Result files = cli({"analyze", dir + "/worker_3.json", dir + "/rank7.json"});
        QCOMPARE(files.exitCode, 0);
        QVERIFY2(files.out.contains("Ranks: 2 runs from 2 of 2 files") && files.out.contains("| rank 3 | worker_3.json |")
                     && files.out.contains("| rank 7 | rank7.json |"),
                 qPrintable(files.out));

        const QString twice = m_dir.filePath("twice");
        QVERIFY(QDir().mkpath(twice));
        QVERIFY(writeTestRank(twice + "/a.json", {1}));
        QVERIFY(writeTestRank(twice + "/b.json", {1}));
        const Result d = cli({"analyze", twice});
        QCOMPARE(d.exitCode, 0);
        QVERIFY2(d.err.contains("rank 1 is given by 2 files (a.json, b.json)"), qPrintable(d.err));
        QVERIFY2(d.out.contains("| rank 1 (a.json) | a.json |") && d.out.contains("| rank 1 (b.json) | b.json |"),
                 qPrintable(d.out));
    }

    // The job-system recipe (docs/ranks.md, "Ranks past one machine"):
    // `analyze --rank-summary TRACE -o S.json` per trace, then `analyze
    // S1.json S2.json ...` prints what `analyze DIR` prints, text and JSON.
    void rankSummariesMergeAsTheFolder()
    {
        const QString dir = m_dir.filePath("summarised-ranks");
        const QString out = m_dir.filePath("summaries");
        QVERIFY(QDir().mkpath(dir) && QDir().mkpath(out));
        for (int r = 0; r < 3; ++r)
            QVERIFY(writeTestRank(dir + QString("/host_%1.pt.trace.json").arg(4100 + r), {r, 7 * r, r == 2 ? 400 : 100}));
        QFile junk(dir + "/junk.json");
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("hello");
        junk.close();
        QStringList summaries;
        for (const QString& name : QDir(dir).entryList(QDir::Files, QDir::Name)) {
            summaries << out + "/" + name;
            const Result r = cli({"analyze", "--rank-summary", dir + "/" + name, "-o", summaries.back()});
            // A file that is no trace still gets its summary, and exit status 3.
            QCOMPARE(r.exitCode, int(name == "junk.json" ? ovs::cli::kExitBadInput : ovs::cli::kExitOk));
            QVERIFY2(r.out.isEmpty() && r.err.contains("rank summary written to "), qPrintable(r.err));
        }
        const Result folderJson = cli({"analyze", "--json", dir});
        const Result mergedJson = cli({"analyze", "--json", summaries[0], summaries[1], summaries[2], summaries[3]});
        QCOMPARE(mergedJson.exitCode, 0);
        QCOMPARE(mergedJson.out, folderJson.out);
        QVERIFY(mergedJson.out.contains("\"straggler\":{\"label\":\"rank 2\""));
        const Result folderText = cli({"analyze", dir});
        QCOMPARE(cli({"analyze", out}).out, folderText.out); // a folder of summaries
        // Without -o the summary goes to stdout; one summary alone is a job of one rank.
        const Result one = cli({"analyze", "--rank-summary", dir + "/host_4100.pt.trace.json"});
        QCOMPARE(one.exitCode, 0);
        QVERIFY(one.out.startsWith("{\"format\":\"overlapscope-rank-summary\",\"schema\":1,"));
        QVERIFY(cli({"analyze", summaries[0]}).out.contains("Ranks: 1 runs from 1 of 1 files"));
        QCOMPARE(cli({"analyze", "--rank-summary", dir}).exitCode, int(ovs::cli::kExitUsage));
        QCOMPARE(cli({"analyze", "--rank-summary", summaries[0], summaries[1]}).exitCode, int(ovs::cli::kExitUsage));
    }

    // One trace of a job's ranks (what `profile -- torchrun ...` writes:
    // a run per process, each with its launcher's rank, format 6): analyze
    // prints the ranks table after the findings, as for a folder.
    void aTraceOfRankedRunsGetsTheRanksTable()
    {
        ovs::Trace job;
        for (int r = 0; r < 3; ++r) {
            const QString path = m_dir.filePath(QString("job-rank%1.json").arg(r));
            QVERIFY(writeTestRank(path, {r, 0, r == 1 ? 400 : 100}));
            auto loaded = ovs::loadTrace(path.toStdString());
            QVERIFY2(loaded.trace, loaded.error.c_str());
            QCOMPARE(loaded.trace->runs.front().rank, r);
            job.runs.push_back(std::move(loaded.trace->runs.front()));
        }
        const QString path = m_dir.filePath("job.json");
        std::string error;
        QVERIFY2(ovs::saveTrace(job, path.toStdString(), &error), error.c_str());
        const Result text = cli({"analyze", path});
        QCOMPARE(text.exitCode, 0);
        const qsizetype findings = text.out.indexOf("Findings");
        const qsizetype ranks = text.out.indexOf("Ranks: 3 runs from 1 of 1 files");
        QVERIFY2(findings >= 0 && ranks > findings, qPrintable(text.out));
        for (const char* expected : {"| rank 0 |", "| rank 1 **straggler** |", "| rank 2 |",
                                     "Straggler: rank 1 is the straggler"})
            QVERIFY2(text.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text.out));
        // A trace of one rank, or of none, prints no table.
        job.runs.resize(1);
        QVERIFY2(ovs::saveTrace(job, path.toStdString(), &error), error.c_str());
        QVERIFY(!cli({"analyze", path}).out.contains("Ranks:"));
    }

    // The real thing: examples/torch_ranks.py under `profile -- torchrun
    // --nproc_per_node 2` on the H200 (scripts/gpu-ranks.sh): the launcher's
    // process and two ranks, rank 1 copying from pageable memory.
    void aProfiledTorchrunJobNamesItsStraggler()
    {
        const Result text = cli({"analyze", OVERLAPSCOPE_TEST_DATA "/profiled/ranks/torch_ranks.json"});
        QCOMPARE(text.exitCode, 0);
        for (const char* expected : {"## rank 0: python3 -u ", "## rank 1: python3 -u ", "Ranks: 2 runs from 1 of 1 files",
                                     "| rank 1 **straggler** |", "Straggler: rank 1 is the straggler",
                                     "pageable memory costs it"})
            QVERIFY2(text.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text.out));
    }

    // torch.profiler's traces of examples/torch_ranks.py --allreduce-every-step
    // under torchrun on an H100 (two ranks on one GPU, gloo): the ranks meet
    // at an all_reduce every step, so both steps take rank 1's time; rank 0
    // waits for it inside "gloo:all_reduce". The straggler is the rank that
    // waits least, and the finding that differs on it is named.
    void aStragglerInACollectiveBoundJobIsTheRankThatWaitsLeast()
    {
        const Result text = cli({"analyze", OVERLAPSCOPE_TEST_DATA "/ranks/allreduce"});
        QCOMPARE(text.exitCode, 0);
        for (const char* expected : {"| in collectives ms |", "| rank 1 **straggler** |",
                                     "Straggler: rank 1 is the straggler: the ranks meet in a collective every step",
                                     "pageable memory costs it", "fixed, the job's step would save about "})
            QVERIFY2(text.out.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\nin:\n") + text.out));
        const Result json = cli({"analyze", "--json", OVERLAPSCOPE_TEST_DATA "/ranks/allreduce"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonObject straggler = doc["straggler"].toObject();
        QCOMPARE(straggler["label"].toString(), QString("rank 1"));
        QCOMPARE(straggler["by"].toString(), QString("collective wait"));
        QCOMPARE(straggler["finding"].toString(), QString("pageable-memory"));
        // Rank 0 waits most of its step; rank 1 hardly at all.
        const QJsonArray ranks = doc["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        QVERIFY(ranks[0].toObject()["collectiveMs"].toDouble() > 0.5 * ranks[0].toObject()["stepMedianMs"].toDouble());
        QVERIFY(ranks[1].toObject()["collectiveMs"].toDouble() < 0.05 * ranks[1].toObject()["stepMedianMs"].toDouble());
        QVERIFY(straggler["jobSavingMs"].toDouble() > 0);
    }

    // The same job with its collectives as NCCL's kernels instead of gloo's
    // ranges: the run's index gathers them (RunIndex::collectiveKernels) and
    // the ranks' time in collectives counts them. Without either, no rank
    // shows a collective.
    void collectivesCountAsNcclKernelsToo_data()
    {
        QTest::addColumn<bool>("ncclKernels");
        QTest::newRow("gloo's ranges renamed, no NCCL kernel") << false;
        QTest::newRow("gloo's ranges renamed, NCCL kernels") << true;
    }
    void collectivesCountAsNcclKernelsToo()
    {
        QFETCH(bool, ncclKernels);
        const QString folder = m_dir.filePath(ncclKernels ? "nccl-kernels" : "no-collectives");
        QVERIFY(QDir().mkpath(folder));
        for (const char* name : {"rank0.json", "rank1.json"}) {
            QFile in(OVERLAPSCOPE_TEST_DATA "/ranks/allreduce/" + QString(name));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
            QJsonArray events = doc["traceEvents"].toArray();
            int kernels = 0;
            for (qsizetype i = 0; i < events.size(); ++i) {
                QJsonObject e = events[i].toObject();
                if (e.value("name").toString().startsWith("gloo:"))
                    e["name"] = "x" + e.value("name").toString();
                if (ncclKernels && e.value("cat").toString() == "kernel" && ++kernels % 3 == 0)
                    e["name"] = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
                events[i] = e;
            }
            doc["traceEvents"] = events;
            QFile out(folder + "/" + name);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QJsonDocument(doc).toJson(QJsonDocument::Compact));
        }
        const Result json = cli({"analyze", "--json", folder});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonArray ranks = QJsonDocument::fromJson(json.out.toUtf8()).object()["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        for (const QJsonValue rank : ranks) {
            const QJsonObject r = rank.toObject();
            QCOMPARE(!r["collectiveMs"].isNull(), ncclKernels);
            if (ncclKernels)
                QVERIFY2(r["collectiveMs"].toDouble() > 0 && r["collectiveMs"].toDouble() < r["stepMedianMs"].toDouble(),
                         qPrintable(QJsonDocument(r).toJson()));
        }
    }

    // scripts/make-rank-folder.py --ranks 2 --size-mb 1: rank 1's four large
    // pageable copies a step each take 1 ms longer. Its backward passes run
    // on PyTorch's autograd thread, which the replay must move with the main
    // thread (the hand-offs of RunGraphBuilder): without them, pinning saved
    // nothing and the straggler was put down to "sync in the loop".
    void aStragglersSlowPageableCopiesAreNamed()
    {
        const Result text = cli({"analyze", OVERLAPSCOPE_TEST_DATA "/ranks/straggler-pageable"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Straggler: rank 1 is the straggler") && text.out.contains("pageable memory costs it 4.000 ms "
                                                                                               "more per step"),
                 qPrintable(text.out));
    }

    void badRankFoldersAreBadInput_data()
    {
        QTest::addColumn<QStringList>("files"); // written as junk
        QTest::addColumn<QString>("message");
        QTest::newRow("empty folder") << QStringList{} << "the folder holds no files to read as ranks";
        QTest::newRow("only hidden files") << QStringList{".rank0.json"} << "the folder holds no files to read as ranks";
        QTest::newRow("no file reads") << QStringList{"rank0.json", "rank1.json"}
                                       << "none of the 2 files could be read as a trace";
    }
    void badRankFoldersAreBadInput()
    {
        QFETCH(QStringList, files);
        QFETCH(QString, message);
        const QString dir = m_dir.filePath(QString("bad-ranks-%1").arg(QTest::currentDataTag()).replace(' ', '-'));
        QVERIFY(QDir().mkpath(dir));
        for (const QString& name : files) {
            QFile f(dir + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\": [");
        }
        const Result r = cli({"analyze", dir});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // The comparison's rules on rows built by hand: a step's spread over the
    // ranks that have it, offsets on the shared clock, the 5% straggler
    // threshold, and the finding that differs is the one the straggler pays
    // most over the others' median, not its costliest.
    void rankComparisonRules()
    {
        using namespace ovs;
        const auto row = [](const char* label, std::optional<std::int64_t> clock, std::vector<StepStart> steps,
                            std::int64_t medianNs, std::vector<RankFinding> findings) {
            RankSummary r;
            r.label = label;
            r.clockOriginNs = clock;
            r.steps = std::move(steps);
            r.stepMedianNs = medianNs;
            r.hasSteps = true;
            r.findings = std::move(findings);
            r.bound = "host bound";
            return r;
        };
        const auto finding = [](FindingKind kind, std::int64_t costNs) { return RankFinding{kind, {}, costNs}; };
        std::vector<RankSummary> rows{
            row("a", 1000, {{1, 0}, {2, 100}}, 100, {finding(FindingKind::PageableCopies, 9)}),
            row("b", 1010, {{1, 5}, {2, 95}, {3, 200}}, 100, {finding(FindingKind::OneStream, 1)}),
            row("c", 1000, {{2, 130}}, 104,
                {finding(FindingKind::PageableCopies, 10), finding(FindingKind::OneStream, 3)}),
        };
        const RankAlignment a = alignRanks(rows);
        QVERIFY(a.sharedClock);
        QCOMPARE(a.offsetNs, (std::vector<std::int64_t>{0, 10, 0}));
        QCOMPARE(a.stepsCompared, 2); // step 3 is b's alone
        QCOMPARE(a.worstSpreadNs, std::int64_t(30)); // step 2: 100, 105, 130
        QCOMPARE(a.worstStep, std::int64_t(2));
        QVERIFY(!findStraggler(rows).row); // 4% above the median: jitter
        QVERIFY(findStraggler(rows).sentence.starts_with("no straggler: the slowest rank, c, "));

        rows[2].stepMedianNs = 106; // 6%
        const RankStraggler s = findStraggler(rows);
        QCOMPARE(s.row, std::optional<std::size_t>(2));
        QCOMPARE(s.findingId, std::string("one-stream")); // 3 over the others' 1; pageable: 10 over 9
        QCOMPARE(s.findingExtraNs, std::int64_t(2));

        rows[2].findings.clear();
        QVERIFY(findStraggler(rows).sentence.ends_with("; no finding costs it more than the other ranks: its bound is "
                                                       "host bound"));

        // Ranks that meet every step take as long: the one that waits least
        // in collectives is the straggler, where the others wait 5% of a
        // step longer; a rank that shows no collective rules that out.
        for (RankSummary& r : rows)
            r.stepMedianNs = 1000;
        rows[0].collectiveMedianNs = 600;
        rows[1].collectiveMedianNs = 620;
        rows[2].collectiveMedianNs = 580; // 40 below the others' 620 (the upper of two): 4%
        QVERIFY(!findStraggler(rows).row);
        rows[2].collectiveMedianNs = 10;
        rows[2].findings = {finding(FindingKind::PageableCopies, 700)};
        const RankStraggler waits = findStraggler(rows);
        QCOMPARE(waits.row, std::optional<std::size_t>(2));
        QVERIFY(waits.byCollectiveWait);
        QCOMPARE(waits.othersWaitNs, std::int64_t(620)); // the median of two: the upper
        QCOMPARE(waits.findingId, std::string("pageable-memory"));
        QCOMPARE(waits.findingExtraNs, std::int64_t(700 - 9)); // a's 9
        // Fixed, its own work (1000 - 10 - 691 = 299) is under the others'
        // (400 and 380: the upper, 400): the step is 400 + its wait 10.
        QCOMPARE(waits.jobSavingNs, std::int64_t(1000 - 410));
        rows[1].collectiveMedianNs = -1;
        QVERIFY(!findStraggler(rows).row);
        rows[1].clockOriginNs.reset();
        const RankAlignment none = alignRanks(rows);
        QVERIFY(!none.sharedClock);
        QVERIFY(none.why.starts_with("b has no shared clock"));
        QCOMPARE(none.offsetNs, (std::vector<std::int64_t>{0, 0, 0}));
        QCOMPARE(none.stepsCompared, 0);
    }

    void rankOfAFileName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank"); // -1: none
        QTest::newRow("rank3") << "rank3.json" << 3;
        QTest::newRow("trace_rank_12") << "trace_rank_12.json" << 12;
        QTest::newRow("worker-3") << "worker-3.pt.trace.json" << 3;
        QTest::newRow("Rank5, any case") << "Rank5.json" << 5;
        QTest::newRow("rank-0.json.gz (HTA)") << "rank-0.json" << 0;
        QTest::newRow("torch.profiler's name") << "host_4100.1700000000.pt.trace.json" << -1;
        QTest::newRow("frank3: not a word") << "frank3.json" << -1;
        QTest::newRow("ranking") << "ranking.json" << -1;
        QTest::newRow("no number") << "rank.json" << -1;
        QTest::newRow("beyond an int") << "rank99999999999.json" << -1;
    }
    void rankOfAFileName()
    {
        QFETCH(QString, name);
        QFETCH(int, rank);
        QCOMPARE(ovs::rankFromFileName(name.toStdString()).value_or(-1), rank);
    }

    // An Nsight Systems report (SQLite export) is read as a trace, whatever
    // its name; a damaged one is bad input, named as such.
    void nsightReportIsATrace()
    {
        const QString report = m_dir.filePath("saxpy.report");
        QFile::remove(report);
        QVERIFY(QFile::copy(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/nsight/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"), report));
        const Result analyzed = cli({"analyze", report});
        QCOMPARE(analyzed.exitCode, 0);
        QVERIFY2(analyzed.out.contains("saxpy-mpi-cuda (pid 1230493)"), qPrintable(analyzed.out));
        QVERIFY2(analyzed.err.contains("imported from Nsight Systems 2022.2.1.31, export schema 2.9.1: 1 run, 20 GPU ops"),
                 qPrintable(analyzed.err));
        for (const QString& to : {"native", "chrome", "csv"}) {
            const QString out = m_dir.filePath("saxpy-" + to + (to == "csv" ? ".csv" : ".json"));
            const Result converted = cli({"convert", report, "--to", to, "-o", out});
            QCOMPARE(converted.exitCode, 0);
            QVERIFY(QFileInfo(out).size() > 0);
        }
        const auto native = ovs::loadTrace(m_dir.filePath("saxpy-native.json").toStdString());
        QVERIFY2(native.trace, native.error.c_str());
        QCOMPARE(native.trace->runs.at(0).ops.size(), std::size_t(76));

        QFile file(report);
        QVERIFY(file.setPermissions(file.permissions() | QFileDevice::WriteOwner));
        QVERIFY(file.resize(8192));
        const Result broken = cli({"analyze", report});
        QCOMPARE(broken.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(broken.err.contains("saxpy.report: Nsight Systems report: the SQLite database cannot be read"),
                 qPrintable(broken.err));
        QVERIFY(broken.out.isEmpty());
    }

    // A report from a stranger is data: the two crafted files, a
    // real export whose kernel table is a view over an endless query, or
    // one whose names are 900 MB each, are refused at once by name, as bad
    // input, in one line, by analyze and convert alike, and convert writes
    // nothing (docs/trace-format.md, "Nsight Systems reports").
    void aHostileNsightReportIsRefused_data()
    {
        QTest::addColumn<QString>("view"); // what stands in CUPTI_ACTIVITY_KIND_KERNEL's place
        QTest::newRow("a view over an endless query")
            << "SELECT kernel_rows.* FROM kernel_rows, (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
               "SELECT n FROM r)";
        QTest::newRow("a view of 900 MB names")
            << "SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, randomblob(900000000) AS "
               "demangledName, shortName, gridX, gridY, gridZ, blockX, blockY, blockZ FROM kernel_rows LIMIT 5";
    }
    void aHostileNsightReportIsRefused()
    {
        QFETCH(QString, view);
        const QString report = m_dir.filePath("hostile.sqlite");
        QFile::remove(report);
        QVERIFY(QFile::copy(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/nsight/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"), report));
        QVERIFY(QFile::setPermissions(report, QFile::permissions(report) | QFileDevice::WriteOwner));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(report.toUtf8().constData(), &db), SQLITE_OK);
        const QByteArray sql = "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows; "
                               "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS " + view.toUtf8();
        const int status = sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QCOMPARE(status, SQLITE_OK);
        const QString out = m_dir.filePath("hostile.csv");
        for (const QStringList& args : {QStringList{"analyze", report}, QStringList{"convert", report, "--to", "csv", "-o", out}}) {
            QElapsedTimer clock;
            clock.start();
            const Result r = cli(args);
            // Measured at 0.00 s (docs/trace-format.md); the bound is for
            // slow and sanitized machines.
            QVERIFY2(clock.elapsed() < ovsTestTimeoutMs(10000), qPrintable(QString::number(clock.elapsed())));
            QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.contains("hostile.sqlite: Nsight Systems report: CUPTI_ACTIVITY_KIND_KERNEL is a view, not a "
                                    "table: a report is read as data"),
                     qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        QVERIFY(!QFile::exists(out));
    }

    // /proc files say they are empty and are not: read, then refused for
    // what they hold, not as "the file is empty".
    void aFileThatSaysItIsEmptyIsRead()
    {
        const Result r = cli({"analyze", "/proc/self/status"});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(!r.err.contains("empty") && r.err.contains("it starts with \"Name:"), qPrintable(r.err));
    }

    // Names from a trace reach the terminal escaped: a run name cannot
    // retitle or clear it, nor break a table row.
    void namesArePrintedEscaped()
    {
        const QString path = m_dir.filePath("hostile-names.json");
        // Pinned on one stream: its finding (one stream, with the wait per
        // slot) names the stream's lane.
        QCOMPARE(cli({"pipeline", "--device", "sim", "--pipelines", "pinned-one-stream", "--chunks", "6", "--chunk-mib",
                      "1", "--quiet", "-o", path})
                     .exitCode,
                 0);
        auto loaded = ovs::loadTrace(path.toStdString());
        QVERIFY2(loaded.trace, loaded.error.c_str());
        loaded.trace->runs[0].name = "\x1b]0;pwned\x07\x1b[2Jserial\nized";
        loaded.trace->runs[0].device.name = "GPU\x1b[31m red";
        // A lane's name reaches the findings ("all ... GPU ops on one stream (NAME)").
        for (auto& lane : loaded.trace->runs[0].lanes)
            if (lane.kind == ovs::LaneKind::Stream)
                lane.name = "stream\x1b[2J\u202e0";
        std::string error;
        QVERIFY2(ovs::saveTrace(*loaded.trace, path.toStdString(), &error), error.c_str());
        const Result r = cli({"analyze", path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!r.out.contains(QChar(0x1b)));
        QVERIFY(!r.out.contains(QChar(0x07)));
        QVERIFY2(r.out.contains("\\x1b]0;pwned\\x07\\x1b[2Jserial\\nized"), qPrintable(r.out));
        QVERIFY2(r.out.contains("GPU\\x1b[31m red"), qPrintable(r.out));
        QVERIFY2(r.out.contains("one stream") && r.out.contains("(stream\\x1b[2J\\u202e0)"), qPrintable(r.out));
        QVERIFY(!r.out.contains(QChar(0x202e)));
    }

    // The output is checked before anything runs: nothing is recorded only
    // to be thrown away.
    void unwritableOutputIsRefusedBeforeRecording_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("message");
        for (const QString command : {"record", "pipeline"}) {
            QTest::addRow("%s, missing directory", qPrintable(command))
                << command << m_dir.filePath("no/such/dir/t.json") << "does not exist";
            QTest::addRow("%s, a directory", qPrintable(command)) << command << m_dir.path() << "is a directory";
            QTest::addRow("%s, empty path", qPrintable(command)) << command << "" << "the output path is empty";
            QTest::addRow("%s, under a file", qPrintable(command))
                << command << m_dir.filePath("a-file/t.json") << "is not a directory";
        }
        QTest::newRow("convert, a directory") << "convert" << m_dir.path() << "is a directory";
    }
    void unwritableOutputIsRefusedBeforeRecording()
    {
        QFETCH(QString, command);
        QFETCH(QString, output);
        QFETCH(QString, message);
        QFile file(m_dir.filePath("a-file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QStringList args{command, "-o", output};
        if (command == "convert")
            args << "--to" << "csv" << m_dir.filePath("not-read.json");
        else
            args << "--device" << "sim" << "--chunks" << "1" << "--chunk-mib" << "1";
        const Result r = cli(args);
        QCOMPARE(r.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(!r.err.contains("job 1"), qPrintable(r.err)); // nothing ran
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
