#include "formats/ChromeTraceExport.h"
#include "JsonTree.h"

#include "TestOps.h"

#include <QtTest>

#include <map>

using namespace ovs;
using namespace ovs::test;
using ovs::test::makeOp;

namespace {

Trace makeTrace()
{
    Trace trace;
    trace.tool = "overlapscope-cli 0.1.0";
    trace.createdUtc = "2025-01-02T03:04:05Z";

    Run real;
    real.name = "overlapped pinned";
    real.pipeline = "overlapped";
    real.device.name = "NVIDIA H200";
    real.timing = "cuda-events+cupti";
    real.timedBeginNs = 1'000;
    real.timedEndNs = 20'000;
    real.lanes = {{"stream 0", LaneKind::Stream, 0, StreamKind::Blocking},
                  {"stream 1", LaneKind::Stream, 0, StreamKind::LegacyDefault},
                  {"host", LaneKind::HostThread}};
    real.ops = {
        makeOp(OpKind::Upload, 0, 3, 1'234'567, 2'234'567, 2'000'000, HostMemoryKind::Pinned, 1'500'000, 2'000'000),
        makeOp(OpKind::Kernel, 1, 3, 2'234'567, 2'300'001, 0, HostMemoryKind::None),
        makeOp(OpKind::Sync, 2, -1, 5, 7, 0, HostMemoryKind::None),
    };

    Run simulated;
    simulated.name = "serialized, \"pageable\"";
    simulated.pipeline = "serialized";
    simulated.device.name = "Simulated H200 (PCIe Gen5)";
    simulated.device.simulated = true;
    simulated.timing = "simulated";
    simulated.lanes = {{"host", LaneKind::HostThread}, {"stream 0", LaneKind::Stream}};
    simulated.ops = {
        makeOp(OpKind::StageIn, 0, 0, 0, 1'000, 4096, HostMemoryKind::Pageable),
        makeOp(OpKind::Upload, 1, 0, 1'000, 3'000, 4096, HostMemoryKind::Pageable),
    };

    trace.runs = {real, simulated};

    BandwidthSweep sweep;
    sweep.device = real.device;
    sweep.timing = "cuda-events";
    sweep.points = {{1ULL << 20, HostMemoryKind::Pinned, "HtoD", {0.05}, 0.05, 20.97152}};
    trace.sweeps = {sweep};
    return trace;
}

Json exported(const Trace& trace)
{
    const auto parsed = parseJson(traceToChromeJson(trace));
    if (!parsed.value)
        qFatal("export is not valid JSON: %s", parsed.error.c_str());
    return *parsed.value;
}

std::vector<const Json*> eventsWithPhase(const Json& root, const char* phase)
{
    std::vector<const Json*> events;
    for (const auto& event : root.find("traceEvents")->asArray())
        if (event.find("ph")->asString() == phase)
            events.push_back(&event);
    return events;
}

const Json* metadata(const Json& root, const char* name, std::int64_t pid, std::int64_t tid)
{
    for (const Json* event : eventsWithPhase(root, "M"))
        if (event->find("name")->asString() == name && event->find("pid")->asInteger() == pid
            && event->find("tid")->asInteger() == tid)
            return event;
    return nullptr;
}

} // namespace

class TestChromeExport : public QObject {
    Q_OBJECT

private slots:
    void isAnObjectWithTopLevelKeys();
    void namesProcessesAfterRunsAndDevices();
    void namesThreadsAfterLanes();
    void oneCompleteEventPerOp();
    void regionsAreSlicesOnTheirThread();
    void timesAreExactMicroseconds_data();
    void timesAreExactMicroseconds();
    void argsCarryOpDetails();
    void unifiedMemoryArgsSayFaultsOrBytes();
    void sweepsGoToOtherData();
    void exportWritesFile();
};

void TestChromeExport::isAnObjectWithTopLevelKeys()
{
    const Json root = exported(makeTrace());
    QVERIFY(root.isObject());
    QVERIFY(root.find("traceEvents")->isArray());
    QCOMPARE(root.find("displayTimeUnit")->asString(), std::string("ns"));
    QVERIFY(root.find("otherData")->isObject());
    QCOMPARE(root.find("otherData")->find("tool")->asString(), std::string("overlapscope-cli 0.1.0"));
}

void TestChromeExport::namesProcessesAfterRunsAndDevices()
{
    const Json root = exported(makeTrace());
    const Json* first = metadata(root, "process_name", 1, 0);
    const Json* second = metadata(root, "process_name", 2, 0);
    QVERIFY(first);
    QVERIFY(second);
    QCOMPARE(first->find("args")->find("name")->asString(), std::string("overlapped pinned \u2014 NVIDIA H200"));
    QCOMPARE(second->find("args")->find("name")->asString(),
             std::string("serialized, \"pageable\" \u2014 Simulated H200 (PCIe Gen5) [simulated]"));
    QCOMPARE(second->find("args")->find("simulated")->asBool(), true);
    QCOMPARE(first->find("args")->find("simulated")->asBool(), false);
    // The timed region travels with the process.
    QCOMPARE(first->find("args")->find("timedBeginNs")->asInteger(), std::int64_t(1'000));
    QCOMPARE(first->find("args")->find("timedEndNs")->asInteger(), std::int64_t(20'000));
    QCOMPARE(first->find("args")->find("wallNs")->asInteger(), std::int64_t(19'000));

    const Json* sort1 = metadata(root, "process_sort_index", 1, 0);
    const Json* sort2 = metadata(root, "process_sort_index", 2, 0);
    QVERIFY(sort1 && sort2);
    QCOMPARE(sort1->find("args")->find("sort_index")->asInteger(), std::int64_t(0));
    QCOMPARE(sort2->find("args")->find("sort_index")->asInteger(), std::int64_t(1));
    QCOMPARE(eventsWithPhase(root, "M").size(), std::size_t(2 * 2 + 2 * (3 + 2)));
}

void TestChromeExport::namesThreadsAfterLanes()
{
    const Trace trace = makeTrace();
    const Json root = exported(trace);
    for (std::size_t r = 0; r < trace.runs.size(); ++r) {
        for (std::size_t l = 0; l < trace.runs[r].lanes.size(); ++l) {
            const auto pid = static_cast<std::int64_t>(r + 1);
            const auto tid = static_cast<std::int64_t>(l + 1);
            const Json* name = metadata(root, "thread_name", pid, tid);
            const Json* sort = metadata(root, "thread_sort_index", pid, tid);
            QVERIFY(name);
            QVERIFY(sort);
            QCOMPARE(name->find("args")->find("name")->asString(), trace.runs[r].lanes[l].name);
            QCOMPARE(sort->find("args")->find("sort_index")->asInteger(), static_cast<std::int64_t>(l));
            // A stream lane's kind where it is known, in the native format's words.
            const Lane& lane = trace.runs[r].lanes[l];
            const Json* streamKind = name->find("args")->find("streamKind");
            if (lane.streamKind == StreamKind::Unknown)
                QVERIFY(!streamKind);
            else {
                QVERIFY(streamKind);
                QCOMPARE(streamKind->asString(), std::string(toString(lane.streamKind)));
            }
        }
    }
}

void TestChromeExport::oneCompleteEventPerOp()
{
    const Trace trace = makeTrace();
    const Json root = exported(trace);
    const auto events = eventsWithPhase(root, "X");
    QCOMPARE(events.size(), std::size_t(5));
    std::map<std::int64_t, int> perProcess;
    for (const Json* event : events)
        ++perProcess[event->find("pid")->asInteger()];
    QCOMPARE(perProcess[1], 3);
    QCOMPARE(perProcess[2], 2);
    QCOMPARE(events[0]->find("name")->asString(), std::string("upload c3"));
    QCOMPARE(events[0]->find("cat")->asString(), std::string("upload"));
    QCOMPARE(events[0]->find("tid")->asInteger(), std::int64_t(1));
    QCOMPARE(events[1]->find("name")->asString(), std::string("kernel c3"));
    QCOMPARE(events[1]->find("tid")->asInteger(), std::int64_t(2));
    // Ops tied to no chunk are named by their kind alone.
    QCOMPARE(events[2]->find("name")->asString(), std::string("sync"));
    QCOMPARE(events[2]->find("cat")->asString(), std::string("sync"));
    QCOMPARE(events[2]->find("tid")->asInteger(), std::int64_t(3));
}

void TestChromeExport::regionsAreSlicesOnTheirThread()
{
    Trace trace = makeTrace();
    // Out of order on purpose: the export writes the model's (begin, depth) order.
    trace.runs[0].regions = {{"loop", 1'000, 20'000, 2, 0, RegionSource::Pipeline},
                             {"chunk 3", 1'000, 2'300'001, 2, 1, RegionSource::Pipeline},
                             {"capture", 0, 30'000, Region::kNoLane, 0, RegionSource::ProfilerRange}};
    trace.runs[0].sortRegions();
    const Json root = exported(trace);
    std::vector<const Json*> regions;
    for (const Json* event : eventsWithPhase(root, "X"))
        if (event->find("cat")->asString() == "region")
            regions.push_back(event);
    QCOMPARE(regions.size(), std::size_t(3));
    // The thread-less range is on a "regions" track of the run's process,
    // after its lanes (3 lanes: tid 4).
    QCOMPARE(regions[0]->find("name")->asString(), std::string("capture"));
    QCOMPARE(regions[0]->find("pid")->asInteger(), std::int64_t(1));
    QCOMPARE(regions[0]->find("tid")->asInteger(), std::int64_t(4));
    const Json* track = metadata(root, "thread_name", 1, 4);
    QVERIFY(track);
    QCOMPARE(track->find("args")->find("name")->asString(), std::string("regions"));
    QCOMPARE(regions[0]->find("args")->find("source")->asString(), std::string("profiler-range"));
    // The loop, then the chunk inside it, on the host lane's thread (tid 3),
    // the enclosing one first where both begin together.
    QCOMPARE(regions[1]->find("name")->asString(), std::string("loop"));
    QCOMPARE(regions[1]->find("tid")->asInteger(), std::int64_t(3));
    QCOMPARE(regions[1]->find("args")->find("depth")->asInteger(), std::int64_t(0));
    QCOMPARE(regions[2]->find("name")->asString(), std::string("chunk 3"));
    QCOMPARE(regions[2]->find("tid")->asInteger(), std::int64_t(3));
    QCOMPARE(regions[2]->find("args")->find("depth")->asInteger(), std::int64_t(1));
    QCOMPARE(regions[2]->find("args")->find("source")->asString(), std::string("pipeline"));
    QVERIFY(traceToChromeJson(trace).find(R"("name":"chunk 3","cat":"region","ph":"X","pid":1,"tid":3,)"
                                          R"("ts":1.000,"dur":2299.001,)")
            != std::string::npos);
    // Regions come before the ops of the run, so ties nest the region above.
    const auto all = eventsWithPhase(root, "X");
    QCOMPARE(all[0]->find("cat")->asString(), std::string("region"));
    QCOMPARE(all[3]->find("name")->asString(), std::string("upload c3"));
    // A run without thread-less regions gets no extra track.
    QVERIFY(!metadata(root, "thread_name", 2, 3));
}

void TestChromeExport::timesAreExactMicroseconds_data()
{
    QTest::addColumn<int>("event");
    QTest::addColumn<QString>("ts");
    QTest::addColumn<QString>("dur");
    QTest::newRow("upload") << 0 << "1234.567" << "1000.000";
    QTest::newRow("kernel") << 1 << "2234.567" << "65.434";
    QTest::newRow("sync") << 2 << "0.005" << "0.002";
    QTest::newRow("stage in at zero") << 3 << "0.000" << "1.000";
}

void TestChromeExport::timesAreExactMicroseconds()
{
    QFETCH(int, event);
    QFETCH(QString, ts);
    QFETCH(QString, dur);
    const Trace trace = makeTrace();
    const Json root = exported(trace);
    const Json* x = eventsWithPhase(root, "X")[static_cast<std::size_t>(event)];
    // The text has exactly three decimals, no float noise.
    const QString text = QString::fromStdString(traceToChromeJson(trace));
    const QString pair = QStringLiteral("\"ts\":%1,\"dur\":%2,").arg(ts, dur);
    QVERIFY2(text.contains(pair), qPrintable(pair));
    const Op& op = event < 3 ? trace.runs[0].ops[static_cast<std::size_t>(event)] : trace.runs[1].ops[0];
    QCOMPARE(qRound64(x->find("ts")->asDouble() * 1000.0), op.startNs);
    QCOMPARE(qRound64(x->find("dur")->asDouble() * 1000.0), op.durationNs());
}

void TestChromeExport::argsCarryOpDetails()
{
    const Json root = exported(makeTrace());
    const auto events = eventsWithPhase(root, "X");
    const Json* upload = events[0]->find("args");
    QCOMPARE(upload->find("chunk")->asInteger(), std::int64_t(3));
    QCOMPARE(upload->find("bytes")->asInteger(), std::int64_t(2'000'000));
    QCOMPARE(upload->find("memory")->asString(), std::string("pinned"));
    QCOMPARE(upload->find("execStartNs")->asInteger(), std::int64_t(1'500'000));
    QCOMPARE(upload->find("execEndNs")->asInteger(), std::int64_t(2'000'000));
    // 2 MB over the 500 us the engine ran, not the 1 ms the stream saw.
    QCOMPARE(upload->find("GB/s")->asDouble(), 4.0);

    const Json* sync = events[2]->find("args");
    QCOMPARE(sync->find("chunk")->asInteger(), std::int64_t(-1));
    QVERIFY(!sync->find("execStartNs"));
    QVERIFY(!sync->find("execEndNs"));
    QCOMPARE(sync->find("GB/s")->asDouble(), 0.0);

    const Json* simulatedUpload = events[4]->find("args");
    QCOMPARE(simulatedUpload->find("GB/s")->asDouble(), 4096.0 / 2000.0);
}

// A unified-memory op's `bytes` is a fault count for the fault counters
// (Op.h): its field says which, not its name, so a migration a fault caused
// ("HtoD migration (fault)") carries bytes.
void TestChromeExport::unifiedMemoryArgsSayFaultsOrBytes()
{
    Trace trace;
    Run run;
    run.name = "managed";
    run.device.name = "NVIDIA H200";
    run.timing = "cupti";
    run.lanes = {{"GPU 0 \u00b7 unified memory", LaneKind::Stream, 0, StreamKind::NonBlocking}};
    const std::vector<std::pair<UnifiedMemoryOp, std::uint64_t>> counters = {
        {{UmCounter::GpuPageFaults, UmCause::Unknown}, 12},
        {{UmCounter::MigrationToGpu, UmCause::Fault}, 65536},
        {{UmCounter::CpuPageFault, UmCause::Unknown}, 1},
    };
    for (const auto& [counter, value] : counters) {
        run.names.push_back(unifiedMemoryName(counter));
        Op op = makeOp(OpKind::UnifiedMemory, 0, -1, std::int64_t(run.ops.size()) * 1000,
                       std::int64_t(run.ops.size()) * 1000 + 500, value, HostMemoryKind::Managed);
        op.nameId = static_cast<std::uint32_t>(run.names.size() - 1);
        run.ops.push_back(op);
        run.setUnifiedMemory(run.ops.size() - 1, counter);
    }
    trace.runs = {run};
    const Json root = exported(trace);
    const auto events = eventsWithPhase(root, "X");
    QCOMPARE(events.size(), std::size_t(3));
    QCOMPARE(events[0]->find("name")->asString(), std::string("GPU page faults"));
    QCOMPARE(events[0]->find("args")->find("faults")->asInteger(), std::int64_t(12));
    QCOMPARE(events[1]->find("name")->asString(), std::string("HtoD migration (fault)"));
    QCOMPARE(events[1]->find("args")->find("bytes")->asInteger(), std::int64_t(65536));
    QVERIFY(!events[1]->find("args")->find("faults"));
    QCOMPARE(events[2]->find("args")->find("faults")->asInteger(), std::int64_t(1));
}

void TestChromeExport::sweepsGoToOtherData()
{
    const Json root = exported(makeTrace());
    const auto& sweeps = root.find("otherData")->find("bandwidthSweeps")->asArray();
    QCOMPARE(sweeps.size(), std::size_t(1));
    QCOMPARE(sweeps[0].find("device")->asString(), std::string("NVIDIA H200"));
    const auto& points = sweeps[0].find("points")->asArray();
    QCOMPARE(points.size(), std::size_t(1));
    QCOMPARE(points[0].find("bytes")->asInteger(), std::int64_t(1) << 20);
    QCOMPARE(points[0].find("direction")->asString(), std::string("HtoD"));
    QCOMPARE(points[0].find("gbps")->asDouble(), 20.97152);
}

void TestChromeExport::exportWritesFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("trace.chrome.json").toStdString();
    std::string error;
    QVERIFY2(exportChromeTrace(makeTrace(), path, &error), error.c_str());
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toStdString(), traceToChromeJson(makeTrace()));

    QVERIFY(!exportChromeTrace(makeTrace(), dir.filePath("missing/x.json").toStdString(), &error));
    QVERIFY2(QString::fromStdString(error).contains("cannot save to"), error.c_str());
}

QTEST_APPLESS_MAIN(TestChromeExport)
#include "tst_chrome_export.moc"
