#include "JsonTree.h"
#include "json/AnalysisJson.h"
#include "analysis/RunAnalysis.h"
#include "formats/NsightSqliteImport.h"
#include "formats/TraceJson.h"
#include "profile/ProcessRunBuilder.h"
#include "profile/ProfileStreamDecoder.h"
#include "trace/NativeFrame.h"

#include "NsightReportWriter.h"
#include "TestProfileStream.h"
#include "TestOps.h"
#include "TestTimeouts.h"

#include <QtTest>

#include <sys/stat.h>

#include <functional>
#include <limits>
#include <map>
#include <random>

using namespace ovs;
using namespace ovs::test;
using ovs::test::makeOp;

namespace {

// Two runs, one of them simulated, several lanes, ops with and without engine
// times, and a sweep: every field has a value that differs from its default.
Trace makeTrace()
{
    Trace trace;
    trace.tool = "overlapscope-cli 0.1.0";
    trace.createdUtc = "2025-01-02T03:04:05Z";

    Run overlapped;
    overlapped.name = "overlapped pinned";
    overlapped.pipeline = "overlapped";
    overlapped.device = {"NVIDIA H200", false, "", "sm_90, driver 550.54, PCIe Gen5 x16", 3, 150'000'000'000ULL};
    overlapped.params = {8, 64ULL << 20, 3, 4, 2};
    overlapped.timing = "cuda-events+cupti";
    overlapped.status = RunStatus::Completed;
    overlapped.timedBeginNs = 1'000;
    overlapped.timedEndNs = 9'500'000'000LL;
    overlapped.verification = {true, true, 0, "verified: 16777216 of 16777216 floats equal input + 1"};
    overlapped.lanes = {{"stream 0", LaneKind::Stream, 0, StreamKind::NonBlocking},
                        {"stream 1", LaneKind::Stream, 0, StreamKind::Blocking},
                        {"host", LaneKind::HostThread},
                        {"staging 1", LaneKind::HostThread}};
    overlapped.ops = {
        makeOp(OpKind::Upload, 0, 0, 2'000, 5'000, 67'108'864, HostMemoryKind::Pinned, 2'100, 4'900),
        makeOp(OpKind::Kernel, 0, 0, 5'000, 8'000, 0, HostMemoryKind::None),
        makeOp(OpKind::Download, 0, 0, 8'000, 12'000, 67'108'864, HostMemoryKind::Pinned, 9'000, 11'000),
        makeOp(OpKind::Upload, 1, 1, 3'000, 7'000, 67'108'864, HostMemoryKind::Pinned, 5'000, 7'000),
        makeOp(OpKind::Alloc, 2, -1, 0, 900, 201'326'592, HostMemoryKind::Pinned),
        makeOp(OpKind::StageIn, 2, 0, 1'000, 2'000, 67'108'864, HostMemoryKind::Pageable),
        makeOp(OpKind::HostWait, 2, 0, 2'000, 2'000, 0, HostMemoryKind::None),
        makeOp(OpKind::Sync, 2, -1, 12'000, 9'500'000'000LL, 0, HostMemoryKind::None),
        makeOp(OpKind::StageOut, 3, 0, 12'000, 13'000, 67'108'864, HostMemoryKind::Pageable),
        makeOp(OpKind::Free, 3, -1, 13'000, 13'500, 0, HostMemoryKind::Registered),
    };
    overlapped.sortOps();

    Run serialized;
    serialized.name = "serialized \"pageable\", ünïcode — run";
    serialized.pipeline = "serialized";
    serialized.device = {"Simulated H200 (PCIe Gen5)", true, "h200-pcie5", "model v1", 2, 141ULL << 30};
    serialized.params = {4, 1ULL << 20, 1, 1, 1};
    serialized.timing = "simulated";
    serialized.status = RunStatus::Cancelled;
    serialized.error = "cancelled by the user\nafter 2 chunks";
    serialized.timedBeginNs = 0;
    serialized.timedEndNs = 0;
    serialized.verification = {true, false, 12, "12 mismatches"};
    serialized.lanes = {{"host", LaneKind::HostThread},
                        {"stream 0", LaneKind::Stream},
                        {"per-thread default stream", LaneKind::Stream, 0, StreamKind::PerThreadDefault}};
    serialized.ops = {
        makeOp(OpKind::Register, 0, -1, 0, 10, 4096, HostMemoryKind::Registered),
        makeOp(OpKind::Upload, 1, 2'147'483'647, 10, 20, 1, HostMemoryKind::Registered, 10, 20),
        makeOp(OpKind::Kernel, 1, 3, 20, 20, 0, HostMemoryKind::None, 20, 20),
    };
    serialized.sortOps();

    // Format version 2: names, correlation ids, the kinds profiled programs add.
    Run profiled;
    profiled.name = "profiled program";
    profiled.pipeline = "pytorch";
    profiled.device = overlapped.device;
    profiled.timing = "cupti (imported)";
    profiled.timedEndNs = 50'000;
    // Lane 2: named as the legacy stream was before streamKind, yet unknown.
    profiled.lanes = {{"GPU 0 stream 7", LaneKind::Stream, 0, StreamKind::LegacyDefault},
                      {"thread 12", LaneKind::HostThread},
                      {"GPU 0 stream 9 (legacy default)", LaneKind::Stream, 0, StreamKind::Unknown}};
    profiled.names = {"", "void vectorAdd<float>(float const*, float*)", "cudaLaunchKernel", "cudaMemsetAsync"};
    profiled.ops = {
        makeOp(OpKind::Kernel, 0, -1, 1'000, 2'000, 0, HostMemoryKind::None, 1'000, 2'000),
        makeOp(OpKind::Memset, 0, -1, 3'000, 3'100, 4096, HostMemoryKind::Device),
        makeOp(OpKind::DeviceCopy, 0, -1, 4'000, 5'000, 1 << 20, HostMemoryKind::Device, 4'000, 5'000),
        makeOp(OpKind::Upload, 0, -1, 6'000, 7'000, 1 << 20, HostMemoryKind::Managed),
        makeOp(OpKind::ApiCall, 1, -1, 500, 900),
        makeOp(OpKind::ApiCall, 1, -1, 2'900, 3'000),
    };
    profiled.ops[0].nameId = 1;
    profiled.ops[0].correlation = 17;
    profiled.ops[1].correlation = 4'294'967'295U;
    profiled.ops[4].nameId = 2;
    profiled.ops[4].correlation = 17;
    profiled.ops[5].nameId = 3; // a name but no correlation: 10 elements
    profiled.sortOps();

    trace.runs = {overlapped, serialized, profiled};

    BandwidthSweep sweep;
    sweep.device = overlapped.device;
    sweep.timing = "cuda-events";
    sweep.warmups = 3;
    sweep.samples = 10;
    sweep.points = {
        {1ULL << 20, HostMemoryKind::Pinned, "HtoD", {0.1, 0.123456789012345, 1.0 / 3.0}, 0.123456789012345, 8.49},
        {256ULL << 20, HostMemoryKind::Pageable, "bidir", {12.5}, 12.5, 21.474836},
    };
    BandwidthSweep cancelled = sweep;
    cancelled.status = RunStatus::Cancelled;
    cancelled.error = "cancelled by the user";
    cancelled.points.pop_back();
    trace.sweeps = {sweep, cancelled};
    return trace;
}

// makeTrace() with regions (format version 4): nested NVTX ranges on the
// profiled run's host thread, a profiler range without a thread, and the
// pipeline's loop and a chunk.
Trace makeRegionsTrace()
{
    Trace trace = makeTrace();
    trace.runs[0].regions = {{"loop", 1'000, 9'500'000'000LL, 2, 0, RegionSource::Pipeline},
                             {"chunk 0", 1'000, 12'000, 2, 1, RegionSource::Pipeline}};
    trace.runs[2].regions = {{"capture", 0, 50'000, Region::kNoLane, 0, RegionSource::ProfilerRange},
                             {"step", 400, 3'000, 1, 0, RegionSource::Nvtx},
                             {"h2d \"quoted\" ünï", 500, 900, 1, 1, RegionSource::Nvtx},
                             {"empty", 3'000, 3'000, 1, 0, RegionSource::Nvtx}};
    return trace;
}

void compareRegions(const std::vector<Region>& a, const std::vector<Region>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].name, b[i].name);
        QCOMPARE(a[i].beginNs, b[i].beginNs);
        QCOMPARE(a[i].endNs, b[i].endNs);
        QCOMPARE(a[i].lane, b[i].lane);
        QCOMPARE(a[i].depth, b[i].depth);
        QCOMPARE(a[i].source, b[i].source);
    }
}

void compareDevice(const DeviceInfo& a, const DeviceInfo& b)
{
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.simulated, b.simulated);
    QCOMPARE(a.preset, b.preset);
    QCOMPARE(a.detail, b.detail);
    QCOMPARE(a.asyncEngineCount, b.asyncEngineCount);
    QCOMPARE(a.totalMemoryBytes, b.totalMemoryBytes);
    QCOMPARE(a.smCount, b.smCount);
    QCOMPARE(a.computeCapability, b.computeCapability);
}

void compareTraces(const Trace& a, const Trace& b)
{
    QCOMPARE(a.tool, b.tool);
    QCOMPARE(a.createdUtc, b.createdUtc);
    QCOMPARE(a.runs.size(), b.runs.size());
    for (std::size_t r = 0; r < a.runs.size(); ++r) {
        const Run& x = a.runs[r];
        const Run& y = b.runs[r];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.pipeline, y.pipeline);
        compareDevice(x.device, y.device);
        QCOMPARE(x.params.chunks, y.params.chunks);
        QCOMPARE(x.params.chunkBytes, y.params.chunkBytes);
        QCOMPARE(x.params.slotCount, y.params.slotCount);
        QCOMPARE(x.params.kernelRepeats, y.params.kernelRepeats);
        QCOMPARE(x.params.stagingThreads, y.params.stagingThreads);
        QCOMPARE(x.timing, y.timing);
        QCOMPARE(x.status, y.status);
        QCOMPARE(x.error, y.error);
        QCOMPARE(x.timedBeginNs, y.timedBeginNs);
        QCOMPARE(x.timedEndNs, y.timedEndNs);
        QCOMPARE(x.verification.checked, y.verification.checked);
        QCOMPARE(x.verification.passed, y.verification.passed);
        QCOMPARE(x.verification.mismatches, y.verification.mismatches);
        QCOMPARE(x.verification.message, y.verification.message);
        QCOMPARE(x.lanes.size(), y.lanes.size());
        for (std::size_t l = 0; l < x.lanes.size(); ++l) {
            QCOMPARE(x.lanes[l].name, y.lanes[l].name);
            QCOMPARE(x.lanes[l].kind, y.lanes[l].kind);
            QCOMPARE(x.lanes[l].streamKind, y.lanes[l].streamKind);
            QCOMPARE(x.lanes[l].device, y.lanes[l].device);
        }
        QCOMPARE(x.names, y.names);
        compareRegions(x.regions, y.regions);
        QCOMPARE(x.usesKernelShapes(), y.usesKernelShapes());
        for (std::size_t i = 0; i < x.ops.size() && i < y.ops.size(); ++i) {
            QCOMPARE(x.shapeOf(i) != nullptr, y.shapeOf(i) != nullptr);
            if (x.shapeOf(i))
                QVERIFY(*x.shapeOf(i) == *y.shapeOf(i));
        }
        for (std::size_t i = 0; i < x.ops.size() && i < y.ops.size(); ++i) {
            QCOMPARE(x.unifiedMemoryOf(i) != nullptr, y.unifiedMemoryOf(i) != nullptr);
            if (x.unifiedMemoryOf(i))
                QVERIFY(*x.unifiedMemoryOf(i) == *y.unifiedMemoryOf(i));
        }
        QCOMPARE(x.stacksRecorded, y.stacksRecorded);
        QVERIFY(x.sourceSites == y.sourceSites);
        for (std::size_t i = 0; i < x.ops.size() && i < y.ops.size(); ++i) {
            QCOMPARE(x.sourceOf(i) != nullptr, y.sourceOf(i) != nullptr);
            if (x.sourceOf(i))
                QVERIFY(*x.sourceOf(i) == *y.sourceOf(i));
        }
        QCOMPARE(x.ops.size(), y.ops.size());
        for (std::size_t i = 0; i < x.ops.size(); ++i) {
            const Op& p = x.ops[i];
            const Op& q = y.ops[i];
            QCOMPARE(p.kind, q.kind);
            QCOMPARE(p.lane, q.lane);
            QCOMPARE(p.chunk, q.chunk);
            QCOMPARE(p.startNs, q.startNs);
            QCOMPARE(p.endNs, q.endNs);
            QCOMPARE(p.bytes, q.bytes);
            QCOMPARE(p.memory, q.memory);
            QCOMPARE(p.execStartNs, q.execStartNs);
            QCOMPARE(p.execEndNs, q.execEndNs);
            QCOMPARE(p.nameId, q.nameId);
            QCOMPARE(p.correlation, q.correlation);
        }
    }
    QCOMPARE(a.sweeps.size(), b.sweeps.size());
    for (std::size_t s = 0; s < a.sweeps.size(); ++s) {
        const BandwidthSweep& x = a.sweeps[s];
        const BandwidthSweep& y = b.sweeps[s];
        compareDevice(x.device, y.device);
        QCOMPARE(x.timing, y.timing);
        QCOMPARE(x.warmups, y.warmups);
        QCOMPARE(x.samples, y.samples);
        QCOMPARE(x.status, y.status);
        QCOMPARE(x.error, y.error);
        QCOMPARE(x.points.size(), y.points.size());
        for (std::size_t i = 0; i < x.points.size(); ++i) {
            QCOMPARE(x.points[i].bytes, y.points[i].bytes);
            QCOMPARE(x.points[i].memory, y.points[i].memory);
            QCOMPARE(x.points[i].direction, y.points[i].direction);
            // Exact: the writer prints doubles so they read back bit-identical.
            QCOMPARE(x.points[i].samplesMs, y.points[i].samplesMs);
            QCOMPARE(x.points[i].medianMs, y.points[i].medianMs);
            QCOMPARE(x.points[i].gbps, y.points[i].gbps);
        }
    }
}

Json& member(Json& object, std::string_view key)
{
    for (auto& [name, value] : object.asObject())
        if (name == key)
            return value;
    qFatal("test bug: no member %s", std::string(key).c_str());
}

void removeMember(Json& object, std::string_view key)
{
    auto& members = object.asObject();
    std::erase_if(members, [key](const Json::Member& m) { return m.first == key; });
}

Json& run(Json& root, std::size_t index) { return member(root, "runs").asArray()[index]; }
Json& op(Json& root, std::size_t runIndex, std::size_t index)
{
    return member(run(root, runIndex), "ops").asArray()[index];
}
Json& opElement(Json& root, std::size_t runIndex, std::size_t index, std::size_t element)
{
    return op(root, runIndex, index).asArray()[element];
}
Json& point(Json& root, std::size_t index)
{
    return member(member(root, "sweeps").asArray()[0], "points").asArray()[index];
}

QByteArray mutated(const std::function<void(Json&)>& change, const Trace& trace = makeTrace())
{
    Json root = *parseJson(traceToJson(trace)).value;
    change(root);
    return QByteArray::fromStdString(root.toText());
}

Json& regionElement(Json& root, std::size_t runIndex, std::size_t index, std::size_t element)
{
    return member(run(root, runIndex), "regions").asArray()[index].asArray()[element];
}

QString tempPath(const QTemporaryDir& dir, const char* name) { return dir.filePath(QString::fromLatin1(name)); }

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

class TestTraceFormat : public QObject {
    Q_OBJECT

private slots:
    void roundTripInMemory();
    void roundTripThroughFile();
    void opsAreCompactArrays();
    void loadsVersion1Trace();
    void streamKindIsAnOptionalLaneMember();
    void streamKindOfFilesWithoutIt_data();
    void streamKindOfFilesWithoutIt();
    void laneDevicesOfFilesWithoutThem_data();
    void laneDevicesOfFilesWithoutThem();
    void loadSortsOps();
    void regionsRoundTrip();
    void regionsAreCompactRowsInVersion4();
    void tracesWithoutRegionsKeepTheirVersion();
    void loadSortsRegions();
    void unifiedMemoryOpsRoundTripInVersion9();
    void ranksRoundTripInVersion6();
    void loadsMinimalTrace();
    void acceptsTouchingOps();
    void loadMissingFile();
    void loadEmptyFile();
    void loadFolder();
    void saveToMissingFolderFails();
    void saveReplacesExistingFileAndLeavesNoTemporary();
    void rejectsMalformed_data();
    void rejectsMalformed();
    void everyTruncationIsRejected();
    void randomCorruptionNeverCrashes();
    void acceptsValidJson_data();
    void acceptsValidJson();
    void messagesStayShort_data();
    void messagesStayShort();
    void underflowReadsAsZero();
    void loadRefusesWhatIsNotARegularFile();
    void loadRefusesFilesAboveTheSizeLimit();
    void loadJudgesTheFirstBytes_data();
    void loadJudgesTheFirstBytes();
    void loadReadsFilesThatSayTheyAreEmpty();
    void loadReportsProgressAndCancels_data();
    void loadReportsProgressAndCancels();
    // Nsight Systems reports (SQLite exports).
    void kernelShapesRoundTripInVersion7();
    void callSourcesRoundTripInVersion8_data();
    void callSourcesRoundTripInVersion8();
    void nsightReportOfEachSchema_data();
    void nsightReportOfEachSchema();
    void nsightBadReports_data();
    void nsightBadReports();
    void nsightEmptyTables();
    void nsightCudaDevicesMapToTheHostsGpus_data();
    void nsightUnifiedMemory_data();
    void nsightUnifiedMemory();
    void copyKindsAreOneTable_data();
    void copyKindsAreOneTable();
    void nsightCudaDevicesMapToTheHostsGpus();
    void nsightRealExports_data();
    void nsightRealExports();
    void nativeFrameRule_data();
    void nativeFrameRule();
    void nsightCallSites_data();
    void nsightCallSites();
    void nsightRealExportCallSites();
    void nsightReadsAsTheProfile_data();
    void nsightReadsAsTheProfile();
    void nsightHostileReports_data();
    void nsightHostileReports();
    void nsightNamesBecomeValidUtf8();
    void nsightOverlapOnAStreamIsLeftOut();
    void nsightReadStopsWhenCancelled();
};

void TestTraceFormat::roundTripInMemory()
{
    const Trace original = makeTrace();
    const std::string text = traceToJson(original);
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY(loaded.error.empty());
    compareTraces(original, *loaded.trace);
    // Saving what was loaded gives the same bytes: nothing drifts.
    QCOMPARE(traceToJson(*loaded.trace), text);
}

void TestTraceFormat::roundTripThroughFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = tempPath(dir, "trace.json").toStdString();
    const Trace original = makeTrace();
    std::string error;
    QVERIFY2(saveTrace(original, path, &error), error.c_str());
    QVERIFY(error.empty());
    const auto loaded = loadTrace(path);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(original, *loaded.trace);
}

