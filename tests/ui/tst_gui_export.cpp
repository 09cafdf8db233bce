// `overlapscope export` as a user on a GPU server runs it: no display, the
// window's renderer, the sizes asked for, clear errors.
#include "UiTestSupport.h"

#include "style/OpStyle.h"
#include "style/RegionStyle.h"

#include "../../app/cli/ExitStatus.h"

#include "analysis/RunAnalysis.h"
#include "findings/Findings.h"
#include "formats/TraceJson.h"

#include <QtTest>

#include <QImage>

#include <algorithm>
#include <cmath>

class TestGuiExport : public QObject {
    Q_OBJECT

    using Result = ovs::test::GuiResult;
    Result gui(const QStringList& args) { return ovs::test::runGui(args, 120000); }
    QString trace() const { return QString(OVERLAPSCOPE_SOURCE_DIR) + "/docs/traces/sim-h200-seed-defaults.json"; }
    QTemporaryDir m_dir;

    // A valid trace that asks for a huge picture: `lanes` extra lanes in the
    // first run (one op each), or the first run repeated `runs` times.
    QString hostileTrace(const QString& name, int lanes, int runs)
    {
        auto loaded = ovs::loadTrace(trace().toStdString());
        if (!loaded.trace)
            return {};
        ovs::Trace t = *loaded.trace;
        t.runs.resize(1);
        ovs::Run& run = t.runs.front();
        // A GPU op, to repeat on every new stream lane.
        const auto gpuOp = std::find_if(run.ops.begin(), run.ops.end(), [&](const ovs::Op& op) {
            return run.lanes[op.lane].kind == ovs::LaneKind::Stream;
        });
        if (gpuOp == run.ops.end())
            return {};
        const ovs::Op model = *gpuOp;
        for (int i = 0; i < lanes; ++i) {
            run.lanes.push_back(ovs::Lane{"stream " + std::to_string(i + 1), ovs::LaneKind::Stream});
            ovs::Op op = model;
            op.lane = static_cast<decltype(op.lane)>(run.lanes.size() - 1);
            run.ops.push_back(op);
        }
        const ovs::Run copy = run; // push_back may move `run`
        for (int i = 1; i < runs; ++i)
            t.runs.push_back(copy);
        const QString path = m_dir.filePath(name);
        std::string error;
        return ovs::saveTrace(t, path.toStdString(), &error) ? path : QString();
    }

private slots:
    void pngHasTheRequestedSizeAndScale()
    {
        const QString one = m_dir.filePath("one.png");
        const QString two = m_dir.filePath("two.png");
        QCOMPARE(gui({"export", trace(), "-o", one, "--width", "1200", "--height", "700"}).exitCode, 0);
        QCOMPARE(gui({"export", trace(), "-o", two, "--width", "1200", "--height", "700", "--scale", "2"}).exitCode, 0);
        const QImage a(one), b(two);
        QCOMPARE(a.size(), QSize(1200, 700));
        QCOMPARE(b.size(), QSize(2400, 1400));
    }

    void defaultHeightFitsTheLanes()
    {
        const QString out = m_dir.filePath("auto.png");
        const Result r = gui({"export", trace(), "-o", out, "--bandwidth", m_dir.filePath("bw.png")});
        QCOMPARE(r.exitCode, 0);
        const QImage image(out);
        QCOMPARE(image.width(), 1600);
        QVERIFY(image.height() > 300);
        QVERIFY(!QImage(m_dir.filePath("bw.png")).isNull());
    }

