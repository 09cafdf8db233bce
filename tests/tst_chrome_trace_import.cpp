#include "facts/RunIndex.h"
#include "formats/ChromeTraceImport.h"
#include "formats/TraceJson.h"
#include "ranks/RankFolder.h"
#include "ranks/RankSummaryJson.h"
#include "ranks/RanksJson.h"

#include "TestRankFolder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace ovs;

namespace {

TraceLoadResult loadSample(const char* name)
{
    return loadTrace(std::string(OVERLAPSCOPE_TEST_DATA) + "/" + name);
}

std::size_t count(const Run& run, OpKind kind, HostMemoryKind memory)
{
    return static_cast<std::size_t>(std::count_if(run.ops.begin(), run.ops.end(), [&](const Op& op) {
        return op.kind == kind && op.memory == memory;
    }));
}

std::set<std::string> laneNames(const Run& run, LaneKind kind)
{
    std::set<std::string> names;
    for (const Lane& lane : run.lanes)
        if (lane.kind == kind)
            names.insert(lane.name);
    return names;
}

// A Chrome trace of hand-written events, one per line of `events`.
std::string chromeTrace(const QStringList& events)
{
    return ("{\"traceEvents\":[" + events.join(',') + "]}").toStdString();
}

QString x(const char* cat, const char* name, int pid, int tid, const char* ts, const char* dur, const char* args = "{}")
{
    return QString(R"({"ph":"X","cat":"%1","name":"%2","pid":%3,"tid":%4,"ts":%5,"dur":%6,"args":%7})")
        .arg(cat, name)
        .arg(pid)
        .arg(tid)
        .arg(ts, dur, args);
}

QByteArray sampleText(const char* name)
{
    QFile file(QString(OVERLAPSCOPE_TEST_DATA) + "/" + name);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The stored Kineto trace with its events `copies` times, each copy a second
// after the one before and with ids of its own (as scripts/make-big-kineto.py
// makes the big traces).
QByteArray repeatedKineto(const QByteArray& text, int copies)
{
    const qsizetype open = text.indexOf('[', text.indexOf("\"traceEvents\"")) + 1;
    const qsizetype close = text.lastIndexOf(']');
    const QString events = QString::fromUtf8(text.mid(open, close - open));
    static const QRegularExpression number(R"re("(ts|id|External id|correlation)": (\d+(\.\d+)?))re");
    QByteArray out = text.left(open);
    for (int k = 0; k < copies; ++k) {
        QString copy;
        qsizetype last = 0;
        for (auto it = number.globalMatch(events); it.hasNext();) {
            const auto m = it.next();
            copy += events.mid(last, m.capturedStart(2) - last);
            if (m.captured(1) == "ts") {
                std::int64_t ns = 0;
                microsecondsTextToNs(m.captured(2).toStdString(), ns);
                ns += std::int64_t(k) * 1'000'000'000;
                copy += QString("%1.%2").arg(ns / 1000).arg(ns % 1000, 3, 10, QChar('0'));
            } else {
                const qint64 id = m.captured(2).toLongLong();
                copy += QString::number(id > 0 ? id + qint64(k) * 100000 : id);
            }
            last = m.capturedEnd(2);
        }
        copy += events.mid(last);
        out += (k ? "," : "") + copy.toUtf8();
    }
    return out + text.mid(close);
}

QString writeTemp(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    return path;
}

// What a view needs of regions, comparable.
std::vector<std::tuple<std::string, std::int64_t, std::int64_t, int, int, int>> regionsOf(const Run& run)
{
    std::vector<std::tuple<std::string, std::int64_t, std::int64_t, int, int, int>> regions;
    for (const Region& r : run.regions)
        regions.emplace_back(r.name, r.beginNs, r.endNs, r.lane, r.depth, int(r.source));
    return regions;
}

} // namespace

class TestChromeTraceImport : public QObject {
    Q_OBJECT

private slots:
    void importsPyTorchTraces_data();
    void importsPyTorchTraces();
    void joinsApiCallsToGpuWork();
    void microseconds_data();
    void microseconds();
    void mapsEventsToOps();
    void lanesNamedApart();
    void realTraceNamesTheExamplesFunction();
    void callSitesFollowTheRule_data();
    void callSitesFollowTheRule();
    void callSitesSurviveWindowsAndTheNativeFormat();
    void overlappingCallsGetAnExtraLane();
    void eventsOutOfOrderArePlacedInOrder();
    void onlyTheLegacyStreamHasAKnownKind();
    void twoGpusAreTheRunsDevices();
    void bareArrayAndStringIds();
    void refusesWhatItCannotRead_data();
    void refusesWhatItCannotRead();
    void truncatedKinetoFileIsRefused();
    void importsKinetoAnnotations();
    void profilerStepsAndNesting();
    void malformedAnnotationsAreLeftOut();
    void readInWindowsAsWhole_data();
    void readInWindowsAsWhole();
    void repeatedTraceGivesNTimesTheOps();
    void windowsLeaveErrorsToTheWholeReader_data();
    void windowsLeaveErrorsToTheWholeReader();
    void windowsReportProgressAndCancel_data();
    void windowsReportProgressAndCancel();
    void distributedRankAndSharedClock_data();
    void distributedRankAndSharedClock();
    void readRanksKeepsWhatIsAsked();
    void rankSummariesMergeAsTheFolder();
    void brokenRankSummariesAreRefused();
    void launchShapesAndSms_data();
    void launchShapesAndSms();
};

void TestChromeTraceImport::importsPyTorchTraces_data()
{
    // Traces recorded with torch.profiler on an H200 (the train step is cut
    // to its GPU and CUDA API events to stay small).
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("kernels");
    QTest::addColumn<int>("pageableUploads");
    QTest::addColumn<int>("pinnedUploads");
    QTest::addColumn<int>("pageableDownloads");
    QTest::addColumn<int>("pinnedDownloads");
    QTest::addColumn<int>("memsets");
    QTest::addColumn<int>("apiCalls");
    QTest::addColumn<QStringList>("streams");
    QTest::addColumn<int>("hostThreads");

    QTest::newRow("pageable, synchronous") << "pytorch-pageable-sync.json" << 6 << 6 << 0 << 6 << 0 << 0 << 32
                                           << QStringList{"GPU 0 stream 21", "GPU 0 stream 25"} << 1;
    QTest::newRow("two streams, pinned") << "pytorch-two-streams-pinned.json" << 6 << 0 << 6 << 0 << 6 << 0 << 32
                                         << QStringList{"GPU 0 stream 13", "GPU 0 stream 17"} << 1;
    QTest::newRow("train step, default stream") << "pytorch-train-step.json" << 68 << 8 << 0 << 0 << 4 << 4 << 110
                                                << QStringList{"GPU 0 stream 7 (legacy default)"} << 2; // autograd's backward thread
}

void TestChromeTraceImport::importsPyTorchTraces()
{
    QFETCH(QString, file);
    const auto loaded = loadSample(file.toUtf8().constData());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note).contains("PyTorch profiler (Kineto) trace"), loaded.note.c_str());
    QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
    const Run& run = loaded.trace->runs[0];
    QCOMPARE(run.name, std::string("python3 (pid 427)"));
    QCOMPARE(run.pipeline, std::string("pytorch"));
    QCOMPARE(run.timing, std::string("cupti (imported)"));
    QCOMPARE(run.device.name, std::string("NVIDIA H200"));
    QCOMPARE(run.device.detail, std::string("sm_90"));
    QCOMPARE(run.device.totalMemoryBytes, std::uint64_t(150109880320ULL));

    QTEST(int(count(run, OpKind::Kernel, HostMemoryKind::None)), "kernels");
    QTEST(int(count(run, OpKind::Upload, HostMemoryKind::Pageable)), "pageableUploads");
    QTEST(int(count(run, OpKind::Upload, HostMemoryKind::Pinned)), "pinnedUploads");
    QTEST(int(count(run, OpKind::Download, HostMemoryKind::Pageable)), "pageableDownloads");
    QTEST(int(count(run, OpKind::Download, HostMemoryKind::Pinned)), "pinnedDownloads");
    QTEST(int(count(run, OpKind::Memset, HostMemoryKind::Device)), "memsets");
    QTEST(int(count(run, OpKind::ApiCall, HostMemoryKind::None)), "apiCalls");
    QFETCH(int, kernels);
    QFETCH(int, pageableUploads);
    QFETCH(int, pinnedUploads);
    QFETCH(int, pageableDownloads);
    QFETCH(int, pinnedDownloads);
    QFETCH(int, memsets);
    QFETCH(int, apiCalls);
    QCOMPARE(run.ops.size(), std::size_t(kernels + pageableUploads + pinnedUploads + pageableDownloads
                                          + pinnedDownloads + memsets + apiCalls));

    QFETCH(QStringList, streams);
    std::set<std::string> expected;
    for (const QString& s : streams)
        expected.insert(s.toStdString());
    QCOMPARE(laneNames(run, LaneKind::Stream), expected);
    QTEST(int(laneNames(run, LaneKind::HostThread).size()), "hostThreads");
    // Kineto tells only the legacy default stream, by its id.
    for (const Lane& lane : run.lanes)
        QCOMPARE(lane.streamKind, lane.name.ends_with("(legacy default)") ? StreamKind::LegacyDefault
                                                                          : StreamKind::Unknown);

    // Times count from the first imported event; GPU times are engine times.
    std::int64_t first = run.ops.front().startNs;
    for (const Op& op : run.ops) {
        first = std::min(first, op.startNs);
        if (isGpuOp(op.kind)) {
            QVERIFY(op.hasExec());
            QCOMPARE(op.execStartNs, op.startNs);
        }
        if (op.kind == OpKind::Kernel || op.kind == OpKind::ApiCall)
            QVERIFY2(!run.nameOf(op).empty(), "kernels and API calls are named");
    }
    QCOMPARE(first, std::int64_t(0));
    QCOMPARE(run.timedBeginNs, std::int64_t(0));

    // What loads saves and loads again, unchanged.
    const auto again = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(again.trace, again.error.c_str());
    QCOMPARE(again.trace->runs[0].ops.size(), run.ops.size());
    QCOMPARE(traceToJson(*again.trace), traceToJson(*loaded.trace));
}