void TestTraceFormat::opsAreCompactArrays()
{
    const auto parsed = parseJson(traceToJson(makeTrace()));
    QVERIFY(parsed.value);
    const Json& root = *parsed.value;
    QCOMPARE(root.find("format")->asString(), std::string("overlapscope-trace"));
    QCOMPARE(root.find("version")->asInteger(), std::int64_t(Trace::kSingleDeviceFormatVersion));
    const auto& ops = root.find("runs")->asArray()[0].find("ops")->asArray();
    // Sorted by lane then start: lane 0 holds upload, kernel, download.
    QCOMPARE(ops[0].toText(), std::string(R"(["upload",0,0,2000,5000,67108864,"pinned",2100,4900])"));
    QCOMPARE(ops[1].toText(), std::string(R"(["kernel",0,0,5000,8000,0,"none"])"));

    // Version 2's trailing elements go only as far as the last one set;
    // unknown engine times before them are null.
    const Json& profiled = root.find("runs")->asArray()[2];
    QCOMPARE(profiled.find("names")->toText(),
             std::string(R"x(["","void vectorAdd<float>(float const*, float*)","cudaLaunchKernel","cudaMemsetAsync"])x"));
    const QStringList expected = {
        R"(["kernel",0,-1,1000,2000,0,"none",1000,2000,1,17])",
        R"(["memset",0,-1,3000,3100,4096,"device",null,null,0,4294967295])",
        R"(["device_copy",0,-1,4000,5000,1048576,"device",4000,5000])",
        R"(["upload",0,-1,6000,7000,1048576,"managed"])",
        R"(["api_call",1,-1,500,900,0,"none",null,null,2,17])",
        R"(["api_call",1,-1,2900,3000,0,"none",null,null,3])",
    };
    const auto& profiledOps = profiled.find("ops")->asArray();
    QCOMPARE(profiledOps.size(), std::size_t(expected.size()));
    for (std::size_t i = 0; i < profiledOps.size(); ++i)
        QCOMPARE(QString::fromStdString(profiledOps[i].toText()), expected[static_cast<qsizetype>(i)]);
}

void TestTraceFormat::loadsVersion1Trace()
{
    // What version-1 builds wrote: no names, ops of 7 or 9 elements.
    const auto loaded = traceFromJson(
        R"({"format":"overlapscope-trace","version":1,"tool":"overlapscope-cli 0.1.0","created":"","runs":[)"
        R"({"name":"r","pipeline":"overlapped","device":{"name":"d","simulated":true,"preset":"p","detail":"",)"
        R"("asyncEngineCount":2,"totalMemoryBytes":1},"params":{"chunks":1,"chunkBytes":4,"slots":1,)"
        R"("kernelRepeats":1,"stagingThreads":1},"timing":"simulated","status":"completed","error":"",)"
        R"("timedBeginNs":0,"timedEndNs":100,"verification":{"checked":false,"passed":false,"mismatches":0,)"
        R"("message":""},"lanes":[{"name":"stream 0","kind":"stream"},{"name":"host","kind":"host"}],)"
        R"("ops":[["upload",0,0,0,10,4,"pinned",1,9],["stage_in",1,0,0,5,4,"pageable"]]}],"sweeps":[]})");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.names, std::vector<std::string>{""});
    QCOMPARE(run.ops.size(), std::size_t(2));
    QCOMPARE(run.ops[0].execStartNs, std::int64_t(1));
    QCOMPARE(run.ops[0].nameId, 0u);
    QCOMPARE(run.ops[1].correlation, 0u);
}

void TestTraceFormat::streamKindIsAnOptionalLaneMember()
{
    const auto parsed = parseJson(traceToJson(makeTrace()));
    QVERIFY(parsed.value);
    const Json& root = *parsed.value;
    // No version bump: a single-GPU trace with stream kinds stays version 2.
    QCOMPARE(root.find("version")->asInteger(), std::int64_t(Trace::kSingleDeviceFormatVersion));
    const auto& runs = root.find("runs")->asArray();
    QCOMPARE(runs[0].find("lanes")->toText(),
             std::string(R"([{"name":"stream 0","kind":"stream","streamKind":"non-blocking"},)"
                         R"({"name":"stream 1","kind":"stream","streamKind":"blocking"},)"
                         R"({"name":"host","kind":"host"},{"name":"staging 1","kind":"host"}])"));
    // Unknown is left out, except where the name alone would read as the
    // legacy stream.
    QCOMPARE(runs[1].find("lanes")->toText(),
             std::string(R"([{"name":"host","kind":"host"},{"name":"stream 0","kind":"stream"},)"
                         R"({"name":"per-thread default stream","kind":"stream","streamKind":"per-thread-default"}])"));
    QCOMPARE(runs[2].find("lanes")->toText(),
             std::string(R"([{"name":"GPU 0 stream 7","kind":"stream","streamKind":"legacy-default"},)"
                         R"({"name":"thread 12","kind":"host"},)"
                         R"x({"name":"GPU 0 stream 9 (legacy default)","kind":"stream","streamKind":"unknown"}])x"));
}

void TestTraceFormat::streamKindOfFilesWithoutIt_data()
{
    QTest::addColumn<int>("version");
    QTest::addColumn<QString>("lane"); // the lane's members after its name
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("expected");
    const auto row = [](const char* tag, int version, const char* name, const char* lane, StreamKind expected) {
        QTest::newRow(tag) << version << QString::fromUtf8(lane) << QString::fromUtf8(name) << int(expected);
    };
    // Files from before the field: only the legacy stream was told, by name.
    row("created stream", 2, "stream 0", R"("kind":"stream")", StreamKind::Unknown);
    row("profiler's legacy stream", 2, "default stream (legacy)", R"("kind":"stream")", StreamKind::LegacyDefault);
    row("profiler's legacy stream, GPU 1", 3, "GPU 1 default stream (legacy)", R"("kind":"stream","device":0)",
        StreamKind::LegacyDefault);
    row("Kineto's stream 7", 2, "GPU 0 stream 7 (legacy default)", R"("kind":"stream")", StreamKind::LegacyDefault);
    row("Kineto's stream 7, extra lane", 2, "GPU 0 stream 7 (legacy default) (2)", R"("kind":"stream")",
        StreamKind::LegacyDefault);
    // Our pipelines' default-stream lane was never read as legacy by name.
    row("pipeline's legacy lane", 2, "legacy default stream", R"("kind":"stream")", StreamKind::Unknown);
    row("host lane named legacy", 2, "default stream (legacy)", R"("kind":"host")", StreamKind::Unknown);
    // The field wins over the name, in any version.
    row("field over name", 2, "default stream (legacy)", R"("kind":"stream","streamKind":"blocking")",
        StreamKind::Blocking);
    row("unknown over name", 2, "GPU 0 stream 7 (legacy default)", R"("streamKind":"unknown","kind":"stream")",
        StreamKind::Unknown);
    row("version 1 with the field", 1, "stream 0", R"("kind":"stream","streamKind":"non-blocking")",
        StreamKind::NonBlocking);
    row("host lane, unknown", 2, "host", R"("kind":"host","streamKind":"unknown")", StreamKind::Unknown);
}

void TestTraceFormat::streamKindOfFilesWithoutIt()
{
    QFETCH(int, version);
    QFETCH(QString, lane);
    QFETCH(QString, name);
    QFETCH(int, expected);
    const bool stream = lane.contains(QLatin1String(R"("kind":"stream")"));
    const std::string text
        = R"({"format":"overlapscope-trace","version":)" + std::to_string(version)
          + R"(,"tool":"t","created":"","runs":[)"
            R"({"name":"r","pipeline":"profile","device":{"name":"d","simulated":false,"preset":"","detail":"",)"
            R"("asyncEngineCount":2,"totalMemoryBytes":1},"params":{"chunks":0,"chunkBytes":0,"slots":0,)"
            R"("kernelRepeats":1,"stagingThreads":1},"timing":"cupti","status":"completed","error":"",)"
            R"("timedBeginNs":0,"timedEndNs":100,"verification":{"checked":false,"passed":false,"mismatches":0,)"
            R"("message":""},"lanes":[{"name":")"
          + name.toStdString() + R"(",)" + lane.toStdString() + R"(}],"ops":[)"
          + (stream ? R"(["kernel",0,-1,0,10,0,"none"])" : R"(["sync",0,-1,0,10,0,"none"])") + R"(]}],"sweeps":[]})";
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Lane& read = loaded.trace->runs.at(0).lanes.at(0);
    QCOMPARE(int(read.streamKind), expected);
    // And it is kept: saved and read again, the lane means the same.
    const auto again = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(again.trace, again.error.c_str());
    QCOMPARE(int(again.trace->runs.at(0).lanes.at(0).streamKind), expected);
}

// Before the Kineto importer gave stream lanes their devices, a trace it
// read from several GPUs was one device whose lanes named their GPU
// ("GPU 3 stream 13"): such a file reads as the importer makes it now, a
// device per GPU and each lane on its own; a run that names one GPU stays
// one device.
void TestTraceFormat::laneDevicesOfFilesWithoutThem_data()
{
    QTest::addColumn<QStringList>("lanes");
    QTest::addColumn<QStringList>("devices"); // the run's, by name
    QTest::addColumn<QList<int>>("laneDevices");
    QTest::newRow("two GPUs") << QStringList{"GPU 2 stream 7 (legacy default)", "GPU 3 stream 13", "GPU 2 stream 20"}
                              << QStringList{"d", "GPU 3"} << QList<int>{0, 1, 0};
    QTest::newRow("one GPU") << QStringList{"GPU 3 stream 7 (legacy default)", "GPU 3 stream 13"} << QStringList{"d"}
                             << QList<int>{0, 0};
    QTest::newRow("no GPU named") << QStringList{"stream 7", "stream 13"} << QStringList{"d"} << QList<int>{0, 0};
}

void TestTraceFormat::laneDevicesOfFilesWithoutThem()
{
    QFETCH(QStringList, lanes);
    QFETCH(QStringList, devices);
    QFETCH(QList<int>, laneDevices);
    std::string lanesText, opsText;
    for (int i = 0; i < lanes.size(); ++i) {
        lanesText += (i ? "," : "") + std::string(R"({"name":")") + lanes[i].toStdString() + R"(","kind":"stream"})";
        opsText += (i ? "," : "") + std::string(R"(["kernel",)") + std::to_string(i) + R"(,-1,0,10,0,"none"])";
    }
    lanesText += R"(,{"name":"thread 5","kind":"host"})";
    const std::string text
        = R"({"format":"overlapscope-trace","version":2,"tool":"t","created":"","runs":[)"
          R"({"name":"r","pipeline":"pytorch","device":{"name":"d","simulated":false,"preset":"","detail":"",)"
          R"("asyncEngineCount":2,"totalMemoryBytes":1},"params":{"chunks":0,"chunkBytes":0,"slots":0,)"
          R"("kernelRepeats":1,"stagingThreads":1},"timing":"cupti","status":"completed","error":"",)"
          R"("timedBeginNs":0,"timedEndNs":100,"verification":{"checked":false,"passed":false,"mismatches":0,)"
          R"("message":""},"lanes":[)"
          + lanesText + R"(],"ops":[)" + opsText + R"(]}],"sweeps":[]})";
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.at(0);
    QCOMPARE(run.deviceCount(), int(devices.size()));
    for (int d = 0; d < devices.size(); ++d)
        QCOMPARE(QString::fromStdString(run.deviceAt(d).name), devices[d]);
    for (int i = 0; i < lanes.size(); ++i)
        QCOMPARE(int(run.lanes[std::size_t(i)].device), laneDevices[i]);
    QCOMPARE(run.lanes.back().device, std::uint16_t(0)); // the host's
    // Kept: written again (version 3 where it has several devices), it reads the same.
    const auto again = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(again.trace, again.error.c_str());
    compareTraces(*loaded.trace, *again.trace);
    QCOMPARE(again.trace->runs.at(0).deviceCount(), int(devices.size()));
}

void TestTraceFormat::loadSortsOps()
{
    // A file may list ops in any order; they come back sorted by (lane, start).
    const QByteArray text = mutated([](Json& root) {
        auto& ops = member(run(root, 0), "ops").asArray();
        std::reverse(ops.begin(), ops.end());
    });
    const auto loaded = traceFromJson(text.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(makeTrace(), *loaded.trace);
}

void TestTraceFormat::regionsRoundTrip()
{
    const Trace original = makeRegionsTrace();
    const std::string text = traceToJson(original);
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(original, *loaded.trace);
    QCOMPARE(traceToJson(*loaded.trace), text);
}

void TestTraceFormat::regionsAreCompactRowsInVersion4()
{
    const auto parsed = parseJson(traceToJson(makeRegionsTrace()));
    QVERIFY(parsed.value);
    const Json& root = *parsed.value;
    QCOMPARE(root.find("version")->asInteger(), std::int64_t(4));
    const Json& profiled = root.find("runs")->asArray()[2];
    const auto& rows = profiled.find("regions")->asArray();
    QCOMPARE(rows.size(), std::size_t(4));
    QCOMPARE(rows[0].toText(), std::string(R"(["profiler-range",null,0,0,50000,"capture"])"));
    QCOMPARE(rows[1].toText(), std::string(R"(["nvtx",1,0,400,3000,"step"])"));
    // A run without regions has no member at all.
    QVERIFY(!root.find("runs")->asArray()[1].find("regions"));
}

void TestTraceFormat::tracesWithoutRegionsKeepTheirVersion()
{
    // Old traces (no regions) read with none, and are written as before.
    const auto loaded = traceFromJson(traceToJson(makeTrace()));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    for (const Run& run : loaded.trace->runs)
        QVERIFY(run.regions.empty());
    QCOMPARE(loaded.trace->formatVersion(), Trace::kSingleDeviceFormatVersion);
    Trace several = makeTrace();
    several.runs[0].lanes[0].device = 1;
    several.runs[0].moreDevices = {several.runs[0].device};
    QCOMPARE(several.formatVersion(), Trace::kSeveralDevicesFormatVersion);
    several.runs[1].regions = {{"loop", 0, 0, 0, 0, RegionSource::Pipeline}};
    QCOMPARE(several.formatVersion(), Trace::kRegionsFormatVersion);
}

void TestTraceFormat::unifiedMemoryOpsRoundTripInVersion9()
{
    // A profiled run's unified-memory lane: migrations with bytes, faults
    // with their count in `bytes` (docs/trace-format.md), and what each
    // counts and why as fields beside the ops (format 9), not in their names.
    Trace original = makeTrace();
    Run& profiled = original.runs[2];
    profiled.lanes.push_back({"GPU 0 \u00b7 unified memory", LaneKind::Stream, 0, StreamKind::NonBlocking});
    const auto lane = static_cast<int>(profiled.lanes.size() - 1);
    const UnifiedMemoryOp onFault{UmCounter::MigrationToGpu, UmCause::Fault};
    const UnifiedMemoryOp faultGroup{UmCounter::GpuPageFaults, UmCause::Unknown};
    profiled.names.push_back(unifiedMemoryName(onFault));
    profiled.names.push_back(unifiedMemoryName(faultGroup));
    Op migration = makeOp(OpKind::UnifiedMemory, lane, -1, 1'000, 1'400, 65'536, HostMemoryKind::Managed);
    migration.nameId = static_cast<std::uint32_t>(profiled.names.size() - 2);
    // Faults handled while the migration runs: overlapping on the lane is fine here.
    Op faults = makeOp(OpKind::UnifiedMemory, lane, -1, 900, 1'200, 12, HostMemoryKind::Managed);
    faults.nameId = static_cast<std::uint32_t>(profiled.names.size() - 1);
    profiled.ops.push_back(migration);
    profiled.setUnifiedMemory(profiled.ops.size() - 1, onFault);
    profiled.ops.push_back(faults);
    profiled.setUnifiedMemory(profiled.ops.size() - 1, faultGroup);
    profiled.sortOps(); // the fields move with their ops
    QCOMPARE(profiled.nameOf(profiled.ops.back()), std::string("HtoD migration (fault)"));
    QVERIFY(*profiled.unifiedMemoryOf(profiled.ops.size() - 1) == onFault);
    QVERIFY(profiled.countsFaults(profiled.ops.size() - 2));
    QVERIFY(!profiled.countsFaults(profiled.ops.size() - 1)); // "(fault)" in its name: bytes all the same
    QCOMPARE(std::string(toString(OpKind::UnifiedMemory)), std::string("unified_memory"));
    QCOMPARE(opKindFromString("unified_memory"), std::optional<OpKind>(OpKind::UnifiedMemory));
    QVERIFY(!isGpuOp(OpKind::UnifiedMemory));
    QVERIFY(isStreamLaneOp(OpKind::UnifiedMemory));
    QCOMPARE(static_cast<int>(OpKind::UnifiedMemory), kOpKindCount - 1);
    QCOMPARE(original.formatVersion(), Trace::kUnifiedMemoryFieldsFormatVersion);

    const std::string text = traceToJson(original);
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(original, *loaded.trace);
    QCOMPARE(traceToJson(*loaded.trace), text);
    QVERIFY(text.find(R"("version":9)") != std::string::npos);
    const std::string fields = R"(,"unifiedMemoryOps":[[)";
    const std::size_t at = text.find(fields);
    QVERIFY2(at != std::string::npos, text.c_str());
    const std::size_t fieldsEnd = text.find("]]", at) + 2;
    QCOMPARE(text.substr(at, fieldsEnd - at),
             std::string(R"(,"unifiedMemoryOps":[[)") + std::to_string(profiled.ops.size() - 2)
                 + R"(,"gpu-page-faults","unknown"],[)" + std::to_string(profiled.ops.size() - 1)
                 + R"(,"migration-to-gpu","fault"]])");

    // Before format 9 the names said it: a version-5 file reads its fields
    // from them (the reader's rule for those files alone), as it always read.
    std::string older = text;
    older.erase(at, fieldsEnd - at);
    older.replace(older.find(R"("version":9)"), 11, R"("version":5)");
    const auto fromNames = traceFromJson(older);
    QVERIFY2(fromNames.trace, fromNames.error.c_str());
    compareTraces(original, *fromNames.trace);
    QCOMPARE(traceToJson(*fromNames.trace), text);
    // A name the profiler never gave says nothing.
    std::string unnamed = older;
    unnamed.replace(unnamed.find(R"("GPU page faults")"), 17, R"("GPU page fault?")");
    const auto unknown = traceFromJson(unnamed);
    QVERIFY2(unknown.trace, unknown.error.c_str());
    QVERIFY(!unknown.trace->runs[2].unifiedMemoryOf(profiled.ops.size() - 2));
    QVERIFY(unknown.trace->runs[2].unifiedMemoryOf(profiled.ops.size() - 1));
    // The field in an older version, a word it does not know, a field on
    // another op: refused, not misread.
    std::string early = text;
    early.replace(early.find(R"("version":9)"), 11, R"("version":8)");
    const auto refusedEarly = traceFromJson(early);
    QVERIFY(!refusedEarly.trace);
    QVERIFY2(refusedEarly.error.find(R"(field "unifiedMemoryOps" needs format version 9)") != std::string::npos,
             refusedEarly.error.c_str());
    std::string badWord = text;
    badWord.replace(badWord.find(R"("migration-to-gpu")"), 18, R"("migration-to-moon")");
    const auto refusedWord = traceFromJson(badWord);
    QVERIFY(!refusedWord.trace);
    QVERIFY2(refusedWord.error.find(R"(unknown unified-memory counter "migration-to-moon")") != std::string::npos,
             refusedWord.error.c_str());
    std::string notUnified = text;
    notUnified.replace(notUnified.find(fields) + fields.size(), std::to_string(profiled.ops.size() - 2).size(), "0");
    const auto refusedOp = traceFromJson(notUnified);
    QVERIFY(!refusedOp.trace);
    QVERIFY2(refusedOp.error.find("only unified-memory ops have one") != std::string::npos, refusedOp.error.c_str());

    // An older version cannot hold the kind: refused, not misread.
    std::string oldest = older;
    oldest.replace(oldest.find(R"("version":5)"), 11, R"("version":4)");
    const auto refused = traceFromJson(oldest);
    QVERIFY(!refused.trace);
    QVERIFY2(refused.error.find(R"(op kind "unified_memory" needs format version 5)") != std::string::npos,
             refused.error.c_str());
}

void TestTraceFormat::ranksRoundTripInVersion6()
{
    // Two processes of a distributed job, profiled together: their ranks
    // and the clock they share; a third run of no rank says neither.
    Trace original = makeTrace();
    original.runs[1].rank = 1;
    original.runs[1].sharedClockOriginNs = 123'456'789'012;
    original.runs[2].rank = 0;
    original.runs[2].sharedClockOriginNs = 123'456'789'012;
    QCOMPARE(original.formatVersion(), Trace::kRanksFormatVersion);
    const std::string text = traceToJson(original);
    QVERIFY(text.find(R"("version":6)") != std::string::npos);
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(original, *loaded.trace);
    QCOMPARE(traceToJson(*loaded.trace), text);
    QCOMPARE(loaded.trace->runs[0].rank, -1);
    QVERIFY(!loaded.trace->runs[0].sharedClockOriginNs);
    QCOMPARE(loaded.trace->runs[1].rank, 1);
    QCOMPARE(loaded.trace->runs[2].rank, 0);
    QCOMPARE(loaded.trace->runs[2].sharedClockOriginNs, std::optional<std::int64_t>(123'456'789'012));

    // An older version does not know them: refused, not read as unrelated runs.
    std::string older = text;
    older.replace(older.find(R"("version":6)"), 11, R"("version":5)");
    const auto refused = traceFromJson(older);
    QVERIFY(!refused.trace);
    QVERIFY2(refused.error.find(R"(field "rank" needs format version 6)") != std::string::npos, refused.error.c_str());
    // Without a rank nothing is written: the trace stays what it was.
    original.runs[1].rank = -1;
    original.runs[2].rank = -1;
    QVERIFY(original.formatVersion() < Trace::kRanksFormatVersion);
    QVERIFY(traceToJson(original).find("sharedClockOriginNs") == std::string::npos);
}

void TestTraceFormat::kernelShapesRoundTripInVersion7()
{
    // A profiled run's kernel with its launch shape, on a device whose SMs
    // and compute capability are known; the ops in the file out of order,
    // so the shapes must follow their ops through the loader's sort.
    Trace original = makeTrace();
    Run& run = original.runs[2];
    run.device.smCount = 132;
    run.device.computeCapability = 90;
    const auto kernel = std::find_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return op.kind == OpKind::Kernel; });
    QVERIFY(kernel != run.ops.end());
    KernelShape shape;
    shape.grid = {528, 2, 1};
    shape.block = {256, 1, 1};
    shape.registersPerThread = 202;
    shape.sharedMemoryBytes = 49152;
    run.kernelShapes = {shape};
    run.setShape(static_cast<std::size_t>(kernel - run.ops.begin()), 1);
    QCOMPARE(original.formatVersion(), Trace::kKernelShapesFormatVersion);
    const std::string text = traceToJson(original);
    QVERIFY(text.find(R"("version":7)") != std::string::npos);
    QVERIFY(text.find(R"("smCount":132,"computeCapability":90)") != std::string::npos);
    QVERIFY(text.find(R"("kernelShapes":[[528,2,1,256,1,1,202,49152]])") != std::string::npos);
    const auto loaded = traceFromJson(text);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(original, *loaded.trace);
    QCOMPARE(traceToJson(*loaded.trace), text);

    Trace reversed = original;
    std::reverse(reversed.runs[2].ops.begin(), reversed.runs[2].ops.end());
    std::reverse(reversed.runs[2].opShapes.begin(), reversed.runs[2].opShapes.end());
    const auto sorted = traceFromJson(traceToJson(reversed));
    QVERIFY2(sorted.trace, sorted.error.c_str());
    compareTraces(original, *sorted.trace);

    // An older version does not know them: refused, not replayed without them.
    std::string older = text;
    older.replace(older.find(R"("version":7)"), 11, R"("version":6)");
    const auto refused = traceFromJson(older);
    QVERIFY(!refused.trace);
    QVERIFY2(refused.error.find(R"(field "kernelShapes" needs format version 7)") != std::string::npos,
             refused.error.c_str());
    // A shape given to an op that is no kernel, or naming a shape that is not there.
    std::string copyShaped = text;
    const std::string opShapes = R"("opShapes":[[)";
    const std::size_t at = copyShaped.find(opShapes) + opShapes.size();
    const auto other = std::find_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return op.kind != OpKind::Kernel; });
    copyShaped.replace(at, copyShaped.find(',', at) - at, std::to_string(other - run.ops.begin()));
    const auto notAKernel = traceFromJson(copyShaped);
    QVERIFY(!notAKernel.trace);
    QVERIFY2(notAKernel.error.find("only kernels have one") != std::string::npos, notAKernel.error.c_str());
    std::string missing = text;
    const std::size_t comma = missing.find(',', missing.find(opShapes) + opShapes.size());
    missing.replace(comma + 1, 1, "5");
    const auto noSuchShape = traceFromJson(missing);
    QVERIFY(!noSuchShape.trace);
    QVERIFY2(noSuchShape.error.find("names kernel shape 5") != std::string::npos, noSuchShape.error.c_str());
    // Without shapes nothing is written: the trace stays what it was.
    run.kernelShapes.clear();
    run.opShapes.clear();
    QVERIFY(original.formatVersion() < Trace::kKernelShapesFormatVersion);
    QVERIFY(traceToJson(original).find("opShapes") == std::string::npos);
}

// A run's call sites (format 8): the lines, and per host call its site,
// aten op and what the line called; the ops out of order in the file, so
// the sources must follow their ops through the loader's sort. Each bad
// row is refused with a message that names it.
void TestTraceFormat::callSourcesRoundTripInVersion8_data()
{
    QTest::addColumn<QString>("from"); // the text to change in the written trace ("" for none)
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("error"); // "" where it reads
    QTest::newRow("as written") << "" << "" << "";
    QTest::newRow("an older version") << R"("version":8)" << R"("version":7)"
                                      << R"(field "stacksRecorded" needs format version 8)";
    QTest::newRow("a site that is not there") << R"("opSources":[[OP,1,)" << R"("opSources":[[OP,9,)" << "names site 9";
    QTest::newRow("an op that is not there") << R"("opSources":[[OP,)" << R"("opSources":[[9999,)" << "names op 9999";
    QTest::newRow("a name that is not there") << R"(,1,NAME,0]])" << R"(,1,4000,0]])" << "beyond the run's";
    QTest::newRow("a site row of two") << R"(,42,"train_step","call"])" << R"(,42])" << "must be an array of 4";
    QTest::newRow("a line that is text") << R"(,42,"train_step")" << R"(,"42","train_step")" << "\"line\"";
    QTest::newRow("a line of no known kind") << R"("train_step","call"])" << R"("train_step","caller"])"
                                             << R"(must be "call" or "frame-entry", not "caller")";
    QTest::newRow("stacks that are no flag") << R"("stacksRecorded":true)" << R"("stacksRecorded":1)"
                                             << "\"stacksRecorded\"";
}

void TestTraceFormat::callSourcesRoundTripInVersion8()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, error);
    Trace original = makeTrace();
    Run& run = original.runs[2];
    const auto call = std::find_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return !isStreamLaneOp(op.kind); });
    QVERIFY(call != run.ops.end());
    const auto op = static_cast<std::size_t>(call - run.ops.begin());
    run.sourceSites = {{"/home/me/train.py", 42, "train_step"}};
    const auto aten = static_cast<std::uint32_t>(run.names.size());
    run.names.push_back("aten::_local_scalar_dense");
    run.stacksRecorded = true;
    run.setSource(op, {1, aten, 0});
    QCOMPARE(original.formatVersion(), Trace::kSourcesFormatVersion);
    std::string text = traceToJson(original);
    QVERIFY(text.find(R"("version":8)") != std::string::npos);
    QVERIFY(text.find(R"("sourceSites":[["/home/me/train.py",42,"train_step","call"]])") != std::string::npos);
    if (from.isEmpty()) {
        const auto loaded = traceFromJson(text);
        QVERIFY2(loaded.trace, loaded.error.c_str());
        compareTraces(original, *loaded.trace);
        QCOMPARE(traceToJson(*loaded.trace), text);
        const Run& back = loaded.trace->runs[2];
        QVERIFY(back.stacksRecorded);
        QVERIFY(back.sourceOf(op) && *back.sourceOf(op) == *run.sourceOf(op));
        QVERIFY(back.siteAt(1) && *back.siteAt(1) == run.sourceSites[0]);
        // Reversed in the file, sorted back with their ops.
        Trace reversed = original;
        Run& r = reversed.runs[2];
        r.opSources.resize(r.ops.size());
        std::reverse(r.ops.begin(), r.ops.end());
        std::reverse(r.opSources.begin(), r.opSources.end());
        const auto sorted = traceFromJson(traceToJson(reversed));
        QVERIFY2(sorted.trace, sorted.error.c_str());
        QCOMPARE(traceToJson(*sorted.trace), text);
        // Without sources nothing is written: the trace stays what it was.
        run.opSources.clear();
        run.sourceSites.clear();
        run.stacksRecorded = false;
        QVERIFY(original.formatVersion() < Trace::kSourcesFormatVersion);
        QVERIFY(traceToJson(original).find("opSources") == std::string::npos);
        return;
    }
    const std::string pattern = from.toStdString();
    std::string needle = pattern;
    std::string replacement = to.toStdString();
    for (std::string* s : {&needle, &replacement}) {
        if (const auto at = s->find("OP"); at != std::string::npos)
            s->replace(at, 2, std::to_string(op));
        if (const auto at = s->find("NAME"); at != std::string::npos)
            s->replace(at, 4, std::to_string(aten));
    }
    const auto at = text.find(needle);
    QVERIFY2(at != std::string::npos, needle.c_str());
    text.replace(at, needle.size(), replacement);
    const auto refused = traceFromJson(text);
    QVERIFY(!refused.trace);
    QVERIFY2(refused.error.find(error.toStdString()) != std::string::npos, refused.error.c_str());
}