    void vectorFormats_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << "svg" << QByteArray("<svg");
        QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
    }
    void vectorFormats()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath("timeline." + suffix);
        QCOMPARE(gui({"export", trace(), "-o", out}).exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(magic));
    }

    void badInputIsAClearError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no output") << QStringList{"export", "x.json"} << 2 << "-o OUT";
        QTest::newRow("unknown format") << QStringList{"export", "x.json", "-o", "a.bmp"} << 2 << ".png, .svg or .pdf";
        QTest::newRow("missing trace") << QStringList{"export", "/nonexistent/t.json", "-o", "a.png"} << 3 << "t.json";
        QTest::newRow("missing recorded lesson")
            << QStringList{"export", "--lesson", "issue-order", "--from", "/nonexistent/l.json", "-o", "slides"} << 3
            << "l.json";
        // The value is checked while parsing, so the program still leaves
        // through QApplication (no exit() past it: LeakSanitizer stays clean).
        QTest::newRow("no value for -o") << QStringList{"export", "x.json", "-o"} << 2 << "-o needs a value";
        QTest::newRow("no value for --bandwidth") << QStringList{"export", "x.json", "-o", "a.png", "--bandwidth"} << 2
                                                  << "--bandwidth needs a value";
        QTest::newRow("bad scale") << QStringList{"export", "x.json", "-o", "a.png", "--scale", "99"} << 2 << "bad value";
        QTest::newRow("half a range") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "3"} << 2
                                      << "both --from-ms and --to-ms";
        QTest::newRow("reversed range") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "3", "--to-ms", "1"}
                                        << 2 << "from < to";
        QTest::newRow("unknown option") << QStringList{"export", "x.json", "--frob"} << 2 << "unknown option";
        QTest::newRow("unknown extension") << QStringList{"export", "x.json", "-o", "out.xyz"} << 2 << "out.xyz";
        QTest::newRow("bandwidth, unknown extension")
            << QStringList{"export", "x.json", "-o", "a.png", "--bandwidth", "bw.xyz"} << 2 << "bw.xyz";
        QTest::newRow("infinite time") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "0", "--to-ms", "inf"}
                                       << 2 << "finite";
        QTest::newRow("time past int64 ns")
            << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "0", "--to-ms", "1e300"} << 2 << "finite";
        QTest::newRow("nan time") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "nan", "--to-ms", "3"}
                                  << 2 << "bad value";
        QTest::newRow("negative time") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "-1", "--to-ms", "3"}
                                       << 2 << "bad value";
        QTest::newRow("height over the cap") << QStringList{"export", "x.json", "-o", "a.png", "--height", "40000"} << 2
                                             << "32768";
        QTest::newRow("runs from 0") << QStringList{"export", "x.json", "-o", "a.png", "--runs", "0-2"} << 2 << "--runs";
        QTest::newRow("runs reversed") << QStringList{"export", "x.json", "-o", "a.png", "--runs", "3-2"} << 2 << "--runs";
        QTest::newRow("unknown theme") << QStringList{"export", "x.json", "-o", "a.png", "--theme", "sepia"} << 2
                                       << "light or dark";
        QTest::newRow("system theme has no meaning headless")
            << QStringList{"export", "x.json", "-o", "a.png", "--theme", "system"} << 2 << "light or dark";
        QTest::newRow("negative playhead") << QStringList{"export", "x.json", "-o", "a.png", "--playhead-ms", "-2"} << 2
                                           << "bad value";
        QTest::newRow("repeated option") << QStringList{"export", "x.json", "-o", "a.png", "--width", "800", "--width", "900"}
                                         << 2 << "--width given twice";
        QTest::newRow("repeated output, two spellings")
            << QStringList{"export", "x.json", "-o", "a.png", "--output", "b.png"} << 2 << "--output given twice";
        QTest::newRow("unknown what-if") << QStringList{"export", "x.json", "-o", "a.png", "--what-if", "frob"} << 2
                                         << "--what-if: unknown finding 'frob'";
        QTest::newRow("compare one trace") << QStringList{"export", "--compare", "x.json", "-o", "a.png"} << 2
                                           << "export --compare needs two traces";
        QTest::newRow("two traces, no compare") << QStringList{"export", "x.json", "y.json", "-o", "a.png"} << 2
                                                << "unexpected argument 'y.json'";
        QTest::newRow("compare and runs")
            << QStringList{"export", "--compare", "x.json", "y.json", "-o", "a.png", "--runs", "1"} << 2
            << "--runs does not go with --compare";
        QTest::newRow("compare, missing after")
            << QStringList{"export", "--compare", OVERLAPSCOPE_SOURCE_DIR "/tests/data/profiled/what-if/one_stream.json",
                           "/nonexistent/after.json", "-o", "a.png"}
            << 3 << "after.json";
        QTest::newRow("size limit past the ceiling")
            << QStringList{"export", "x.json", "-o", "a.png", "--max-trace-mib", "4096"} << 2 << "1 to 4095";
    }
    // The read size limit is an option here too: above it, a message and no picture.
    void traceSizeLimitIsAnOption()
    {
        const QString big = m_dir.filePath("big.json");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray((1 << 20) + 1, ' '));
        f.close();
        const QString out = m_dir.filePath("big.png");
        const Result r = gui({"export", big, "-o", out, "--max-trace-mib", "1"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("above the size limit for traces of 1.0 MiB"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    // A usage error quoting a 100,000-digit value is still one short line.
    void usageMessagesAreOneShortLine()
    {
        const Result r = gui({"export", "x.json", "-o", "a.png", "--width", QString(100000, '9') + "\n\x1b[2J"});
        QCOMPARE(r.exitCode, 2);
        const QString line = r.err.trimmed();
        QVERIFY2(!line.contains('\n') && !line.contains(QChar(0x1b)) && line.size() <= 300 + 20, qPrintable(line.left(400)));
        QVERIFY(line.contains("bad value"));
    }
    void badInputIsAClearError()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Result r = gui(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void bandwidthFollowsItsExtension_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "bw.png" << QByteArray("\x89PNG");
        QTest::newRow("svg") << "bw.svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "bw.pdf" << QByteArray("%PDF");
    }
    void bandwidthFollowsItsExtension()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath(name);
        const Result r = gui({"export", trace(), "-o", m_dir.filePath("t.png"), "--bandwidth", out});
        QCOMPARE(r.exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().startsWith(magic));
    }

    void themeAndPlayhead()
    {
        // Light by default (for print), dark when asked; a playhead at 0
        // hides every op that starts later, so fewer op-coloured pixels.
        const QString light = m_dir.filePath("light.png"), dark = m_dir.filePath("dark.png"),
                      replay = m_dir.filePath("replay.png");
        QCOMPARE(gui({"export", trace(), "-o", light}).exitCode, 0);
        QCOMPARE(gui({"export", trace(), "-o", dark, "--theme", "dark"}).exitCode, 0);
        QCOMPARE(gui({"export", trace(), "-o", replay, "--playhead-ms", "0"}).exitCode, 0);
        const QImage l(light), d(dark), r(replay);
        QVERIFY(!l.isNull() && !d.isNull() && !r.isNull());
        // A corner is background.
        QVERIFY(l.pixelColor(2, 2).lightness() > 200);
        QVERIFY(d.pixelColor(2, 2).lightness() < 64);
        const auto saturated = [](const QImage& image) {
            int n = 0;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = 0; x < image.width(); x += 2)
                    n += image.pixelColor(x, y).hsvSaturation() > 120;
            return n;
        };
        QVERIFY2(saturated(r) < saturated(l) / 2,
                 qPrintable(QString("%1 vs %2 coloured pixels").arg(saturated(r)).arg(saturated(l))));
    }

    void whatIfDrawsTheGhost()
    {
        // The one-stream finding, replayed with a stream per chunk: its
        // ghost adds the run's lanes again, under it, in translucent colours.
        const QString profiled = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/profiled/one_stream.json";
        const QString plain = m_dir.filePath("plain.png"), ghost = m_dir.filePath("ghost.png"),
                      all = m_dir.filePath("all.png");
        QCOMPARE(gui({"export", profiled, "-o", plain}).exitCode, 0);
        Result r = gui({"export", profiled, "-o", ghost, "--what-if", "one-stream"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage p(plain), g(ghost);
        QVERIFY(!p.isNull() && !g.isNull());
        QCOMPARE(g.width(), p.width());
        QVERIFY2(g.height() > p.height() + 60, qPrintable(QString("%1 vs %2 px").arg(g.height()).arg(p.height())));
        // Every fix at once, where the replay costed some finding.
        const auto loaded = ovs::loadTrace(profiled.toStdString());
        QVERIFY(loaded.trace);
        const bool anyReplayed = ovs::analyzeFindings(loaded.trace->runs[0], loaded.trace->sweeps).whatIf.allFixes != 0;
        r = gui({"export", profiled, "-o", all, "--what-if", "all"});
        QCOMPARE(r.exitCode, anyReplayed ? 0 : 2);
        if (anyReplayed)
            QCOMPARE(QImage(all).height(), g.height()); // the same lanes again
        else
            QVERIFY2(r.err.contains("--what-if all: no run has a finding with a fix to replay"), qPrintable(r.err));
        // A ghost's fill: its op colours at 40% over the white background,
        // which no measured op has.
        const auto light = [](const QImage& image) {
            QList<QColor> fills;
            for (const ovs::OpKind kind : {ovs::OpKind::Upload, ovs::OpKind::Download, ovs::OpKind::Kernel,
                                           ovs::OpKind::Alloc, ovs::OpKind::Free}) {
                const QColor c = ovs::ui::opColor(kind);
                const auto mix = [](int v) { return static_cast<int>(std::lround(0.4 * v + 0.6 * 255)); };
                fills << QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
            }
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    for (const QColor& f : fills)
                        n += std::abs(c.red() - f.red()) <= 6 && std::abs(c.green() - f.green()) <= 6
                             && std::abs(c.blue() - f.blue()) <= 6;
                }
            return n;
        };
        QVERIFY2(light(g) > light(p) + 500, qPrintable(QString("%1 vs %2 light pixels").arg(light(g)).arg(light(p))));

        // A finding the run does not have: said so, nothing written.
        const QString none = m_dir.filePath("none.png");
        r = gui({"export", profiled, "-o", none, "--what-if", "legacy-default-stream"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--what-if legacy-default-stream: "), qPrintable(r.err));
        QVERIFY(!QFile::exists(none));
    }

    // Two traces of one example, plain and --fix, compared: the pair stacked
    // under a header (taller than either alone, and than both without it),
    // as wide as asked; the output is refused where it is an input.
    void compareStacksBeforeAndAfter()
    {
        const QString data = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/profiled/what-if/";
        const QString before = data + "pageable_async.json", after = data + "pageable_async-fix.json";
        const QString alone = m_dir.filePath("alone.png"), both = m_dir.filePath("both.png");
        QCOMPARE(gui({"export", before, "-o", alone}).exitCode, 0);
        const Result r = gui({"export", "--compare", before, after, "-o", both, "--width", "1400"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage a(alone), b(both);
        QVERIFY(!a.isNull() && !b.isNull());
        QCOMPARE(b.width(), 1400);
        QVERIFY2(b.height() > 2 * a.height(), qPrintable(QString("%1 vs %2 px").arg(b.height()).arg(a.height())));
        // Only two runs that pair by nothing: refused, nothing written.
        const QString other = QString(OVERLAPSCOPE_SOURCE_DIR) + "/docs/traces/sim-h200-seed-defaults.json";
        const QString none = m_dir.filePath("none.png");
        const Result n = gui({"export", "--compare", before, other, "-o", none});
        QCOMPARE(n.exitCode, 2);
        QVERIFY2(n.err.contains("pairs with a run of"), qPrintable(n.err));
        QVERIFY(!QFile::exists(none));
    }

    void runsSelectsRuns()
    {
        const QString out = m_dir.filePath("runs.png");
        QCOMPARE(gui({"export", trace(), "-o", out, "--runs", "2"}).exitCode, 0);
        const QImage one(out);
        QCOMPARE(gui({"export", trace(), "-o", out, "--runs", "1-2"}).exitCode, 0);
        QVERIFY(QImage(out).height() > one.height());
        const Result r = gui({"export", trace(), "-o", out, "--runs", "50"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("the trace has"), qPrintable(r.err));
    }

    void hugeTracesAreCappedOrRefused()
    {
        // 65,535 lanes: at full row height over the cap, so refused with a
        // message naming --height; squeezed into --height, rendered.
        const QString lanes = hostileTrace("lanes.json", 65533, 1);
        QVERIFY(!lanes.isEmpty());
        const QString out = m_dir.filePath("lanes.png");
        // Over the caps is a usage error: the options asked for too much.
        Result r = gui({"export", lanes, "-o", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--height") && r.err.contains("65535 lanes"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        r = gui({"export", lanes, "-o", out, "--height", "20000"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(out).size(), QSize(1600, 20000));

        // 2,000 runs: their titles alone pass the cap, so a height cannot
        // help: the message says to export fewer runs.
        const QString runs = hostileTrace("runs.json", 0, 2000);
        QVERIFY(!runs.isEmpty());
        r = gui({"export", runs, "-o", out, "--height", "30000"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--runs"), qPrintable(r.err));
        r = gui({"export", runs, "-o", out, "--runs", "1-20"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void malformedTraceWritesNothing()
    {
        const QString bad = m_dir.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"overlapscope-trace\",\"version\":1,\"runs\":[{\"name\":");
        f.close();
        const QString out = m_dir.filePath("never.png");
        const Result r = gui({"export", bad, "-o", out});
        // The CLI's table (app/cli/ExitStatus.h), which overlapscope-cli
        // answers the same file with: bad input, 3.
        QCOMPARE(r.exitCode, int(ovs::cli::kExitBadInput));
        QVERIFY2(r.err.contains("line 1"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // A run's regions band, headless: each region in its colour, as the
    // window draws it. Needs the native format to store regions (issue 19).
    void regionsInAHeadlessExport()
    {
        ovs::Trace t;
        t.runs = {ovs::test::regionsRun()};
        const QString path = m_dir.filePath("regions.json");
        std::string error;
        QVERIFY2(ovs::saveTrace(t, path.toStdString(), &error), error.c_str());
        const auto loaded = ovs::loadTrace(path.toStdString());
        QVERIFY(loaded.trace);
        if (loaded.trace->runs.front().regions.size() != t.runs.front().regions.size())
            QSKIP("the native format does not store regions yet");
        const QString out = m_dir.filePath("regions.png");
        const Result r = gui({"export", path, "-o", out, "--width", "1200", "--height", "400"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage image(out);
        QVERIFY(!image.isNull());
        // The band is drawn translucent over the lanes' background: a
        // region's pixels keep its colour's hue, not its exact value.
        for (const char* name : {"capture", "ProfilerStep#0", "h2d"}) {
            const QColor want = ovs::ui::regionColor(name, false);
            bool found = false;
            for (int y = 0; y < image.height() && !found; y += 2)
                for (int x = 0; x < image.width() && !found; x += 2) {
                    const QColor c = image.pixelColor(x, y);
                    const int dh = std::abs(c.hslHue() - want.hslHue());
                    found = c.hslSaturation() > 40 && std::min(dh, 360 - dh) <= 6;
                }
            QVERIFY2(found, name);
        }
    }

    // A picture over the pixel cap (32768 px at scale 8) is refused as bad
    // usage, before anything is written.
    void overThePixelCapIsAUsageError()
    {
        const QString out = m_dir.filePath("huge.png");
        const Result r = gui({"export", trace(), "-o", out, "--width", "20000", "--height", "20000", "--scale", "8"});
        QCOMPARE(r.exitCode, int(ovs::cli::kExitUsage));
        QVERIFY2(r.err.contains("cap"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // An output that is the input (here through a link named .svg), or two
    // outputs that are one file, are refused before anything is read or written.
    void outputThatIsTheInputIsRefused_data()
    {
        QTest::addColumn<QStringList>("outputs");
        QTest::addColumn<QString>("message");
        QTest::newRow("-o, a link to the trace") << QStringList{"-o", "@link.svg"} << "is the input";
        QTest::newRow("--bandwidth, a link to the trace")
            << QStringList{"-o", "@t.png", "--bandwidth", "@link.svg"} << "is the input";
        QTest::newRow("-o and --bandwidth, one file")
            << QStringList{"-o", "@t.png", "--bandwidth", "@sub/../t.png"} << "name the same file";
    }
    void outputThatIsTheInputIsRefused()
    {
        QFETCH(QStringList, outputs);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString input = dir.filePath("trace.json");
        QVERIFY(QFile::copy(trace(), input));
        QVERIFY(QFile::link("trace.json", dir.filePath("link.svg")));
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        for (QString& output : outputs)
            if (output.startsWith('@'))
                output = dir.filePath(output.mid(1));
        const Result r = gui(QStringList{"export", input} + outputs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QFile original(trace()), copy(input);
        QVERIFY(original.open(QIODevice::ReadOnly) && copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), original.readAll());
        QVERIFY(!QFile::exists(dir.filePath("t.png")));
    }

    // --bandwidth on a trace without a sweep: refused before the timeline is
    // written, as a usage error.
    void bandwidthOfATraceWithoutASweep()
    {
        const QString profiled = QString(OVERLAPSCOPE_SOURCE_DIR) + "/tests/data/profiled/pageable_async.json";
        const QString out = m_dir.filePath("no-sweep.png");
        const Result r = gui({"export", profiled, "-o", out, "--bandwidth", m_dir.filePath("no-sweep-bw.png")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no bandwidth sweep"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // The first bytes decide: an SQLite database is read as Nsight's export,
    // and a damaged one is bad input (3), whatever its size.
    void sqliteIsNamedAsSuch()
    {
        const QString path = m_dir.filePath("report.sqlite");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray("SQLite format 3\0", 16));
        QVERIFY(file.resize(qint64(3) << 30)); // sparse: costs no disk
        file.close();
        const Result r = gui({"export", path, "-o", m_dir.filePath("never.png")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("Nsight Systems report: the SQLite database cannot be read"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_dir.filePath("never.png")));
        QVERIFY(file.remove());
    }
};

QTEST_GUILESS_MAIN(TestGuiExport)
#include "tst_gui_export.moc"
