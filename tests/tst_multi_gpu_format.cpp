// The trace formats of a run spread over several GPUs of one host: lanes
// carry their device, runs their devices, peer copies their own kind; a
// single-GPU trace is written exactly as before (version 2).
#include "JsonTree.h"
#include "formats/ChromeTraceExport.h"
#include "formats/CsvExport.h"
#include "formats/TraceJson.h"

#include "TestOps.h"

#include <QtTest>

#include <map>
#include <set>

using namespace ovs;
using namespace ovs::test;

namespace {

Run makeTwoGpuRun()
{
    Run run;
    run.name = "overlapped pinned on 2 GPUs";
    run.pipeline = "overlapped";
    run.device = {"Simulated H200 (PCIe Gen5)", true, "h200-pcie5", "GPU 0 of 2", 2, 141ULL << 30};
    run.moreDevices = {{"Simulated H200 (PCIe Gen5)", true, "h200-pcie5", "GPU 1 of 2", 2, 141ULL << 30}};
    run.timing = "simulated";
    run.timedEndNs = 10'000;
    run.lanes = {{"GPU 0 \u00b7 stream 0", LaneKind::Stream, 0},
                 {"GPU 1 \u00b7 stream 0", LaneKind::Stream, 1},
                 {"host", LaneKind::HostThread, 0}};
    run.names = {"", "GPU 0 \u2192 GPU 1"};
    run.ops = {
        makeOp(OpKind::Upload, 0, 0, 0, 1'000, 4096, HostMemoryKind::Pinned, 0, 1'000),
        makeOp(OpKind::PeerCopy, 0, -1, 1'000, 2'000, 4096, HostMemoryKind::Device, 1'000, 2'000),
        makeOp(OpKind::Upload, 1, 1, 0, 1'500, 4096, HostMemoryKind::Pinned),
        makeOp(OpKind::Sync, 2, -1, 2'000, 10'000),
    };
    run.ops[1].nameId = 1;
    run.sortOps();
    return run;
}

Run makeOneGpuRun()
{
    Run run;
    run.name = "serialized";
    run.pipeline = "serialized";
    run.device = {"NVIDIA H200", false, "", "sm_90", 3, 150'000'000'000ULL};
    run.timing = "cuda-events";
    run.timedEndNs = 5'000;
    run.lanes = {{"stream 0", LaneKind::Stream}, {"host", LaneKind::HostThread}};
    run.ops = {makeOp(OpKind::Upload, 0, 0, 0, 1'000, 4096, HostMemoryKind::Pageable),
               makeOp(OpKind::Sync, 1, -1, 1'000, 5'000)};
    return run;
}

Trace traceOf(std::vector<Run> runs)
{
    Trace trace;
    trace.tool = "test";
    trace.createdUtc = "2026-12-01T00:00:00Z";
    trace.runs = std::move(runs);
    return trace;
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        return "the test's text to replace is missing: " + from;
    return text.replace(at, from.size(), to);
}

} // namespace

class TestMultiGpuFormat : public QObject {
    Q_OBJECT

private slots:
    void peerCopyIsItsOwnGpuKind();
    void runKnowsItsDevices();
    void roundTrip();
    void singleGpuTraceStaysVersion2();
    void multiGpuTraceIsVersion3();
    void rejectsBadDevices_data();
    void rejectsBadDevices();
    void chromeExportHasOneProcessPerDevice();
    void csvHasADeviceColumn();
};

void TestMultiGpuFormat::peerCopyIsItsOwnGpuKind()
{
    QCOMPARE(std::string(toString(OpKind::PeerCopy)), std::string("peer_copy"));
    QCOMPARE(opKindFromString("peer_copy"), std::optional<OpKind>(OpKind::PeerCopy));
    QVERIFY(isGpuOp(OpKind::PeerCopy));
    QCOMPARE(static_cast<int>(OpKind::PeerCopy), static_cast<int>(OpKind::ApiCall) + 1);
}

void TestMultiGpuFormat::runKnowsItsDevices()
{
    const Run one = makeOneGpuRun();
    QCOMPARE(one.deviceCount(), 1);
    QVERIFY(!one.usesSeveralDevices());
    const Run two = makeTwoGpuRun();
    QCOMPARE(two.deviceCount(), 2);
    QCOMPARE(two.deviceAt(1).detail, std::string("GPU 1 of 2"));
    QCOMPARE(two.deviceAt(7).detail, std::string("GPU 0 of 2")); // a bad index answers device 0
    QVERIFY(two.usesSeveralDevices());
}

void TestMultiGpuFormat::roundTrip()
{
    const Trace original = traceOf({makeOneGpuRun(), makeTwoGpuRun()});
    const auto loaded = traceFromJson(traceToJson(original));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs[1];
    QCOMPARE(run.deviceCount(), 2);
    QCOMPARE(run.deviceAt(1).detail, std::string("GPU 1 of 2"));
    QVERIFY(run.deviceAt(1).simulated);
    QCOMPARE(run.lanes.size(), std::size_t(3));
    QCOMPARE(int(run.lanes[0].device), 0);
    QCOMPARE(int(run.lanes[1].device), 1);
    QCOMPARE(run.lanes[1].name, std::string("GPU 1 \u00b7 stream 0"));
    QCOMPARE(int(run.lanes[2].device), 0);
    const auto peer = std::find_if(run.ops.begin(), run.ops.end(),
                                   [](const Op& op) { return op.kind == OpKind::PeerCopy; });
    QVERIFY(peer != run.ops.end());
    QCOMPARE(run.nameOf(*peer), std::string("GPU 0 \u2192 GPU 1"));
    QCOMPARE(loaded.trace->runs[0].deviceCount(), 1);
    // Written again, the same text.
    QCOMPARE(traceToJson(*loaded.trace), traceToJson(original));
}

void TestMultiGpuFormat::singleGpuTraceStaysVersion2()
{
    const std::string json = traceToJson(traceOf({makeOneGpuRun()}));
    QVERIFY(json.find("\"version\":2") != std::string::npos);
    QVERIFY(json.find("moreDevices") == std::string::npos);
    // Lanes carry only name and kind, as before multi-GPU runs existed.
    QVERIFY(json.find(R"("lanes":[{"name":"stream 0","kind":"stream"},{"name":"host","kind":"host"}])")
            != std::string::npos);
}

void TestMultiGpuFormat::multiGpuTraceIsVersion3()
{
    QCOMPARE(traceOf({makeOneGpuRun(), makeTwoGpuRun()}).formatVersion(), 3);
    // A peer copy alone (a profiled program's, on one recorded device) is version 3 too:
    // a reader of version 2 does not know the kind.
    Run peerOnly = makeOneGpuRun();
    peerOnly.ops.push_back(makeOp(OpKind::PeerCopy, 0, -1, 1'000, 2'000, 64, HostMemoryKind::Device));
    peerOnly.sortOps();
    const std::string json = traceToJson(traceOf({peerOnly}));
    QVERIFY(json.find("\"version\":3") != std::string::npos);
    QVERIFY(traceFromJson(json).trace);
}

void TestMultiGpuFormat::rejectsBadDevices_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<QString>("expected");
    const std::string good = traceToJson(traceOf({makeTwoGpuRun()}));
    QTest::newRow("lane on a device the run lacks")
        << replaced(good, R"("kind":"stream","device":1)", R"("kind":"stream","device":2)")
        << "lane 1: is on device 2, but the run has 2 devices";
    QTest::newRow("host lane on a device")
        << replaced(good, R"("kind":"host")", R"("kind":"host","device":1)")
        << "lane 2: is a host lane, which belongs to the host";
    QTest::newRow("device not an integer")
        << replaced(good, R"("kind":"stream","device":1)", R"("kind":"stream","device":"1")")
        << "field \"device\" must be an integer";
    QTest::newRow("negative device")
        << replaced(good, R"("kind":"stream","device":1)", R"("kind":"stream","device":-1)")
        << "it must be at least 0";
    QTest::newRow("moreDevices not an array")
        << replaced(good, R"("moreDevices":[)", R"("moreDevices":7,"ignored":[)")
        << "field \"moreDevices\" must be an array";
    QTest::newRow("lane device in version 2")
        << replaced(traceToJson(traceOf({makeOneGpuRun()})), R"("kind":"stream")", R"("kind":"stream","device":0)")
        << "field \"device\" needs format version 3";
    QTest::newRow("peer copy in version 2")
        << replaced(traceToJson(traceOf({makeOneGpuRun()})), R"(["upload")", R"(["peer_copy")")
        << "op kind \"peer_copy\" needs format version 3";
    std::string noMore = good;
    const auto from = noMore.find(R"("moreDevices":)");
    const auto to = noMore.find(R"("params")");
    if (from != std::string::npos && to != std::string::npos)
        noMore.erase(from, to - from);
    QTest::newRow("lane on device 1 of a one-device run") << noMore << "but the run has 1 device";
}

void TestMultiGpuFormat::rejectsBadDevices()
{
    QFETCH(std::string, json);
    QFETCH(QString, expected);
    const auto loaded = traceFromJson(json);
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).contains(expected), loaded.error.c_str());
}