void TestTraceFormat::loadSortsRegions()
{
    // Any order in the file; they come back by (begin, depth), the enclosing first.
    const QByteArray text = mutated(
        [](Json& root) {
            auto& rows = member(run(root, 2), "regions").asArray();
            std::reverse(rows.begin(), rows.end());
        },
        makeRegionsTrace());
    const auto loaded = traceFromJson(text.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(makeRegionsTrace(), *loaded.trace);
}

void TestTraceFormat::loadsMinimalTrace()
{
    const auto loaded = traceFromJson(
        R"({"format":"overlapscope-trace","version":1,"tool":"t","created":"","runs":[],"sweeps":[],"future":42})");
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->tool, std::string("t"));
    QVERIFY(loaded.trace->runs.empty());
    QVERIFY(loaded.trace->sweeps.empty());
}

void TestTraceFormat::acceptsTouchingOps()
{
    Trace trace = makeTrace();
    // Zero-length ops at the boundary of their neighbours are fine too.
    trace.runs[0].ops.push_back(makeOp(OpKind::Kernel, 0, 5, 12'000, 12'000, 0, HostMemoryKind::None));
    trace.runs[0].ops.push_back(makeOp(OpKind::Kernel, 0, 6, 12'000, 12'500, 0, HostMemoryKind::None));
    trace.runs[0].sortOps();
    const auto loaded = traceFromJson(traceToJson(trace));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->runs[0].ops.size(), trace.runs[0].ops.size());
}

void TestTraceFormat::loadMissingFile()
{
    QTemporaryDir dir;
    const std::string path = tempPath(dir, "nope.json").toStdString();
    const auto loaded = loadTrace(path);
    QVERIFY(!loaded.trace);
    const QString error = QString::fromStdString(loaded.error);
    QVERIFY2(error.contains("cannot open"), qPrintable(error));
    QVERIFY2(error.contains(QString::fromStdString(path)), qPrintable(error));
    QVERIFY2(error.contains("No such file"), qPrintable(error));
}

void TestTraceFormat::loadEmptyFile()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "empty.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).contains("is empty"), loaded.error.c_str());
}

void TestTraceFormat::loadFolder()
{
    QTemporaryDir dir;
    const auto loaded = loadTrace(dir.path().toStdString());
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).contains("is a folder"), loaded.error.c_str());
}

void TestTraceFormat::saveToMissingFolderFails()
{
    QTemporaryDir dir;
    const std::string path = tempPath(dir, "no/such/folder/trace.json").toStdString();
    std::string error;
    QVERIFY(!saveTrace(makeTrace(), path, &error));
    const QString message = QString::fromStdString(error);
    QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
    QVERIFY2(message.contains("no such directory"), qPrintable(message));
    QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    // A null error pointer is allowed.
    QVERIFY(!saveTrace(makeTrace(), path, nullptr));
}

void TestTraceFormat::saveReplacesExistingFileAndLeavesNoTemporary()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "trace.json");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("old contents");
    }
    std::string error;
    QVERIFY2(saveTrace(makeTrace(), path.toStdString(), &error), error.c_str());
    QCOMPARE(readAll(path), QByteArray::fromStdString(traceToJson(makeTrace())));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"trace.json"});

    // Saving over a folder fails and leaves it alone.
    const QString folder = tempPath(dir, "folder.json");
    QVERIFY(QDir().mkdir(folder));
    QVERIFY(!saveTrace(makeTrace(), folder.toStdString(), &error));
    QVERIFY2(QString::fromStdString(error).contains("is a folder"), error.c_str());
    QVERIFY(QFileInfo(folder).isDir());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"trace.json"});
}