void TestChromeTraceImport::joinsApiCallsToGpuWork()
{
    const auto loaded = loadSample("pytorch-two-streams-pinned.json");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs[0];
    std::map<std::uint32_t, const Op*> calls;
    for (const Op& op : run.ops)
        if (op.kind == OpKind::ApiCall && op.correlation != 0)
            calls[op.correlation] = &op;
    int joined = 0;
    for (const Op& op : run.ops) {
        if (!isGpuOp(op.kind))
            continue;
        QVERIFY(op.correlation != 0);
        const auto call = calls.find(op.correlation);
        QVERIFY2(call != calls.end(), "every GPU op has the API call that enqueued it");
        // The call is issued before the engine runs the work.
        QVERIFY(call->second->startNs <= op.startNs);
        const std::string& name = run.nameOf(*call->second);
        if (op.kind == OpKind::Kernel)
            QVERIFY2(name.find("Launch") != std::string::npos, name.c_str());
        else
            QVERIFY2(name.find("Memcpy") != std::string::npos, name.c_str());
        ++joined;
    }
    QCOMPARE(joined, 18);
}

void TestChromeTraceImport::microseconds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("three decimals") << "5252785932305.108" << true << qint64(5252785932305108);
    QTest::newRow("integer") << "12" << true << qint64(12000);
    QTest::newRow("one decimal") << "0.5" << true << qint64(500);
    QTest::newRow("exponent") << "1.5e3" << true << qint64(1500000);
    QTest::newRow("negative exponent") << "25E-1" << true << qint64(2500);
    QTest::newRow("below half a ns") << "0.0004" << true << qint64(0);
    QTest::newRow("half a ns rounds up") << "0.0005" << true << qint64(1);
    QTest::newRow("many decimals") << "1.23456789" << true << qint64(1235);
    QTest::newRow("negative") << "-1.5" << true << qint64(-1500);
    QTest::newRow("int64 max") << "9223372036854775.807" << true << qint64(9223372036854775807LL);
    QTest::newRow("beyond int64") << "9223372036854775.808" << false << qint64(0);
    QTest::newRow("huge exponent") << "1e400" << false << qint64(0);
    QTest::newRow("tiny exponent") << "1e-400" << true << qint64(0);
    QTest::newRow("not a number") << "abc" << false << qint64(0);
    QTest::newRow("empty exponent") << "1e" << false << qint64(0);
    // The reader's one-pass path (JsonReader::scaledInteger: no exponent, at
    // most three decimals, 19 digits as ns) and its edges.
    QTest::newRow("zero") << "0" << true << qint64(0);
    QTest::newRow("negative zero") << "-0.000" << true << qint64(0);
    QTest::newRow("two decimals") << "7.25" << true << qint64(7250);
    QTest::newRow("four decimals round") << "12.3456" << true << qint64(12346);
    QTest::newRow("19 digits as ns") << "1234567890123456.789" << true << qint64(1234567890123456789LL);
    QTest::newRow("19 digits beyond int64") << "9999999999999999.999" << false << qint64(0);
    QTest::newRow("20 digits as ns") << "12345678901234567" << false << qint64(0);
}

void TestChromeTraceImport::microseconds()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(qint64, ns);
    std::int64_t result = -42;
    QCOMPARE(microsecondsTextToNs(text.toStdString(), result), ok);
    if (ok)
        QCOMPARE(qint64(result), ns);
    // Read as a kernel's "dur" (every row is valid JSON but two), through
    // the reader's one-pass path or this function: the same ns either way.
    if (text == "abc" || text == "1e")
        return;
    const QByteArray dur = text.toUtf8();
    const auto loaded = traceFromJson(chromeTrace({x("kernel", "k", 0, 7, "0", dur.constData())}));
    if (!ok || ns < 0 || ns >= (qint64(1) << 62)) {
        QVERIFY2(!loaded.trace, "accepted");
        return;
    }
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(qint64(loaded.trace->runs[0].ops.at(0).durationNs()), ns);
}

namespace {

QString frame(const char* name, int tid, const char* ts, const char* dur)
{
    return x("python_function", name, 9, tid, ts, dur, R"({"Python id":1,"Python parent id":0,"Python thread":0})");
}

// A cudaStreamSynchronize at 30 us on thread 90, and its GPU work, after `frames`.
std::string traceWithFrames(const QStringList& frames)
{
    QStringList events = frames;
    events << x("cuda_runtime", "cudaLaunchKernel", 9, 90, "25", "1", R"({"correlation":4})")
           << x("kernel", "k", 1, 7, "26", "3", R"({"device":0,"stream":7,"correlation":4})")
           << x("cuda_runtime", "cudaStreamSynchronize", 9, 90, "30", "2", R"({"correlation":5})");
    return chromeTrace(events);
}

} // namespace

// The attribution rule (docs/profiling.md, "Call sites"): the innermost
// frame of the user's own code around the call, never torch's, the standard
// library's or a built-in; no site where there is none.
void TestChromeTraceImport::callSitesFollowTheRule_data()
{
    QTest::addColumn<QStringList>("frames");
    QTest::addColumn<QString>("site");   // "file:line function", "" for none
    QTest::addColumn<QString>("called"); // what the user's line called
    QTest::addColumn<QString>("op");     // the innermost aten op
    QTest::addColumn<bool>("stacks");

    const QString module = frame("/home/me/train.py(70): <module>", 90, "1", "90");
    QTest::newRow("user frame around .item()")
        << QStringList{module, frame("/home/me/train.py(42): train_step", 90, "20", "20"),
                       frame("<built-in method item of Tensor object at 0x7f3a2c1b0e50>", 90, "28", "6"),
                       x("cpu_op", "aten::item", 9, 90, "28.5", "5"), x("cpu_op", "aten::_local_scalar_dense", 9, 90, "29", "4")}
        << "/home/me/train.py:42 train_step" << "<built-in method item of Tensor object>"
        << "aten::_local_scalar_dense" << true;
    QTest::newRow("torch's frames inside the user's are passed over")
        << QStringList{module, frame("/home/me/train.py(42): train_step", 90, "20", "20"),
                       frame("/usr/lib/python3/dist-packages/torch/nn/modules/module.py(1501): _call_impl", 90, "27", "8"),
                       frame("/opt/conda/lib/python3.11/site-packages/torch/functional.py(9): f", 90, "28", "6")}
        << "/home/me/train.py:42 train_step" << "/usr/lib/python3/dist-packages/torch/nn/modules/module.py(1501): _call_impl"
        << "" << true;
    QTest::newRow("a user callback under a library is the innermost")
        << QStringList{module, frame("/venv/lib/python3.12/site-packages/lightning/loop.py(3): run", 90, "10", "40"),
                       frame("hooks.py(9): on_step", 90, "20", "20"), frame("torch/cuda/__init__.py(954): synchronize", 90, "29", "5")}
        << "hooks.py:9 on_step" << "torch/cuda/__init__.py(954): synchronize" << "" << true;
    QTest::newRow("recursion: the deepest call of the function")
        << QStringList{frame("fib.py(5): f", 90, "1", "90"), frame("fib.py(7): f", 90, "10", "70"),
                       frame("fib.py(7): f", 90, "20", "50"), frame("fib.py(9): f", 90, "29", "5")}
        << "fib.py:9 f" << "" << "" << true;
    QTest::newRow("only the standard library and built-ins: no site")
        << QStringList{frame("/usr/lib/python3.12/threading.py(1012): run", 90, "1", "90"),
                       frame("<frozen importlib._bootstrap>(1027): _find_and_load", 90, "10", "40"),
                       frame("threading.py(300): wait", 90, "20", "20"), frame("<built-in function print>", 90, "29", "5")}
        << "" << "" << "" << true;
    // PyTorch trims the install prefixes: the standard library reads as short as the user's files.
    QTest::newRow("trimmed paths: the standard library by its modules' names")
        << QStringList{frame("train.py(30): step", 90, "1", "90"), frame("concurrent/futures/thread.py(58): run", 90, "10", "40"),
                       frame("enum.py(1267): __hash__", 90, "20", "20"), frame("json/decoder.py(337): decode", 90, "29", "5")}
        << "train.py:30 step" << "concurrent/futures/thread.py(58): run" << "" << true;
    QTest::newRow("frames that end before the call: no site, none invented")
        << QStringList{frame("/home/me/train.py(42): train_step", 90, "1", "20")} << "" << "" << "" << true;
    QTest::newRow("another thread's frames are not the call's")
        << QStringList{frame("/home/me/train.py(42): train_step", 91, "1", "90")} << "" << "" << "" << true;
    QTest::newRow("no stacks: the aten op alone")
        << QStringList{x("cpu_op", "aten::nonzero", 9, 90, "28", "6")} << "" << "" << "aten::nonzero" << false;
    QTest::newRow("an older PyTorch's Call stack, innermost first")
        << QStringList{x("cpu_op", "aten::to", 9, 90, "27", "8"),
                       x("cpu_op", "aten::copy_", 9, 90, "28", "6",
                         R"({"Call stack":"/site-packages/torch/_tensor.py(9): cpu;/home/me/eval.py(12): evaluate;/home/me/eval.py(40): <module>"})")}
        << "/home/me/eval.py:12 evaluate" << "/site-packages/torch/_tensor.py(9): cpu" << "aten::copy_" << true;
    QTest::newRow("a stack array")
        << QStringList{x("cpu_op", "aten::item", 9, 90, "28", "6",
                         R"({"stack":["<built-in method item of Tensor object at 0x1>","/home/me/train.py(8): step"]})")}
        << "/home/me/train.py:8 step" << "<built-in method item of Tensor object>" << "aten::item" << true;
}

