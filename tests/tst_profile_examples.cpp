// On a GPU: `overlapscope-cli profile` records each example program (with
// its pitfall and with --fix) through the injection library, and the trace
// shows what the example is about. Skips, saying why, without a GPU or
// without the examples and the injection library (no CUDA toolkit).
//
// The examples are looked for in OVERLAPSCOPE_EXAMPLES_DIR, else in
// build/examples next to the CLI's build/app/cli.
#include "TestTimeouts.h"
#include "findings/Findings.h"
#include "analysis/RunAnalysis.h"
#include "devicefactory/DeviceFactory.h"
#include "formats/TraceJson.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace ovs;

namespace {

bool overlaps(const Op& a, const Op& b)
{
    return a.startNs < b.endNs && b.startNs < a.endNs;
}

bool isCopy(OpKind k)
{
    return k == OpKind::Upload || k == OpKind::Download;
}

// Some copy runs while some kernel runs.
bool copiesOverlapKernels(const Run& run)
{
    for (const Op& k : run.ops)
        if (k.kind == OpKind::Kernel)
            for (const Op& c : run.ops)
                if (isCopy(c.kind) && overlaps(k, c))
                    return true;
    return false;
}

int countNamed(const Run& run, const std::string& prefix)
{
    int n = 0;
    for (const Op& op : run.ops)
        if (run.nameOf(op).rfind(prefix, 0) == 0)
            ++n;
    return n;
}

int countKind(const Run& run, OpKind kind)
{
    int n = 0;
    for (const Op& op : run.ops)
        n += op.kind == kind;
    return n;
}

int legacyOps(const Run& run)
{
    int n = 0;
    for (const Op& op : run.ops)
        n += run.lanes[op.lane].name == "default stream (legacy)";
    return n;
}

std::set<int> gpuLanes(const Run& run)
{
    std::set<int> lanes;
    for (const Op& op : run.ops)
        if (isGpuOp(op.kind))
            lanes.insert(op.lane);
    return lanes;
}

} // namespace

class TestProfileExamples : public QObject {
    Q_OBJECT

    QString m_examples;
    QTemporaryDir m_dir;
    static constexpr int kChunks = 8;

    // Profiles one example and returns its one run; `report` receives what
    // profile printed on stderr (with `quiet` false, its findings);
    // `options` are profile's own.
    Run profile(const QString& example, bool fix, bool quiet = true, QString* report = nullptr,
                const QStringList& options = {})
    {
        const QString trace = m_dir.filePath(example + (fix ? "-fix" : "") + ".json");
        QStringList args{"profile", "-o", trace};
        args << options;
        args << QStringList{"--", m_examples + "/" + example, "--chunks", QString::number(kChunks), "--chunk-mib", "8"};
        if (quiet)
            args.insert(1, "--quiet");
        if (fix)
            args << "--fix";
        QProcess process;
        process.start(OVERLAPSCOPE_CLI_PATH, args);
        if (!process.waitForFinished(ovsTestTimeoutMs(120000))) {
            QTest::qFail("profile did not finish", __FILE__, __LINE__);
            return {};
        }
        const QString err = QString::fromUtf8(process.readAllStandardError());
        if (report)
            *report = err;
        if (process.exitCode() != 0) {
            QTest::qFail(qPrintable("profile failed: " + err), __FILE__, __LINE__);
            return {};
        }
        const TraceLoadResult loaded = loadTrace(trace.toStdString());
        if (!loaded.trace || loaded.trace->runs.size() != 1) {
            QTest::qFail(qPrintable("expected one run in " + trace + ": " + QString::fromStdString(loaded.error)),
                         __FILE__, __LINE__);
            return {};
        }
        return loaded.trace->runs.front();
    }

private slots:
    void initTestCase()
    {
        std::string why;
        if (!cudaDeviceAvailable(&why))
            QSKIP(("no CUDA GPU: " + why).c_str());
        m_examples = qEnvironmentVariable("OVERLAPSCOPE_EXAMPLES_DIR",
                                          QFileInfo(QStringLiteral(OVERLAPSCOPE_CLI_PATH)).absolutePath()
                                              + "/../../examples");
        if (!QFileInfo::exists(m_examples + "/one_stream"))
            QSKIP(qPrintable("the example programs are not built (" + m_examples + ")"));
        if (!QFileInfo::exists(QFileInfo(QStringLiteral(OVERLAPSCOPE_CLI_PATH)).absolutePath()
                               + "/liboverlapscope-inject.so"))
            QSKIP("the injection library is not built");
    }