void TestTraceFormat::rejectsMalformed_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");

    const QByteArray good = QByteArray::fromStdString(traceToJson(makeTrace()));
    const QString run0 = "run 0 ('overlapped pinned')";

    // The file as a whole.
    QTest::newRow("empty") << QByteArray() << "the trace is empty";
    QTest::newRow("whitespace only") << QByteArray(" \n\t ") << "the trace is empty";
    QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON: line 1, column";
    QTest::newRow("binary garbage") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                                    << "not valid JSON: line 1, column 1: invalid UTF-8";
    QTest::newRow("JSON array") << QByteArray("[1, 2, 3]") << "event 0: must be an object, not an integer";
    QTest::newRow("JSON string") << QByteArray("\"x\"") << "not an OverlapScope trace: the file holds a string";
    QTest::newRow("trailing garbage") << good + "}" << "after the JSON value";
    QTest::newRow("NaN sample") << QByteArray(good).replace("12.5]", "NaN]") << "not valid JSON";

    // JSON strictness, also inside members a reader does not know (they are
    // validated, not skipped).
    const auto withMember = [&good](const QByteArray& member) {
        return QByteArray(good).replace("\"tool\":", member + ",\"tool\":");
    };
    QTest::newRow("duplicate root key") << withMember(R"("created":"x")") << "duplicate key \"created\"";
    QTest::newRow("duplicate key in a run") << QByteArray(good).replace(R"("pipeline":"overlapped",)",
                                                                         R"("pipeline":"overlapped","pipeline":"x",)")
                                            << "not valid JSON: line 1, column";
    QTest::newRow("duplicate key by escape") << QByteArray(good).replace(R"("pipeline":"overlapped",)",
                                                                          R"("pipeline":"overlapped","pip\u0065line":"x",)")
                                             << "duplicate key \"pipeline\"";
    QTest::newRow("duplicate key deep in an unknown member") << withMember(R"("x":[{"a":{"b":1,"b":2}}])")
                                                             << "duplicate key \"b\"";
    QTest::newRow("missing comma in an unknown member") << withMember(R"("x":[1 2])") << "not valid JSON";
    QTest::newRow("trailing comma in an unknown member") << withMember(R"("x":[1,])") << "not valid JSON";
    QTest::newRow("bad literal in an unknown member") << withMember(R"("x":tru)") << "not valid JSON";
    QTest::newRow("leading zero in an unknown member") << withMember(R"("x":012)") << "not valid JSON";
    QTest::newRow("bad escape in an unknown member") << withMember(R"("x":"\q")") << "invalid escape";
    QTest::newRow("lone surrogate") << withMember(R"("x":"\ud800")") << "invalid escape";
    QTest::newRow("raw control character") << withMember("\"x\":\"a\tb\"")
                                           << "control character U+0009 in a string must be escaped";
    QTest::newRow("invalid UTF-8 in a name") << QByteArray(good).replace("overlapped pinned", "overlapped \xc0\xaf")
                                             << "invalid UTF-8";
    QTest::newRow("double beyond range") << withMember(R"("x":1e400)") << "number out of range";
    QTest::newRow("nesting too deep") << withMember("\"x\":" + QByteArray(300, '[') + QByteArray(300, ']'))
                                      << "nesting deeper than 256 levels";
    QTest::newRow("a million open brackets") << withMember("\"x\":" + QByteArray(1'000'000, '['))
                                             << "not valid JSON";
    QTest::newRow("comment") << QByteArray(good).prepend("// hi\n") << "not valid JSON";

    // Times that a range computation could overflow (Trace::kTimeLimitNs).
    QTest::newRow("start at the time limit") << mutated([](Json& r) {
        opElement(r, 0, 1, 3) = std::int64_t(1) << 62;
        opElement(r, 0, 1, 4) = std::int64_t(1) << 62;
    }) << run0 + ", op 1: start 4611686018427387904 is too late: the limit is 2^62 ns";
    QTest::newRow("exec end beyond the limit") << mutated([](Json& r) {
        opElement(r, 0, 0, 8) = std::numeric_limits<std::int64_t>::max();
    }) << run0 + ", op 0: exec end 9223372036854775807 is too late";
    QTest::newRow("timed end at the limit")
        << mutated([](Json& r) { member(run(r, 0), "timedEndNs") = std::int64_t(1) << 62; })
        << run0 + ": field \"timedEndNs\" is 4611686018427387904; it must be at most 4611686018427387903";
    QTest::newRow("integer beyond int64") << QByteArray(good).replace(R"("chunks":8,)", R"("chunks":99999999999999999999,)")
                                          << run0 + ", params: field \"chunks\" must be an integer, not a number";

    // Members in any order: lanes after the ops that use them.
    QTest::newRow("lane out of range, lanes after ops") << mutated([](Json& r) {
        auto& members = run(r, 0).asObject();
        auto lanes = std::find_if(members.begin(), members.end(), [](const auto& m) { return m.first == "lanes"; });
        auto moved = *lanes;
        members.erase(lanes);
        members.push_back(moved);
        opElement(r, 0, 0, 1) = 7;
    }) << run0 + ", op 0: lane 7 is out of range: the run has 4 lanes";
    QTest::newRow("no format") << mutated([](Json& r) { removeMember(r, "format"); }) << "there is no \"format\" field";
    QTest::newRow("wrong format") << mutated([](Json& r) { member(r, "format") = "chrome-trace"; })
                                  << "\"format\" is \"chrome-trace\", expected \"overlapscope-trace\"";
    QTest::newRow("no version") << mutated([](Json& r) { removeMember(r, "version"); })
                                << "trace: missing field \"version\"";
    QTest::newRow("version as string") << mutated([](Json& r) { member(r, "version") = "1"; })
                                       << "field \"version\" must be an integer, not a string";
    QTest::newRow("version as fraction") << mutated([](Json& r) { member(r, "version") = 1.5; })
                                         << "field \"version\" must be an integer, not a number";
    QTest::newRow("version 99") << mutated([](Json& r) { member(r, "version") = 99; })
                                << "this trace is format version 99; this build reads up to " + QString::number(Trace::kFormatVersion) + ": update OverlapScope";
    QTest::newRow("version 0") << mutated([](Json& r) { member(r, "version") = 0; })
                               << "format version 0 is not valid";
    QTest::newRow("no runs") << mutated([](Json& r) { removeMember(r, "runs"); }) << "trace: missing field \"runs\"";
    QTest::newRow("runs not array") << mutated([](Json& r) { member(r, "runs") = Json::object(); })
                                    << "field \"runs\" must be an array, not an object";
    QTest::newRow("no sweeps") << mutated([](Json& r) { removeMember(r, "sweeps"); })
                               << "trace: missing field \"sweeps\"";
    QTest::newRow("tool not string") << mutated([](Json& r) { member(r, "tool") = nullptr; })
                                     << "field \"tool\" must be a string, not null";

    // Runs.
    QTest::newRow("run not object") << mutated([](Json& r) { run(r, 1) = 7; })
                                    << "run 1: must be an object, not an integer";
    QTest::newRow("run without name") << mutated([](Json& r) { removeMember(run(r, 0), "name"); })
                                      << "run 0: missing field \"name\"";
    QTest::newRow("run 1 named in message")
        << mutated([](Json& r) { removeMember(run(r, 1), "pipeline"); })
        << "run 1 ('serialized \"pageable\", ünïcode — run'): missing field \"pipeline\"";
    QTest::newRow("line break in run name") << mutated([](Json& r) {
        member(run(r, 0), "name") = "two\nlines";
        removeMember(run(r, 0), "timing");
    }) << "run 0 ('two lines'): missing field \"timing\"";
    QTest::newRow("unknown kind with line break") << mutated([](Json& r) { opElement(r, 0, 2, 0) = "a\nb"; })
                                                  << run0 + ", op 2: unknown op kind \"a b\"";
    QTest::newRow("simulated not bool")
        << mutated([](Json& r) { member(member(run(r, 0), "device"), "simulated") = "yes"; })
        << run0 + ", device: field \"simulated\" must be true or false, not a string";
    QTest::newRow("engine count too big")
        << mutated([](Json& r) { member(member(run(r, 0), "device"), "asyncEngineCount") = std::int64_t(1) << 40; })
        << run0 + ", device: field \"asyncEngineCount\" is 1099511627776; it must be at most 2147483647";
    QTest::newRow("chunks fractional") << mutated([](Json& r) { member(member(run(r, 0), "params"), "chunks") = 2.5; })
                                       << run0 + ", params: field \"chunks\" must be an integer, not a number";
    QTest::newRow("negative chunk bytes")
        << mutated([](Json& r) { member(member(run(r, 0), "params"), "chunkBytes") = -1; })
        << run0 + ", params: field \"chunkBytes\" is -1; it must be at least 0";
    QTest::newRow("unknown status") << mutated([](Json& r) { member(run(r, 0), "status") = "exploded"; })
                                    << run0 + ": unknown status \"exploded\"";
    QTest::newRow("negative timed begin") << mutated([](Json& r) { member(run(r, 0), "timedBeginNs") = -1; })
                                          << run0 + ": field \"timedBeginNs\" is -1; it must be at least 0";
    QTest::newRow("timed end before begin") << mutated([](Json& r) {
        member(run(r, 0), "timedBeginNs") = 20;
        member(run(r, 0), "timedEndNs") = 10;
    }) << run0 + ": timedEndNs 10 is before timedBeginNs 20";
    QTest::newRow("no verification") << mutated([](Json& r) { removeMember(run(r, 0), "verification"); })
                                     << run0 + ": missing field \"verification\"";
    QTest::newRow("mismatches negative")
        << mutated([](Json& r) { member(member(run(r, 0), "verification"), "mismatches") = -3; })
        << run0 + ", verification: field \"mismatches\" is -3; it must be at least 0";

    // Lanes.
    QTest::newRow("unknown lane kind")
        << mutated([](Json& r) { member(member(run(r, 0), "lanes").asArray()[1], "kind") = "gpu"; })
        << run0 + ", lane 1: unknown lane kind \"gpu\"";
    QTest::newRow("duplicate lane name")
        << mutated([](Json& r) { member(member(run(r, 0), "lanes").asArray()[1], "name") = "stream 0"; })
        << run0 + ", lane 1: has the same name 'stream 0' as lane 0";
    QTest::newRow("unknown stream kind")
        << mutated([](Json& r) { member(member(run(r, 0), "lanes").asArray()[1], "streamKind") = "sideways"; })
        << run0 + ", lane 1: unknown stream kind \"sideways\"; expected \"unknown\", \"blocking\", "
                  "\"non-blocking\", \"legacy-default\", \"per-thread-default\"";
    QTest::newRow("stream kind not string")
        << mutated([](Json& r) { member(member(run(r, 0), "lanes").asArray()[0], "streamKind") = 2; })
        << run0 + ", lane 0: field \"streamKind\" must be a string, not an integer";
    QTest::newRow("stream kind of a host lane") << mutated([](Json& r) {
        member(run(r, 0), "lanes").asArray()[2].asObject().emplace_back("streamKind", Json("blocking"));
    }) << run0 + ", lane 2: is a host lane, but has \"streamKind\" \"blocking\": only stream lanes have one";
    QTest::newRow("lane not object") << mutated([](Json& r) { member(run(r, 0), "lanes").asArray()[2] = "host"; })
                                     << run0 + ", lane 2: must be an object, not a string";
    QTest::newRow("too many lanes") << mutated([](Json& r) {
        Json::Array lanes;
        for (int i = 0; i < 65536; ++i)
            lanes.push_back(Json(Json::Object{{"name", "s" + std::to_string(i)}, {"kind", "stream"}}));
        member(run(r, 1), "lanes") = Json(std::move(lanes));
    }) << "has 65536 lanes; at most 65535 are supported";

    // Ops (run 0, sorted: lane 0 upload/kernel/download, lane 1 upload, lane 2
    // alloc/stage_in/host_wait/sync, lane 3 stage_out/free).
    QTest::newRow("op not array") << mutated([](Json& r) { op(r, 0, 3) = Json::object(); })
                                  << run0 + ", op 3: must be an array [kind, lane, chunk, startNs, endNs, bytes, "
                                            "memory], not an object";
    QTest::newRow("op with 8 elements") << mutated([](Json& r) { op(r, 0, 0).asArray().pop_back(); })
                                        << run0 + ", op 0: has 8 elements; expected 7";
    QTest::newRow("op with 6 elements") << mutated([](Json& r) { op(r, 0, 1).asArray().pop_back(); })
                                        << run0 + ", op 1: has 6 elements";
    QTest::newRow("unknown op kind") << mutated([](Json& r) { opElement(r, 0, 2, 0) = "teleport"; })
                                     << run0 + ", op 2: unknown op kind \"teleport\"";
    QTest::newRow("op kind not string") << mutated([](Json& r) { opElement(r, 0, 2, 0) = 1; })
                                        << run0 + ", op 2: kind (element 0) must be a string, not an integer";
    QTest::newRow("unknown memory kind") << mutated([](Json& r) { opElement(r, 0, 1, 6) = "velvet"; })
                                         << run0 + ", op 1: unknown memory kind \"velvet\"";
    QTest::newRow("lane out of range") << mutated([](Json& r) { opElement(r, 0, 0, 1) = 9; })
                                       << run0 + ", op 0: lane 9 is out of range: the run has 4 lanes";
    QTest::newRow("negative lane") << mutated([](Json& r) { opElement(r, 0, 0, 1) = -1; })
                                   << run0 + ", op 0: lane -1 is out of range";
    QTest::newRow("chunk below -1") << mutated([](Json& r) { opElement(r, 0, 0, 2) = -2; })
                                    << run0 + ", op 0: chunk -2 is invalid";
    QTest::newRow("chunk beyond int32") << mutated([](Json& r) { opElement(r, 0, 0, 2) = std::int64_t(1) << 31; })
                                        << run0 + ", op 0: chunk 2147483648 is invalid";
    QTest::newRow("negative start") << mutated([](Json& r) { opElement(r, 0, 1, 3) = -5; })
                                    << run0 + ", op 1: start -5 is negative";
    QTest::newRow("end before start") << mutated([](Json& r) {
        opElement(r, 0, 1, 3) = 900;
        opElement(r, 0, 1, 4) = 500;
    }) << run0 + ", op 1: end 500 is before start 900";
    QTest::newRow("time as double") << mutated([](Json& r) { opElement(r, 0, 1, 4) = 8000.0; })
                                    << run0 + ", op 1: endNs (element 4) must be an integer, not a number";
    QTest::newRow("negative bytes") << mutated([](Json& r) { opElement(r, 0, 0, 5) = -1; })
                                    << run0 + ", op 0: bytes -1 is negative";
    QTest::newRow("huge bytes") << mutated([](Json& r) { opElement(r, 0, 0, 5) = 1e20; })
                                << run0 + ", op 0: bytes (element 5) must be an integer, not a number";
    QTest::newRow("exec end before exec start") << mutated([](Json& r) { opElement(r, 0, 0, 8) = 2000; })
                                                << run0 + ", op 0: exec end 2000 is before exec start 2100";
    QTest::newRow("negative exec start") << mutated([](Json& r) { opElement(r, 0, 0, 7) = -1; })
                                         << run0 + ", op 0: exec start -1 is negative";
    QTest::newRow("exec not integer") << mutated([](Json& r) { opElement(r, 0, 0, 7) = "2100"; })
                                      << run0 + ", op 0: execStartNs (element 7) must be an integer, not a string";
    QTest::newRow("GPU op on host lane") << mutated([](Json& r) { opElement(r, 0, 1, 1) = 2; })
                                         << run0 + ", op 1: a kernel op runs on a GPU stream, but lane 2 ('host') "
                                                   "is a host lane";
    QTest::newRow("host op on stream lane") << mutated([](Json& r) { opElement(r, 0, 5, 1) = 1; })
                                            << run0 + ", op 5: a stage_in op runs on the host, but lane 1 ('stream 1') "
                                                      "is a stream lane";
    QTest::newRow("ops overlap on a lane") << mutated([](Json& r) { opElement(r, 0, 1, 3) = 4999; })
                                           << run0 + ": ops 0 and 1 overlap on lane 0 ('stream 0'): op 1 starts at "
                                                     "4999, before op 0 ends at 5000";
    QTest::newRow("overlap found in unsorted file") << mutated([](Json& r) {
        auto& ops = member(run(r, 0), "ops").asArray();
        opElement(r, 0, 8, 3) = 12'999; // stage_out ends at 13000; free now starts inside it
        opElement(r, 0, 9, 3) = 12'999;
        std::reverse(ops.begin(), ops.end());
    }) << run0 + ": ops 1 and 0 overlap on lane 3 ('staging 1'): op 0 starts at 12999, before op 1 ends at 13000";

    // Version 2: names and correlation ids (run 2, sorted: lane 0 kernel,
    // memset, device_copy, upload; lane 1 two api calls).
    const QString run2 = "run 2 ('profiled program')";
    QTest::newRow("nameId out of range") << mutated([](Json& r) { opElement(r, 2, 0, 9) = 4; })
                                         << run2 + ", op 0: nameId 4 is out of range: the run has 4 names";
    QTest::newRow("negative nameId") << mutated([](Json& r) { opElement(r, 2, 0, 9) = -1; })
                                     << run2 + ", op 0: nameId -1 is out of range";
    QTest::newRow("correlation too big")
        << mutated([](Json& r) { opElement(r, 2, 0, 10) = std::int64_t(1) << 32; })
        << run2 + ", op 0: correlation 4294967296 is out of range";
    QTest::newRow("correlation negative") << mutated([](Json& r) { opElement(r, 2, 1, 10) = -1; })
                                          << run2 + ", op 1: correlation -1 is out of range";
    QTest::newRow("one exec time null") << mutated([](Json& r) { opElement(r, 2, 1, 7) = 5; })
                                        << run2 + ", op 1: execEndNs (element 8) must be an integer, not null";
    QTest::newRow("op with 12 elements") << mutated([](Json& r) { op(r, 2, 0).push(1); })
                                         << run2 + ", op 0: has 12 elements";
    QTest::newRow("names not array") << mutated([](Json& r) { member(run(r, 2), "names") = "x"; })
                                     << run2 + ": field \"names\" must be an array, not a string";
    QTest::newRow("first name not empty")
        << mutated([](Json& r) { member(run(r, 2), "names").asArray()[0] = "x"; })
        << run2 + ": names[0] must be \"\"";
    QTest::newRow("no names") << mutated([](Json& r) { member(run(r, 2), "names") = Json::array(); })
                              << run2 + ": names[0] must be \"\"";
    QTest::newRow("name not string") << mutated([](Json& r) { member(run(r, 2), "names").asArray()[2] = 3; })
                                     << run2 + ": name 2 must be a string, not an integer";
    QTest::newRow("api call on a stream") << mutated([](Json& r) { opElement(r, 2, 4, 1) = 0; })
                                          << run2 + ", op 4: a api_call op runs on the host";
    QTest::newRow("memset on a host lane") << mutated([](Json& r) { opElement(r, 2, 1, 1) = 1; })
                                           << run2 + ", op 1: a memset op runs on a GPU stream";
    QTest::newRow("version 1 with 11 elements") << mutated([](Json& r) { member(r, "version") = 1; })
                                                << run2 + ", op 0: has 11 elements; expected 7";
    QTest::newRow("version 1 with a memset") << mutated([](Json& r) {
        member(r, "version") = 1;
        Json memset = op(r, 2, 1);
        memset.asArray().resize(7);
        member(run(r, 2), "ops").asArray() = {memset};
    }) << run2 + ", op 0: op kind \"memset\" needs format version 2";
    QTest::newRow("version 1 with managed memory") << mutated([](Json& r) {
        member(r, "version") = 1;
        member(run(r, 2), "ops").asArray() = {op(r, 2, 3)};
    }) << run2 + ", op 0: memory kind \"managed\" needs format version 2";

    // Regions (version 4).
    const Trace regions = makeRegionsTrace();
    const auto withRegion = [&regions](const std::function<void(Json&)>& change) { return mutated(change, regions); };
    const QString region = run2 + ", region ";
    QTest::newRow("regions in version 3") << withRegion([](Json& r) { member(r, "version") = 3; })
                                          << run0 + ": field \"regions\" needs format version 4; this file is version 3";
    QTest::newRow("regions not array") << withRegion([](Json& r) { member(run(r, 2), "regions") = 5; })
                                       << run2 + ": field \"regions\" must be an array, not an integer";
    QTest::newRow("region not array")
        << withRegion([](Json& r) { member(run(r, 2), "regions").asArray()[1] = Json::object(); })
        << region + "1: must be an array [source, lane, depth, beginNs, endNs, name], not an object";
    QTest::newRow("region too short")
        << withRegion([](Json& r) { member(run(r, 2), "regions").asArray()[1].asArray().pop_back(); })
        << region + "1: has 5 elements; expected 6";
    QTest::newRow("region too long")
        << withRegion([](Json& r) { member(run(r, 2), "regions").asArray()[1].asArray().push_back(1); })
        << region + "1: has 7 elements; expected 6";
    QTest::newRow("region source unknown") << withRegion([](Json& r) { regionElement(r, 2, 1, 0) = "vtune"; })
                                           << region + "1: unknown source \"vtune\"; expected one of \"nvtx\"";
    QTest::newRow("region source not string") << withRegion([](Json& r) { regionElement(r, 2, 1, 0) = 1; })
                                              << region + "1: source (element 0) must be a string, not an integer";
    QTest::newRow("region lane out of range") << withRegion([](Json& r) { regionElement(r, 2, 1, 1) = 3; })
                                              << region + "1: lane 3 is out of range: the run has 3 lanes";
    QTest::newRow("region lane negative") << withRegion([](Json& r) { regionElement(r, 2, 1, 1) = -1; })
                                          << region + "1: lane -1 is out of range";
    QTest::newRow("region lane text") << withRegion([](Json& r) { regionElement(r, 2, 1, 1) = "host"; })
                                      << region + "1: lane (element 1) must be an integer, not a string";
    QTest::newRow("region depth negative") << withRegion([](Json& r) { regionElement(r, 2, 1, 2) = -1; })
                                           << region + "1: depth -1 is out of range 0 ... 65535";
    QTest::newRow("region depth fraction") << withRegion([](Json& r) { regionElement(r, 2, 1, 2) = 1.5; })
                                           << region + "1: depth (element 2) must be an integer, not a number";
    QTest::newRow("region end before begin") << withRegion([](Json& r) { regionElement(r, 2, 1, 4) = 399; })
                                             << region + "1: end 399 is before begin 400";
    QTest::newRow("region begin negative") << withRegion([](Json& r) { regionElement(r, 2, 1, 3) = -5; })
                                           << region + "1: begin -5 is negative";
    QTest::newRow("region end too late")
        << withRegion([](Json& r) { regionElement(r, 2, 1, 4) = std::int64_t(1) << 62; })
        << region + "1: end 4611686018427387904 is too late";
    QTest::newRow("region name not string") << withRegion([](Json& r) { regionElement(r, 2, 1, 5) = Json(); })
                                            << region + "1: name (element 5) must be a string, not null";

    // Sweeps.
    QTest::newRow("sweep not object") << mutated([](Json& r) { member(r, "sweeps").asArray()[0] = "x"; })
                                      << "sweep 0: must be an object, not a string";
    QTest::newRow("point bytes zero") << mutated([](Json& r) { member(point(r, 0), "bytes") = 0; })
                                      << "sweep 0, point 0: field \"bytes\" is 0; it must be at least 1";
    QTest::newRow("point bytes negative") << mutated([](Json& r) { member(point(r, 1), "bytes") = -4; })
                                          << "sweep 0, point 1: field \"bytes\" is -4; it must be at least 1";
    QTest::newRow("unknown direction") << mutated([](Json& r) { member(point(r, 1), "direction") = "sideways"; })
                                       << "sweep 0, point 1: unknown direction \"sideways\"";
    QTest::newRow("point memory unknown") << mutated([](Json& r) { member(point(r, 0), "memory") = "swap"; })
                                          << "sweep 0, point 0: unknown memory kind \"swap\"";
    QTest::newRow("empty samples") << mutated([](Json& r) { member(point(r, 0), "samplesMs") = Json::array(); })
                                   << "sweep 0, point 0: has no samples";
    QTest::newRow("sample not number")
        << mutated([](Json& r) { member(point(r, 0), "samplesMs").asArray()[1] = "fast"; })
        << "sweep 0, point 0: sample 1 must be a number, not a string";
    QTest::newRow("negative sample") << mutated([](Json& r) { member(point(r, 0), "samplesMs").asArray()[2] = -0.5; })
                                     << "sweep 0, point 0: sample 2 is negative";
    QTest::newRow("no gbps") << mutated([](Json& r) { removeMember(point(r, 1), "gbps"); })
                             << "sweep 0, point 1: missing field \"gbps\"";
}

void TestTraceFormat::rejectsMalformed()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto loaded = traceFromJson(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    QVERIFY2(!loaded.trace, "a malformed trace was accepted");
    const QString error = QString::fromStdString(loaded.error);
    QVERIFY2(error.contains(message), qPrintable("got: " + error + "\nwanted: " + message));
    // One line for the user.
    QVERIFY2(!error.contains('\n'), qPrintable(error));
}

void TestTraceFormat::everyTruncationIsRejected()
{
    const std::string text = traceToJson(makeTrace());
    // The trailing newline is whitespace; without it the text is still whole.
    for (std::size_t n = 0; n + 1 < text.size(); ++n) {
        const auto loaded = traceFromJson(std::string_view(text).substr(0, n));
        QVERIFY2(!loaded.trace, qPrintable(QStringLiteral("prefix of length %1 loaded").arg(n)));
        QVERIFY(!loaded.error.empty());
    }
}

void TestTraceFormat::randomCorruptionNeverCrashes()
{
    const std::string good = traceToJson(makeTrace());
    std::mt19937 random(2024);
    for (int i = 0; i < 5000; ++i) {
        std::string text = good;
        const int edits = 1 + static_cast<int>(random() % 3);
        for (int e = 0; e < edits; ++e)
            text[random() % text.size()] = "0123456789-\",[]{}:. xe\x01\xff"[random() % 24];
        const auto loaded = traceFromJson(text);
        QVERIFY(loaded.trace.has_value() != !loaded.error.empty());
        if (loaded.trace) {
            // Whatever loads saves and loads again.
            QVERIFY(traceFromJson(traceToJson(*loaded.trace)).trace.has_value());
        }
    }
}

void TestTraceFormat::acceptsValidJson_data()
{
    QTest::addColumn<QByteArray>("text");
    const QByteArray good = QByteArray::fromStdString(traceToJson(makeTrace()));
    const auto withMember = [&good](const QByteArray& member) {
        return QByteArray(good).replace("\"tool\":", member + ",\"tool\":");
    };
    QTest::newRow("as written") << good;
    QTest::newRow("whitespace everywhere") << QByteArray(good).replace(",\"", " ,\n\t\"").replace("\":", "\"\r\n : ");
    QTest::newRow("unknown members of every kind")
        << withMember(R"("x":[null,true,false,-0,1.5e-3,"\u00e9\ud83d\ude00\n",{"a":[]},{}],"y":{})");
    QTest::newRow("nesting up to the limit") << withMember("\"x\":" + QByteArray(250, '[') + QByteArray(250, ']'));
    QTest::newRow("escapes in a name") << QByteArray(good).replace("overlapped pinned", R"(overlapped\u0020pinned)");
    QTest::newRow("version after the runs") << QByteArray(good).replace(R"("version":2,)", "").replace(
        R"("sweeps":)", R"("version":2,"sweeps":)");
}