void TestChromeTraceImport::callSitesFollowTheRule()
{
    QFETCH(QStringList, frames);
    QFETCH(QString, site);
    QFETCH(QString, called);
    QFETCH(QString, op);
    QFETCH(bool, stacks);
    const auto loaded = traceFromJson(traceWithFrames(frames));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.stacksRecorded, stacks);
    const auto sync = std::find_if(run.ops.begin(), run.ops.end(),
                                   [&](const Op& o) { return run.nameOf(o) == "cudaStreamSynchronize"; });
    QVERIFY(sync != run.ops.end());
    const OpSource* source = run.sourceOf(static_cast<std::size_t>(sync - run.ops.begin()));
    const SourceSite* at = source ? run.siteAt(source->site) : nullptr;
    QCOMPARE(at ? QString("%1:%2 %3").arg(QString::fromStdString(at->file)).arg(at->line).arg(QString::fromStdString(at->function))
                : QString(),
             site);
    QCOMPARE(source ? QString::fromStdString(run.names.at(source->called)) : QString(), called);
    // Python frames name where their function begins; a Call stack, the call's line.
    if (at)
        QCOMPARE(at->lineIs, frames.join(QString()).contains("python_function") ? SiteLine::FrameEntry : SiteLine::Call);
    QCOMPARE(source ? QString::fromStdString(run.names.at(source->op)) : QString(), op);
    // The launch at 25 us is inside none of the frames that begin after it.
    const auto launch = std::find_if(run.ops.begin(), run.ops.end(),
                                     [&](const Op& o) { return run.nameOf(o) == "cudaLaunchKernel"; });
    const OpSource* launchSource = run.sourceOf(static_cast<std::size_t>(launch - run.ops.begin()));
    QVERIFY(!launchSource || launchSource->op == 0);
}

// What the import found of the call sites reads back the same from the
// native format (version 8) and from a file read in windows.
void TestChromeTraceImport::callSitesSurviveWindowsAndTheNativeFormat()
{
    QStringList events;
    for (int step = 0; step < 40; ++step) {
        const int t = 100 * step;
        const QByteArray ts = QByteArray::number(t), item = QByteArray::number(t + 10), sync = QByteArray::number(t + 12);
        const QByteArray corr = QByteArray::number(step + 1);
        events << frame("/home/me/train.py(70): <module>", 90, ts.constData(), "90")
               << frame(step % 2 ? "/home/me/train.py(42): train_step" : "/home/me/train.py(57): evaluate", 90,
                        QByteArray::number(t + 5).constData(), "20")
               << frame("<built-in method item of Tensor object at 0x7f>", 90, QByteArray::number(t + 9).constData(), "8")
               << x("cpu_op", "aten::_local_scalar_dense", 9, 90, item.constData(), "6")
               << x("cuda_runtime", "cudaStreamSynchronize", 9, 90, sync.constData(), "2",
                    qPrintable(QString(R"({"correlation":%1})").arg(QString(corr))))
               << x("kernel", "k", 1, 7, QByteArray::number(t + 1).constData(), "3", R"({"device":0,"stream":7})");
    }
    const QByteArray text = QByteArray::fromStdString(chromeTrace(events));
    const auto whole = traceFromJson(text.toStdString());
    QVERIFY2(whole.trace, whole.error.c_str());
    const Run& run = whole.trace->runs.at(0);
    QCOMPARE(run.sourceSites.size(), std::size_t(2));
    std::size_t sited = 0;
    for (std::size_t i = 0; i < run.ops.size(); ++i)
        sited += run.sourceOf(i) && run.siteAt(run.sourceOf(i)->site);
    QCOMPARE(sited, std::size_t(40));
    QVERIFY2(QString::fromStdString(whole.note).contains("call sites from 120 Python frames and 40 framework ops"),
             whole.note.c_str());

    QTemporaryDir dir;
    const QString path = writeTemp(dir, "stacks.json", text);
    QVERIFY(!path.isEmpty());
    const auto windowed = ChromeTraceImport::readFile(path.toStdString(), 1u << 30, 600);
    QVERIFY2(windowed, "read in windows");
    const std::string json = traceToJson(*whole.trace);
    QCOMPARE(traceToJson(windowed->trace), json);

    QVERIFY(json.find("\"version\":8") != std::string::npos || json.find("\"version\": 8") != std::string::npos);
    const auto back = traceFromJson(json);
    QVERIFY2(back.trace, back.error.c_str());
    const Run& again = back.trace->runs.at(0);
    QVERIFY(again.stacksRecorded);
    QVERIFY(again.sourceSites == run.sourceSites);
    QCOMPARE(again.ops.size(), run.ops.size());
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        QCOMPARE(again.sourceOf(i) != nullptr, run.sourceOf(i) != nullptr);
        if (run.sourceOf(i))
            QVERIFY(*again.sourceOf(i) == *run.sourceOf(i));
    }
}

// A real trace with stacks (examples/torch_implicit_syncs.py --stack on the
// H200, PyTorch 2.11): its CUDA calls in the step are the example's
// train_step's, by its frame's line; those the profiler's own code made
// (its start and stop) have no site of the user's.
void TestChromeTraceImport::realTraceNamesTheExamplesFunction()
{
    const auto loaded = loadSample("pytorch-implicit-syncs-stack.json");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QVERIFY(run.stacksRecorded);
    std::map<std::string, std::size_t> callsOf; // "file:line function" -> calls
    std::size_t calls = 0;
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        if (run.ops[i].kind != OpKind::ApiCall)
            continue;
        ++calls;
        const OpSource* source = run.sourceOf(i);
        if (const SourceSite* site = source ? run.siteAt(source->site) : nullptr) {
            QCOMPARE(site->lineIs, SiteLine::FrameEntry);
            ++callsOf[site->file + ":" + std::to_string(site->line) + " " + site->function];
        }
    }
    QVERIFY2(callsOf.count("torch_implicit_syncs.py:58 train_step"), qPrintable(QString::number(callsOf.size())));
    // Every site is the example's own file: none of torch's, the standard library's or a built-in.
    for (const auto& [site, n] : callsOf)
        QVERIFY2(QString::fromStdString(site).startsWith("torch_implicit_syncs.py:"), site.c_str());
    QVERIFY(callsOf.at("torch_implicit_syncs.py:58 train_step") > calls / 2);
}

