// The simulated figures in docs/measurements.md and the stored simulated
// trace are what this build prints: every marked block
//   <!-- sim:NAME overlapscope-cli ARGS | SECTION -->
// holds the table that `overlapscope-cli ARGS` prints after the first line
// starting with SECTION, and every simulated run and sweep stored in
// docs/traces comes out the same when run again. When one fails, the model
// or the output changed: regenerate with scripts/regenerate-sim-docs.py and
// read the diff.
#include "TestTimeouts.h"
#include "bench/BandwidthBench.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace ovs;

namespace {

QString sourceDir()
{
    return QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../.."));
}

struct Block {
    QString name;
    QString args;
    QString section;
    QStringList rows;
};

QList<Block> blocksOf(const QString& doc)
{
    static const QRegularExpression head(
        QStringLiteral("^<!-- sim:([\\w-]+) overlapscope-cli (.*?) \\| (.*?) -->$"));
    QList<Block> blocks;
    const QStringList lines = doc.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const auto match = head.match(lines[i]);
        if (!match.hasMatch())
            continue;
        Block block{match.captured(1), match.captured(2), match.captured(3), {}};
        const QString end = "<!-- /sim:" + block.name + " -->";
        qsizetype j = i + 1;
        for (; j < lines.size() && lines[j] != end; ++j)
            block.rows << lines[j];
        if (j == lines.size())
            block.rows = {QStringLiteral("(no end marker)")};
        blocks << block;
        i = j;
    }
    return blocks;
}

// The '|' lines after the first line starting with `section`.
QStringList tableAfter(const QString& output, const QString& section)
{
    const QStringList lines = output.split('\n');
    QStringList rows;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines[i].startsWith(section))
            continue;
        for (qsizetype j = i + 1; j < lines.size(); ++j) {
            if (!lines[j].startsWith('|')) {
                if (!rows.isEmpty())
                    break;
                continue;
            }
            rows << lines[j];
        }
        break;
    }
    return rows;
}

Trace loadStored(const QString& name)
{
    const auto loaded = loadTrace((sourceDir() + "/docs/traces/" + name).toStdString());
    if (!loaded.trace)
        qFatal("%s: %s", qPrintable(name), loaded.error.c_str());
    return *loaded.trace;
}

// What `overlapscope-cli ARGS --quiet` printed, run once per ARGS for the
// whole program. A `pipeline` command also writes its runs (-o), which the
// stored-trace check reads rather than running them again.
struct CliRun {
    bool ok = false;
    QString printed;
    QString tracePath; // pipeline commands only
};

const CliRun& cliRun(const QString& args)
{
    static QTemporaryDir traces;
    static std::map<QString, CliRun> runs;
    if (const auto found = runs.find(args); found != runs.end())
        return found->second;
    CliRun& run = runs[args];
    QStringList words = QProcess::splitCommand(args) << QStringLiteral("--quiet");
    if (words.value(0) == QStringLiteral("pipeline")) {
        run.tracePath = traces.filePath(QString::number(runs.size()) + ".json");
        words << QStringLiteral("-o") << run.tracePath;
    }
    QProcess cli;
    cli.start(QStringLiteral(OVERLAPSCOPE_CLI_PATH), words);
    run.ok = cli.waitForFinished(ovsTestTimeoutMs(300000)) && cli.exitStatus() == QProcess::NormalExit
             && cli.exitCode() == 0;
    run.printed = QString::fromUtf8(cli.readAllStandardOutput());
    if (!run.ok)
        run.printed += QString::fromUtf8(cli.readAllStandardError());
    return run;
}

} // namespace

class TestSimDocs : public QObject {
    Q_OBJECT

private slots:
    void blocksMatchTheBuild_data()
    {
        QFile file(sourceDir() + "/docs/measurements.md");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<Block> blocks = blocksOf(QString::fromUtf8(file.readAll()));
        QVERIFY(blocks.size() >= 5);
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("section");
        QTest::addColumn<QStringList>("rows");
        for (const Block& block : blocks)
            QTest::newRow(qPrintable(block.name)) << block.args << block.section << block.rows;
    }
    void blocksMatchTheBuild()
    {
        QFETCH(QString, args);
        QFETCH(QString, section);
        QFETCH(QStringList, rows);
        QVERIFY2(args.contains("--device sim"), qPrintable(args + " is not a simulated command"));
        // Blocks with the same command share one run of it.
        const CliRun& run = cliRun(args);
        QVERIFY2(run.ok, qPrintable(args + " failed:\n" + run.printed));
        const QStringList printed = tableAfter(run.printed, section);
        QVERIFY2(!printed.isEmpty(), qPrintable("nothing after '" + section + "' in:\n" + run.printed));
        QVERIFY2(rows == printed, qPrintable("docs/measurements.md holds\n" + rows.join('\n') + "\nthe build prints\n"
                                             + printed.join('\n')
                                             + "\n(scripts/regenerate-sim-docs.py rewrites the block)"));
    }