    void everyExampleIsRecordedWhole_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<bool>("fix");
        for (const char* e : {"pageable_async", "legacy_default_stream", "one_stream", "sync_in_loop", "malloc_in_loop",
                              "event_wait_per_chunk", "memcpy_around_kernel"})
            for (bool fix : {false, true})
                QTest::newRow(qPrintable(QString::fromLatin1(e) + (fix ? " --fix" : ""))) << QString::fromLatin1(e)
                                                                                          << fix;
    }
    void everyExampleIsRecordedWhole()
    {
        QFETCH(QString, example);
        QFETCH(bool, fix);
        const Run run = profile(example, fix);
        QCOMPARE(run.status, RunStatus::Completed);
        QCOMPARE(countKind(run, OpKind::Kernel), kChunks);
        QCOMPARE(countKind(run, OpKind::Upload), kChunks);
        QCOMPARE(countKind(run, OpKind::Download), kChunks);
        // Every GPU op was enqueued by a recorded call: the correlation ids join.
        std::set<std::uint32_t> calls;
        for (const Op& op : run.ops)
            if (!isGpuOp(op.kind))
                calls.insert(op.correlation);
        for (const Op& op : run.ops)
            if (isGpuOp(op.kind))
                QVERIFY2(calls.count(op.correlation), run.nameOf(op).c_str());
        QVERIFY(countNamed(run, "incrementKernel(float*, unsigned long, int)") == kChunks);
    }

    void pageableCopiesShowAsPageable()
    {
        const Run pitfall = profile("pageable_async", false);
        const Run fixed = profile("pageable_async", true);
        for (const Op& op : pitfall.ops)
            if (isCopy(op.kind))
                QCOMPARE(op.memory, HostMemoryKind::Pageable);
        for (const Op& op : fixed.ops)
            if (isCopy(op.kind))
                QCOMPARE(op.memory, HostMemoryKind::Pinned);
        QVERIFY(copiesOverlapKernels(fixed));
    }

    void legacyDefaultStreamWorkIsOnItsLane()
    {
        const Run pitfall = profile("legacy_default_stream", false);
        const Run fixed = profile("legacy_default_stream", true);
        QCOMPARE(legacyOps(pitfall), kChunks); // the memsets
        QCOMPARE(legacyOps(fixed), 0);
        // CUPTI's stream records type the lanes: cudaStreamCreate's streams
        // are blocking, the fix's cudaStreamNonBlocking ones are not.
        const auto kindsOfLanesWithOps = [](const Run& run) {
            std::set<StreamKind> kinds;
            for (const Op& op : run.ops)
                if (run.lanes[op.lane].kind == LaneKind::Stream)
                    kinds.insert(run.lanes[op.lane].streamKind);
            return kinds;
        };
        QCOMPARE(kindsOfLanesWithOps(pitfall), (std::set<StreamKind>{StreamKind::Blocking, StreamKind::LegacyDefault}));
        QCOMPARE(kindsOfLanesWithOps(fixed), std::set<StreamKind>{StreamKind::NonBlocking});
    }

    // cudaMemcpy puts the copies on the legacy default stream, the kernels
    // stay on the created stream; with --fix nothing is on the legacy stream
    // and copies run under kernels.
    void memcpyAroundKernelCopiesOnTheLegacyStream()
    {
        const Run pitfall = profile("memcpy_around_kernel", false);
        QCOMPARE(legacyOps(pitfall), 2 * kChunks);
        QCOMPARE(gpuLanes(pitfall).size(), std::size_t(2));
        QVERIFY(countNamed(pitfall, "cudaMemcpy") >= 2 * kChunks);
        const Run fixed = profile("memcpy_around_kernel", true);
        QCOMPARE(legacyOps(fixed), 0);
        QCOMPARE(gpuLanes(fixed).size(), std::size_t(3));
        QVERIFY(copiesOverlapKernels(fixed));
    }

    void oneStreamNeverOverlaps()
    {
        const Run pitfall = profile("one_stream", false);
        const Run fixed = profile("one_stream", true);
        QCOMPARE(gpuLanes(pitfall).size(), std::size_t(1));
        QVERIFY(!copiesOverlapKernels(pitfall)); // one stream runs in order
        QCOMPARE(gpuLanes(fixed).size(), std::size_t(3));
        QVERIFY(copiesOverlapKernels(fixed));
    }

    void syncInTheLoopShowsOneWaitPerChunk()
    {
        QVERIFY(countNamed(profile("sync_in_loop", false), "cudaDeviceSynchronize") >= kChunks);
        const Run fixed = profile("sync_in_loop", true);
        QCOMPARE(countNamed(fixed, "cudaDeviceSynchronize"), 0);
        QVERIFY(copiesOverlapKernels(fixed)); // the sync bound the plain program: the fix overlaps
    }

    // sync_in_loop marks its loop ("loop", NVTX3's C++ scoped range, the
    // domain API) and each iteration ("chunk N", nvtxRangePushA/Pop), with
    // --fix each chunk's time in flight (nvtxRangeStartA/End), and brackets
    // the loop with cudaProfilerStart/Stop: all of them are the run's regions.
    void nvtxRangesAndTheProfilerRangeAreRegions()
    {
        const auto named = [](const Run& run, const std::string& name) -> const Region* {
            for (const Region& r : run.regions)
                if (r.name == name)
                    return &r;
            return nullptr;
        };
        const Run plain = profile("sync_in_loop", false);
        const Region* loop = named(plain, "loop");
        QVERIFY(loop);
        QCOMPARE(loop->source, RegionSource::Nvtx);
        QCOMPARE(loop->depth, std::uint16_t(0));
        QVERIFY(loop->lane < plain.lanes.size());
        // "main thread (sync_in_loop)": the thread lane, named with its program.
        QVERIFY2(plain.lanes[loop->lane].name.starts_with("main thread"), plain.lanes[loop->lane].name.c_str());
        for (int c = 0; c < kChunks; ++c) {
            const Region* chunk = named(plain, "chunk " + std::to_string(c));
            QVERIFY2(chunk, qPrintable(QString("chunk %1").arg(c)));
            QCOMPARE(chunk->depth, std::uint16_t(1));
            QCOMPARE(chunk->lane, loop->lane);
            QVERIFY(loop->beginNs <= chunk->beginNs && chunk->endNs <= loop->endNs);
        }
        const Region* profiler = named(plain, "cudaProfilerStart/Stop");
        QVERIFY(profiler);
        QCOMPARE(profiler->source, RegionSource::ProfilerRange);
        QCOMPARE(profiler->lane, Region::kNoLane);
        QVERIFY(profiler->beginNs <= loop->beginNs && loop->endNs <= profiler->endNs);

        const Run fixed = profile("sync_in_loop", true);
        int inFlight = 0;
        for (const Region& r : fixed.regions) {
            if (r.name.find(" in flight") == std::string::npos)
                continue;
            ++inFlight;
            QCOMPARE(r.source, RegionSource::Nvtx);
            // Start/end ranges overlap each other; they are laid out so that
            // no two regions of one lane and depth overlap.
            for (const Region& other : fixed.regions)
                if (&other != &r && other.lane == r.lane && other.depth == r.depth)
                    QVERIFY(other.endNs <= r.beginNs || r.endNs <= other.beginNs);
        }
        QCOMPARE(inFlight, kChunks);

        // --capture-range cudaProfilerApi: the setup before cudaProfilerStart
        // (the pinned allocations) is dropped, the loop's work kept.
        // (CUDA 13's runtime records cudaMallocHost as cudaHostAlloc.)
        const auto pinnedAllocations = [&](const Run& run) {
            return countNamed(run, "cudaMallocHost") + countNamed(run, "cudaHostAlloc");
        };
        QVERIFY(pinnedAllocations(plain) > 0);
        const Run captured = profile("sync_in_loop", false, true, nullptr, {"--capture-range", "cudaProfilerApi"});
        QCOMPARE(pinnedAllocations(captured), 0);
        QCOMPARE(countKind(captured, OpKind::Kernel), kChunks);
        QVERIFY2(captured.error.find("capture range cudaProfilerApi: 1 range") != std::string::npos,
                 captured.error.c_str());
    }

    // An event wait per chunk on two streams; --fix: four streams, one wait.
    void eventWaitPerChunkShowsOneWaitPerChunk()
    {
        const Run pitfall = profile("event_wait_per_chunk", false);
        QVERIFY(countNamed(pitfall, "cudaEventSynchronize") >= kChunks);
        QCOMPARE(gpuLanes(pitfall).size(), std::size_t(2));
        QVERIFY(!copiesOverlapKernels(pitfall)); // one chunk in flight
        const Run fixed = profile("event_wait_per_chunk", true);
        QCOMPARE(countNamed(fixed, "cudaEventSynchronize"), 1);
        QCOMPARE(gpuLanes(fixed).size(), std::size_t(4));
        QVERIFY(copiesOverlapKernels(fixed));
    }

    // Each example's pitfall is what the analysis finds (findings/Findings.h),
    // and with --fix it finds no pitfall at all, only the run's bound.
    void expectedFindingFiresAndNotWithFix_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<int>("kind");
        QTest::newRow("pageable_async") << "pageable_async" << int(FindingKind::PageableCopies);
        QTest::newRow("legacy_default_stream") << "legacy_default_stream" << int(FindingKind::LegacyDefaultStream);
        QTest::newRow("one_stream") << "one_stream" << int(FindingKind::OneStream);
        QTest::newRow("sync_in_loop") << "sync_in_loop" << int(FindingKind::SyncInLoop);
        QTest::newRow("malloc_in_loop") << "malloc_in_loop" << int(FindingKind::AllocInLoop);
        QTest::newRow("event_wait_per_chunk") << "event_wait_per_chunk" << int(FindingKind::SyncInLoop);
        QTest::newRow("memcpy_around_kernel") << "memcpy_around_kernel" << int(FindingKind::SyncCopies);
    }
    void expectedFindingFiresAndNotWithFix()
    {
        QFETCH(QString, example);
        QFETCH(int, kind);
        const auto describe = [](const RunFindings& f) {
            QString text;
            for (const Finding& x : f.findings)
                text += QString("%1 (%2 ns): %3\n").arg(toString(x.kind)).arg(x.costNs).arg(QString::fromStdString(x.cause));
            return text;
        };
        const RunFindings pitfall = analyzeFindings(profile(example, false), {});
        const auto found = std::find_if(pitfall.findings.begin(), pitfall.findings.end(),
                                        [&](const Finding& f) { return int(f.kind) == kind; });
        QVERIFY2(found != pitfall.findings.end(), qPrintable(describe(pitfall)));
        QVERIFY(found->costNs > 0);
        QVERIFY(found->opCount > 0);
        const RunFindings fixed = analyzeFindings(profile(example, true), {});
        QVERIFY2(fixed.findings.size() == 1 && fixed.findings.front().kind == FindingKind::Bound,
                 qPrintable(describe(fixed)));
    }

    // With --stacks sync, each example's pitfall names its own line (the
    // examples are built with debug information): issue 30's "every
    // example's finding names its own line".
    void findingNamesTheExamplesOwnLine_data() { expectedFindingFiresAndNotWithFix_data(); }
    void findingNamesTheExamplesOwnLine()
    {
        QFETCH(QString, example);
        QFETCH(int, kind);
        const RunFindings f = analyzeFindings(profile(example, false, true, nullptr, {"--stacks", "sync"}), {});
        const auto found = std::find_if(f.findings.begin(), f.findings.end(),
                                        [&](const Finding& x) { return int(x.kind) == kind; });
        QVERIFY(found != f.findings.end());
        QVERIFY2(!found->sources.empty(), found->sourcesNote.c_str());
        const QString file = QString::fromStdString(found->sources.front().file);
        QVERIFY2(file.endsWith("/" + example + ".cu"), qPrintable(file));
        QVERIFY(found->sources.front().line > 0);
    }

    // Without --quiet, profile prints the same findings analyze does.
    void profilePrintsTheFindings()
    {
        QString report;
        profile("one_stream", false, false, &report);
        QVERIFY2(report.contains("Findings (per run") && report.contains("too few streams: its fix saves")
                     && report.contains("| device | streams | H2D |"),
                 qPrintable(report));
    }

    void mallocInTheLoopShowsAnAllocationPerChunk()
    {
        const Run pitfall = profile("malloc_in_loop", false);
        QVERIFY(countNamed(pitfall, "cudaMalloc") >= kChunks);
        QVERIFY(countNamed(pitfall, "cudaFree") >= kChunks);
        QVERIFY(countNamed(profile("malloc_in_loop", true), "cudaMalloc") < kChunks);
    }
};

QTEST_GUILESS_MAIN(TestProfileExamples)
#include "tst_profile_examples.moc"