void TestChromeTraceImport::mapsEventsToOps()
{
    const auto loaded = traceFromJson(chromeTrace({
        R"({"ph":"M","name":"process_name","pid":9,"tid":0,"args":{"name":"app"}})",
        R"({"ph":"M","name":"thread_name","pid":9,"tid":90,"args":{"name":"main thread"}})",
        x("cuda_runtime", "cudaMemcpyAsync", 9, 90, "100.000", "2.000", R"({"correlation":5})"),
        x("gpu_memcpy", "Memcpy HtoD (Managed -> Device)", 1, 3, "101.5", "10", R"({"device":1,"stream":3,"correlation":5,"bytes":4096})"),
        x("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 1, 3, "120", "1", R"({"device":1,"stream":3,"bytes":8})"),
        x("gpu_memcpy", "Memcpy PtoP (Device -> Device)", 1, 4, "120", "1", R"({"device":1,"stream":4,"bytes":8})"),
        x("gpu_memcpy", "Memcpy HtoH (Pinned -> Pageable)", 1, 3, "130", "1", R"({"device":1,"stream":3,"bytes":8})"),
        x("gpu_memset", "Memset (Device)", 1, 3, "140", "1", R"({"device":1,"stream":3,"bytes":64})"),
        x("cuda_driver", "cuLaunchKernel", 9, 90, "150", "1", R"({"correlation":6})"),
        x("kernel", "triton_kernel", 1, 3, "151", "3", R"({"device":1,"stream":3,"correlation":6})"),
        x("cpu_op", "aten::add", 9, 90, "99", "60"),
        R"({"ph":"s","id":5,"pid":9,"tid":90,"ts":100,"cat":"ac2g","name":"ac2g"})",
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.name, std::string("app (pid 9)"));
    QCOMPARE(run.pipeline, std::string("pytorch"));
    QCOMPARE(run.device.name, std::string("GPU 1"));
    // Every copy CUPTI names is an op, mapped by the one table a profile's
    // copies go through (cupti::copyOp): the host-to-host copy too.
    QVERIFY2(QString::fromStdString(loaded.note).contains("6 GPU ops and 2 CUDA API calls"), loaded.note.c_str());
    // The cpu_op is read (what encloses the calls), the flow skipped.
    QVERIFY2(QString::fromStdString(loaded.note).contains("call sites from 0 Python frames and 1 framework ops; skipped 1 other events"),
             loaded.note.c_str());
    QCOMPARE(laneNames(run, LaneKind::Stream), (std::set<std::string>{"GPU 1 stream 3", "GPU 1 stream 4"}));
    QCOMPARE(laneNames(run, LaneKind::HostThread), std::set<std::string>{"main thread"});

    std::map<std::string, const Op*> byName;
    for (const Op& op : run.ops)
        byName[toString(op.kind) + std::string(":") + run.nameOf(op)] = &op;
    const Op* upload = byName.at("upload:");
    QCOMPARE(upload->memory, HostMemoryKind::Managed);
    QCOMPARE(upload->bytes, std::uint64_t(4096));
    QCOMPARE(upload->correlation, 5u);
    QCOMPARE(upload->startNs, std::int64_t(1500)); // from the first event, at 100 us
    QCOMPARE(upload->endNs, std::int64_t(11500));
    QCOMPARE(byName.at("memset:")->memory, HostMemoryKind::Device);
    QCOMPARE(byName.at("memset:")->bytes, std::uint64_t(64));
    QCOMPARE(byName.at("kernel:triton_kernel")->correlation, 6u);
    QCOMPARE(byName.at("api_call:cuLaunchKernel")->correlation, 6u);
    QCOMPARE(byName.at("api_call:cudaMemcpyAsync")->startNs, std::int64_t(0));
    // DtoD and HtoH are device copies, PtoP a peer copy between GPUs: as
    // cupti::copyOp maps a profile's records of the same copies.
    QCOMPARE(std::count_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return op.kind == OpKind::DeviceCopy; }),
             2);
    QCOMPARE(std::count_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return op.kind == OpKind::PeerCopy; }),
             1);
}