    // Each simulated run stored in docs/traces runs again to the same
    // timed region, op for op. They are the seed's two pipelines at its
    // defaults, which `pipeline --device PRESET` runs: the docs' block of
    // that command (when there is one) and this check share one run.
    void storedSimulatedRunsMatchTheBuild()
    {
        const Trace trace = loadStored("sim-h200-seed-defaults.json");
        QVERIFY(!trace.runs.empty());
        const QString preset = QString::fromStdString(trace.runs.front().device.preset);
        const CliRun& run = cliRun("pipeline --device sim:" + preset);
        QVERIFY2(run.ok, qPrintable(run.printed));
        const auto built = loadTrace(run.tracePath.toStdString());
        QVERIFY2(built.trace, built.error.c_str());
        QCOMPARE(built.trace->runs.size(), trace.runs.size());
        for (std::size_t i = 0; i < trace.runs.size(); ++i) {
            const Run& stored = trace.runs[i];
            const Run& again = built.trace->runs[i];
            QVERIFY(stored.device.simulated);
            QCOMPARE(stored.device.preset, preset.toStdString());
            QCOMPARE(again.pipeline, stored.pipeline);
            QCOMPARE(again.params.chunks, stored.params.chunks);
            QCOMPARE(again.params.chunkBytes, stored.params.chunkBytes);
            QCOMPARE(again.params.slotCount, stored.params.slotCount);
            QCOMPARE(again.params.kernelRepeats, stored.params.kernelRepeats);
            QCOMPARE(again.params.stagingThreads, stored.params.stagingThreads);
            QVERIFY2(again.wallNs() == stored.wallNs(),
                     qPrintable(QString::fromStdString(stored.name) + ": stored " + QString::number(stored.wallNs())
                                + " ns, the build " + QString::number(again.wallNs())
                                + " ns (scripts/regenerate-sim-docs.py records it again)"));
            QCOMPARE(again.ops.size(), stored.ops.size());
            QVERIFY(again.device.model == stored.device.model);
        }
    }

    void storedSimulatedSweepMatchesTheBuild()
    {
        const Trace trace = loadStored("sim-h200-seed-defaults.json");
        QCOMPARE(trace.sweeps.size(), std::size_t(1));
        const BandwidthSweep& stored = trace.sweeps.front();
        BenchConfig config;
        config.warmups = stored.warmups;
        config.samples = stored.samples;
        config.sizes.clear();
        for (const BandwidthPoint& p : stored.points)
            if (std::find(config.sizes.begin(), config.sizes.end(), p.bytes) == config.sizes.end())
                config.sizes.push_back(p.bytes);
        QVERIFY(!stored.hostCopies.empty());
        config.hostCopyBytes = stored.hostCopies.front().bytes;
        for (const HostCopyPoint& p : stored.hostCopies)
            config.hostCopyThreads.push_back(p.threads);
        SimDevice device(*findSimPreset(stored.device.preset));
        RecordSink sink;
        CancelFlag cancel;
        const BandwidthSweep again = runBandwidthSweep(device, config, sink, cancel);
        QCOMPARE(again.points.size(), stored.points.size());
        for (std::size_t i = 0; i < stored.points.size(); ++i)
            QCOMPARE(again.points[i].gbps, stored.points[i].gbps);
        QCOMPARE(again.hostCopies.size(), stored.hostCopies.size());
        for (std::size_t i = 0; i < stored.hostCopies.size(); ++i)
            QCOMPARE(again.hostCopies[i].gbps, stored.hostCopies[i].gbps);
    }
};

QTEST_GUILESS_MAIN(TestSimDocs)
#include "tst_sim_docs.moc"