void TestTraceFormat::acceptsValidJson()
{
    QFETCH(QByteArray, text);
    const auto loaded = traceFromJson(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    QVERIFY2(loaded.trace, loaded.error.c_str());
    compareTraces(makeTrace(), *loaded.trace);
}

void TestTraceFormat::messagesStayShort_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray good = QByteArray::fromStdString(traceToJson(makeTrace()));
    QTest::newRow("100,000-digit number") << QByteArray(good).replace(R"("chunks":8,)",
                                                                     "\"chunks\":" + QByteArray(100'000, '7') + ",")
                                          << "number out of range for a double: 7777";
    QTest::newRow("1 MB op kind") << QByteArray(good).replace(R"("kernel")", "\"" + QByteArray(1 << 20, 'k') + "\"")
                                  << "unknown op kind \"kkkk";
    QTest::newRow("1 MB run name") << QByteArray(good)
                                          .replace("overlapped pinned", QByteArray(1 << 20, 'n'))
                                          .replace(R"("timing":"cuda-events+cupti",)", "")
                                   << "missing field \"timing\"";
    QTest::newRow("escape sequence in a name")
        << QByteArray(good).replace("overlapped pinned", R"(\u001b[2J\u009b31m)").replace(R"("timing":"cuda-events+cupti",)", "")
        << "run 0 (' [2J 31m'): missing field \"timing\"";
}

void TestTraceFormat::messagesStayShort()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    // The path is in the message once, even when it is long.
    const QString path = dir.filePath(QString(200, 'p') + ".json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY(!loaded.trace);
    const QString error = QString::fromStdString(loaded.error);
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.size() <= 300, qPrintable(QString::number(error.size())));
    QVERIFY2(!error.contains('\n') && !error.contains(QChar(0x1b)) && !error.contains(QChar(0x9b)), qPrintable(error));
    QCOMPARE(error.count(QString(100, 'p')), 1);
}

void TestTraceFormat::underflowReadsAsZero()
{
    // 1e-400 is valid JSON although no double holds it: it reads as 0.
    const QByteArray good = QByteArray::fromStdString(traceToJson(makeTrace()));
    const QByteArray text = QByteArray(good).replace("[12.5]", "[1e-400]");
    QVERIFY(text != good);
    const auto loaded = traceFromJson(text.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->sweeps.at(0).points.at(1).samplesMs, std::vector<double>{0.0});
}

void TestTraceFormat::loadRefusesWhatIsNotARegularFile()
{
    // A FIFO with no writer would block a plain open; a device would never end.
    QTemporaryDir dir;
    const QByteArray fifo = dir.filePath("fifo.json").toLocal8Bit();
    QCOMPARE(mkfifo(fifo.constData(), 0600), 0);
    const auto fromFifo = loadTrace(fifo.toStdString());
    QVERIFY(!fromFifo.trace);
    QVERIFY2(QString::fromStdString(fromFifo.error).contains("is a FIFO"), fromFifo.error.c_str());

    const auto fromDevice = loadTrace("/dev/zero");
    QVERIFY(!fromDevice.trace);
    QVERIFY2(QString::fromStdString(fromDevice.error).contains("/dev/zero: cannot open: it is a device"),
             fromDevice.error.c_str());
}

void TestTraceFormat::loadRefusesFilesAboveTheSizeLimit()
{
    QTemporaryDir dir;
    const std::string path = tempPath(dir, "trace.json").toStdString();
    std::string error;
    QVERIFY2(saveTrace(makeTrace(), path, &error), error.c_str());
    const auto size = static_cast<std::uint64_t>(QFileInfo(QString::fromStdString(path)).size());
    QVERIFY(loadTrace(path, size).trace);
    const auto refused = loadTrace(path, size - 1);
    QVERIFY(!refused.trace);
    QVERIFY2(QString::fromStdString(refused.error).contains("above the size limit for traces"), refused.error.c_str());
    QVERIFY2(QString::fromStdString(refused.error).contains("raise the limit"), refused.error.c_str());
}

// Every file is judged by its first bytes before it is read whole, so a
// huge file that is no JSON is refused at once. `size` past the bytes given
// is a hole (sparse: no disk, and no time unless the file is read).
void TestTraceFormat::loadJudgesTheFirstBytes_data()
{
    QTest::addColumn<QByteArray>("start");
    QTest::addColumn<qint64>("size");
    QTest::addColumn<QString>("message"); // empty: it loads
    const qint64 threeGiB = qint64(3) << 30;
    QTest::newRow("3 GiB of zero bytes") << QByteArray() << threeGiB << "it starts with bytes 00 00 00 00 00 00 00 00,";
    // Read by SQLite, which looks at its header, not at the 3 GiB.
    QTest::newRow("SQLite, 3 GiB") << QByteArray("SQLite format 3\0", 16) << threeGiB
                                   << "Nsight Systems report: the SQLite database cannot be read";
    QTest::newRow("SQLite, small") << QByteArray("SQLite format 3\0\x10\x00", 18) << qint64(4096)
                                   << "Nsight Systems report: the SQLite database cannot be read";
    QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08", 3) << qint64(100) << "gzip-compressed";
    QTest::newRow("UTF-16") << QByteArray("\xff\xfe{\0", 4) << qint64(0) << "UTF-16";
    QTest::newRow("a PNG") << QByteArray("\x89PNG\r\n\x1a\n") << qint64(0) << "bytes 89 50 4e 47 0d 0a 1a 0a";
    QTest::newRow("text") << QByteArray("not json at all, not json at all") << qint64(0)
                          << "it starts with \"not json at all,\u2026\", where a trace starts with '{' or '['";
    QTest::newRow("a number") << QByteArray("  \n42") << qint64(0) << "it starts with \"42\"";
    QTest::newRow("white space, then more") << QByteArray(64 * 1024, ' ') + "{}" << qint64(0)
                                            << "its first 64 KiB are white space";
    QTest::newRow("white space alone") << QByteArray(100, ' ') << qint64(0) << "the trace is empty";
    QTest::newRow("a UTF-8 byte order mark") << QByteArray("\xef\xbb\xbf{}") << qint64(0) << "byte order mark";
    QTest::newRow("after white space") << QByteArray(" \r\n\t") + QByteArray::fromStdString(traceToJson(makeTrace()))
                                       << qint64(0) << "";
    QTest::newRow("a trace of more than the first bytes")
        << QByteArray(60 * 1024, '\n') + QByteArray::fromStdString(traceToJson(makeTrace())) << qint64(0) << "";
}

void TestTraceFormat::loadJudgesTheFirstBytes()
{
    QFETCH(QByteArray, start);
    QFETCH(qint64, size);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = tempPath(dir, "first-bytes.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(start), start.size());
    if (size > start.size())
        QVERIFY(file.resize(size));
    file.close();
    const auto loaded = loadTrace(path.toStdString(), kMaxTraceBytesCeiling);
    if (message.isEmpty()) {
        QVERIFY2(loaded.trace, loaded.error.c_str());
        return;
    }
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).contains(message), loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.error).startsWith(path), loaded.error.c_str());
}

// /proc/self/status gives a size of 0 and holds text: it is read (and
// refused for what it holds), not taken for an empty file.
void TestTraceFormat::loadReadsFilesThatSayTheyAreEmpty()
{
    struct stat info {};
    QCOMPARE(::stat("/proc/self/status", &info), 0);
    QCOMPARE(info.st_size, off_t(0));
    const auto loaded = loadTrace("/proc/self/status");
    QVERIFY(!loaded.trace);
    QVERIFY2(!QString::fromStdString(loaded.error).contains("empty"), loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.error).contains("it starts with \"Name:"), loaded.error.c_str());
    // Its size limit counts what was read.
    const auto limited = loadTrace("/proc/self/status", 16);
    QVERIFY(!limited.trace);
    QVERIFY2(QString::fromStdString(limited.error).contains("above the size limit for traces of 0.0 MiB (16 bytes)"),
             limited.error.c_str());
}

void TestTraceFormat::loadReportsProgressAndCancels_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("cancelAt"); // the report that raises the flag; 0: before the load, -1: never
    // Above 64 KiB: read in blocks after the first bytes; below: in one go.
    for (const char* file : {"pytorch-train-step.json", "profiled/what-if/managed_memory-fix.json",
                             "profiled/pageable_async.json"})
        for (int cancelAt : {-1, 0, 1})
            QTest::addRow("%s, cancel at %d", file, cancelAt) << file << cancelAt;
}

void TestTraceFormat::loadReportsProgressAndCancels()
{
    QFETCH(QString, file);
    QFETCH(int, cancelAt);
    const std::string path = std::string(OVERLAPSCOPE_TEST_DATA) + "/" + file.toStdString();
    struct stat info {};
    QCOMPARE(::stat(path.c_str(), &info), 0);
    const auto size = static_cast<std::uint64_t>(info.st_size);
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
    const auto loaded = loadTrace(path, kDefaultMaxTraceBytes, progress);
    const bool blocks = size > 64 * 1024;
    if (cancelAt == 0 || (cancelAt == 1 && blocks)) {
        // No trace, partial or whole, and a message that says why.
        QVERIFY(loaded.cancelled);
        QVERIFY(!loaded.trace);
        QVERIFY2(QString::fromStdString(loaded.error).endsWith(": loading cancelled"), loaded.error.c_str());
        QCOMPARE(reports.size(), std::size_t(cancelAt));
        return;
    }
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY(!loaded.cancelled);
    QCOMPARE(loaded.trace->runs.size(), loadTrace(path).trace->runs.size());
    // Bytes of the file's size, growing to all of it; a small file is read at once.
    QCOMPARE(reports.empty(), !blocks);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        QCOMPARE(reports[i].second, size);
        QVERIFY(i == 0 || reports[i].first >= reports[i - 1].first);
    }
    if (blocks)
        QCOMPARE(reports.back().first, size);
}