void TestMultiGpuFormat::chromeExportHasOneProcessPerDevice()
{
    const auto parsed = parseJson(traceToChromeJson(traceOf({makeOneGpuRun(), makeTwoGpuRun()})));
    QVERIFY(parsed.value);
    std::map<std::int64_t, std::string> processNames;
    std::map<std::string, std::int64_t> pidOfLane;
    std::set<std::pair<std::int64_t, std::string>> opEvents; // (pid, kind)
    for (const Json& event : parsed.value->find("traceEvents")->asArray()) {
        const std::string name = event.find("name")->asString();
        const std::int64_t pid = event.find("pid")->asInteger();
        if (name == "process_name")
            processNames[pid] = event.find("args")->find("name")->asString();
        else if (name == "thread_name")
            pidOfLane[event.find("args")->find("name")->asString()] = pid;
        else if (event.find("ph")->asString() == "X")
            opEvents.insert({pid, event.find("cat")->asString()});
    }
    // The single-GPU run: one process. The two-GPU run: its host and each GPU.
    QCOMPARE(processNames.size(), std::size_t(4));
    QVERIFY(processNames[2].ends_with("\u2014 host"));
    QVERIFY(processNames[3].find("GPU 0: ") != std::string::npos);
    QVERIFY(processNames[4].find("GPU 1: ") != std::string::npos);
    QCOMPARE(pidOfLane["GPU 0 \u00b7 stream 0"], std::int64_t(3));
    QCOMPARE(pidOfLane["GPU 1 \u00b7 stream 0"], std::int64_t(4));
    QVERIFY(opEvents.count({3, "peer_copy"}));
    QVERIFY(opEvents.count({4, "upload"}));
    QVERIFY(opEvents.count({2, "sync"}));
}

void TestMultiGpuFormat::csvHasADeviceColumn()
{
    const QStringList lines = QString::fromStdString(traceToCsv(traceOf({makeTwoGpuRun()}))).split('\n');
    QVERIFY(lines[1].contains("\"devices\":["));
    QVERIFY(lines[2].endsWith(",device"));
    QStringList deviceOfRows;
    for (int i = 3; i < lines.size(); ++i)
        if (!lines[i].isEmpty())
            deviceOfRows << lines[i].section(',', 3, 3) + ":" + lines[i].section(',', -1);
    // Sorted by lane: GPU 0's upload and peer copy, GPU 1's upload, the host's sync.
    QCOMPARE(deviceOfRows, (QStringList{"upload:0", "peer_copy:0", "upload:1", "sync:"}));
}

QTEST_GUILESS_MAIN(TestMultiGpuFormat)
#include "tst_multi_gpu_format.moc"