void TestChromeTraceImport::overlappingCallsGetAnExtraLane()
{
    const auto loaded = traceFromJson(chromeTrace({
        x("cuda_runtime", "cudaLaunchKernel", 1, 2, "0", "10"),
        x("cuda_driver", "cuLaunchKernel", 1, 2, "2", "3"),
        x("cuda_runtime", "cudaStreamSynchronize", 1, 2, "10", "5"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(laneNames(loaded.trace->runs[0], LaneKind::HostThread),
             (std::set<std::string>{"thread 2", "thread 2 (2)"}));
    QVERIFY2(QString::fromStdString(loaded.note).contains("1 extra lanes"), loaded.note.c_str());
}

// A lane's events given out of time order (Chrome allows any order) are
// placed as though in order: no extra lane where none overlap, the ops in
// time order. (The importer sees the order while grouping and sorts only
// lanes out of it: this fails where it does not sort them.)
void TestChromeTraceImport::eventsOutOfOrderArePlacedInOrder()
{
    const auto loaded = traceFromJson(chromeTrace({
        x("cuda_runtime", "cudaStreamSynchronize", 1, 2, "20", "5"),
        x("kernel", "b", 0, 3, "12", "4", R"({"device":0,"stream":3})"),
        x("cuda_runtime", "cudaLaunchKernel", 1, 2, "0", "3"),
        x("kernel", "a", 0, 3, "4", "4", R"({"device":0,"stream":3})"),
        x("cuda_runtime", "cudaLaunchKernel", 1, 2, "10", "3"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(laneNames(run, LaneKind::HostThread), (std::set<std::string>{"thread 2"}));
    QCOMPARE(laneNames(run, LaneKind::Stream), (std::set<std::string>{"GPU 0 stream 3"}));
    QVERIFY2(!QString::fromStdString(loaded.note).contains("extra lane"), loaded.note.c_str());
    std::vector<std::string> names;
    for (const Op& op : run.ops)
        names.push_back(run.nameOf(op));
    // By lane (the host thread's first), each in time order.
    const bool hostFirst = run.lanes.at(run.ops.front().lane).kind == LaneKind::HostThread;
    const std::vector<std::string> host{"cudaLaunchKernel", "cudaLaunchKernel", "cudaStreamSynchronize"};
    const std::vector<std::string> stream{"a", "b"};
    std::vector<std::string> expected = hostFirst ? host : stream;
    for (const std::string& n : hostFirst ? stream : host)
        expected.push_back(n);
    QCOMPARE(names, expected);
}

void TestChromeTraceImport::onlyTheLegacyStreamHasAKnownKind()
{
    const auto loaded = traceFromJson(chromeTrace({
        x("kernel", "a", 0, 7, "0", "10", R"({"device":0,"stream":7})"),
        x("kernel", "b", 0, 7, "5", "10", R"({"device":0,"stream":7})"), // overlaps a: an extra lane
        x("kernel", "c", 0, 3, "0", "10", R"({"device":0,"stream":3})"),
        x("cuda_runtime", "cudaLaunchKernel", 1, 2, "0", "1"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    std::map<std::string, StreamKind> kinds;
    for (const Lane& lane : loaded.trace->runs.at(0).lanes)
        kinds[lane.name] = lane.streamKind;
    const std::map<std::string, StreamKind> expected = {
        {"GPU 0 stream 7 (legacy default)", StreamKind::LegacyDefault},
        {"GPU 0 stream 7 (legacy default) (2)", StreamKind::LegacyDefault},
        {"GPU 0 stream 3", StreamKind::Unknown},
        {"thread 2", StreamKind::Unknown},
    };
    QCOMPARE(kinds, expected);
}

// Kineto names a GPU by its CUDA ordinal; a lane's device is its GPU's
// place in the run's devices (Lane::device), which the importer makes from
// the GPUs the run's streams ran on, lowest ordinal first, described by
// deviceProperties. The names stay words for the user: the analysis reads
// the fields, each GPU its own engines.
void TestChromeTraceImport::twoGpusAreTheRunsDevices()
{
    const auto loaded = traceFromJson(
        R"({"deviceProperties":[{"id":3,"name":"Second GPU","numSms":132},{"id":2,"name":"First GPU","numSms":132}],)"
        + chromeTrace({
              x("cuda_runtime", "cudaLaunchKernel", 9, 90, "0", "1", R"({"correlation":1})"),
              x("cuda_runtime", "cudaLaunchKernel", 9, 90, "2", "1", R"({"correlation":2})"),
              x("kernel", "a", 3, 13, "1", "10", R"({"device":3,"stream":13,"correlation":1})"),
              x("kernel", "b", 2, 7, "3", "10", R"({"device":2,"stream":7,"correlation":2})"),
              x("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 2, 7, "20", "5",
                R"({"device":2,"stream":7,"bytes":1024})"),
          })
              .substr(1));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.deviceCount(), 2);
    QCOMPARE(run.device.name, std::string("First GPU")); // ordinal 2
    QCOMPARE(run.deviceAt(1).name, std::string("Second GPU")); // ordinal 3
    QCOMPARE(run.deviceAt(1).smCount, 132);
    std::map<std::string, std::pair<int, StreamKind>> lanes;
    for (const Lane& lane : run.lanes)
        lanes[lane.name] = {lane.device, lane.streamKind};
    const std::map<std::string, std::pair<int, StreamKind>> expected = {
        {"GPU 2 stream 7 (legacy default)", {0, StreamKind::LegacyDefault}},
        {"GPU 3 stream 13", {1, StreamKind::Unknown}},
        {"thread 90", {0, StreamKind::Unknown}},
    };
    QCOMPARE(lanes, expected);
    // Each GPU's engines apart, from the fields.
    const RunIndex index(run, {run.timedBeginNs, run.timedEndNs});
    QCOMPARE(index.devices().size(), std::size_t(2));
    QCOMPARE(index.devices()[0].device, 0);
    QCOMPARE(index.devices()[0].gpuOps, 2);
    QCOMPARE(index.devices()[0].h2d.length(), std::int64_t(5000));
    QCOMPARE(index.devices()[1].device, 1);
    QCOMPARE(index.devices()[1].gpuOps, 1);
    // And they survive the native format (version 3: devices and lanes' devices).
    const std::string text = traceToJson(*loaded.trace);
    const auto back = traceFromJson(text);
    QVERIFY2(back.trace, back.error.c_str());
    QCOMPARE(back.trace->runs.at(0).deviceCount(), 2);
    for (std::size_t i = 0; i < run.lanes.size(); ++i) {
        QCOMPARE(back.trace->runs.at(0).lanes[i].device, run.lanes[i].device);
        QCOMPARE(back.trace->runs.at(0).lanes[i].streamKind, run.lanes[i].streamKind);
    }
}

void TestChromeTraceImport::bareArrayAndStringIds()
{
    const auto loaded = traceFromJson(
        R"([{"ph":"X","cat":"kernel","name":"k","pid":"GPU","tid":"s","ts":1,"dur":1},)"
        R"({"ph":"i","name":"marker","pid":"x","tid":"y","ts":0}])");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->runs[0].pipeline, std::string("pytorch"));
    QCOMPARE(loaded.trace->runs[0].ops.size(), std::size_t(1));
}

void TestChromeTraceImport::refusesWhatItCannotRead_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const auto trace = [](const QStringList& events) { return QByteArray::fromStdString(chromeTrace(events)); };
    QTest::newRow("no GPU work") << trace({x("cpu_op", "aten::add", 1, 1, "0", "1")}) << "the trace holds no GPU work";
    QTest::newRow("empty events") << QByteArray(R"({"traceEvents":[]})") << "the trace holds no GPU work";
    QTest::newRow("events not an array") << QByteArray(R"({"traceEvents":{}})")
                                         << "\"traceEvents\" must be an array, not an object";
    QTest::newRow("event not an object") << QByteArray(R"({"traceEvents":[{},3]})")
                                         << "event 1: must be an object, not an integer";
    QTest::newRow("no dur") << trace({R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1})"})
                            << "event 0: a complete event (\"ph\": \"X\") needs \"ts\" and \"dur\"";
    QTest::newRow("negative dur") << trace({x("kernel", "k", 0, 7, "1", "-1")}) << "event 0: \"dur\" is negative";
    QTest::newRow("ts as string") << trace({R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":"1","dur":1})"})
                                  << "event 0: \"ts\" must be a number, not a string";
    QTest::newRow("ts beyond range") << trace({x("kernel", "k", 0, 7, "1e300", "1")}) << "event 0: \"ts\" 1e300 is out of range";
    QTest::newRow("span beyond 2^62 ns")
        << trace({x("kernel", "k", 0, 7, "0", "1"), x("kernel", "k", 0, 7, "4611686018427388", "1")})
        << "the trace spans more than 2^62 ns";
    // Numbers are read by a fast path where well formed (JsonReader::
    // numberText): anything else still gets the general reader's words.
    QTest::newRow("ts with a leading zero") << trace({x("kernel", "k", 0, 7, "01", "1")}) << "not valid JSON";
    QTest::newRow("dur ending in a point") << trace({x("kernel", "k", 0, 7, "1", "1.")}) << "not valid JSON";
    QTest::newRow("correlation with a leading zero")
        << trace({x("kernel", "k", 0, 7, "1", "1", R"({"correlation":007})")}) << "not valid JSON";
    QTest::newRow("pid beyond int64")
        << trace({R"({"ph":"X","cat":"kernel","name":"k","pid":9223372036854775808,"tid":7,"ts":1,"dur":1})"})
        << "event 0: \"pid\" must be an integer or a string, not a number";
    QTest::newRow("tid with a fraction")
        << trace({R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7.5,"ts":1,"dur":1})"})
        << "event 0: \"tid\" must be an integer or a string, not a number";
    QTest::newRow("pid as object") << trace({R"({"ph":"X","cat":"kernel","name":"k","pid":{},"tid":7,"ts":1,"dur":1})"})
                                   << "event 0: \"pid\" must be an integer or a string, not an object";
    QTest::newRow("name not a string") << trace({R"({"ph":"X","cat":"kernel","name":1,"pid":0,"tid":7,"ts":1,"dur":1})"})
                                       << "event 0: \"name\" must be a string, not an integer";
    QTest::newRow("duplicate key") << trace({R"({"ph":"X","ph":"X"})"}) << "duplicate key \"ph\"";
    QTest::newRow("invalid JSON in args") << trace({x("kernel", "k", 0, 7, "1", "1", "[1,]")}) << "not valid JSON";
    QTest::newRow("an object without events") << QByteArray(R"({"x":1})") << "there is no \"format\" field";
}

void TestChromeTraceImport::refusesWhatItCannotRead()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto loaded = traceFromJson(text.toStdString());
    QVERIFY2(!loaded.trace, "accepted");
    const QString error = QString::fromStdString(loaded.error);
    QVERIFY2(error.contains(message), qPrintable("got: " + error + "\nwanted: " + message));
    QVERIFY(!error.contains('\n'));
    QVERIFY(error.size() <= 300);
}

void TestChromeTraceImport::truncatedKinetoFileIsRefused()
{
    QFile file(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/pytorch-pageable-sync.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    // Every 97th prefix: a profiler killed while writing leaves such a file.
    for (qsizetype n = 0; n + 2 < text.size(); n += 97) {
        const auto loaded = traceFromJson(text.left(n).toStdString());
        QVERIFY2(!loaded.trace, qPrintable(QString("prefix %1 loaded").arg(n)));
        QVERIFY(!loaded.error.empty());
    }
}

void TestChromeTraceImport::importsKinetoAnnotations()
{
    // record_function ranges of torch.optim (host) and their GPU spans,
    // recorded on the H200.
    const auto loaded = loadSample("pytorch-train-step.json");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note).contains("12 regions (0 profiler steps, 8 annotations, 4 GPU annotations)"),
             loaded.note.c_str());
    const Run& run = loaded.trace->runs[0];
    QCOMPARE(run.regions.size(), std::size_t(12));
    std::map<std::string, int> hostNames;
    int gpu = 0;
    for (std::size_t i = 0; i < run.regions.size(); ++i) {
        const Region& r = run.regions[i];
        QVERIFY(r.endNs > r.beginNs);
        QVERIFY(r.beginNs >= run.timedBeginNs && r.endNs <= run.timedEndNs);
        QCOMPARE(r.depth, std::uint16_t(0)); // one after the other, none nested
        if (i > 0)
            QVERIFY(run.regions[i - 1].beginNs <= r.beginNs);
        const Lane& lane = run.lanes.at(r.lane);
        if (r.source == RegionSource::GpuAnnotation) {
            QCOMPARE(lane.name, std::string("GPU 0 stream 7 (legacy default)"));
            QCOMPARE(r.name, std::string("Optimizer.step#SGD.step"));
            ++gpu;
            // The GPU span follows the host range that enqueued it.
            const auto host = std::find_if(run.regions.begin(), run.regions.end(), [&](const Region& h) {
                return h.source == RegionSource::Annotation && h.name == r.name && h.beginNs <= r.beginNs
                       && r.beginNs < h.endNs;
            });
            QVERIFY2(host != run.regions.end(), "the host range is open when its GPU span begins");
        } else {
            QCOMPARE(r.source, RegionSource::Annotation);
            QCOMPARE(lane.kind, LaneKind::HostThread);
            QCOMPARE(lane.name, std::string("thread 427 (python3)"));
            ++hostNames[r.name];
        }
    }
    QCOMPARE(gpu, 4);
    QCOMPARE(hostNames, (std::map<std::string, int>{{"Optimizer.step#SGD.step", 4}, {"Optimizer.zero_grad#SGD.zero_grad", 4}}));
}

// A run's lanes are named apart, so that the trace saves as a native one
// that loads (fuzz_chrome_trace found one that did not): two threads of
// one process given one name, and a range on a thread of a process that
// made no CUDA call (its lanes go to the run), named as a thread of the run.
void TestChromeTraceImport::lanesNamedApart()
{
    const auto loaded = traceFromJson(chromeTrace({
        R"({"ph":"M","name":"thread_name","pid":9,"tid":90,"args":{"name":"worker"}})",
        R"({"ph":"M","name":"thread_name","pid":9,"tid":91,"args":{"name":"worker"}})",
        x("cuda_runtime", "cudaLaunchKernel", 9, 90, "100", "2", R"({"correlation":1})"),
        x("cuda_runtime", "cudaLaunchKernel", 9, 91, "110", "2", R"({"correlation":2})"),
        x("kernel", "k", 0, 3, "103", "5", R"({"device":0,"stream":3,"correlation":1})"),
        x("kernel", "k", 0, 3, "113", "5", R"({"device":0,"stream":3,"correlation":2})"),
        x("cuda_runtime", "cudaStreamSynchronize", 7, 90, "120", "2"),
        x("user_annotation", "ProfilerStep#0", 8, 90, "99", "30", R"({"External id":40})"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(1); // pid 9 (pid 7 is the first run)
    QCOMPARE(laneNames(run, LaneKind::HostThread), (std::set<std::string>{"worker", "worker (pid 9, tid 91)"}));
    const Run& first = loaded.trace->runs.at(0);
    QCOMPARE(laneNames(first, LaneKind::HostThread), (std::set<std::string>{"thread 90", "thread 90 (pid 8, tid 90)"}));
    const auto again = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(again.trace, again.error.c_str());
}

void TestChromeTraceImport::profilerStepsAndNesting()
{
    const auto annotation = [](const char* name, int tid, const char* ts, const char* dur, const char* cat = "user_annotation") {
        return x(cat, name, 9, tid, ts, dur, R"({"External id":40})");
    };
    const auto loaded = traceFromJson(chromeTrace({
        R"({"ph":"M","name":"thread_name","pid":9,"tid":90,"args":{"name":"main"}})",
        annotation("ProfilerStep#0", 90, "100", "100"),
        annotation("h2d", 90, "110", "20"),
        annotation("compute", 90, "130", "40"),
        annotation("inner", 90, "140", "10"),
        annotation("ProfilerStep#1", 90, "200", "100"),
        annotation("d2h", 90, "200", "20"), // begins with its step: the step holds it
        annotation("ProfilerStep#2", 90, "300", "50", "cpu_op"), // older PyTorch's spelling
        annotation("loader", 91, "120", "300"), // a thread that made no CUDA call
        x("gpu_user_annotation", "compute", 0, 3, "135", "25", R"({"device":0,"stream":3,"External id":40})"),
        x("cuda_runtime", "cudaLaunchKernel", 9, 90, "131", "2", R"({"correlation":1})"),
        x("kernel", "k", 0, 3, "135", "20", R"({"device":0,"stream":3,"correlation":1})"),
        x("cpu_op", "aten::add", 9, 90, "131", "5"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note).contains("9 regions (3 profiler steps, 5 annotations, 1 GPU annotations)"),
             loaded.note.c_str());
    const Run& run = loaded.trace->runs.at(0);
    struct Expected {
        const char* name;
        std::int64_t beginNs;
        std::int64_t endNs;
        int depth;
        const char* lane;
        RegionSource source;
    };
    // Sorted by (begin, depth); times from the first event (100 us).
    const std::vector<Expected> expected = {
        {"ProfilerStep#0", 0, 100000, 0, "main", RegionSource::ProfilerStep},
        {"h2d", 10000, 30000, 1, "main", RegionSource::Annotation},
        {"loader", 20000, 320000, 0, "thread 91", RegionSource::Annotation},
        {"compute", 30000, 70000, 1, "main", RegionSource::Annotation},
        {"compute", 35000, 60000, 0, "GPU 0 stream 3", RegionSource::GpuAnnotation},
        {"inner", 40000, 50000, 2, "main", RegionSource::Annotation},
        {"ProfilerStep#1", 100000, 200000, 0, "main", RegionSource::ProfilerStep},
        {"d2h", 100000, 120000, 1, "main", RegionSource::Annotation},
        {"ProfilerStep#2", 200000, 250000, 0, "main", RegionSource::ProfilerStep},
    };
    QCOMPARE(run.regions.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Region& r = run.regions[i];
        const Expected& e = expected[i];
        QCOMPARE(r.name, std::string(e.name));
        QCOMPARE(r.beginNs, e.beginNs);
        QCOMPARE(r.endNs, e.endNs);
        QCOMPARE(int(r.depth), e.depth);
        QCOMPARE(run.lanes.at(r.lane).name, std::string(e.lane));
        QCOMPARE(r.source, e.source);
    }
    // The loader's thread has a lane of its own, with no ops; the run spans its range.
    QCOMPARE(laneNames(run, LaneKind::HostThread), (std::set<std::string>{"main", "thread 91"}));
    QCOMPARE(run.timedEndNs, std::int64_t(320000));
}

void TestChromeTraceImport::malformedAnnotationsAreLeftOut()
{
    const auto loaded = traceFromJson(chromeTrace({
        x("cuda_runtime", "cudaLaunchKernel", 1, 2, "0", "10"),
        x("user_annotation", "good", 1, 2, "0", "10"),
        R"({"ph":"X","cat":"user_annotation","name":"no dur","pid":1,"tid":2,"ts":1})",
        x("user_annotation", "negative", 1, 2, "1", "-1"),
        x("user_annotation", "", 1, 2, "1", "1"),
        R"({"ph":"X","cat":"gpu_user_annotation","pid":0,"tid":7,"ts":1,"dur":1})", // no name at all
        x("user_annotation", "ProfilerStep#9", 1, 2, "9223372036854775", "1"),
    }));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const QString note = QString::fromStdString(loaded.note);
    QVERIFY2(note.contains("1 regions"), loaded.note.c_str());
    QVERIFY2(note.contains("left out 5 malformed annotations (negative dur 1, no ts or dur 1, ts + dur out of range 1, "
                           "unnamed 2)"),
             loaded.note.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.regions.size(), std::size_t(1));
    QCOMPARE(run.regions[0].name, std::string("good"));
    QCOMPARE(run.lanes.size(), std::size_t(1)); // the malformed ones made no lane
}

void TestChromeTraceImport::readInWindowsAsWhole_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("window");
    for (const char* file : {"pytorch-train-step.json", "pytorch-pageable-sync.json", "pytorch-two-streams-pinned.json",
                             "profiled/what-if/torch_sync_per_chunk-kineto.json", "pytorch-implicit-syncs-stack.json"})
        for (int window : {600, 4096, 7001, 40000}) // 600: smaller than some events, so the window grows
            QTest::addRow("%s, %d bytes", file, window) << file << window;
}

void TestChromeTraceImport::readInWindowsAsWhole()
{
    QFETCH(QString, file);
    QFETCH(int, window);
    const std::string path = std::string(OVERLAPSCOPE_TEST_DATA) + "/" + file.toStdString();
    const auto whole = traceFromJson(sampleText(file.toUtf8().constData()).toStdString());
    QVERIFY2(whole.trace, whole.error.c_str());
    const auto windowed = ChromeTraceImport::readFile(path, 1u << 30, std::size_t(window));
    QVERIFY2(windowed, "read in windows");
    QCOMPARE(windowed->summary, whole.note);
    QCOMPARE(traceToJson(windowed->trace), traceToJson(*whole.trace));
    QCOMPARE(windowed->trace.runs.size(), whole.trace->runs.size());
    for (std::size_t r = 0; r < whole.trace->runs.size(); ++r)
        QVERIFY(regionsOf(windowed->trace.runs[r]) == regionsOf(whole.trace->runs[r]));
    // A file that fits one window is left to the whole reader.
    QVERIFY(!ChromeTraceImport::readFile(path, 1u << 30, std::size_t(1) << 24));
}

void TestChromeTraceImport::repeatedTraceGivesNTimesTheOps()
{
    const QByteArray text = sampleText("pytorch-train-step.json");
    const auto once = traceFromJson(text.toStdString());
    QVERIFY2(once.trace, once.error.c_str());
    const Run& one = once.trace->runs.at(0);
    constexpr int kCopies = 5;
    const QByteArray repeated = repeatedKineto(text, kCopies);
    QTemporaryDir dir;
    const QString path = writeTemp(dir, "repeated.json", repeated);
    QVERIFY(!path.isEmpty());
    const auto windowed = ChromeTraceImport::readFile(path.toStdString(), 1u << 30, 20000);
    QVERIFY2(windowed, "read in windows");
    const Run& run = windowed->trace.runs.at(0);
    QCOMPARE(run.ops.size(), kCopies * one.ops.size());
    QCOMPARE(run.regions.size(), kCopies * one.regions.size());
    QCOMPARE(run.lanes.size(), one.lanes.size());
    // Each copy is the first one a second later, op for op.
    for (const Op& op : one.ops) {
        const auto later = std::find_if(run.ops.begin(), run.ops.end(), [&](const Op& o) {
            return o.lane == op.lane && o.startNs == op.startNs + 4'000'000'000 && o.kind == op.kind;
        });
        QVERIFY(later != run.ops.end());
        QCOMPARE(later->endNs - later->startNs, op.endNs - op.startNs);
        QCOMPARE(run.nameOf(*later), one.nameOf(op));
    }
    const auto whole = traceFromJson(repeated.toStdString());
    QVERIFY2(whole.trace, whole.error.c_str());
    QCOMPARE(traceToJson(windowed->trace), traceToJson(*whole.trace));
}

void TestChromeTraceImport::windowsLeaveErrorsToTheWholeReader_data()
{
    QTest::addColumn<QByteArray>("text");
    const QByteArray text = sampleText("pytorch-train-step.json");
    const qsizetype middle = text.indexOf("\"ts\"", text.size() / 2);
    QTest::newRow("truncated in the events") << text.left(text.size() * 2 / 3);
    QTest::newRow("truncated after the events") << text.left(text.lastIndexOf('}'));
    QTest::newRow("a bad number mid-file") << QByteArray(text).replace(middle, 4, "\"ts\":-");
    QTest::newRow("a string ts mid-file") << QByteArray(text).insert(text.indexOf(':', middle) + 2, '"').insert(
        text.indexOf(',', middle) + 1, '"');
    QTest::newRow("traceEvents twice") << QByteArray(text).insert(text.lastIndexOf('}'), ", \"traceEvents\": []");
    QTest::newRow("garbage after the root") << text + "x";
    QTest::newRow("format first") << QByteArray(text).insert(text.indexOf('{') + 1, "\"format\": \"overlapscope-trace\",");
}

void TestChromeTraceImport::windowsLeaveErrorsToTheWholeReader()
{
    QFETCH(QByteArray, text);
    QTemporaryDir dir;
    const QString path = writeTemp(dir, "broken.json", text);
    QVERIFY(!path.isEmpty());
    QVERIFY2(!ChromeTraceImport::readFile(path.toStdString(), 1u << 30, 5000), "read in windows");
    // loadTrace then reads it whole and says what the whole reader says.
    const auto whole = traceFromJson(text.toStdString());
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).endsWith(QString::fromStdString(whole.error)), loaded.error.c_str());
}

void TestChromeTraceImport::windowsReportProgressAndCancel_data()
{
    QTest::addColumn<int>("cancelAt"); // the report that raises the flag; 0: before the read, -1: never
    for (int cancelAt : {-1, 0, 1, 3})
        QTest::addRow("cancel at %d", cancelAt) << cancelAt;
}

void TestChromeTraceImport::windowsReportProgressAndCancel()
{
    QFETCH(int, cancelAt);
    const QByteArray text = repeatedKineto(sampleText("pytorch-train-step.json"), 5);
    QTemporaryDir dir;
    const QString path = writeTemp(dir, "repeated.json", text);
    QVERIFY(!path.isEmpty());
    const auto size = static_cast<std::uint64_t>(text.size());
    CancelFlag cancel;
    if (cancelAt == 0)
        cancel.cancel();
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
    ReadProgress progress;
    progress.cancel = &cancel;
    progress.onProgress = [&](std::uint64_t done, std::uint64_t total) {
        reports.emplace_back(done, total);
        if (int(reports.size()) == cancelAt)
            cancel.cancel();
    };
    std::optional<ChromeTraceImport> read;
    bool cancelled = false;
    try {
        read = ChromeTraceImport::readFile(path.toStdString(), 1u << 30, 20000, progress);
    } catch (const RunCancelled&) {
        cancelled = true;
    }
    if (cancelAt >= 0) {
        // Stopped at the next window: no more reports, and no trace.
        QVERIFY(cancelled);
        QVERIFY(!read);
        QCOMPARE(reports.size(), std::size_t(cancelAt));
        // loadTrace says so, with no trace.
        cancel.cancel();
        const auto loaded = loadTrace(path.toStdString(), kDefaultMaxTraceBytes, progress);
        QVERIFY(loaded.cancelled);
        QVERIFY(!loaded.trace);
        return;
    }
    QVERIFY(!cancelled);
    QVERIFY2(read, "read in windows");
    // One report per window of the calling thread (it reads half of the
    // events, another thread the rest), each of the file's size, growing to
    // all of it: a read in two that fell back to one thread would start again.
    QVERIFY2(reports.size() >= size / 20000 / 2, QByteArray::number(qulonglong(reports.size())));
    for (std::size_t i = 0; i < reports.size(); ++i) {
        QCOMPARE(reports[i].second, size);
        QVERIFY(i == 0 || reports[i].first >= reports[i - 1].first);
    }
    QCOMPARE(reports.back().first, size);
    QCOMPARE(traceToJson(read->trace), traceToJson(*traceFromJson(text.toStdString()).trace));
}

// torch.profiler's distributedInfo gives the run its rank, and Kineto's
// wall clock (baseTimeNanoseconds + ts) its time 0 on the clock the ranks
// of a job share (core/ranks aligns them on it); read whole or in windows.
void TestChromeTraceImport::distributedRankAndSharedClock_data()
{
    QTest::addColumn<QString>("root"); // members before traceEvents
    QTest::addColumn<bool>("kinetoEvents");
    QTest::addColumn<int>("rank");
    QTest::addColumn<qint64>("originNs"); // -1: unset
    const qint64 first = 1000000000; // the first event's ts, 1e6 us
    QTest::newRow("Kineto, distributedInfo and base time")
        << R"("schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":5,"world_size":8},"baseTimeNanoseconds":1700000000000000000,)"
        << true << 5 << qint64(1700000000000000000) + first;
    QTest::newRow("Kineto without base time") << R"("schemaVersion":1,"distributedInfo":{"rank":0},)" << true << 0
                                              << first;
    QTest::newRow("rank as text is no rank") << R"("distributedInfo":{"rank":"5"},)" << true << -1 << first;
    QTest::newRow("negative rank is no rank") << R"("distributedInfo":{"rank":-2},)" << true << -1 << first;
    QTest::newRow("distributedInfo not an object") << R"("distributedInfo":[1],)" << true << -1 << first;
    QTest::newRow("a Chrome trace's clock is its own") << QString() << false << -1 << qint64(-1);
}

void TestChromeTraceImport::distributedRankAndSharedClock()
{
    QFETCH(QString, root);
    QFETCH(bool, kinetoEvents);
    QFETCH(int, rank);
    QFETCH(qint64, originNs);
    QStringList events;
    for (int i = 0; i < 40; ++i) {
        const QByteArray ts = QByteArray::number(1000000 + 100 * i);
        const QByteArray gpuTs = QByteArray::number(1000000 + 100 * i + 10);
        const QString correlation = QString(R"({"correlation":%1})").arg(i + 1);
        const QString gpu = QString(R"({"device":0,"stream":7,"correlation":%1,"bytes":64})").arg(i + 1);
        events << x(kinetoEvents ? "cuda_runtime" : "cuda_driver", "cuMemsetD32Async", 9, 9, ts.constData(), "5",
                    correlation.toUtf8().constData())
               << x("gpu_memset", "Memset (Device)", 0, 7, gpuTs.constData(), "2", gpu.toUtf8().constData());
    }
    const QByteArray text = ("{" + root + "\"traceEvents\":[\n" + events.join(",\n") + "\n]}\n").toUtf8();
    const auto whole = traceFromJson(text.toStdString());
    QVERIFY2(whole.trace, whole.error.c_str());
    QTemporaryDir dir;
    const QString path = writeTemp(dir, "rank.json", text);
    QVERIFY(!path.isEmpty());
    const auto windowed = ChromeTraceImport::readFile(path.toStdString(), 1u << 30, 1000);
    QVERIFY2(windowed, "read in windows");
    for (const Trace* trace : {&*whole.trace, &windowed->trace}) {
        const Run& run = trace->runs.at(0);
        QCOMPARE(run.rank, rank);
        QCOMPARE(run.sharedClockOriginNs.value_or(-1), originNs);
    }
}

// core/ranks in-process: one thread or two give the same rows; a caller
// keeps the traces (ops) of the ranks it asks for, and only those.
void TestChromeTraceImport::readRanksKeepsWhatIsAsked()
{
    QTemporaryDir dir;
    QStringList files;
    for (int r = 0; r < 3; ++r) {
        files << dir.filePath(QString("host_%1.pt.trace.json").arg(4100 + r));
        QVERIFY(writeTestRank(files.back(), {r, 7 * r, r == 2 ? 400 : 100}));
    }
    ovs::RankReadOptions options;
    options.threads = 1;
    options.keep = [](std::size_t file) { return file == 1; };
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    const ovs::RankFolder one = ovs::readRanks(paths, options);
    const ovs::RankFolder two = ovs::readRanks(paths);
    QCOMPARE(one.ranks.size(), two.ranks.size());
    for (std::size_t i = 0; i < one.ranks.size(); ++i) {
        QCOMPARE(one.ranks[i].label, two.ranks[i].label);
        QCOMPARE(one.ranks[i].stepMedianNs, two.ranks[i].stepMedianNs);
        QCOMPARE(one.ranks[i].findings.size(), two.ranks[i].findings.size());
    }
    QVERIFY(!one.files[0].trace && !one.files[2].trace);
    QVERIFY(one.files[1].trace && !one.files[1].trace->runs.at(0).ops.empty());
    QCOMPARE(one.files[1].trace->runs.at(0).rank, 1);
    QVERIFY(!two.files[1].trace);
}

// The split of docs/ranks.md ("Ranks past one machine"): each file's
// summary written and read back, then merged, is the folder readRanks
// reads, to the byte of its JSON; a file that is no trace keeps its error.
void TestChromeTraceImport::rankSummariesMergeAsTheFolder()
{
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int r = 0; r < 3; ++r) {
        paths.push_back(dir.filePath(QString("host_%1.pt.trace.json").arg(4100 + r)).toStdString());
        QVERIFY(writeTestRank(QString::fromStdString(paths.back()), {r, 7 * r, r == 2 ? 400 : 100}));
    }
    paths.push_back(dir.filePath("junk.json").toStdString());
    QFile junk(QString::fromStdString(paths.back()));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("[1, 2");
    junk.close();

    const ovs::RankFolder folder = ovs::readRanks(paths);
    QVERIFY(folder.straggler.row.has_value());
    std::vector<ovs::RankFileSummary> summaries;
    for (const std::string& path : paths) {
        const std::string text = ovs::rankSummaryJson(ovs::summarizeRankFile(path));
        std::string error;
        auto back = ovs::rankSummaryFromJson(text, &error);
        QVERIFY2(back, error.c_str());
        QCOMPARE(ovs::rankSummaryJson(*back), text); // nothing lost or rounded
        summaries.push_back(std::move(*back));
    }
    QVERIFY(!summaries.back().file.error.empty() && summaries.back().rows.empty());
    QCOMPARE(ovs::ranksJson(ovs::mergeRankSummaries(std::move(summaries))), ovs::ranksJson(folder));

    // A summary file is read as one by readRanks, beside traces.
    const std::string summaryPath = dir.filePath("s0.json").toStdString();
    std::string error;
    QVERIFY(ovs::writeTextFileAtomically(summaryPath, ovs::rankSummaryJson(ovs::summarizeRankFile(paths[0])), &error));
    QVERIFY(ovs::isRankSummaryFile(summaryPath));
    QVERIFY(!ovs::isRankSummaryFile(paths[0]));
    std::vector<std::string> mixed = paths;
    mixed[0] = summaryPath;
    QCOMPARE(ovs::ranksJson(ovs::readRanks(mixed)), ovs::ranksJson(folder));
}

// A summary comes from another machine: every cut of one, and every byte
// of it replaced, is refused with a line or read as a valid summary, and
// never crashes or overflows (ASan, UBSan).
void TestChromeTraceImport::brokenRankSummariesAreRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("rank1.json");
    QVERIFY(writeTestRank(path, {1, 0, 400}));
    const std::string text = ovs::rankSummaryJson(ovs::summarizeRankFile(path.toStdString()));
    QVERIFY(text.size() > 200);
    std::string error;
    for (std::size_t cut = 0; cut + 1 < text.size(); ++cut) {
        error.clear();
        QVERIFY(!ovs::rankSummaryFromJson(std::string_view(text).substr(0, cut), &error));
        QVERIFY(!error.empty() && error.size() <= 300 && error.find('\n') == std::string::npos);
    }
    int refused = 0;
    for (std::size_t at = 0; at < text.size(); ++at)
        for (char c : {'9', '-', '"', 'x', '\xff'}) {
            std::string changed = text;
            changed[at] = c;
            error.clear();
            if (auto read = ovs::rankSummaryFromJson(changed, &error)) {
                std::vector<ovs::RankFileSummary> files;
                files.push_back(*read);
                files.push_back(*read);
                (void)ovs::ranksJson(ovs::mergeRankSummaries(std::move(files)));
            } else {
                ++refused;
                QVERIFY(!error.empty());
            }
        }
    QVERIFY(refused > 0);
    for (const char* bad : {R"({"format":"overlapscope-rank-summary","schema":2,"path":"a","error":"","notes":[],"runs":[]})",
                            R"({"format":"overlapscope-rank-summary","schema":1,"path":"a","error":"","notes":[]})",
                            R"({"format":"other","schema":1,"path":"a","error":"","notes":[],"runs":[]})"}) {
        error.clear();
        QVERIFY(!ovs::rankSummaryFromJson(bad, &error));
        QVERIFY(!error.empty());
    }
}

QTEST_APPLESS_MAIN(TestChromeTraceImport)
#include "tst_chrome_trace_import.moc"

// Kineto's kernels carry their launch shape in args ("grid", "block",
// "registers per thread", "shared memory"), and deviceProperties the
// device's SMs ("numSms") and compute capability: each kernel op gets the
// shape of the event with its correlation id, as the file has it, and all
// of it survives the native format (version 7) unchanged.
void TestChromeTraceImport::launchShapesAndSms_data()
{
    QTest::addColumn<QString>("file");
    for (const char* file : {"pytorch-train-step.json", "pytorch-pageable-sync.json", "pytorch-two-streams-pinned.json",
                             "profiled/what-if/torch_sync_per_chunk-kineto.json", "profiled/regions/torch_steps.json"})
        QTest::newRow(file) << file;
}

void TestChromeTraceImport::launchShapesAndSms()
{
    QFETCH(QString, file);
    const QByteArray text = sampleText(file.toUtf8().constData());
    const QJsonObject root = QJsonDocument::fromJson(text).object();
    std::map<std::uint32_t, KernelShape> expected; // by correlation id
    for (const QJsonValue& v : root.value("traceEvents").toArray()) {
        const QJsonObject e = v.toObject();
        if (e.value("cat").toString() != "kernel")
            continue;
        const QJsonObject args = e.value("args").toObject();
        KernelShape shape;
        for (int d = 0; d < 3; ++d) {
            shape.grid[d] = static_cast<std::uint32_t>(args.value("grid").toArray().at(d).toInteger());
            shape.block[d] = static_cast<std::uint32_t>(args.value("block").toArray().at(d).toInteger());
        }
        shape.registersPerThread = static_cast<std::uint16_t>(args.value("registers per thread").toInteger());
        shape.sharedMemoryBytes = static_cast<std::uint32_t>(args.value("shared memory").toInteger());
        QVERIFY(shape.valid());
        expected[static_cast<std::uint32_t>(args.value("correlation").toInteger())] = shape;
    }
    QVERIFY(!expected.empty());
    const QJsonObject properties = root.value("deviceProperties").toArray().at(0).toObject();

    const auto loaded = traceFromJson(text.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.device.smCount, properties.value("numSms").toInt());
    QVERIFY(run.device.smCount > 0);
    QCOMPARE(run.device.computeCapability,
             properties.value("computeMajor").toInt() * 10 + properties.value("computeMinor").toInt());
    std::size_t kernels = 0;
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (op.kind != OpKind::Kernel) {
            QVERIFY(!run.shapeOf(i));
            continue;
        }
        ++kernels;
        const KernelShape* shape = run.shapeOf(i);
        QVERIFY2(shape, "every kernel has its shape");
        QVERIFY(expected.count(op.correlation));
        QVERIFY(*shape == expected.at(op.correlation));
    }
    QCOMPARE(kernels, expected.size());
    QVERIFY(run.usesKernelShapes());

    const std::string json = traceToJson(*loaded.trace);
    // Shapes need version 7; the aten ops around the calls (sources), 8.
    const std::string version = std::to_string(run.usesSources() ? Trace::kSourcesFormatVersion : Trace::kKernelShapesFormatVersion);
    QVERIFY(json.find("\"version\": " + version) != std::string::npos || json.find("\"version\":" + version) != std::string::npos);
    const auto again = traceFromJson(json);
    QVERIFY2(again.trace, again.error.c_str());
    const Run& back = again.trace->runs.at(0);
    QCOMPARE(back.device.smCount, run.device.smCount);
    QCOMPARE(back.device.computeCapability, run.device.computeCapability);
    QCOMPARE(back.ops.size(), run.ops.size());
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        QCOMPARE(back.ops[i].correlation, run.ops[i].correlation);
        QCOMPARE(back.shapeOf(i) != nullptr, run.shapeOf(i) != nullptr);
        if (run.shapeOf(i))
            QVERIFY(*back.shapeOf(i) == *run.shapeOf(i));
    }
}