namespace {

using Writer = ovs::test::NsightReportWriter;

QString nsightData(const char* name)
{
    return QStringLiteral(OVERLAPSCOPE_TEST_DATA "/nsight/") + QString::fromLatin1(name);
}

const Lane* laneNamed(const Run& run, const std::string& name)
{
    for (const Lane& lane : run.lanes)
        if (lane.name == name)
            return &lane;
    return nullptr;
}

const Op* opNamed(const Run& run, const std::string& name)
{
    for (const Op& op : run.ops)
        if (run.nameOf(op) == name)
            return &op;
    return nullptr;
}

// One program's calls and work, as an Nsight report of either schema holds
// them: three streams (legacy, non-blocking, blocking), two threads, an
// unused second GPU, and what the reader skips (an untraced call, a
// backtrace duplicate, a unified-memory migration, a mark, a range never
// closed, a process with no CUDA work, a row with a text time).
void writeProgram(Writer& w)
{
    constexpr std::int64_t pid = 4242;
    constexpr std::int64_t loader = 4300;
    constexpr std::int64_t none = 0xFFFFFFFF;
    using M = Writer::Memory;
    w.process(pid, "/opt/app/train --epochs 2");
    w.process(5000, "/usr/bin/idle");
    w.threadName(pid, pid, "train");
    w.threadName(pid, loader, "loader");
    w.gpu(0, "NVIDIA H200", 150'000'000'000, 132, 3, 9, 0);
    w.gpu(1, "NVIDIA H200 (not used)", 150'000'000'000, 132, 3, 9, 0);
    w.nullStream(pid, 7);
    w.stream(pid, 13, Writer::StreamFlag::NonBlocking);
    w.stream(pid, 14, Writer::StreamFlag::Default);
    w.api(pid, pid, 100, 200, 1, "cudaMalloc_v3020");
    w.api(pid, pid, 210, 220, 2, "cudaGetDevice_v3020");
    w.api(pid, pid, 300, 310, 3, "cudaMemcpyAsync_v3020");
    w.api(pid, pid, 300, 310, 3, "cudaMemcpyAsync", Writer::ApiClass::Backtrace);
    w.api(pid, pid, 302, 308, 3, "cuMemcpyHtoDAsync_v2", Writer::ApiClass::Driver); // inside the runtime call
    w.memcpy(pid, 320, 400, 13, 3, 1 << 20, Writer::Copy::HtoD, M::Pinned, M::Device);
    w.api(pid, pid, 410, 420, 4, "cudaLaunchKernel_v7000");
    w.kernel(pid, 430, 500, 13, 4, "scale(float*, int)", {2, 1, 1}, {256, 1, 1}, 1024, 2048);
    w.exec("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT 'soon', end, deviceId, contextId, streamId, correlationId, "
           "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
           "staticSharedMemory, dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL");
    w.api(pid, pid, 505, 508, 5, "cudaMemsetAsync_v3020");
    w.memset(pid, 510, 520, 14, 5, 4096, M::Device);
    w.api(pid, pid, 525, 528, 6, "cudaMemcpyAsync_v3020");
    w.memcpy(pid, 530, 600, 7, 6, 1 << 20, Writer::Copy::DtoH, M::Device, M::Pageable);
    w.memcpy(pid, 540, 560, 13, 0, 65536, Writer::Copy::UnifiedHtoD, M::Managed, M::Device);
    w.api(pid, pid, 610, 700, 7, "cudaStreamSynchronize_v3020");
    w.sync(pid, 610, 700, 13, 7, Writer::Sync::Stream, none);
    w.api(pid, loader, 620, 650, 8, "cudaEventSynchronize_v3020");
    w.sync(pid, 620, 650, none, 8, Writer::Sync::Event, 5);
    w.nvtx(pid, pid, 250, 650, Writer::Nvtx::PushPop, "step");
    w.nvtx(pid, pid, 290, 420, Writer::Nvtx::PushPop, "copy");
    w.nvtx(pid, loader, 100, 700, Writer::Nvtx::StartEnd, "epoch", true);
    w.nvtx(pid, pid, 300, std::nullopt, Writer::Nvtx::Mark, "here");
    w.nvtx(pid, pid, 660, std::nullopt, Writer::Nvtx::PushPop, "never closed");
    w.nvtx(5000, 5000, 10, 20, Writer::Nvtx::PushPop, "elsewhere");
}

TraceLoadResult writeAndLoad(const QString& path, int schema, const std::function<void(Writer&)>& damage = {})
{
    {
        Writer w(path.toStdString(), schema);
        writeProgram(w);
        if (damage)
            damage(w);
    }
    return loadTrace(path.toStdString());
}

// "incrementKernel(float*) [grid 16384x1x1, block 256x1x1]": the kernel and its dimensions.
bool parseKernel(const std::string& name, std::string& kernel, int (&grid)[3], int (&block)[3])
{
    const std::size_t at = name.rfind(" [grid ");
    if (at == std::string::npos)
        return false;
    kernel = name.substr(0, at);
    return std::sscanf(name.c_str() + at, " [grid %dx%dx%d, block %dx%dx%d]", &grid[0], &grid[1], &grid[2], &block[0],
                       &block[1], &block[2])
           == 6;
}

// The rows Nsight would have written for a run that `profile` recorded.
void writeRunAsReport(const Run& run, Writer& w)
{
    using M = Writer::Memory;
    const auto memory = [](HostMemoryKind kind) {
        switch (kind) {
        case HostMemoryKind::Pageable: return M::Pageable;
        case HostMemoryKind::Pinned: return M::Pinned;
        case HostMemoryKind::Managed: return M::Managed;
        default: return M::Unknown;
        }
    };
    const std::size_t pidAt = run.name.rfind(" (pid ");
    QVERIFY(pidAt != std::string::npos);
    const std::int64_t pid = std::stoll(run.name.substr(pidAt + 6));
    w.process(pid, "/somewhere/" + run.name.substr(0, pidAt));
    int major = 0, minor = 0, sms = 0, engines = 0;
    QCOMPARE(std::sscanf(run.device.detail.c_str(), "GPU 0, compute capability %d.%d, %d SMs, %d copy engines", &major,
                         &minor, &sms, &engines),
             4);
    w.gpu(0, run.device.name, static_cast<std::int64_t>(run.device.totalMemoryBytes), sms, engines, major, minor);
    std::vector<std::int64_t> laneIds; // stream id or thread id
    for (const Lane& lane : run.lanes) {
        std::int64_t id = 0;
        const std::size_t paren = lane.name.find(" (");
        const std::string threadName = paren == std::string::npos ? "" : lane.name.substr(paren + 2, lane.name.size() - paren - 3);
        if (lane.kind == LaneKind::HostThread) {
            id = lane.name.starts_with("main thread") ? pid : std::stoll(lane.name.substr(7));
            if (!threadName.empty())
                w.threadName(pid, id, threadName);
        } else if (lane.name.ends_with("unified memory")) {
            id = 0; // the driver's: no stream (Writer::migration)
        } else if (lane.streamKind == StreamKind::LegacyDefault) {
            id = 7;
            w.nullStream(pid, id);
        } else {
            id = std::stoll(lane.name.substr(7));
            if (lane.streamKind == StreamKind::NonBlocking || lane.streamKind == StreamKind::Blocking)
                w.stream(pid, id, lane.streamKind == StreamKind::Blocking ? Writer::StreamFlag::Default
                                                                          : Writer::StreamFlag::NonBlocking);
        }
        laneIds.push_back(id);
    }
    for (std::size_t opIndex = 0; opIndex < run.ops.size(); ++opIndex) {
        const Op& op = run.ops[opIndex];
        const std::int64_t id = laneIds[op.lane];
        const std::string& name = run.nameOf(op);
        switch (op.kind) {
        case OpKind::Upload:
            w.memcpy(pid, op.startNs, op.endNs, id, op.correlation, op.bytes, Writer::Copy::HtoD, memory(op.memory), M::Device);
            break;
        case OpKind::Download:
            w.memcpy(pid, op.startNs, op.endNs, id, op.correlation, op.bytes, Writer::Copy::DtoH, M::Device, memory(op.memory));
            break;
        case OpKind::Memset: w.memset(pid, op.startNs, op.endNs, id, op.correlation, op.bytes, M::Device); break;
        case OpKind::Kernel: {
            std::string kernel;
            int grid[3] = {}, block[3] = {};
            QVERIFY(parseKernel(name, kernel, grid, block));
            w.kernel(pid, op.startNs, op.endNs, id, op.correlation, kernel, grid, block);
            break;
        }
        case OpKind::UnifiedMemory: {
            // CUPTI's counter and cause, from the op's fields: "GPU page
            // faults" carry the fault count in bytes.
            const UnifiedMemoryOp* counter = run.unifiedMemoryOf(opIndex);
            QVERIFY2(counter, name.c_str());
            static const std::map<UmCause, int> causes = {
                {UmCause::Unknown, 0}, {UmCause::Requested, 1}, {UmCause::Fault, 2}, {UmCause::DriverPrefetch, 3},
                {UmCause::Eviction, 4}, {UmCause::AccessCounters, 5}};
            if (counter->isMigration())
                w.migration(pid, op.startNs, op.endNs, static_cast<std::int64_t>(op.bytes),
                            counter->counter == UmCounter::MigrationToGpu, causes.at(counter->cause));
            else if (counter->counter == UmCounter::GpuPageFaults)
                w.gpuPageFaults(pid, op.startNs, op.endNs, static_cast<std::int64_t>(op.bytes));
            else if (counter->counter == UmCounter::CpuPageFault)
                w.cpuPageFault(pid, op.startNs);
            else
                QFAIL(("a unified-memory op Nsight has no table for: " + name).c_str());
            break;
        }
        default: {
            QVERIFY(!isGpuOp(op.kind));
            // What a call waited for is in its name: "cudaEventSynchronize (event 3)".
            std::string call = name;
            int target = 0;
            if (const std::size_t at = name.find(" (event "); at != std::string::npos) {
                call = name.substr(0, at);
                target = std::stoi(name.substr(at + 8));
                w.sync(pid, op.startNs, op.endNs, 13, op.correlation, Writer::Sync::Event, target);
            } else if (const std::size_t at = name.find(" (stream "); at != std::string::npos) {
                call = name.substr(0, at);
                target = std::stoi(name.substr(at + 9));
                w.sync(pid, op.startNs, op.endNs, target, op.correlation, Writer::Sync::Stream, 0xFFFFFFFF);
            }
            w.api(pid, id, op.startNs, op.endNs, op.correlation, call + "_v3020");
        }
        }
    }
}

} // namespace

void TestTraceFormat::nsightReportOfEachSchema_data()
{
    QTest::addColumn<int>("schema");
    QTest::addColumn<QString>("version");
    QTest::newRow("2.x (2022: no enumeration tables)") << 2 << "Nsight Systems 2022.2.1.31, export schema 2.9.1";
    QTest::newRow("3.x (2024: enumerations numbered apart)") << 3 << "Nsight Systems 2024.2.1.106, export schema 3.11.1";
}

void TestTraceFormat::nsightReportOfEachSchema()
{
    QFETCH(int, schema);
    QFETCH(QString, version);
    QTemporaryDir dir;
    // Named as no trace is: the content decides.
    const auto loaded = writeAndLoad(tempPath(dir, "report.json"), schema);
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const QString note = QString::fromStdString(loaded.note);
    QVERIFY2(note.startsWith("imported from " + version + ": 1 run, 4 GPU ops, 7 CUDA calls, 3 NVTX ranges"), qPrintable(note));
    QVERIFY2(note.contains(", 1 unified-memory event;"), qPrintable(note)); // the migration: nsightUnifiedMemory
    for (const char* skipped : {"1 CUDA call that a profile does not trace", "1 API row of another class",
                                "3 NVTX events that are no closed ranges", "1 row with a value of the wrong type"})
        QVERIFY2(note.contains(skipped), qPrintable(note));

    QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
    const Run& run = loaded.trace->runs.front();
    QCOMPARE(run.name, std::string("train --epochs 2 (pid 4242)"));
    QCOMPARE(run.pipeline, std::string("profile"));
    QCOMPARE(run.status, RunStatus::Completed);
    QCOMPARE(run.device.name, std::string("NVIDIA H200"));
    QCOMPARE(run.device.asyncEngineCount, 3);
    QCOMPARE(run.deviceCount(), 1); // the second GPU was not used
    QCOMPARE(run.lanes.size(), std::size_t(6));
    const std::vector<std::pair<std::string, StreamKind>> lanes = {{"default stream (legacy)", StreamKind::LegacyDefault},
                                                                   {"stream 13", StreamKind::NonBlocking},
                                                                   {"stream 14", StreamKind::Blocking},
                                                                   {"GPU 0 \u00b7 unified memory", StreamKind::NonBlocking},
                                                                   {"main thread (train)", StreamKind::Unknown},
                                                                   {"thread 4300 (loader)", StreamKind::Unknown}};
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        QCOMPARE(run.lanes[i].name, lanes[i].first);
        QCOMPARE(run.lanes[i].streamKind, lanes[i].second);
        QCOMPARE(run.lanes[i].kind, i < 4 ? LaneKind::Stream : LaneKind::HostThread);
    }
    // The driver call inside cudaMemcpyAsync goes, as in a profile; the
    // unified-memory migration is one (nsightUnifiedMemory).
    QCOMPARE(run.ops.size(), std::size_t(12));

    const Op* upload = opNamed(run, "Memcpy HtoD (Pinned -> Device)");
    QVERIFY(upload);
    QCOMPARE(upload->kind, OpKind::Upload);
    QCOMPARE(upload->memory, HostMemoryKind::Pinned);
    QCOMPARE(upload->bytes, std::uint64_t(1) << 20);
    QCOMPARE(upload->correlation, 3u);
    QCOMPARE(run.lanes[upload->lane].name, std::string("stream 13"));
    QCOMPARE(upload->startNs, 320);
    QCOMPARE(upload->execEndNs, 400);
    const Op* download = opNamed(run, "Memcpy DtoH (Device -> Pageable)");
    QVERIFY(download);
    QCOMPARE(download->kind, OpKind::Download);
    QCOMPARE(download->memory, HostMemoryKind::Pageable);
    QCOMPARE(download->lane, std::uint16_t(0));
    const Op* memset = opNamed(run, "Memset (Device)");
    QVERIFY(memset);
    QCOMPARE(memset->kind, OpKind::Memset);
    QCOMPARE(run.lanes[memset->lane].name, std::string("stream 14"));
    const Op* kernel = opNamed(run, "scale(float*, int) [grid 2x1x1, block 256x1x1]");
    QVERIFY(kernel);
    QCOMPARE(kernel->kind, OpKind::Kernel);
    QCOMPARE(kernel->correlation, 4u);
    // Its launch shape, typed (static + dynamic shared memory), and the
    // device's SMs it is read against.
    const KernelShape* shape = run.shapeOf(static_cast<std::size_t>(kernel - run.ops.data()));
    QVERIFY(shape);
    QCOMPARE(shape->grid, (std::array<std::uint32_t, 3>{2, 1, 1}));
    QCOMPARE(shape->block, (std::array<std::uint32_t, 3>{256, 1, 1}));
    QCOMPARE(shape->registersPerThread, std::uint16_t(32));
    QCOMPARE(shape->sharedMemoryBytes, 3072u);
    QCOMPARE(run.device.smCount, 132);
    QCOMPARE(run.device.computeCapability, 90);
    for (std::size_t i = 0; i < run.ops.size(); ++i)
        QCOMPARE(run.shapeOf(i) != nullptr, run.ops[i].kind == OpKind::Kernel);
    // They survive the native format (version 7).
    const auto again = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(again.trace, again.error.c_str());
    const Run& back = again.trace->runs.front();
    QCOMPARE(back.device.smCount, 132);
    QCOMPARE(back.device.computeCapability, 90);
    QCOMPARE(back.kernelShapes, run.kernelShapes);
    QCOMPARE(back.opShapes, run.opShapes);
    QVERIFY(opNamed(run, "cudaMalloc") && opNamed(run, "cudaMalloc")->kind == OpKind::Alloc);
    QVERIFY(opNamed(run, "cudaLaunchKernel"));
    QVERIFY(!opNamed(run, "cudaGetDevice"));
    const Op* streamSync = opNamed(run, "cudaStreamSynchronize (stream 13)");
    QVERIFY(streamSync);
    QCOMPARE(streamSync->kind, OpKind::Sync);
    const Op* eventSync = opNamed(run, "cudaEventSynchronize (event 5)");
    QVERIFY(eventSync);
    QCOMPARE(run.lanes[eventSync->lane].name, std::string("thread 4300 (loader)"));

    // NVTX ranges: on the thread that opened them, nested by their spans.
    QCOMPARE(run.regions.size(), std::size_t(3));
    const Region& epoch = run.regions[0];
    QCOMPARE(epoch.name, std::string("epoch"));
    QCOMPARE(epoch.lane, eventSync->lane);
    QCOMPARE(epoch.depth, std::uint16_t(0));
    QCOMPARE(run.regions[1].name, std::string("step"));
    QCOMPARE(run.regions[1].depth, std::uint16_t(0));
    QCOMPARE(run.regions[1].lane, std::uint16_t(4));
    QCOMPARE(run.regions[2].name, std::string("copy"));
    QCOMPARE(run.regions[2].depth, std::uint16_t(1));
    QCOMPARE(run.regions[2].beginNs, 290);
    QCOMPARE(run.regions[2].endNs, 420);
    QCOMPARE(run.regions[2].source, RegionSource::Nvtx);
}

void TestTraceFormat::nsightBadReports_data()
{
    QTest::addColumn<int>("schema");
    QTest::addColumn<QString>("sql");      // run on the report once written
    QTest::addColumn<qint64>("cutTo");     // bytes kept of the file; 0: all
    QTest::addColumn<QString>("message");
    QTest::newRow("missing StringIds") << 3 << "DROP TABLE StringIds" << qint64(0)
                                       << "the report has no StringIds table, which names its kernels and calls "
                                          "(Nsight Systems 2024.2.1.106, export schema 3.11.1)";
    QTest::newRow("missing column") << 2 << "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN gridY" << qint64(0)
                                    << "CUPTI_ACTIVITY_KIND_KERNEL has no column gridY, which this reader needs "
                                       "(Nsight Systems 2022.2.1.31, export schema 2.9.1)";
    QTest::newRow("wrong column type")
        << 3
        << "DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET; CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start TEXT, end INTEGER, "
           "deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER)"
        << qint64(0) << "CUPTI_ACTIVITY_KIND_MEMSET.start is declared TEXT, where Nsight Systems writes INTEGER";
    QTest::newRow("no CUDA trace")
        << 2
        << "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE "
           "CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME"
        << qint64(0) << "the report holds no CUDA trace";
    QTest::newRow("not from Nsight")
        << 2
        << "DROP TABLE StringIds; DROP TABLE EXPORT_META_DATA; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE "
           "CUPTI_ACTIVITY_KIND_RUNTIME"
        << qint64(0) << "an SQLite database, but not an Nsight Systems export";
    QTest::newRow("cut after its first page") << 3 << "" << qint64(4096) << "the SQLite database cannot be read";
    QTest::newRow("cut inside its header") << 3 << "" << qint64(40) << "the SQLite database cannot be read";
    // SQLite quotes the damaged statement, line break and all (found by
    // fuzz/fuzz_nsight_report): the message stays one line.
    QTest::newRow("a schema statement SQLite cannot parse, over two lines")
        << 3
        << "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE "
           "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start [INTEGER,' || char(10) || 'end INTEGER)' WHERE name = "
           "'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION'; PRAGMA writable_schema = OFF"
        << qint64(0)
        << "the SQLite database cannot be read (damaged or cut short?): malformed database schema "
           "(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) - unrecognized token: \"[INTEGER, end INTEGER)\"";
}

void TestTraceFormat::nsightBadReports()
{
    QFETCH(int, schema);
    QFETCH(QString, sql);
    QFETCH(qint64, cutTo);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), schema);
        writeProgram(w);
        if (!sql.isEmpty())
            w.exec(sql.toStdString());
    }
    if (cutTo > 0) {
        QFile file(path);
        QVERIFY(file.size() > cutTo);
        QVERIFY(file.resize(cutTo));
    }
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY(!loaded.trace);
    QVERIFY2(QString::fromStdString(loaded.error).startsWith(path + ": Nsight Systems report: "), loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.error).contains(message), loaded.error.c_str());
    QVERIFY2(loaded.error.find('\n') == std::string::npos, loaded.error.c_str());
}

void TestTraceFormat::nsightEmptyTables()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "empty.sqlite");
    Writer(path.toStdString(), 3).close();
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY(loaded.trace->runs.empty());
    QVERIFY2(QString::fromStdString(loaded.note).contains("0 runs, 0 GPU ops, 0 CUDA calls"), loaded.note.c_str());
}

// TARGET_INFO_CUDA_DEVICE (2023 on) says which of the host's GPUs each
// process's CUDA device was: under CUDA_VISIBLE_DEVICES=1 the program's
// device 0 is the host's GPU 1. A row of another process does not apply; a
// table whose columns are named otherwise is left unread (CUDA's numbers
// are then the host's, as in exports without it).
void TestTraceFormat::nsightCudaDevicesMapToTheHostsGpus_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("sms");
    const QString columns = "gpuId INTEGER, cudaId INTEGER, pid INTEGER, uuid TEXT, numMultiprocessors INTEGER";
    // GPU 1's row has no SM count here: the mapping's fills it in.
    QTest::newRow("its own row") << columns << "(1, 0, 4242, 'GPU-1', 66), (0, 0, 5000, 'GPU-0', 132)"
                                 << "NVIDIA H200 (not used)" << 66;
    QTest::newRow("another process's row") << columns << "(1, 0, 5000, 'GPU-1', 132)" << "NVIDIA H200" << 132;
    QTest::newRow("no pid column") << "gpuId INTEGER, cudaId INTEGER" << "(1, 0)" << "NVIDIA H200 (not used)" << 0;
    QTest::newRow("columns named otherwise") << "id INTEGER, name TEXT" << "(1, 'x')" << "NVIDIA H200" << 132;
    QTest::newRow("wrong types") << columns << "('one', 0, 4242, '', 1)" << "NVIDIA H200" << 132;
}

void TestTraceFormat::nsightCudaDevicesMapToTheHostsGpus()
{
    QFETCH(QString, table);
    QFETCH(QString, rows);
    QFETCH(QString, device);
    QFETCH(int, sms);
    QTemporaryDir dir;
    const auto loaded = writeAndLoad(tempPath(dir, "report.sqlite"), 3, [&](Writer& w) {
        w.exec("CREATE TABLE TARGET_INFO_CUDA_DEVICE (" + table.toStdString() + ")");
        w.exec("INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES " + rows.toStdString());
        w.exec("UPDATE TARGET_INFO_GPU SET smCount = NULL WHERE id = 1");
    });
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
    const Run& run = loaded.trace->runs.front();
    QCOMPARE(QString::fromStdString(run.device.name), device);
    QVERIFY2(run.device.detail.find(std::to_string(sms) + " SMs") != std::string::npos, run.device.detail.c_str());
    QCOMPARE(run.deviceCount(), 1);
    QVERIFY(opNamed(run, "scale(float*, int) [grid 2x1x1, block 256x1x1]"));
}

// Unified memory as a profile records it: a migration row of the copy
// table, with its cause (CUPTI's numbers in 2.x, named in 3.x), and the
// page-fault tables, become ops on the GPU's unified-memory lane, named as
// `profile` names them, which the managed-migration finding reads.
void TestTraceFormat::nsightUnifiedMemory_data()
{
    QTest::addColumn<int>("schema");
    QTest::newRow("2.x") << 2;
    QTest::newRow("3.x") << 3;
}

void TestTraceFormat::nsightUnifiedMemory()
{
    QFETCH(int, schema);
    QTemporaryDir dir;
    const auto loaded = writeAndLoad(tempPath(dir, "report.sqlite"), schema, [&](Writer& w) {
        // The program's migration (Unified HtoD, 65536 bytes) was a fault's.
        w.exec(std::string("UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET migrationCause = ") + (schema >= 3 ? "62" : "2")
               + " WHERE bytes = 65536");
        w.gpuPageFaults(4242, 535, 545, 3);
        w.cpuPageFault(4242, 580);
        w.exec("INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES ('late', 0, 0, 0, 0, 0, 0)");
    });
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const QString note = QString::fromStdString(loaded.note);
    QVERIFY2(note.contains(", 3 unified-memory events") && !note.contains("skipped 1 unified"), qPrintable(note));
    const Run& run = loaded.trace->runs.front();
    const Op* migration = opNamed(run, "HtoD migration (fault)");
    QVERIFY(migration);
    QCOMPARE(migration->kind, OpKind::UnifiedMemory);
    QCOMPARE(migration->memory, HostMemoryKind::Managed);
    QCOMPARE(migration->bytes, std::uint64_t(65536));
    QCOMPARE(migration->startNs, 540);
    QCOMPARE(migration->endNs, 560);
    // What it counts and why, as fields (the name only shows them).
    const auto fieldsOf = [&run](const Op* op) {
        const UnifiedMemoryOp* counter = run.unifiedMemoryOf(static_cast<std::size_t>(op - run.ops.data()));
        return counter ? *counter : UnifiedMemoryOp{};
    };
    QVERIFY(fieldsOf(migration) == (UnifiedMemoryOp{UmCounter::MigrationToGpu, UmCause::Fault}));
    const Op* faults = opNamed(run, "GPU page faults");
    QVERIFY(faults);
    QCOMPARE(faults->bytes, std::uint64_t(3)); // the fault count (Op.h)
    QVERIFY(fieldsOf(faults) == (UnifiedMemoryOp{UmCounter::GpuPageFaults, UmCause::Unknown}));
    QVERIFY(run.countsFaults(static_cast<std::size_t>(faults - run.ops.data())));
    QVERIFY(!run.countsFaults(static_cast<std::size_t>(migration - run.ops.data())));
    QCOMPARE(faults->lane, migration->lane);
    const Op* hostFault = opNamed(run, "CPU page fault");
    QVERIFY(hostFault);
    QVERIFY(fieldsOf(hostFault) == (UnifiedMemoryOp{UmCounter::CpuPageFault, UmCause::Unknown}));
    QCOMPARE(hostFault->startNs, 580);
    QCOMPARE(hostFault->lane, migration->lane); // the lane of the GPU the process used
    QVERIFY2(run.lanes[migration->lane].name.find("unified memory") != std::string::npos,
             run.lanes[migration->lane].name.c_str());
}

// A copy is the same op whichever source recorded it: the CUPTI profile's
// records, an Nsight report's rows (either schema) and a Kineto trace's
// event are all mapped by one table (cupti::copyOp). A peer copy between two
// GPUs is a peer copy; a host-to-host copy through the copy engine a device
// copy, not dropped (issue 29).
void TestTraceFormat::copyKindsAreOneTable_data()
{
    QTest::addColumn<QString>("copy"); // "peer" or "host to host"
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("memory");
    QTest::newRow("peer") << "peer" << int(OpKind::PeerCopy) << int(HostMemoryKind::Device);
    QTest::newRow("host to host") << "host to host" << int(OpKind::DeviceCopy) << int(HostMemoryKind::Device);
}

void TestTraceFormat::copyKindsAreOneTable()
{
    QFETCH(QString, copy);
    QFETCH(int, kind);
    QFETCH(int, memory);
    const bool peer = copy == "peer";
    const auto copies = [](const Run& run) {
        std::vector<std::pair<int, int>> out;
        for (const Op& op : run.ops)
            if (isGpuOp(op.kind) && op.kind != OpKind::Kernel && op.kind != OpKind::Memset)
                out.emplace_back(int(op.kind), int(op.memory));
        return out;
    };
    const std::vector<std::pair<int, int>> expected{{kind, memory}};

    // The CUPTI profile's record (a peer copy is CUPTI's peer-to-peer record).
    {
        constexpr std::uint64_t kCupti = 1'000'000;
        test::TestProfileStream s(100);
        s.clock(kCupti, 0);
        s.device(0, "NVIDIA H200");
        s.context(1, 0, 7);
        if (peer)
            s.peerMemcpy(kCupti + 10, kCupti + 20, 0, 1, 13, 1, 0, 1);
        else
            s.memcpy(kCupti + 10, kCupti + 20, cupti::kCopyHtoH, cupti::kMemoryPinned, cupti::kMemoryPageable, 13, 1);
        s.end();
        profile::ProcessRunBuilder builder(0);
        profile::ProfileStreamDecoder decoder;
        decoder.feed(s.bytes().data(), s.bytes().size());
        profile::DecodedRecord r;
        while (decoder.next(r))
            builder.add(r);
        QCOMPARE(copies(builder.finish({}, {})), expected);
    }
    // An Nsight report's row, each schema.
    for (const int schema : {2, 3}) {
        QTemporaryDir dir;
        const auto loaded = writeAndLoad(tempPath(dir, "report.sqlite"), schema, [&](Writer& w) {
            w.exec("DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY");
            if (peer)
                w.memcpy(4242, 320, 400, 13, 0, 1 << 20, Writer::Copy::PtoP, Writer::Memory::Device,
                         Writer::Memory::Device, 0, 1);
            else
                w.memcpy(4242, 320, 400, 13, 0, 1 << 20, Writer::Copy::HtoH, Writer::Memory::Pinned,
                         Writer::Memory::Pageable);
        });
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(copies(loaded.trace->runs.front()), expected);
    }
    // A Kineto trace's event, named in CUPTI's words.
    const std::string name = peer ? "Memcpy PtoP (Device -> Device)" : "Memcpy HtoH (Pinned -> Pageable)";
    const auto kineto = traceFromJson(
        R"({"traceEvents":[{"ph":"X","cat":"gpu_memcpy","name":")" + name
        + R"(","pid":0,"tid":13,"ts":10,"dur":5,"args":{"device":0,"stream":13,"bytes":1048576}}]})");
    QVERIFY2(kineto.trace, kineto.error.c_str());
    QCOMPARE(copies(kineto.trace->runs.front()), expected);
}

// Two real exports: Nsight Systems 2022.2 (schema 2.9) of an MPI saxpy and
// 2024.5 (schema 3.13) of CloverLeaf, both on Perlmutter's A100s, from the
// pipit project's test data (tests/data/nsight/LICENSE).
void TestTraceFormat::nsightRealExports_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("run");
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("gpuOps");
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("regions");
    QTest::addColumn<QString>("note");
    QTest::newRow("2022.2, MPI saxpy") << nsightData("saxpy-mpi-cuda_nsys_perlmutter0.sqlite")
                                       << "saxpy-mpi-cuda (pid 1230493)" << "NVIDIA A100-SXM4-40GB" << 20 << 76 << 22
                                       << "export schema 2.9.1";
    QTest::newRow("2024.5, CloverLeaf") << nsightData("cloverleaf-cuda_nsys_perlmutter-reduced.sqlite")
                                        << "cuda-cloverleaf (pid 1701896)" << "NVIDIA A100-SXM4-80GB" << 1591 << 4638
                                        << 0 << "export schema 3.13.2";
}

void TestTraceFormat::nsightRealExports()
{
    QFETCH(QString, file);
    QFETCH(QString, run);
    QFETCH(QString, device);
    QFETCH(int, gpuOps);
    QFETCH(int, ops);
    QFETCH(int, regions);
    QFETCH(QString, note);
    const auto loaded = loadTrace(file.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note).contains(note), loaded.note.c_str());
    QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
    const Run& r = loaded.trace->runs.front();
    QCOMPARE(QString::fromStdString(r.name), run);
    QCOMPARE(QString::fromStdString(r.device.name), device);
    QCOMPARE(r.deviceCount(), 1); // the node's other GPUs were not this process's
    QCOMPARE(int(r.ops.size()), ops);
    QCOMPARE(int(std::count_if(r.ops.begin(), r.ops.end(), [](const Op& op) { return isGpuOp(op.kind); })), gpuOps);
    QCOMPARE(int(r.regions.size()), regions);
    QCOMPARE(r.lanes.front().streamKind, StreamKind::LegacyDefault);
    // The analysis reads it as any profile: its wall time is the work's span.
    const auto analyses = analyzeTrace(*loaded.trace);
    QCOMPARE(analyses.size(), std::size_t(1));
    QVERIFY(r.wallNs() > 0);
}

// The rule that picks the program's own frame from a native call chain
// (trace/NativeFrame.h; docs/profiling.md, "Call sites").
void TestTraceFormat::nativeFrameRule_data()
{
    QTest::addColumn<QString>("symbol");
    QTest::addColumn<QString>("module");
    QTest::addColumn<QString>("kernel"); // the kernel the call launched
    QTest::addColumn<QString>("function"); // nativeFunctionName
    QTest::addColumn<bool>("user");
    const QString app = "/home/me/saxpy/saxpy";
    QTest::newRow("the program's main") << "main" << app << "" << "main" << true;
    QTest::newRow("a member with its return type, template and qualifiers")
        << "void ns::Solver<float>::step(int) const" << app << "" << "ns::Solver::step" << true;
    QTest::newRow("GCC's clone") << "train(int) [clone .constprop.0]" << app << "" << "train" << true;
    QTest::newRow("an anonymous namespace") << "(anonymous namespace)::run(int)" << app << ""
                                            << "(anonymous namespace)::run" << true;
    QTest::newRow("a shared library of the user's") << "Model::forward(Batch const&)" << "/home/me/lib/libmodel.so"
                                                    << "" << "Model::forward" << true;
    QTest::newRow("an address for a name") << "0x7fd99070283c" << app << "" << "0x7fd99070283c" << false;
    QTest::newRow("no module") << "main" << "" << "" << "main" << false;
    QTest::newRow("a pseudo-module") << "main" << "[vdso]" << "" << "main" << false;
    QTest::newRow("the runtime API") << "cudaMalloc" << "/usr/local/cuda/lib64/libcudart.so.12" << "" << "cudaMalloc"
                                     << false;
    QTest::newRow("the runtime, anywhere") << "cudaMemcpy" << "/opt/hpc_sdk/cuda/11.7/lib/libcudart.so.11.7.60" << ""
                                           << "cudaMemcpy" << false;
    QTest::newRow("the driver") << "0x7fd99b6226b6" << "/usr/lib64/libcuda.so.525.105.17" << "" << "0x7fd99b6226b6"
                                << false;
    QTest::newRow("Nsight's own CUPTI")
        << "cuptiActivityFlushAll" << "/global/sw/Nsight-Systems/2022.2.1/target-linux-x64/libcupti.so.11.7" << ""
        << "cuptiActivityFlushAll" << false;
    QTest::newRow("cuda_runtime.h's template in the program")
        << "cudaError cudaMalloc<double>(double**, unsigned long)" << app << "" << "cudaMalloc" << false;
    QTest::newRow("a statically linked runtime") << "cudart::cudaApiMalloc(void**, unsigned long)" << app << ""
                                                 << "cudart::cudaApiMalloc" << false;
    QTest::newRow("a driver call linked in") << "cuLaunchKernel" << app << "" << "cuLaunchKernel" << false;
    QTest::newRow("nvcc's registration") << "__cudaRegisterLinkedBinary" << app << "" << "__cudaRegisterLinkedBinary"
                                         << false;
    QTest::newRow("nvcc's stub of the launched kernel")
        << "saxpy(double*, double*, double*, double, int)" << app << "saxpy(double *, double *, double *, double, int)"
        << "saxpy" << false;
    QTest::newRow("a function of another kernel's name is the user's")
        << "scale(float*, int)" << app << "saxpy(double *, double *, double *, double, int)" << "scale" << true;
    QTest::newRow("a user function named like CUDA's, lower case after cu")
        << "cumulate(float*)" << app << "" << "cumulate" << true;
    QTest::newRow("the C library") << "__libc_start_main" << "/lib64/libc-2.31.so" << "" << "__libc_start_main" << false;
    QTest::newRow("the C++ library") << "std::thread::_State_impl<F>::_M_run()" << "/home/me/env/lib/libstdc++.so.6"
                                     << "" << "std::thread::_State_impl::_M_run" << false;
    QTest::newRow("PyTorch in site-packages")
        << "at::native::_local_scalar_dense_cuda(at::Tensor const&)"
        << "/home/me/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so" << ""
        << "at::native::_local_scalar_dense_cuda" << false;
    QTest::newRow("the Python interpreter") << "_PyEval_EvalFrameDefault" << "/usr/bin/python3.11" << ""
                                            << "_PyEval_EvalFrameDefault" << false;
    QTest::newRow("MPI") << "MPIDI_CUDA_memcpy" << "/opt/cray/pe/mpich/8.1/lib/libmpi_gnu_91.so.12" << ""
                         << "MPIDI_CUDA_memcpy" << false;
}

void TestTraceFormat::nativeFrameRule()
{
    QFETCH(QString, symbol);
    QFETCH(QString, module);
    QFETCH(QString, kernel);
    QFETCH(QString, function);
    QFETCH(bool, user);
    QCOMPARE(QString::fromStdString(nativeFunctionName(symbol.toStdString())), function);
    QCOMPARE(isUserNativeFrame(symbol.toStdString(), module.toStdString(), kernel.toStdString()), user);
}

namespace {

// writeProgram's calls (their correlation ids) with a CUDA backtrace each,
// on the calls' own rows (schema 3.x's way): a copy from a function of the
// program under CUDA's unresolved and runtime frames, a launch through
// nvcc's stubs of the kernel's name, an allocation through a statically
// linked runtime in a GCC clone, a synchronize from PyTorch (libraries
// only) and one from recursion.
void writeCallchains(Writer& w)
{
    constexpr const char* app = "/opt/app/train";
    constexpr const char* cudart = "/usr/local/cuda-12.4/lib64/libcudart.so.12";
    w.callchainTable();
    w.chain(10, {{"0x7f0000001000", "/opt/nvidia/nsight-systems/2024.2.1/target-linux-x64/libcupti.so.12"},
                 {"0x7f0000002000", "/usr/lib64/libcuda.so.550.54.15"},
                 {"cudaMemcpyAsync", cudart},
                 {"Loader::upload(float const*)", app},
                 {"main", app},
                 {"__libc_start_main", "/lib64/libc.so.6"}});
    w.chain(11, {{"cudaLaunchKernel", app},
                 {"cudaError cudaLaunchKernel<char>(char const*, dim3, dim3, void**, unsigned long, CUstream_st*)", app},
                 {"scale(float*, int)", app},
                 {"scale(float*, int)", app},
                 {"step(int)", app},
                 {"main", app}});
    w.chain(12, {{"cudart::globalState::initializeDriver()", app},
                 {"cudaMalloc", app},
                 {"cudaError cudaMalloc<float>(float**, unsigned long)", app},
                 {"train(int) [clone .constprop.0]", app},
                 {"main", app}});
    w.chain(13, {{"0x7f0000002000", "/usr/lib64/libcuda.so.550.54.15"},
                 {"cudaStreamSynchronize", cudart},
                 {"c10::cuda::stream_synchronize(CUstream_st*)",
                  "/home/me/venv/lib/python3.11/site-packages/torch/lib/libc10_cuda.so"},
                 {"_PyEval_EvalFrameDefault", "/usr/bin/python3.11"}});
    w.chain(14, {{"cudaEventSynchronize", cudart},
                 {"fib(int)", app},
                 {"fib(int)", app},
                 {"fib(int)", app},
                 {"main", app}});
    for (const auto& [correlation, chain] : {std::pair{1, 12}, {3, 10}, {4, 11}, {7, 13}, {8, 14}})
        w.exec("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = " + std::to_string(chain)
               + " WHERE correlationId = " + std::to_string(correlation) + " AND eventClass % 100 = 0");
}

} // namespace

// Nsight's CUDA backtraces become the calls' sites by the rule, from
// whichever row of a call carries the chain; what a stranger's file holds
// in their place leaves calls without a site and says so in the note.
void TestTraceFormat::nsightCallSites_data()
{
    QTest::addColumn<int>("schema");
    QTest::addColumn<QString>("sql"); // run on the report after writeCallchains
    // The site's function of the calls of correlation 1, 3, 4, 7 and 8 ("": none).
    QTest::addColumn<QStringList>("sites");
    QTest::addColumn<QString>("note");
    const QStringList all = {"train(int) [clone .constprop.0]", "Loader::upload(float const*)", "step(int)", "",
                             "fib(int)"};
    const QString read = "5 CUDA calls with backtraces (4 from the program's own code, 1 from libraries only)";
    QTest::newRow("3.x: on the calls' rows") << 3 << "" << all << read;
    QTest::newRow("2.x: on the calls' rows") << 2 << "" << all << read;
    QTest::newRow("2022: on the backtrace row beside the call")
        << 2
        << "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = NULL WHERE correlationId = 3; "
           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 10 WHERE correlationId = 3 AND eventClass = 67"
        << all << read;
    QTest::newRow("on the driver call inside the runtime call")
        << 3
        << "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = NULL WHERE correlationId = 3; "
           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 10 WHERE correlationId = 3 AND eventClass = 101"
        << all << read;
    QTest::newRow("numbered one apart, as Nsight 2022.2 exports them")
        << 2 << "UPDATE CUDA_CALLCHAINS SET id = id + 100; UPDATE CUDA_CALLCHAINS SET id = id - 99" << all
        << read.chopped(1) + "; chains joined at callchainId + 1, as this export numbers them)";
    QTest::newRow("a callchainId with no frames")
        << 3 << "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 99 WHERE callchainId = 10"
        << QStringList{all[0], "", all[2], "", all[4]}
        << "(3 from the program's own code, 1 from libraries only); skipped"
           " 1 CUDA call that a profile does not trace, 1 API row of another class (CUDA backtraces), 3 NVTX events "
           "that are no closed ranges of a run, 1 CUDA backtrace whose callchainId has no frames in CUDA_CALLCHAINS";
    QTest::newRow("a depth missing")
        << 3 << "DELETE FROM CUDA_CALLCHAINS WHERE id = 10 AND stackDepth = 2"
        << QStringList{all[0], "", all[2], "", all[4]} << "1 CUDA backtrace with frames missing, repeated or past 1024";
    QTest::newRow("a depth repeated (no primary key)")
        << 3
        << "CREATE TABLE frames AS SELECT * FROM CUDA_CALLCHAINS; DROP TABLE CUDA_CALLCHAINS; "
           "ALTER TABLE frames RENAME TO CUDA_CALLCHAINS; "
           "INSERT INTO CUDA_CALLCHAINS SELECT id, symbol, module, unresolved, originalIP, 1 FROM CUDA_CALLCHAINS "
           "WHERE id = 11 AND stackDepth = 4"
        << QStringList{all[0], all[1], "", "", all[4]} << "1 CUDA backtrace with frames missing, repeated or past 1024";
    QTest::newRow("frames past 1024")
        << 3
        << "WITH RECURSIVE r(n) AS (SELECT 6 UNION ALL SELECT n + 1 FROM r LIMIT 1100) "
           "INSERT INTO CUDA_CALLCHAINS SELECT 10, symbol, module, NULL, 0, n FROM CUDA_CALLCHAINS, r "
           "WHERE id = 10 AND stackDepth = 4"
        << QStringList{all[0], "", all[2], "", all[4]} << "1 CUDA backtrace with frames missing, repeated or past 1024";
    QTest::newRow("huge values")
        << 3
        << "UPDATE CUDA_CALLCHAINS SET stackDepth = 9223372036854775807 WHERE id = 11 AND stackDepth = 5; "
           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 9223372036854775807 WHERE callchainId = 13; "
           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = -9223372036854775808 WHERE callchainId = 14"
        << QStringList{all[0], all[1], "", "", ""} << "1 CUDA backtrace with frames missing";
    QTest::newRow("values of the wrong type")
        << 3
        << "UPDATE CUDA_CALLCHAINS SET stackDepth = 'deep' WHERE id = 14 AND stackDepth = 0; "
           "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 'twelve' WHERE callchainId = 12"
        << QStringList{"", all[1], all[2], "", ""} << "1 CUDA_CALLCHAINS row whose id or stackDepth is no integer";
    QTest::newRow("a symbol that is no StringIds id")
        << 3 << "UPDATE CUDA_CALLCHAINS SET symbol = 999999 WHERE id = 10 AND stackDepth = 3"
        << QStringList{all[0], "main", all[2], "", all[4]} << read;
    QTest::newRow("no CUDA_CALLCHAINS table")
        << 3 << "DROP TABLE CUDA_CALLCHAINS" << QStringList{"", "", "", "", ""}
        << "5 CUDA backtraces the calls name (callchainId) in a report with no CUDA_CALLCHAINS table";
    QTest::newRow("no callchainId column: read as before")
        << 3 << "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME DROP COLUMN callchainId" << QStringList{"", "", "", "", ""}
        << ": 1 run, 4 GPU ops, 7 CUDA calls, 3 NVTX ranges, 1 unified-memory event; skipped";
}

void TestTraceFormat::nsightCallSites()
{
    QFETCH(int, schema);
    QFETCH(QString, sql);
    QFETCH(QStringList, sites);
    QFETCH(QString, note);
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    const auto loaded = writeAndLoad(path, schema, [&](Writer& w) {
        writeCallchains(w);
        if (!sql.isEmpty())
            w.exec(sql.toStdString());
    });
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note).contains(note), loaded.note.c_str());
    const Run& run = loaded.trace->runs.front();
    QVERIFY(!run.stacksRecorded); // nsys takes backtraces of the calls it chooses, not of all
    const std::uint32_t correlations[] = {1, 3, 4, 7, 8};
    for (int c = 0; c < 5; ++c) {
        const auto op = std::find_if(run.ops.begin(), run.ops.end(), [&](const Op& o) {
            return o.correlation == correlations[c] && !isStreamLaneOp(o.kind);
        });
        QVERIFY(op != run.ops.end());
        const OpSource* source = run.sourceOf(static_cast<std::size_t>(op - run.ops.begin()));
        const SourceSite* site = source ? run.siteAt(source->site) : nullptr;
        QCOMPARE(site ? QString::fromStdString(site->function) : QString(), sites[c]);
        if (!site)
            continue;
        // No line: the module stands in the file's place.
        QCOMPARE(site->line, 0u);
        QCOMPARE(QString::fromStdString(site->file), QStringLiteral("/opt/app/train"));
        QCOMPARE(source->op, 0u);
    }
    // The call a site made: the resolved frame just inside it.
    const auto copy = std::find_if(run.ops.begin(), run.ops.end(),
                                   [](const Op& o) { return o.correlation == 3 && !isStreamLaneOp(o.kind); });
    if (const OpSource* s = run.sourceOf(static_cast<std::size_t>(copy - run.ops.begin()));
        s && sites[1] == "Loader::upload(float const*)")
        QCOMPARE(QString::fromStdString(run.names[s->called]), QStringLiteral("cudaMemcpyAsync"));
    // The native format keeps them.
    const std::string text = traceToJson(*loaded.trace);
    const auto reloaded = traceFromJson(text);
    QVERIFY2(reloaded.trace, reloaded.error.c_str());
    QVERIFY(reloaded.trace->runs.front().sourceSites == run.sourceSites);
    QVERIFY(reloaded.trace->runs.front().opSources == run.opSources);
    QCOMPARE(traceToJson(*reloaded.trace), text);
}

// The stored real export of Nsight Systems 2022.2 was recorded with CUDA
// backtraces (each call's chain on a backtrace row beside it, its ids one
// apart from the chains'): every traced call is the program's main, never
// cuda_runtime.h's templates or nvcc's launch stubs, and the findings say so.
void TestTraceFormat::nsightRealExportCallSites()
{
    const auto loaded = loadTrace(nsightData("saxpy-mpi-cuda_nsys_perlmutter0.sqlite").toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    QVERIFY2(QString::fromStdString(loaded.note)
                 .contains("38 CUDA calls with backtraces (38 from the program's own code, 0 from libraries only; "
                           "chains joined at callchainId + 1, as this export numbers them)"),
             loaded.note.c_str());
    const Run& run = loaded.trace->runs.front();
    QCOMPARE(run.sourceSites.size(), std::size_t(1));
    QCOMPARE(run.sourceSites.front().function, std::string("main"));
    QCOMPARE(run.sourceSites.front().file, std::string("/global/u2/o/ocankur/apps/chatterbug/saxpy-mpi-cuda/saxpy-mpi-cuda"));
    std::map<std::string, int> called;
    int sited = 0;
    for (std::size_t i = 0; i < run.ops.size(); ++i)
        if (const OpSource* s = run.sourceOf(i)) {
            ++sited;
            ++called[run.names[s->called]];
        }
    QCOMPARE(sited, 38);
    // What main called: the runtime's templates and the kernel's stub.
    QCOMPARE(called["cudaError cudaMalloc<double>(double**, unsigned long)"], 15);
    QCOMPARE(called["saxpy(double*, double*, double*, double, int)"], 5);
    const auto analyses = analyzeTrace(*loaded.trace);
    const auto& findings = analyses.front().findings.findings;
    const auto sync = std::find_if(findings.begin(), findings.end(),
                                   [](const Finding& f) { return f.kind == FindingKind::SyncCopies; });
    QVERIFY(sync != findings.end());
    QCOMPARE(sync->sources.size(), std::size_t(1));
    QCOMPARE(sync->sources.front().function, std::string("main"));
    QCOMPARE(sync->sources.front().line, 0u);
    QCOMPARE(sitePlaceText(sync->sources.front().file, 0, "main", SiteLine::Call), std::string("in main (saxpy-mpi-cuda)"));
}

// A program recorded by `profile` (tests/data/profiled/) and the same
// records in an Nsight report of either schema read as the same run: the
// same lanes, ops, names and device, so the same findings, bounds and replay.
void TestTraceFormat::nsightReadsAsTheProfile_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("schema");
    const QDir data(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/profiled"));
    // Every profile, and the managed-memory example's (unified-memory
    // migrations and faults, named and costed by the managed-migration finding).
    QStringList profiles;
    for (const QString& name : data.entryList({"*.json"}, QDir::Files, QDir::Name))
        profiles << name;
    profiles << "what-if/managed_memory.json" << "what-if/managed_memory-fix.json";
    for (const QString& name : profiles)
        for (const int schema : {2, 3})
            QTest::newRow(qPrintable(name + ", schema " + QString::number(schema))) << data.filePath(name) << schema;
}

void TestTraceFormat::nsightReadsAsTheProfile()
{
    QFETCH(QString, profile);
    QFETCH(int, schema);
    auto native = loadTrace(profile.toStdString());
    QVERIFY2(native.trace, native.error.c_str());
    QCOMPARE(native.trace->runs.size(), std::size_t(1));
    const Run& expected = native.trace->runs.front();
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), schema);
        writeRunAsReport(expected, w);
        if (QTest::currentTestFailed())
            return;
    }
    auto imported = loadTrace(path.toStdString());
    QVERIFY2(imported.trace, imported.error.c_str());
    QCOMPARE(imported.trace->runs.size(), std::size_t(1));
    const Run& run = imported.trace->runs.front();
    QCOMPARE(run.name, expected.name);
    QCOMPARE(run.pipeline, expected.pipeline);
    QCOMPARE(run.timing, expected.timing);
    QCOMPARE(run.status, expected.status);
    QCOMPARE(run.error, expected.error);
    QCOMPARE(run.device.name, expected.device.name);
    QCOMPARE(run.device.detail, expected.device.detail);
    QCOMPARE(run.device.asyncEngineCount, expected.device.asyncEngineCount);
    QCOMPARE(run.device.totalMemoryBytes, expected.device.totalMemoryBytes);
    QCOMPARE(run.timedBeginNs, expected.timedBeginNs);
    QCOMPARE(run.timedEndNs, expected.timedEndNs);
    QCOMPARE(run.lanes.size(), expected.lanes.size());
    for (std::size_t i = 0; i < run.lanes.size(); ++i) {
        QCOMPARE(run.lanes[i].name, expected.lanes[i].name);
        QCOMPARE(run.lanes[i].kind, expected.lanes[i].kind);
        QCOMPARE(run.lanes[i].streamKind, expected.lanes[i].streamKind);
        QCOMPARE(run.lanes[i].device, expected.lanes[i].device);
    }
    QCOMPARE(run.ops.size(), expected.ops.size());
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        const Op& a = run.ops[i];
        const Op& b = expected.ops[i];
        QCOMPARE(run.nameOf(a), expected.nameOf(b));
        // The counters' fields, from Nsight's rows as from the profile's records.
        QCOMPARE(run.unifiedMemoryOf(i) != nullptr, expected.unifiedMemoryOf(i) != nullptr);
        if (run.unifiedMemoryOf(i))
            QVERIFY(*run.unifiedMemoryOf(i) == *expected.unifiedMemoryOf(i));
        QCOMPARE(a.kind, b.kind);
        QCOMPARE(a.lane, b.lane);
        QCOMPARE(a.startNs, b.startNs);
        QCOMPARE(a.endNs, b.endNs);
        QCOMPARE(a.execStartNs, b.execStartNs);
        QCOMPARE(a.execEndNs, b.execEndNs);
        QCOMPARE(a.bytes, b.bytes);
        QCOMPARE(a.memory, b.memory);
        QCOMPARE(a.chunk, b.chunk);
        QCOMPARE(a.correlation, b.correlation);
    }
    // The kernels' shapes and the device's SMs: from the report's rows,
    // which the stored profiles (recorded before format 7) had only in the
    // kernels' names and the device's detail.
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        if (run.ops[i].kind != OpKind::Kernel)
            continue;
        std::string kernel;
        int grid[3] = {}, block[3] = {};
        QVERIFY(parseKernel(run.nameOf(run.ops[i]), kernel, grid, block));
        const KernelShape* shape = run.shapeOf(i);
        QVERIFY(shape);
        for (int d = 0; d < 3; ++d) {
            QCOMPARE(shape->grid[d], static_cast<std::uint32_t>(grid[d]));
            QCOMPARE(shape->block[d], static_cast<std::uint32_t>(block[d]));
        }
    }
    int major = 0, minor = 0, sms = 0, engines = 0;
    QCOMPARE(std::sscanf(expected.device.detail.c_str(), "GPU 0, compute capability %d.%d, %d SMs, %d copy engines",
                         &major, &minor, &sms, &engines),
             4);
    QCOMPARE(run.device.smCount, sms);
    QCOMPARE(run.device.computeCapability, major * 10 + minor);
    Run& given = native.trace->runs.front();
    given.device.smCount = run.device.smCount;
    given.device.computeCapability = run.device.computeCapability;
    given.kernelShapes = run.kernelShapes;
    given.opShapes = run.opShapes;
    // Hence the same metrics, bound, findings and what-if, to the byte, given
    // what a report has no table for: the pinned link's rate, which
    // `profile` times after a program that used pageable or managed memory.
    imported.trace->tool = native.trace->tool;
    imported.trace->createdUtc = native.trace->createdUtc;
    imported.trace->sweeps = native.trace->sweeps;
    QCOMPARE(analysisJson(*imported.trace, analyzeTrace(*imported.trace)),
             analysisJson(*native.trace, analyzeTrace(*native.trace)));
}

// A report from a stranger is data, never a program (docs/trace-format.md,
// "Nsight Systems reports"): what would compute rows or values as they are
// read is refused by name before any row is asked for, what never runs on a
// read (triggers, views and indexes beside the tables) is left alone, and
// every read ends soon with SQLite's memory small.
void TestTraceFormat::nsightHostileReports_data()
{
    QTest::addColumn<int>("schema");
    QTest::addColumn<QString>("sql");     // run on the written report
    QTest::addColumn<QString>("message"); // empty: it loads as the plain report does
    const QString endless = "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r)";
    // In the place of each table the reader reads, a view with the table's
    // columns and rows without end: read, it would never return.
    const struct {
        const char* table;
        int schema;
        const char* create; // for the tables the report writer leaves out
    } tables[] = {
        {"META_DATA_EXPORT", 3, ""},
        {"EXPORT_META_DATA", 2, ""},
        {"StringIds", 3, ""},
        {"PROCESSES", 3, ""},
        {"ThreadNames", 3, ""},
        {"TARGET_INFO_GPU", 3, ""},
        {"TARGET_INFO_CUDA_STREAM", 3, ""},
        {"TARGET_INFO_CUDA_CONTEXT_INFO", 3, ""},
        {"TARGET_INFO_CUDA_NULL_STREAM", 2, ""},
        {"TARGET_INFO_CUDA_DEVICE", 3,
         "CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER, cudaId INTEGER, pid INTEGER, numMultiprocessors INTEGER); "
         "INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (0, 0, 4242, 132);"},
        {"CUPTI_ACTIVITY_KIND_KERNEL", 3, ""},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", 2, ""},
        {"CUPTI_ACTIVITY_KIND_MEMSET", 3, ""},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", 3, ""},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 3, ""},
        {"CUDA_UM_GPU_PAGE_FAULT_EVENTS", 3, ""},
        {"CUDA_UM_CPU_PAGE_FAULT_EVENTS", 3, ""},
        {"NVTX_EVENTS", 3, ""},
        {"CUDA_GPU_MEMORY_USAGE_EVENTS", 3,
         "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, bytes INTEGER); "
         "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (1, 2, 3);"},
        // Read where a call names a backtrace (callchainId).
        {"CUDA_CALLCHAINS", 3,
         "CREATE TABLE CUDA_CALLCHAINS (id INTEGER, symbol INTEGER, module INTEGER, unresolved INTEGER, originalIP "
         "INTEGER, stackDepth INTEGER); INSERT INTO CUDA_CALLCHAINS VALUES (1, 1, 1, NULL, 0, 0); "
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = 1 WHERE correlationId = 3 AND eventClass = 100;"},
        {"ENUM_CUDA_MEM_KIND", 3, ""},
        {"ENUM_CUDA_MEMCPY_OPER", 3, ""},
        {"ENUM_CUDA_UNIF_MEM_MIGRATION", 3, ""},
        {"ENUM_CUPTI_SYNC_TYPE", 3, ""},
        {"ENUM_CUPTI_STREAM_TYPE", 3, ""},
        {"ENUM_NSYS_EVENT_CLASS", 3, ""},
        {"ENUM_NSYS_EVENT_TYPE", 3, ""},
    };
    for (const auto& t : tables)
        QTest::newRow(qPrintable(QString("a view over an endless query in place of ") + t.table))
            << t.schema
            << QString("%1 ALTER TABLE %2 RENAME TO %2_rows; CREATE VIEW %2 AS SELECT %2_rows.* FROM %2_rows, %3")
                   .arg(t.create, t.table, endless)
            << QString("%1 is a view, not a table: a report is read as data").arg(t.table);
    // The issue's crafted file: five kernels whose name is 900 MB each.
    QTest::newRow("a view computing huge values in place of the kernels")
        << 3
        << "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO kernel_rows; CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS "
           "SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, randomblob(900000000) AS "
           "demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
           "staticSharedMemory, dynamicSharedMemory FROM kernel_rows"
        << "CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table";
    // SQLite's names ignore ASCII case: "stringids" is what FROM StringIds reads.
    QTest::newRow("a view named in other letter case")
        << 3 << "ALTER TABLE StringIds RENAME TO s_rows; CREATE VIEW stringids AS SELECT s_rows.* FROM s_rows, " + endless
        << "StringIds is a view, not a table";
    QTest::newRow("an FTS5 table in place of the copies")
        << 3 << "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; CREATE VIRTUAL TABLE CUPTI_ACTIVITY_KIND_MEMCPY USING fts5(start, end)"
        << "CUPTI_ACTIVITY_KIND_MEMCPY is a virtual table, not a table";
    QTest::newRow("an R*Tree in place of the GPUs")
        << 2 << "DROP TABLE TARGET_INFO_GPU; CREATE VIRTUAL TABLE TARGET_INFO_GPU USING rtree(id, x0, x1)"
        << "TARGET_INFO_GPU is a virtual table, not a table";
    // No SQLite has this module: refused by what the schema says, which
    // SQLite's parser reads past the comment too.
    QTest::newRow("a virtual table of an unknown module")
        << 3
        << "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME; PRAGMA writable_schema = ON; INSERT INTO sqlite_master VALUES "
           "('table', 'CUPTI_ACTIVITY_KIND_RUNTIME', 'CUPTI_ACTIVITY_KIND_RUNTIME', 0, 'CREATE /* a module */ VIRTUAL "
           "TABLE CUPTI_ACTIVITY_KIND_RUNTIME USING overlapscope_no_such_module(start, end)'); PRAGMA writable_schema = OFF"
        << "CUPTI_ACTIVITY_KIND_RUNTIME is a virtual table, not a table";
    // A generated column is computed when read; PRAGMA table_info does not
    // list it, so the reader finds the column missing.
    QTest::newRow("a computed column in place of gridY")
        << 3
        << "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN gridY; ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN "
           "gridY INTEGER AS (length(zeroblob(900000000)))"
        << "CUPTI_ACTIVITY_KIND_KERNEL has no column gridY, which this reader needs";
    QTest::newRow("a kernel name of 2 MB")
        << 3 << "UPDATE StringIds SET value = printf('%.*c', 2000000, 'k') WHERE value = 'scale(float*, int)'"
        << "a value in it is longer than 1 MiB, the most this reader takes for one (string or blob too big)";
    QTest::newRow("a kernel name of 1,000,000 bytes loads")
        << 3 << "UPDATE StringIds SET value = printf('%.*c', 1000000, 'k') WHERE value = 'scale(float*, int)'" << "";
    // A trigger never fires on a read, but it is code, and no export has
    // one: refused, by name. Views and indexes beside the tables are not
    // read, and a report someone added a view to still opens.
    QTest::newRow("a trigger-laden schema")
        << 3
        << "CREATE TRIGGER t1 AFTER INSERT ON CUPTI_ACTIVITY_KIND_KERNEL BEGIN SELECT randomblob(900000000); END; "
           "CREATE TRIGGER t2 BEFORE DELETE ON StringIds BEGIN SELECT randomblob(900000000); END; "
           "CREATE TRIGGER t3 AFTER UPDATE ON NVTX_EVENTS BEGIN DELETE FROM StringIds; END"
        << "the report holds a trigger (t1): a report is read as data, and a trigger is code that would run";
    QTest::newRow("views and indexes beside the tables load")
        << 3
        << "CREATE VIEW forever AS SELECT * FROM " + endless + "; "
           "CREATE INDEX by_length ON StringIds(length(value) * 2)"
        << "";
    // Real tables only, and a lookup that scans them all each time: no
    // StringIds index, 8,000 kernels of a name each (64 million rows
    // visited, where the budget of this 0.6 MB file is 60 million steps).
    QTest::newRow("quadratic work over real tables")
        << 3
        << "CREATE TABLE plain (id INTEGER, value TEXT); INSERT INTO plain SELECT id, value FROM StringIds; "
           "DROP TABLE StringIds; ALTER TABLE plain RENAME TO StringIds; "
           "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 8000) "
           "INSERT INTO StringIds SELECT 1000 + n, 'kernel ' || n FROM r; "
           "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 8000) "
           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT 1000 + n, 1001 + n, 0, 1, 13, 0, "
           + QString::number(Writer::globalPid(4242))
           + ", 1000 + n, 1000 + n, 32, 1, 1, 1, 32, 1, 1, 0, 0 FROM r"
        << "reading it went past its work budget of";
}

void TestTraceFormat::nsightHostileReports()
{
    QFETCH(int, schema);
    QFETCH(QString, sql);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), schema);
        writeProgram(w);
        w.exec(sql.toStdString());
    }
    // SQLite's own allocations, the most at once during the read (the
    // counter is the process's; nothing else runs SQLite meanwhile).
    sqlite3_memory_highwater(1);
    QElapsedTimer clock;
    clock.start();
    const auto loaded = loadTrace(path.toStdString());
    const qint64 ms = clock.elapsed();
    const sqlite3_int64 sqliteBytes = sqlite3_memory_highwater(0);
    QVERIFY2(sqliteBytes > 0, "SQLite keeps no memory statistics: the bound below would prove nothing");
    QVERIFY2(sqliteBytes < 200 * 1000 * 1000, qPrintable(QString::number(sqliteBytes)));
    // Measured in well under a second (docs/trace-format.md); the bound is
    // for slow and sanitized machines.
    QVERIFY2(ms < ovsTestTimeoutMs(10000), qPrintable(QString::number(ms)));
    const QString error = QString::fromStdString(loaded.error);
    if (message.isEmpty()) {
        QVERIFY2(loaded.trace, loaded.error.c_str());
        QCOMPARE(loaded.trace->runs.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(loaded.note).contains(": 1 run, 4 GPU ops, 7 CUDA calls, 3 NVTX ranges"), loaded.note.c_str());
        return;
    }
    QVERIFY(!loaded.trace);
    QVERIFY(!loaded.cancelled);
    QVERIFY2(error.startsWith(path + ": Nsight Systems report: "), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(!error.contains('\n') && error.size() <= 300, qPrintable(error));
}

// SQLite never checks that TEXT is UTF-8; JSON must be. A kernel named by
// stray bytes (a lone continuation byte, 0xFF, a truncated sequence: what
// the fuzzer found) imports with each bad byte as U+FFFD, so the trace
// `convert --to native` writes reads back, name and all.
// The fuzzer's find: a damaged report with two ops of one stream over each
// other, which the import kept, so that the converted trace was refused by
// the native reader ("ops 0 and 1 overlap on lane 0"). The later op goes,
// and the run says so.
void TestTraceFormat::nsightOverlapOnAStreamIsLeftOut()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), 3);
        writeProgram(w);
        // Begins inside the upload of stream 13 (320 to 400), ends long
        // after the kernel that follows it there.
        w.memcpy(4242, 350, 8592, 13, 9, 1 << 20, Writer::Copy::HtoD, Writer::Memory::Pinned, Writer::Memory::Device);
    }
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const Run& run = loaded.trace->runs.front();
    QVERIFY2(run.error.find("1 op was left out: each began before the op before it on its stream or thread had ended")
                 != std::string::npos,
             run.error.c_str());
    const auto uploads = std::count_if(run.ops.begin(), run.ops.end(), [](const Op& op) { return op.kind == OpKind::Upload; });
    QCOMPARE(uploads, 1);
    const auto back = traceFromJson(traceToJson(*loaded.trace));
    QVERIFY2(back.trace, back.error.c_str());
}

void TestTraceFormat::nsightNamesBecomeValidUtf8()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), 3);
        writeProgram(w);
        w.exec("UPDATE StringIds SET value = CAST(X'6b80ff73e282' AS TEXT) || '(float*)' WHERE value = 'scale(float*, int)'");
        // The fuzzer's find: an invalid byte in the export's schema
        // version, which names the trace's tool.
        w.exec("UPDATE META_DATA_EXPORT SET value = CAST(X'a42e31312e31' AS TEXT) WHERE name = 'EXPORT_SCHEMA_VERSION'");
    }
    const auto loaded = loadTrace(path.toStdString());
    QVERIFY2(loaded.trace, loaded.error.c_str());
    const std::string expected = "k\xEF\xBF\xBD\xEF\xBF\xBDs\xEF\xBF\xBD\xEF\xBF\xBD(float*)";
    const Run& run = loaded.trace->runs.front();
    const auto kernel = std::find_if(run.ops.begin(), run.ops.end(), [&](const Op& op) { return op.kind == OpKind::Kernel; });
    QVERIFY(kernel != run.ops.end());
    const std::string name(run.nameOf(*kernel));
    QVERIFY2(name.starts_with(expected + " [grid 2x1x1"), name.c_str());
    QVERIFY2(loaded.trace->tool.ends_with("export schema \xEF\xBF\xBD.11.1"), loaded.trace->tool.c_str());
    const std::string text = traceToJson(*loaded.trace);
    const auto reloaded = traceFromJson(text);
    QVERIFY2(reloaded.trace, reloaded.error.c_str());
    QCOMPARE(traceToJson(*reloaded.trace), text);
}

// The window's Cancel (and the CLI's Ctrl-C) raise the read's flag, which
// SQLite's progress handler checks every SqliteDatabase::kStepsPerCheck
// steps of a statement: the read ends with RunCancelled (loadTrace's
// "cancelled"), whatever the statement. 5,000 kernels make one statement
// long enough to be checked.
void TestTraceFormat::nsightReadStopsWhenCancelled()
{
    QTemporaryDir dir;
    const QString path = tempPath(dir, "report.sqlite");
    {
        Writer w(path.toStdString(), 3);
        writeProgram(w);
        w.exec("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 5000) INSERT INTO "
               "CUPTI_ACTIVITY_KIND_KERNEL SELECT 1000 + n, 1001 + n, 0, 1, 13, 0, "
               + std::to_string(Writer::globalPid(4242)) + ", 1, 1, 32, 1, 1, 1, 32, 1, 1, 0, 0 FROM r");
    }
    CancelFlag cancel;
    QVERIFY(NsightSqliteImport::read(path.toStdString(), &cancel).trace.runs.size() == 1);
    cancel.cancel();
    QVERIFY_THROWS_EXCEPTION(RunCancelled, NsightSqliteImport::read(path.toStdString(), &cancel));
}

QTEST_APPLESS_MAIN(TestTraceFormat)
#include "tst_trace_format.moc"
