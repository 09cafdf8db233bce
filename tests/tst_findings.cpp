// Findings on any run (findings/Findings.h): for each kind a small
// hand-built run where it fires and its fixed counterpart where it does not,
// with the ops it names and a cost checked against the rule in FindingRules.cpp;
// per-device activity with exact numbers; and the stored H200 traces (our
// pipelines, PyTorch traces, the example programs profiled with and without
// --fix), where each finding must or must not appear.
#include "json/AnalysisJson.h"
#include "findings/FindingRules.h"
#include "findings/FindingSources.h"
#include "findings/Findings.h"
#include "findings/TorchSyncCauses.h"
#include "judgement/JudgedSpan.h"
#include "words/JudgementWords.h"
#include "analysis/RunAnalysis.h"
#include "analysis/TraceDiff.h"
#include "base/Thresholds.h"
#include "pipeline/PipelineRunner.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include "TestRunBuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

using namespace ovs;
using ovs::test::RunBuilder;

Q_DECLARE_METATYPE(ovs::FindingKind)

namespace {

constexpr std::int64_t kUs = 1000;
constexpr std::uint64_t kChunkBytes = std::uint64_t(16) << 20;

// The chunked loop of the example programs, in its variants: each chunk
// uploads 16 MiB, runs a kernel and downloads 16 MiB (300 us each at the
// ~56 GB/s of a pinned copy).
struct Loop {
    int chunks = 6;
    int streams = 3;
    HostMemoryKind memory = HostMemoryKind::Pinned;
    bool serial = false;          // each chunk after the previous one's download
    bool queueAhead = false;      // serial on the GPU, but the host queues every chunk at once (one stream)
    std::int64_t hostGapNs = 0;   // host work between chunks of a serial loop (GPU idle)
    std::int64_t copyNs = 300 * kUs;
    bool blockingCalls = false;   // copy calls return only when their copy ends
    bool syncCopies = false;      // calls named cudaMemcpy, not cudaMemcpyAsync
    bool deviceSync = false;      // cudaDeviceSynchronize after each chunk (serial loops)
    bool eventSync = false;       // per-chunk event waits on the oldest chunk (overlapped loops)
    bool allocInLoop = false;     // cudaMalloc before and cudaFree after each chunk (serial loops)
    std::string allocName = "cudaMalloc";
    std::string freeName = "cudaFree";
    bool allocOutside = false;    // cudaMalloc before the loop, cudaFree after it
    bool legacyMemset = false;    // a memset per chunk on the legacy default stream (serial loops)
    bool ownStreamMemset = false; // the same memset on the chunk's own stream
};

Run buildLoop(const Loop& l)
{
    RunBuilder b;
    std::vector<int> streams;
    const int legacy = l.legacyMemset ? b.lane("default stream (legacy)", LaneKind::Stream, StreamKind::LegacyDefault) : -1;
    for (int s = 0; s < l.streams; ++s) {
        streams.push_back(b.lane("stream " + std::to_string(13 + s)));
        if (l.legacyMemset)
            b.run().lanes.back().streamKind = StreamKind::Blocking; // cudaStreamCreate: they take its barriers
    }
    const int host = b.lane("main thread", LaneKind::HostThread);
    const std::int64_t k = 300 * kUs, c = l.copyNs;
    std::uint32_t corr = 1;
    std::int64_t t = 1000 * kUs; // host time
    if (l.allocOutside) {
        b.call(host, l.allocName, 0, 80 * kUs, corr++, OpKind::Alloc);
        b.call(host, l.allocName, 100 * kUs, 180 * kUs, corr++, OpKind::Alloc);
    }
    std::int64_t gpuEnd = t;
    for (int i = 0; i < l.chunks; ++i) {
        const int s = streams[std::size_t(i % l.streams)];
        const std::string copyCall = l.syncCopies ? "cudaMemcpy" : "cudaMemcpyAsync";
        // GPU times: serial loops start when the host issues; overlapped
        // ones keep one copy engine busy back to back.
        std::int64_t g = l.serial ? std::max(t + 20 * kUs, l.queueAhead ? gpuEnd : 0) : 1000 * kUs + i * c;
        if (l.allocInLoop) {
            b.call(host, l.allocName, t, t + 70 * kUs, corr++, OpKind::Alloc);
            t += 80 * kUs;
            g = std::max(g, t + 20 * kUs);
        }
        if (l.legacyMemset) {
            b.call(host, "cudaMemset", t, t + 5 * kUs, corr);
            b.gpu(OpKind::Memset, legacy, g, g + 2 * kUs, 4, HostMemoryKind::Device, corr++);
            g += 3 * kUs;
            t += 6 * kUs;
        }
        if (l.ownStreamMemset) {
            b.call(host, "cudaMemsetAsync", t, t + 5 * kUs, corr);
            b.gpu(OpKind::Memset, s, g, g + 2 * kUs, 4, HostMemoryKind::Device, corr++);
            t += 6 * kUs;
            g += 3 * kUs;
        }
        const std::int64_t up = g, kern = up + c, down = kern + k, end = down + c;
        b.call(host, copyCall, t, l.blockingCalls ? up + c + 5 * kUs : t + 8 * kUs, corr);
        b.gpu(OpKind::Upload, s, up, up + c, kChunkBytes, l.memory, corr++);
        t = l.blockingCalls ? up + c + 6 * kUs : t + 10 * kUs;
        b.call(host, "cudaLaunchKernel", t, t + 5 * kUs, corr);
        b.gpu(OpKind::Kernel, s, kern, kern + k, 0, HostMemoryKind::None, corr++);
        t += 6 * kUs;
        b.call(host, copyCall, t, l.blockingCalls ? end + 5 * kUs : t + 8 * kUs, corr);
        b.gpu(OpKind::Download, s, down, end, kChunkBytes, l.memory, corr++);
        t = l.blockingCalls ? end + 6 * kUs : t + 10 * kUs;
        gpuEnd = std::max(gpuEnd, end);
        if (l.deviceSync) {
            b.call(host, "cudaDeviceSynchronize", t, std::max(t, end) + 10 * kUs, corr++, OpKind::Sync);
            t = std::max(t, end) + 12 * kUs;
        }
        if (l.eventSync && i >= l.streams - 1) {
            // Waits for the oldest chunk while the newer ones are queued.
            const std::int64_t oldest = 1000 * kUs + (i - l.streams + 1) * c + c + k + c;
            b.call(host, "cudaEventSynchronize", t, std::max(t, oldest) + 5 * kUs, corr++, OpKind::Sync);
            t = std::max(t, oldest) + 6 * kUs;
        }
        if (l.allocInLoop) {
            // cudaFree waits for the device to drain.
            b.call(host, l.freeName, t, std::max(t, end) + 40 * kUs, corr++, OpKind::Free);
            t = std::max(t, end) + 50 * kUs;
        }
        if (l.serial && !l.queueAhead)
            t = std::max(t, end + 10 * kUs) + l.hostGapNs;
    }
    const std::int64_t last = std::max(t, gpuEnd);
    if (!l.deviceSync)
        b.call(host, "cudaDeviceSynchronize", t, last + 10 * kUs, corr++, OpKind::Sync);
    if (l.allocOutside)
        b.call(host, l.freeName, last + 20 * kUs, last + 60 * kUs, corr++, OpKind::Free);
    return b.finish();
}

// The overlapped, pinned, three-stream loop: nothing to find but its bound.
Loop fixedLoop()
{
    return Loop{};
}

RunFindings findingsOf(const Run& run)
{
    return analyzeFindings(run, {});
}

const Finding* find(const RunFindings& f, FindingKind kind)
{
    const auto it = std::find_if(f.findings.begin(), f.findings.end(), [&](const Finding& x) { return x.kind == kind; });
    return it == f.findings.end() ? nullptr : &*it;
}

QString describe(const RunFindings& f)
{
    QString text;
    for (const Finding& x : f.findings)
        text += QString("%1 (%2 ns, %3 ops): %4\n")
                    .arg(toString(x.kind))
                    .arg(x.costNs)
                    .arg(x.opCount)
                    .arg(QString::fromStdString(x.cause));
    return text;
}

// Only the bound: no pitfall.
bool onlyTheBound(const RunFindings& f)
{
    return f.findings.size() == 1 && f.findings.front().kind == FindingKind::Bound;
}

std::vector<std::uint32_t> indicesWhere(const Run& run, const std::function<bool(const Op&)>& pick)
{
    std::vector<std::uint32_t> v;
    for (std::uint32_t i = 0; i < run.ops.size(); ++i)
        if (pick(run.ops[i]))
            v.push_back(i);
    return v;
}

QString dataPath(const QString& relative)
{
    // From the source tree, not __FILE__: a compiler cache may make that relative.
    return QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA) + "/" + relative);
}

Trace load(const QString& relative)
{
    const auto loaded = loadTrace(dataPath(relative).toStdString());
    if (!loaded.trace)
        qFatal("cannot load %s: %s", qPrintable(relative), loaded.error.c_str());
    return *loaded.trace;
}

const Run& runNamed(const Trace& trace, const std::string& name)
{
    for (const Run& run : trace.runs)
        if (run.name == name)
            return run;
    qFatal("no run %s", name.c_str());
}


// ---- Boundaries: each threshold of base/Thresholds.h that a rule judges
// by, with a row on each side of it (the verdict, the words and the cost).
// The rules are called as findFindings calls them, on a context gathered over
// the run's timed region, so that no other rule's gate or the replay's cost
// stands between a row and the threshold it probes.

using Rule = std::function<void(const findings::Context&, std::vector<Finding>&)>;

std::vector<Finding> applyRule(const Run& run, const TransferRates& rates, bool replayed, const Rule& rule)
{
    const RunMetrics metrics = computeMetrics(run, rates);
    const RunIndex index(run, timedRegion(run));
    findings::Context c = findings::gather(index, metrics, rates);
    c.replayed = replayed;
    std::vector<Finding> out;
    rule(c, out);
    return out;
}

// Rates of 1 GB/s: a byte a nanosecond, so that costs are exact integers.
TransferRates oneGBps()
{
    TransferRates r;
    r.pinnedH2DGBps = r.pinnedD2HGBps = r.pageableH2DGBps = r.pageableD2HGBps = 1;
    r.source = "test rates";
    return r;
}

// A kernel on "stream 13" over [0, kernelEnd), then a pageable upload of
// `bytes` until `uploadEnd`, issued by cudaMemcpyAsync from 880 us to
// `callEnd` (no call when 0).
Run pageableRun(std::int64_t kernelEnd, std::int64_t uploadEnd, std::uint64_t bytes, std::int64_t callEnd)
{
    RunBuilder b;
    const int s = b.lane("stream 13");
    const int host = b.lane("main thread", LaneKind::HostThread);
    b.gpu(OpKind::Kernel, s, 0, kernelEnd);
    b.gpu(OpKind::Upload, s, kernelEnd, uploadEnd, bytes, HostMemoryKind::Pageable, callEnd > 0 ? 1 : 0);
    if (callEnd > 0)
        b.call(host, "cudaMemcpyAsync", 880 * kUs, callEnd, 1);
    return b.finish();
}

// A kernel [0, 300 us) on a blocking stream, three uploads of `uploadNs`
// each on the legacy default stream after it, and a kernel from `overlapNs`
// before their end to `end`.
Run legacyRun(std::int64_t uploadNs, std::int64_t end, std::int64_t overlapNs)
{
    RunBuilder b;
    const int legacy = b.lane("default stream (legacy)", LaneKind::Stream, StreamKind::LegacyDefault);
    const int s = b.lane("stream 13");
    b.run().lanes[std::size_t(s)].streamKind = StreamKind::Blocking;
    b.gpu(OpKind::Kernel, s, 0, 300 * kUs);
    for (int i = 0; i < 3; ++i)
        b.gpu(OpKind::Upload, legacy, 300 * kUs + i * uploadNs, 300 * kUs + (i + 1) * uploadNs, 1000,
              HostMemoryKind::Pinned);
    b.gpu(OpKind::Kernel, s, 300 * kUs + 3 * uploadNs - overlapNs, end);
    return b.finish();
}

// `count` pinned uploads of `bytes` taking `ns` each on one stream, a kernel
// beside them on another until `kernelEnd`.
Run smallCopiesRun(int count, std::uint64_t bytes, std::int64_t ns, std::int64_t kernelEnd = 0)
{
    RunBuilder b;
    const int s = b.lane("stream 13"), k = b.lane("stream 14");
    for (int i = 0; i < count; ++i)
        b.gpu(OpKind::Upload, s, i * (ns + 1000), i * (ns + 1000) + ns, bytes, HostMemoryKind::Pinned);
    if (kernelEnd > 0)
        b.gpu(OpKind::Kernel, k, 0, kernelEnd);
    return b.finish();
}

// Two uploads of `copyNs` on two streams, one after the other on the
// engine from 0; the second reached by its stream at `secondReached`. The
// timed region ends at `wall`.
Run queuedRun(std::int64_t secondReached, std::int64_t wall, std::int64_t copyNs = 100 * kUs)
{
    RunBuilder b;
    const int s1 = b.lane("stream 13"), s2 = b.lane("stream 14");
    b.gpu(OpKind::Upload, s1, 0, copyNs, 1000, HostMemoryKind::Pinned);
    b.gpu(OpKind::Upload, s2, secondReached, 2 * copyNs, 1000, HostMemoryKind::Pinned);
    Run run = b.finish();
    run.timing = "cuda-events+cupti";
    for (Op& op : run.ops)
        op.execStartNs = op.execEndNs - copyNs;
    run.timedEndNs = wall;
    return run;
}

// A kernel [0, kernelEnd) in a timed region of 1 ms, and host calls in the
// GPU's idle time: cudaHostAlloc [400, 500 us), cudaMalloc for `mallocNs` after it.
Run idleHostRun(std::int64_t kernelEnd, std::int64_t mallocNs)
{
    RunBuilder b;
    const int s = b.lane("stream 13");
    const int host = b.lane("main thread", LaneKind::HostThread);
    b.gpu(OpKind::Kernel, s, 0, kernelEnd);
    b.call(host, "cudaHostAlloc", 400 * kUs, 500 * kUs, 0, OpKind::Alloc);
    b.call(host, "cudaMalloc", 500 * kUs, 500 * kUs + mallocNs, 0, OpKind::Alloc);
    Run run = b.finish();
    run.timedEndNs = 1000 * kUs;
    return run;
}

// Kernels of 500 us `every` ms from `firstKernel` on, `uploads` uploads of
// 4 KiB before them from 1 ms on, and a cudaHostAlloc [0, setupCall): the
// setup of a loop.
Run loopAfterSetup(int kernels, int uploads, std::int64_t firstKernel = 5000 * kUs, std::int64_t setupCall = 1000 * kUs,
                   std::int64_t every = 1000 * kUs)
{
    RunBuilder b;
    const int s = b.lane("stream 13");
    const int host = b.lane("main thread", LaneKind::HostThread);
    b.call(host, "cudaHostAlloc", 0, setupCall, 0, OpKind::Alloc);
    for (int j = 0; j < uploads; ++j)
        b.gpu(OpKind::Upload, s, 1000 * kUs + j * 100 * kUs, 1050 * kUs + j * 100 * kUs, 4096, HostMemoryKind::Pinned);
    for (int i = 0; i < kernels; ++i)
        b.gpu(OpKind::Kernel, s, firstKernel + i * every, firstKernel + i * every + 500 * kUs);
    return b.finish();
}

} // namespace

class TestFindings : public QObject {
    Q_OBJECT

private slots:
    void fixedLoopHasOnlyItsBound()
    {
        const Run run = buildLoop(fixedLoop());
        const RunFindings f = findingsOf(run);
        QVERIFY2(onlyTheBound(f), qPrintable(describe(f)));
        // Three streams keep the upload engine busy back to back: the copies
        // set the pace.
        QVERIFY2(f.findings.front().cause.starts_with("transfer bound"), f.findings.front().cause.c_str());
    }

    void pageableCopies()
    {
        Loop bad;
        bad.memory = HostMemoryKind::Pageable;
        bad.serial = bad.blockingCalls = true;
        bad.copyNs = 900 * kUs; // pageable copies run at a third of the pinned rate
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* p = find(f, FindingKind::PageableCopies);
        QVERIFY2(p, qPrintable(describe(f)));
        // The copies and the calls that issued them.
        const auto copies = indicesWhere(run, [](const Op& op) { return op.memory == HostMemoryKind::Pageable; });
        std::set<std::uint32_t> correlations;
        for (std::uint32_t i : copies)
            correlations.insert(run.ops[i].correlation);
        const auto expected = indicesWhere(run, [&](const Op& op) {
            return op.memory == HostMemoryKind::Pageable
                   || (op.kind == OpKind::ApiCall && correlations.count(op.correlation) > 0);
        });
        QCOMPARE(p->ops, expected);
        QCOMPARE(p->opCount, std::size_t(4 * bad.chunks));
        QVERIFY2(p->cause.find("12 of 12 \"async\" calls returned only after their copy was done")
                     != std::string::npos,
                 p->cause.c_str());
        // No pinned rate known: the replay cannot pin them, so the estimate:
        // the copies' time not under a kernel, which here is all of it (the
        // loop is serial).
        QCOMPARE(p->costSource, CostSource::Estimate);
        QCOMPARE(p->costNs, std::int64_t(2 * bad.chunks) * 900 * kUs);

        // With a pinned rate, the time beyond what the bytes take at it.
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        TransferRates rates = a.rates;
        rates.pinnedH2DGBps = rates.pinnedD2HGBps = static_cast<double>(kChunkBytes) / (300.0 * kUs);
        const RunFindings withRate = findFindings(run, a.metrics, rates, a.judged.span);
        const Finding* q = find(withRate, FindingKind::PageableCopies);
        QVERIFY(q);
        // The replay pins them: copies of 300 us whose calls return at once,
        // so the host queues every chunk and the three streams overlap the
        // engines: (chunks + 2) x 300 us instead of the serial loop.
        QCOMPARE(q->costSource, CostSource::Replay);
        const std::int64_t pipelined = std::int64_t(bad.chunks + 2) * 300 * kUs;
        QVERIFY2(std::llabs(q->costNs - (withRate.activeNs - pipelined)) <= 100 * kUs,
                 qPrintable(QString("%1 of %2").arg(q->costNs).arg(withRate.activeNs)));

        Loop fixed = fixedLoop();
        QVERIFY(!find(findingsOf(buildLoop(fixed)), FindingKind::PageableCopies));
    }

    void syncCopies()
    {
        Loop bad;
        bad.serial = bad.blockingCalls = bad.syncCopies = true;
        bad.hostGapNs = 200 * kUs;
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* s = find(f, FindingKind::SyncCopies);
        QVERIFY2(s, qPrintable(describe(f)));
        // Every copy call but the first upload's (no GPU work before it) and
        // the last download's (none after it), with the copy each issued.
        QCOMPARE(s->opCount, std::size_t(2 * (2 * bad.chunks - 2)));
        for (std::uint32_t i : s->ops)
            QVERIFY(isCopyOrCall(run.ops[i]));
        // Cost: what async copies save in the replay. The calls return at
        // once, so the host queues a chunk every ~230 us (its own 200 us of
        // work and the calls) and the three streams overlap the engines,
        // which then set the pace: (chunks + 2) x 300 us, instead of 1.1 ms
        // a chunk.
        QCOMPARE(s->costSource, CostSource::Replay);
        const std::int64_t replayed = f.activeNs - s->costNs;
        QVERIFY2(std::llabs(replayed - std::int64_t(bad.chunks + 2) * 300 * kUs) <= 100 * kUs,
                 qPrintable(QString("replayed %1 of %2").arg(replayed).arg(f.activeNs)));

        Loop fixed = fixedLoop();
        QVERIFY(!find(findingsOf(buildLoop(fixed)), FindingKind::SyncCopies));
        // Blocking-looking calls that are async by name do not count.
        bad.syncCopies = false;
        QVERIFY(!find(findingsOf(buildLoop(bad)), FindingKind::SyncCopies));
    }

    void legacyDefaultStream()
    {
        // The host queues every chunk; the memset on the legacy stream
        // between them holds each chunk until the previous one is done.
        Loop bad;
        bad.serial = bad.queueAhead = bad.legacyMemset = true;
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* l = find(f, FindingKind::LegacyDefaultStream);
        QVERIFY2(l, qPrintable(describe(f)));
        QCOMPARE(l->ops, indicesWhere(run, [](const Op& op) { return op.kind == OpKind::Memset; }));
        // Cost: what non-blocking streams save in the replay. Without the
        // barriers the three streams overlap the engines, (chunks + 2) x
        // 300 us, instead of one chunk after another (903 us each, with
        // its memset).
        QCOMPARE(l->costSource, CostSource::Replay);
        QVERIFY2(std::llabs(f.activeNs - l->costNs - std::int64_t(bad.chunks + 2) * 300 * kUs) <= 100 * kUs,
                 qPrintable(QString("%1 of %2").arg(l->costNs).arg(f.activeNs)));
        QCOMPARE(l->device, 0);


        Loop fixed = fixedLoop();
        fixed.ownStreamMemset = true;
        QVERIFY2(onlyTheBound(findingsOf(buildLoop(fixed))), qPrintable(describe(findingsOf(buildLoop(fixed)))));
    }

    // Work on the legacy default stream next to non-blocking streams (as
    // PyTorch's side streams are) runs alongside them: no finding.
    void legacyStreamThatOverlapsIsFine()
    {
        RunBuilder b;
        const int legacy = b.lane("GPU 0 stream 7 (legacy default)", LaneKind::Stream, StreamKind::LegacyDefault);
        const int side = b.lane("GPU 0 stream 13");
        for (int i = 0; i < 6; ++i) {
            const std::int64_t t = i * 400 * kUs;
            b.gpu(OpKind::Kernel, legacy, t, t + 380 * kUs);
            b.gpu(OpKind::Upload, side, t + 10 * kUs, t + 300 * kUs, kChunkBytes, HostMemoryKind::Pinned);
        }
        const RunFindings f = findingsOf(b.finish());
        QVERIFY2(onlyTheBound(f), qPrintable(describe(f)));
    }

    void oneStream()
    {
        Loop bad;
        bad.streams = 1;
        bad.serial = bad.queueAhead = true;
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* o = find(f, FindingKind::OneStream);
        QVERIFY2(o, qPrintable(describe(f)));
        QCOMPARE(o->ops, indicesWhere(run, [](const Op& op) { return isGpuOp(op.kind); }));
        // 900 us a chunk on one stream; on three streams the engines overlap,
        // (chunks + 2) x 300 us in all.
        QCOMPARE(o->costSource, CostSource::Replay);
        const std::int64_t saving = std::int64_t(bad.chunks) * 900 * kUs - std::int64_t(bad.chunks + 2) * 300 * kUs;
        QVERIFY2(std::llabs(o->costNs - saving) <= 50 * kUs, qPrintable(QString::number(o->costNs)));
        QVERIFY2(o->cause.find("(stream 13)") != std::string::npos, o->cause.c_str());
        QVERIFY(!find(findingsOf(buildLoop(fixedLoop())), FindingKind::OneStream));
        // One stream with copies too short to matter next to the kernels.
        bad.copyNs = 2 * kUs;
        QVERIFY(!find(findingsOf(buildLoop(bad)), FindingKind::OneStream));
    }

    // The one-stream finding says what is there: one stream, or several
    // that each carry chunks in turn. Its words are "too few streams"; its
    // id stays "one-stream" for the JSON's readers.
    void tooFewStreams_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<QString>("cause");
        QTest::newRow("one stream") << 1 << "all 18 GPU ops on one stream (stream 13): ";
        QTest::newRow("two streams") << 2 << "2 streams carry 3 chunks each (stream 13, stream 14; 18 GPU ops): ";
    }
    void tooFewStreams()
    {
        QFETCH(int, streams);
        QFETCH(QString, cause);
        Loop bad;
        bad.streams = streams;
        bad.serial = bad.queueAhead = true;
        const RunFindings f = findingsOf(buildLoop(bad));
        const Finding* o = find(f, FindingKind::OneStream);
        QVERIFY2(o, qPrintable(describe(f)));
        QCOMPARE(o->costSource, CostSource::Replay);
        QVERIFY(o->costNs > 0);
        QVERIFY2(QString::fromStdString(o->cause).startsWith(cause), o->cause.c_str());
        QCOMPARE(findingId(*o), std::string("one-stream"));
        QCOMPARE(findingWords(*o), std::string("too few streams"));
    }

    // Each PyTorch cause of an implicit synchronization by what encloses
    // its call (TorchSyncCauses.h), and what is none.
    void torchSyncCauses_data()
    {
        QTest::addColumn<QString>("atenOp");
        QTest::addColumn<QString>("called");
        QTest::addColumn<QString>("apiCall");
        QTest::addColumn<int>("copy"); // the aten op's copy: 0 none, 1 to the device, 2 to the host
        QTest::addColumn<bool>("pageable");
        QTest::addColumn<int>("cause");
        const auto row = [](const char* name, const char* aten, const char* called, const char* api, int copy, bool pageable,
                            TorchSyncCause cause) {
            QTest::newRow(name) << aten << called << api << copy << pageable << int(cause);
        };
        row(".item()", "aten::item", "", "cudaStreamSynchronize", 0, false, TorchSyncCause::Item);
        row("_local_scalar_dense", "aten::_local_scalar_dense", "", "cudaMemcpyAsync", 2, true, TorchSyncCause::Item);
        row("if tensor:", "aten::is_nonzero", "", "cudaStreamSynchronize", 0, false, TorchSyncCause::Item);
        row(".tolist() reaches a copy", "aten::_to_copy", "<built-in method tolist of Tensor object>", "cudaMemcpyAsync",
            2, true, TorchSyncCause::ToList);
        row("print", "aten::item", "<built-in function print>", "cudaStreamSynchronize", 0, false, TorchSyncCause::Print);
        row("an f-string", "aten::_local_scalar_dense", "/venv/lib/python3.12/site-packages/torch/_tensor.py(1100): __format__",
            "cudaStreamSynchronize", 0, false, TorchSyncCause::Print);
        row(".cpu(): its synchronize", "aten::copy_", "<built-in method cpu of Tensor object>", "cudaStreamSynchronize", 2,
            false, TorchSyncCause::ToHost);
        row(".to(cpu) into pageable memory, no stack", "aten::_to_copy", "", "cudaMemcpyAsync", 2, true,
            TorchSyncCause::ToHost);
        row("non_blocking into a pinned tensor", "aten::copy_", "", "cudaMemcpyAsync", 2, false, TorchSyncCause::None);
        row("boolean mask", "aten::nonzero", "", "cudaStreamSynchronize", 0, false, TorchSyncCause::DataDependentShape);
        row("masked_select", "aten::masked_select", "", "cudaMemcpyAsync", 2, true, TorchSyncCause::DataDependentShape);
        row("torch.cuda.synchronize()", "", "/usr/lib/python3/dist-packages/torch/cuda/__init__.py(954): synchronize",
            "cudaDeviceSynchronize", 0, false, TorchSyncCause::CudaSynchronize);
        row("device synchronize, no aten op, no stack", "", "", "cudaDeviceSynchronize", 0, false,
            TorchSyncCause::CudaSynchronize);
        row("pageable upload", "aten::copy_", "", "cudaMemcpyAsync", 1, true, TorchSyncCause::PageableCopy);
        row("pinned upload", "aten::copy_", "", "cudaMemcpyAsync", 1, false, TorchSyncCause::None);
        row("a stream synchronize in no aten op", "", "", "cudaStreamSynchronize", 0, false, TorchSyncCause::None);
        row("a matmul", "aten::mm", "", "cudaLaunchKernel", 0, false, TorchSyncCause::None);
    }

    void torchSyncCauses()
    {
        QFETCH(QString, atenOp);
        QFETCH(QString, called);
        QFETCH(QString, apiCall);
        QFETCH(int, copy);
        QFETCH(bool, pageable);
        QFETCH(int, cause);
        const std::string aten = atenOp.toStdString(), call = called.toStdString(), api = apiCall.toStdString();
        const TorchSyncCause found = torchSyncCause({aten, call, api, copy == 2, copy == 1, pageable});
        QCOMPARE(int(found), cause);
        // Every cause has words and a fix; none has neither.
        QCOMPARE(std::string_view(torchCauseWords(found)).empty(), found == TorchSyncCause::None);
        QCOMPARE(std::string_view(torchCauseFix(found)).empty(), found == TorchSyncCause::None);
    }

    // A finding carries the lines its calls came from, most calls first,
    // and the PyTorch op around them by its cause; without stacks it says
    // how to record them.
    void findingsCarryTheirSites_data()
    {
        QTest::addColumn<QString>("atenOp");
        QTest::addColumn<bool>("stacks");
        QTest::addColumn<int>("lines"); // of the user's code the syncs are spread over
        QTest::addColumn<QString>("cause");
        QTest::addColumn<QString>("note");
        QTest::newRow("one line: .item()") << "aten::_local_scalar_dense" << true << 1 << ".item()" << "";
        QTest::newRow("two lines, most calls first") << "aten::item" << true << 2 << ".item()" << "";
        QTest::newRow("torch.cuda.synchronize()") << "" << true << 1 << "torch.cuda.synchronize()" << "";
        QTest::newRow("no stacks: the aten op and how to record them")
            << "aten::nonzero" << false << 0 << "a data-dependent shape" << "with_stack=True";
        QTest::newRow("stacks without the user's code") << "aten::item" << true << 0 << ".item()"
                                                         << "none of its calls has the program's own code";
    }

    void findingsCarryTheirSites()
    {
        QFETCH(QString, atenOp);
        QFETCH(bool, stacks);
        QFETCH(int, lines);
        QFETCH(QString, cause);
        QFETCH(QString, note);
        Loop bad;
        bad.serial = bad.deviceSync = true;
        bad.hostGapNs = 2000 * kUs;
        Run run = buildLoop(bad);
        run.pipeline = "pytorch";
        run.stacksRecorded = stacks;
        run.sourceSites = {{"/home/me/train.py", 42, "train_step"}, {"/home/me/train.py", 57, "evaluate"}};
        std::uint32_t aten = 0;
        if (!atenOp.isEmpty()) {
            aten = static_cast<std::uint32_t>(run.names.size());
            run.names.push_back(atenOp.toStdString());
        }
        // Every third synchronize from evaluate where there are two lines.
        std::size_t k = 0;
        for (std::size_t i = 0; i < run.ops.size(); ++i)
            if (run.ops[i].kind == OpKind::Sync) {
                const std::uint32_t site = lines == 0 ? 0 : lines == 2 && k % 3 == 2 ? 2 : 1;
                run.setSource(i, {site, aten, 0});
                ++k;
            }
        const RunFindings f = findingsOf(run);
        const Finding* s = find(f, FindingKind::SyncInLoop);
        QVERIFY2(s, qPrintable(describe(f)));
        std::size_t fromLine57 = 0;
        for (std::uint32_t i : s->ops)
            fromLine57 += lines == 2 && run.sourceOf(i)->site == 2;
        QCOMPARE(s->sources.size(), std::size_t(lines));
        if (lines > 0) {
            QCOMPARE(s->sources[0].file, std::string("/home/me/train.py"));
            QCOMPARE(s->sources[0].line, 42u);
            QCOMPARE(s->sources[0].function, std::string("train_step"));
            QCOMPARE(s->sources[0].calls, s->ops.size() - fromLine57);
            QVERIFY2(QString::fromStdString(s->sources[0].cause).startsWith(cause), s->sources[0].cause.c_str());
        }
        if (lines == 2) {
            QCOMPARE(s->sources[1].line, 57u);
            QCOMPARE(s->sources[1].calls, fromLine57);
            QVERIFY(s->sources[1].calls < s->sources[0].calls);
        }
        QCOMPARE(s->torchOps.size(), std::size_t(1));
        QCOMPARE(s->torchOps[0].op, atenOp.toStdString());
        QCOMPARE(s->torchOps[0].calls, s->ops.size());
        QVERIFY2(QString::fromStdString(s->torchOps[0].cause).startsWith(cause), s->torchOps[0].cause.c_str());
        QVERIFY(!s->torchOps[0].fix.empty());
        QCOMPARE(s->sourcesNote.empty(), note.isEmpty());
        QVERIFY2(QString::fromStdString(s->sourcesNote).contains(note), s->sourcesNote.c_str());

        // analyze --json carries them (schema 3).
        Trace trace;
        trace.runs = {run};
        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(analysisJson(trace, analyzeTrace(trace)))).object();
        QCOMPARE(json.value("schema").toInt(), 3);
        for (const QJsonValue v : json.value("runs").toArray().at(0).toObject().value("findings").toArray()) {
            const QJsonObject finding = v.toObject();
            if (finding.value("kind").toString() != kindId(FindingKind::SyncInLoop))
                continue;
            const QJsonArray sources = finding.value("sources").toArray();
            QCOMPARE(sources.size(), qsizetype(lines));
            if (lines > 0) {
                QCOMPARE(sources.at(0).toObject().value("line").toInt(), 42);
                QCOMPARE(sources.at(0).toObject().value("file").toString(), QString("/home/me/train.py"));
                QCOMPARE(sources.at(0).toObject().value("calls").toInt(), int(s->sources[0].calls));
            }
            QCOMPARE(finding.value("torchOps").toArray().at(0).toObject().value("op").toString(), atenOp);
        }
    }

    // A run without call sources (a C++ program, our pipelines) gets none,
    // and what it is told stays as it was.
    void noSourcesWithoutTheirFacts()
    {
        Loop bad;
        bad.serial = bad.deviceSync = true;
        bad.hostGapNs = 2000 * kUs;
        const RunFindings f = findingsOf(buildLoop(bad));
        for (const Finding& x : f.findings) {
            QVERIFY(x.sources.empty());
            QVERIFY(x.torchOps.empty());
            QVERIFY(x.sourcesNote.empty());
        }
    }

    void syncInLoop()
    {
        Loop bad;
        bad.serial = bad.deviceSync = true;
        bad.hostGapNs = 2000 * kUs; // the host uses each result before queuing the next chunk
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* s = find(f, FindingKind::SyncInLoop);
        QVERIFY2(s, qPrintable(describe(f)));
        // Every chunk's synchronize but the last (no GPU work after it).
        const auto syncs = indicesWhere(run, [](const Op& op) { return op.kind == OpKind::Sync; });
        QCOMPARE(s->ops, std::vector<std::uint32_t>(syncs.begin(), syncs.end() - 1));
        // Cost: what waiting on an older chunk saves in the replay. The host's
        // 2 ms of work per chunk stays; the GPU's 900 us per chunk now runs
        // under the next chunk's host work, except the last chunk's: about
        // (chunks - 1) x 900 us. (The GPU's idle time, the estimate, would
        // say (chunks - 1) x 2 ms: more than the fix can save.)
        QCOMPARE(s->costSource, CostSource::Replay);
        QVERIFY2(std::llabs(s->costNs - std::int64_t(bad.chunks - 1) * 900 * kUs) <= 100 * kUs,
                 qPrintable(QString::number(s->costNs)));

        // Waiting on an older chunk's event while newer ones are queued
        // leaves the GPU busy: no finding.
        Loop fixed = fixedLoop();
        fixed.eventSync = true;
        const RunFindings g = findingsOf(buildLoop(fixed));
        QVERIFY2(onlyTheBound(g), qPrintable(describe(g)));
    }

    void allocInLoop()
    {
        Loop bad;
        bad.serial = bad.allocInLoop = true;
        const Run run = buildLoop(bad);
        const RunFindings f = findingsOf(run);
        const Finding* a = find(f, FindingKind::AllocInLoop);
        QVERIFY2(a, qPrintable(describe(f)));
        // Every cudaMalloc but the first (no GPU work before it) and every
        // cudaFree but the last (none after it).
        QCOMPARE(a->opCount, std::size_t(2 * bad.chunks - 2));
        for (std::uint32_t i : a->ops)
            QVERIFY(run.ops[i].kind == OpKind::Alloc || run.ops[i].kind == OpKind::Free);
        QVERIFY2(a->cause.find("waited for the GPU to drain") != std::string::npos, a->cause.c_str());
        // Cost: what hoisting them saves in the replay. Not only the calls'
        // own time: each cudaFree drained the GPU, and that wait was all that
        // kept the host from queuing the next chunk. Without it the three
        // streams overlap the engines: (chunks + 2) x 300 us. (The GPU's idle
        // time during the calls, the estimate, said (chunks - 1) x 150 us:
        // the understatement the malloc_in_loop example showed on the H200.)
        QCOMPARE(a->costSource, CostSource::Replay);
        QVERIFY2(std::llabs(f.activeNs - a->costNs - std::int64_t(bad.chunks + 2) * 300 * kUs) <= 100 * kUs,
                 qPrintable(QString("%1 of %2").arg(a->costNs).arg(f.activeNs)));

        Loop fixed = fixedLoop();
        fixed.allocOutside = true;
        QVERIFY2(onlyTheBound(findingsOf(buildLoop(fixed))), qPrintable(describe(findingsOf(buildLoop(fixed)))));
        // Stream-ordered allocation is the fix, not the problem.
        bad.allocName = "cudaMallocAsync";
        bad.freeName = "cudaFreeAsync";
        QVERIFY(!find(findingsOf(buildLoop(bad)), FindingKind::AllocInLoop));
    }

    void smallCopies()
    {
        RunBuilder b;
        const int s1 = b.lane("stream 13"), s2 = b.lane("stream 14");
        // One large copy sets the link's rate (16 MiB in 300 us); twenty
        // 4 KiB copies take 5 us each, 1.5% of it.
        b.gpu(OpKind::Upload, s1, 0, 300 * kUs, kChunkBytes, HostMemoryKind::Pinned);
        b.gpu(OpKind::Kernel, s2, 0, 300 * kUs);
        for (int i = 0; i < 20; ++i)
            b.gpu(OpKind::Upload, s1, 300 * kUs + i * 10 * kUs, 305 * kUs + i * 10 * kUs, 4096, HostMemoryKind::Pinned);
        b.gpu(OpKind::Kernel, s2, 300 * kUs, 500 * kUs);
        const Run run = b.finish();
        const RunFindings f = findingsOf(run);
        const Finding* s = find(f, FindingKind::SmallCopies);
        QVERIFY2(s, qPrintable(describe(f)));
        QCOMPARE(s->ops, indicesWhere(run, [](const Op& op) { return op.bytes == 4096; }));
        // Each: 5 us minus 4096 bytes at 55.9 GB/s (73 ns).
        const double rate = static_cast<double>(kChunkBytes) / (300.0 * kUs);
        QVERIFY(std::llabs(s->costNs - std::int64_t(20 * (5 * kUs - 4096 / rate))) <= 20);

        // The same bytes in one copy: nothing to batch.
        RunBuilder fixed;
        const int f1 = fixed.lane("stream 13"), f2 = fixed.lane("stream 14");
        fixed.gpu(OpKind::Upload, f1, 0, 300 * kUs, kChunkBytes, HostMemoryKind::Pinned);
        fixed.gpu(OpKind::Kernel, f2, 0, 300 * kUs);
        fixed.gpu(OpKind::Upload, f1, 300 * kUs, 303 * kUs, 20 * 4096, HostMemoryKind::Pinned);
        fixed.gpu(OpKind::Kernel, f2, 300 * kUs, 500 * kUs);
        QVERIFY(!find(findingsOf(fixed.finish()), FindingKind::SmallCopies));
    }

    void copyEngineQueue()
    {
        // Three streams' uploads all reached at 0 (event times), run one
        // after another by the one upload engine.
        const auto build = [](bool queued, std::int64_t kernelNs = 200 * kUs) {
            RunBuilder b;
            std::vector<int> streams;
            for (int s = 0; s < 3; ++s)
                streams.push_back(b.lane("stream " + std::to_string(s)));
            Run run = [&] {
                for (int s = 0; s < 3; ++s) {
                    const std::int64_t exec = s * 300 * kUs;
                    b.gpu(OpKind::Upload, streams[std::size_t(s)], queued ? 0 : exec, exec + 300 * kUs, kChunkBytes,
                          HostMemoryKind::Pinned);
                    b.gpu(OpKind::Kernel, streams[std::size_t(s)], exec + 300 * kUs, exec + 300 * kUs + kernelNs);
                }
                return b.finish();
            }();
            run.timing = "cuda-events+cupti";
            for (Op& op : run.ops)
                if (op.kind == OpKind::Upload)
                    op.execStartNs = op.execEndNs - 300 * kUs;
            return run;
        };
        const Run run = build(true);
        const RunFindings f = findingsOf(run);
        const Finding* q = find(f, FindingKind::CopyEngineQueue);
        QVERIFY2(q, qPrintable(describe(f)));
        // The two uploads that waited (the first started at once).
        QCOMPARE(q->opCount, std::size_t(2));
        // Waits [0, 600 us) in all; the run (1100 us) is 200 us from its
        // busiest engine's 900 us: the cost is capped there.
        QCOMPARE(q->costNs, 200 * kUs);
        QVERIFY(!find(findingsOf(build(false)), FindingKind::CopyEngineQueue));
        // Within 15% of its bound (950 us of 900), queueing is the link
        // being busy: nothing to gain, no finding.
        QVERIFY(!find(findingsOf(build(true, 50 * kUs)), FindingKind::CopyEngineQueue));
    }

    void generalBound_data()
    {
        QTest::addColumn<std::int64_t>("hostGap");
        QTest::addColumn<int>("streams");
        QTest::addColumn<QString>("words");
        QTest::newRow("host: the GPU idles between chunks") << 5000 * kUs << 1 << "host bound";
        QTest::newRow("transfer: copies back to back") << std::int64_t(0) << 3 << "transfer bound";
    }
    void generalBound()
    {
        QFETCH(std::int64_t, hostGap);
        QFETCH(int, streams);
        QFETCH(QString, words);
        Loop l;
        l.streams = streams;
        l.serial = hostGap > 0;
        l.hostGapNs = hostGap;
        const Run run = buildLoop(l);
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        const Finding& bound = a.findings.findings.back();
        QCOMPARE(bound.kind, FindingKind::Bound);
        QVERIFY2(QString::fromStdString(bound.cause).startsWith(words), bound.cause.c_str());
        // Cost: wall time beyond the busiest engine's busy time.
        const DeviceActivity& d = a.findings.devices.front();
        const Verdict& v = a.findings.verdict;
        QCOMPARE(bound.costNs, a.findings.wallNs - std::max({d.h2dNs, d.d2hNs, d.computeNs}));
        // It is the run's verdict: the general model's, its time the busiest
        // engine's, its words the finding's cause and fix.
        QCOMPARE(v.boundNs, std::max({d.h2dNs, d.d2hNs, d.computeNs}));
        QCOMPARE(v.costNs, bound.costNs);
        QCOMPARE(v.distance, static_cast<double>(a.findings.wallNs) / static_cast<double>(v.boundNs));
        QCOMPARE(QString(toString(v.kind)), words);
        QCOMPARE(v.words, bound.cause + "; " + bound.fix);
        // A run we did not build has no pipeline model.
        QVERIFY(!v.pipeline);
        QCOMPARE(int(v.binding()), int(BoundKind::None));
    }

    // Our pipeline runs: the bound finding is their verdict, the pipeline
    // model's.
    void pipelineBoundIsTheVerdict()
    {
        SimDevice device(*findSimPreset("h200"));
        RecordSink sink;
        CancelFlag cancel;
        PipelineConfig config;
        config.kind = PipelineKind::Overlapped;
        config.chunks = 8;
        config.chunkBytes = 4 << 20;
        const Run run = runPipeline(device, config, sink, cancel);
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        const Verdict& v = a.findings.verdict;
        QVERIFY(v.pipeline);
        QCOMPARE(v.boundNs > 0, true);
        const Finding& bound = a.findings.findings.back();
        QCOMPARE(bound.kind, FindingKind::Bound);
        QCOMPARE(bound.cause, v.words);
        QCOMPARE(bound.costNs, std::max<std::int64_t>(0, run.wallNs() - v.boundNs));
        QCOMPARE(bound.costNs, v.costNs);
        QVERIFY(!find(a.findings, FindingKind::OneStream));
        QVERIFY(!find(a.findings, FindingKind::PageableCopies));
    }

    void activityPerDevice()
    {
        // Two GPUs, as every reader gives them: each stream lane says its
        // device (Lane::device), whatever its name.
        RunBuilder b;
        const int g0 = b.lane("GPU 0 stream 7"), g0b = b.lane("GPU 0 stream 9"), g1 = b.lane("GPU 1 stream 3");
        b.run().moreDevices.push_back(b.run().device);
        b.run().moreDevices.back().name = "Second GPU";
        b.run().lanes[std::size_t(g1)].device = 1;
        b.gpu(OpKind::Upload, g0, 0, 100);
        b.gpu(OpKind::Kernel, g0b, 50, 250);
        b.gpu(OpKind::Download, g0, 200, 300);
        b.gpu(OpKind::Upload, g0b, 260, 280);
        b.gpu(OpKind::Memset, g1, 0, 40);
        b.gpu(OpKind::DeviceCopy, g1, 500, 600);
        const Run run = b.finish();
        const RunFindings f = findingsOf(run);
        QCOMPARE(f.wallNs, std::int64_t(600));
        QCOMPARE(f.devices.size(), std::size_t(2));
        const DeviceActivity& a = f.devices[0];
        QCOMPARE(a.label, std::string("GPU 0: Test GPU"));
        QCOMPARE(a.streams, 2);
        QCOMPARE(a.h2dNs, std::int64_t(120));
        QCOMPARE(a.d2hNs, std::int64_t(100));
        QCOMPARE(a.computeNs, std::int64_t(200));
        QCOMPARE(a.busyNs, std::int64_t(300));
        QCOMPARE(a.copyWithComputeNs, std::int64_t(50 + 50));
        QCOMPARE(a.h2dWithD2hNs, std::int64_t(20));
        QCOMPARE(a.idleNs, std::int64_t(300));
        QCOMPARE(a.engineTimes, std::string("engine execution intervals"));
        const DeviceActivity& d1 = f.devices[1];
        QCOMPARE(d1.device, 1);
        QCOMPARE(d1.label, std::string("GPU 1: Second GPU"));
        QCOMPARE(d1.memsetNs, std::int64_t(40));
        QCOMPARE(d1.deviceCopyNs, std::int64_t(100));
        QCOMPARE(d1.computeNs, std::int64_t(0));
        QCOMPARE(d1.idleNs, std::int64_t(460));

        // One device: its name, and the same busy times as RunMetrics.
        const Run one = buildLoop(fixedLoop());
        const RunAnalysis an = analyzeRun(one, {}, nullptr);
        const DeviceActivity& only = an.findings.devices.front();
        QCOMPARE(only.label, one.device.label());
        QCOMPARE(only.h2dNs, an.metrics.h2d.busyNs);
        QCOMPARE(only.d2hNs, an.metrics.d2h.busyNs);
        QCOMPARE(only.computeNs, an.metrics.compute.busyNs);
        QCOMPARE(only.h2dWithD2hNs, an.metrics.h2dWithD2hNs);
        QCOMPARE(only.copyWithComputeNs, an.metrics.copyWithKernelNs);
    }

    void opListIsCappedButCounted()
    {
        Loop big;
        big.streams = 1;
        big.serial = big.queueAhead = true;
        big.chunks = 400;
        const RunFindings f = findingsOf(buildLoop(big));
        const Finding* o = find(f, FindingKind::OneStream);
        QVERIFY(o);
        QCOMPARE(o->opCount, std::size_t(1200));
        QCOMPARE(o->ops.size(), kMaxFindingOps);
        QVERIFY(std::is_sorted(o->ops.begin(), o->ops.end()));
    }

    void emptyAndPartialRuns()
    {
        Run empty;
        empty.name = "nothing";
        empty.pipeline = "profile";
        const RunFindings f = findingsOf(empty);
        QVERIFY(f.devices.empty());
        QCOMPARE(f.findings.size(), std::size_t(1));
        QCOMPARE(f.findings.front().costNs, std::int64_t(0));

        Run partial = buildLoop(fixedLoop());
        partial.status = RunStatus::Failed;
        partial.error = "killed";
        const RunAnalysis a = analyzeRun(partial, {}, nullptr);
        QCOMPARE(int(a.findings.verdict.kind), int(VerdictKind::Failed));
        QCOMPARE(a.findings.findings.back().cause, a.findings.verdict.words);
    }

    // Any run, however odd (ops past the region, inverted times, lanes of
    // any kind, correlations that join nothing or the wrong op): findings
    // keep their promises.
    void anyRunKeepsTheInvariants()
    {
        std::mt19937 random(7);
        const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
        const std::vector<std::string> names = {"", "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaDeviceSynchronize",
                                                "cudaStreamSynchronize", "cudaMalloc", "cudaFree", "cudaMallocAsync",
                                                "cuMemcpyHtoD_v2", "cudaHostRegister"};
        for (int round = 0; round < 300; ++round) {
            RunBuilder b;
            const int lanes = 1 + pick(5);
            for (int l = 0; l < lanes; ++l) {
                const int which = pick(4);
                b.lane(which == 0   ? "default stream (legacy)"
                       : which == 1 ? "GPU " + std::to_string(pick(3)) + " stream " + std::to_string(l)
                       : which == 2 ? "stream " + std::to_string(l)
                                    : "main thread",
                       which == 3 ? LaneKind::HostThread : LaneKind::Stream,
                       which == 0 ? StreamKind::LegacyDefault : StreamKind::Unknown);
            }
            const int ops = 1 + pick(60);
            for (int i = 0; i < ops; ++i) {
                const std::int64_t start = pick(100000) - 1000, length = pick(5000) - 100;
                const OpKind kind = OpKind(pick(kOpKindCount));
                const std::uint32_t correlation = std::uint32_t(pick(8));
                if (isGpuOp(kind))
                    b.gpu(kind, pick(lanes), start, start + length, std::uint64_t(pick(1 << 22)),
                          HostMemoryKind(pick(5)), correlation);
                else
                    b.call(pick(lanes), names[std::size_t(pick(int(names.size())))], start, start + length,
                           correlation, kind);
            }
            Run run = b.finish();
            if (pick(2))
                run.timedBeginNs += pick(20000); // some ops before the region
            if (pick(4) == 0)
                run.params.chunks = 1 + pick(8); // judged as one of our pipelines
            for (Op& op : run.ops)
                if (pick(5) == 0)
                    op.execStartNs = op.startNs + pick(300); // queued behind another stream
            const RunAnalysis a = analyzeRun(run, {}, nullptr);
            const RunFindings& f = a.findings;
            QVERIFY(!f.findings.empty());
            QCOMPARE(f.findings.back().kind, FindingKind::Bound);
            for (const Finding& x : f.findings) {
                QVERIFY2(x.costNs >= 0 && x.costNs <= std::max<std::int64_t>(0, f.wallNs),
                         qPrintable(QString("%1: %2 of %3").arg(toString(x.kind)).arg(x.costNs).arg(f.wallNs)));
                QVERIFY(x.ops.size() <= kMaxFindingOps && x.opCount >= x.ops.size());
                QVERIFY(std::is_sorted(x.ops.begin(), x.ops.end()));
                QVERIFY(std::adjacent_find(x.ops.begin(), x.ops.end()) == x.ops.end());
                for (std::uint32_t i : x.ops)
                    QVERIFY(i < run.ops.size());
                QVERIFY(!x.cause.empty() && !x.fix.empty());
            }
            for (const DeviceActivity& d : f.devices)
                QVERIFY(d.busyNs >= 0 && d.busyNs <= f.wallNs && d.idleNs == f.wallNs - d.busyNs);
        }
    }


    // ---- Boundaries of the rules' thresholds (base/Thresholds.h)

    // kMinRepeats: allocations between GPU work, twice is not a loop, three
    // times is. Each call is 100 us of the GPU's idle time (none drained it).
    void minRepeatsBoundary_data()
    {
        QTest::addColumn<int>("calls");
        QTest::addColumn<bool>("found");
        QTest::newRow("2 calls") << 2 << false;
        QTest::newRow("3 calls") << 3 << true;
    }
    void minRepeatsBoundary()
    {
        QFETCH(int, calls);
        QFETCH(bool, found);
        RunBuilder b;
        const int s = b.lane("stream 13");
        const int host = b.lane("main thread", LaneKind::HostThread);
        for (int i = 0; i <= calls; ++i)
            b.gpu(OpKind::Kernel, s, i * 1000 * kUs, i * 1000 * kUs + 500 * kUs);
        for (int i = 0; i < calls; ++i)
            b.call(host, "cudaMalloc", i * 1000 * kUs + 600 * kUs, i * 1000 * kUs + 700 * kUs, 0, OpKind::Alloc);
        const auto out = applyRule(b.finish(), {}, true, findings::allocInLoop);
        QCOMPARE(out.size(), std::size_t(found ? 1 : 0));
        if (!found)
            return;
        QCOMPARE(out.front().cause, std::string("3 allocation, free or registration calls between GPU work"));
        QCOMPARE(out.front().costNs, 300 * kUs);
    }

    // kMinHeadroomShare and kSerializedShare: the legacy default stream's
    // estimate gates (a replayed run is judged by what its fix saves).
    void legacyStreamBoundaries_data()
    {
        QTest::addColumn<qint64>("upload");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("overlap");
        QTest::addColumn<bool>("replayed");
        QTest::addColumn<qint64>("cost"); // -1: no finding
        QTest::addColumn<QString>("together");
        // Busy 600 us, of which 30 us of uploads beside no kernel: what
        // overlap could save is 5% of it.
        QTest::newRow("headroom 5%") << qint64(10 * kUs) << qint64(600 * kUs) << qint64(0) << false << qint64(30 * kUs)
                                     << "0%";
        QTest::newRow("headroom under 5%") << qint64(10 * kUs) << qint64(600 * kUs + 1) << qint64(0) << false
                                           << qint64(-1) << "";
        QTest::newRow("headroom under 5%, replayed") << qint64(10 * kUs) << qint64(600 * kUs + 1) << qint64(0) << true
                                                     << qint64(30 * kUs) << "0%";
        // Busy 1 ms; the streams ran together 49.999 us (under 5%): the
        // headroom is the 1 ms less the kernels' 749.999 us.
        QTest::newRow("together under 5%") << qint64(100 * kUs) << qint64(1000 * kUs) << qint64(50 * kUs - 1) << false
                                           << qint64(250 * kUs + 1) << "5%";
        QTest::newRow("together 5%: not serialized") << qint64(100 * kUs) << qint64(1000 * kUs) << qint64(50 * kUs)
                                                     << false << qint64(-1) << "";
    }
    void legacyStreamBoundaries()
    {
        QFETCH(qint64, upload);
        QFETCH(qint64, end);
        QFETCH(qint64, overlap);
        QFETCH(bool, replayed);
        QFETCH(qint64, cost);
        QFETCH(QString, together);
        const auto out = applyRule(legacyRun(upload, end, overlap), {}, replayed, findings::legacyDefaultStream);
        QCOMPARE(out.size(), std::size_t(cost >= 0 ? 1 : 0));
        if (cost < 0)
            return;
        QCOMPARE(out.front().costNs, cost);
        QCOMPARE(QString::fromStdString(out.front().cause),
                 "3 ops on the legacy default stream among 1 other stream's work: each waits for all blocking streams "
                 "and holds back their later work, so the 2 streams ran at the same time for " + together
                     + " of the busy time");
    }

    // kMinPageableShare (pageable copies worth a finding: 1% of the busy
    // time) and kBlockedShare (an async call that returned after 90% of its
    // copy was blocked by it). Pinned at 1 GB/s, 5000 bytes take 5 us and
    // 50000 bytes 50 us: the cost is the rest of the copy.
    void pageableBoundaries_data()
    {
        QTest::addColumn<qint64>("kernelEnd");
        QTest::addColumn<qint64>("uploadEnd");
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<qint64>("callEnd");
        QTest::addColumn<qint64>("cost"); // -1: no finding
        QTest::addColumn<QString>("cause");
        const QString staged = " of copy time): the driver stages them through its own pinned buffer";
        QTest::newRow("1% of the busy time") << qint64(990 * kUs) << qint64(1000 * kUs) << quint64(5000) << qint64(0)
                                             << qint64(5 * kUs)
                                             << "1 copy from or to pageable host memory (0.01 ms" + staged;
        QTest::newRow("under 1%") << qint64(990 * kUs + 1) << qint64(1000 * kUs + 1) << quint64(5000) << qint64(0)
                                  << qint64(-1) << "";
        QTest::newRow("returned at 90% of the copy: blocked")
            << qint64(900 * kUs) << qint64(1000 * kUs) << quint64(50000) << qint64(990 * kUs) << qint64(50 * kUs)
            << "1 copy from or to pageable host memory (0.10 ms" + staged
                   + ", and 1 of 1 \"async\" calls returned only after their copy was done (host blocked 0.11 ms)";
        QTest::newRow("returned before 90%: not blocked")
            << qint64(900 * kUs) << qint64(1000 * kUs) << quint64(50000) << qint64(990 * kUs - 1) << qint64(50 * kUs)
            << "1 copy from or to pageable host memory (0.10 ms" + staged;
    }
    void pageableBoundaries()
    {
        QFETCH(qint64, kernelEnd);
        QFETCH(qint64, uploadEnd);
        QFETCH(quint64, bytes);
        QFETCH(qint64, callEnd);
        QFETCH(qint64, cost);
        QFETCH(QString, cause);
        const auto out = applyRule(pageableRun(kernelEnd, uploadEnd, bytes, callEnd), oneGBps(), true,
                                   findings::pageableCopies);
        QCOMPARE(out.size(), std::size_t(cost >= 0 ? 1 : 0));
        if (cost < 0)
            return;
        QCOMPARE(out.front().costNs, cost);
        QCOMPARE(QString::fromStdString(out.front().cause), cause);
    }

    // kSmallCopyBytes, kSlowCopyShare and kMinSmallCopies. At 1 GB/s the
    // cost is each copy's time less a nanosecond a byte.
    void smallCopiesBoundaries_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<qint64>("cost"); // -1: no finding
        QTest::addColumn<QString>("average");
        const quint64 mib = quint64(thresholds::kSmallCopyBytes);
        QTest::newRow("10 at a third of the rate") << 10 << quint64(1000) << qint64(3000) << qint64(10 * 2000) << "1.0";
        QTest::newRow("9: too few") << 9 << quint64(1000) << qint64(3000) << qint64(-1) << "";
        QTest::newRow("at half the rate: not slow") << 10 << quint64(1000) << qint64(2000) << qint64(-1) << "";
        QTest::newRow("just under half the rate") << 10 << quint64(1000) << qint64(2001) << qint64(10 * 1001) << "1.0";
        QTest::newRow("1 MiB less a byte: small") << 10 << mib - 1 << qint64(3 * (mib - 1)) << qint64(10 * 2 * (mib - 1))
                                                  << "1024.0";
        QTest::newRow("1 MiB: not small") << 10 << mib << qint64(3 * mib) << qint64(-1) << "";
    }
    void smallCopiesBoundaries()
    {
        QFETCH(int, count);
        QFETCH(quint64, bytes);
        QFETCH(qint64, ns);
        QFETCH(qint64, cost);
        QFETCH(QString, average);
        const auto out = applyRule(smallCopiesRun(count, bytes, ns), oneGBps(), true, findings::smallCopies);
        QCOMPARE(out.size(), std::size_t(cost >= 0 ? 1 : 0));
        if (cost < 0)
            return;
        QCOMPARE(out.front().costNs, cost);
        QCOMPARE(QString::fromStdString(out.front().cause),
                 "10 copies under 1024 KiB (" + average
                     + " KiB on average) reached under 50% of the link's rate (test rates): each pays a fixed cost of "
                       "microseconds");
    }

    // kMinCostShare: a finding costing under 2% of the GPU's active span is
    // left out. Ten small copies cost 20 us; the kernel beside them sets the
    // active span.
    void minCostBoundary_data()
    {
        QTest::addColumn<qint64>("active");
        QTest::addColumn<bool>("kept");
        QTest::newRow("2% of 1 ms: kept") << qint64(1000 * kUs) << true;
        QTest::newRow("under 2% of 1.00005 ms: left out") << qint64(1000 * kUs + 50) << false;
    }
    void minCostBoundary()
    {
        QFETCH(qint64, active);
        QFETCH(bool, kept);
        const Run run = smallCopiesRun(10, 1000, 3000, active);
        const TransferRates rates = oneGBps();
        const RunFindings f = findFindings(run, computeMetrics(run, rates), rates, timedRegion(run));
        QCOMPARE(f.activeNs, active);
        const Finding* small = find(f, FindingKind::SmallCopies);
        QCOMPARE(small != nullptr, kept);
        if (small)
            QCOMPARE(small->costNs, 20 * kUs);
    }

    // kQueueShare (copies that queued 5% of the wall time) and kNearBound
    // (a run within 15% of its bound has nothing to gain from it). The
    // bound: the upload engine's two copies.
    void copyQueueBoundaries_data()
    {
        QTest::addColumn<qint64>("copy");
        QTest::addColumn<qint64>("reached");
        QTest::addColumn<qint64>("wall");
        QTest::addColumn<qint64>("cost"); // -1: no finding
        QTest::newRow("queued 5% of 1 ms") << qint64(100 * kUs) << qint64(50 * kUs) << qint64(1000 * kUs)
                                           << qint64(50 * kUs);
        QTest::newRow("queued under 5%") << qint64(100 * kUs) << qint64(50 * kUs + 1) << qint64(1000 * kUs)
                                         << qint64(-1);
        // A bound of 40 us, whose 1.15x is 46 us exactly (as a double: of
        // 200 us it would be a hair under 230 us, and 230 us would not sit
        // on the threshold). Queued 20 us; the cost is capped at the
        // distance from the bound.
        QTest::newRow("1.15x the bound") << qint64(20 * kUs) << qint64(0) << qint64(46 * kUs) << qint64(6 * kUs);
        QTest::newRow("within 15% of the bound") << qint64(20 * kUs) << qint64(0) << qint64(46 * kUs - 1) << qint64(-1);
    }
    void copyQueueBoundaries()
    {
        QFETCH(qint64, copy);
        QFETCH(qint64, reached);
        QFETCH(qint64, wall);
        QFETCH(qint64, cost);
        const auto out = applyRule(queuedRun(reached, wall, copy), {}, true, [&](const findings::Context& c, std::vector<Finding>& o) {
            findings::copyEngineQueue(c, judgeRun(c, {}), o);
        });
        QCOMPARE(out.size(), std::size_t(cost >= 0 ? 1 : 0));
        if (cost < 0)
            return;
        QCOMPARE(out.front().costNs, cost);
        QVERIFY2(out.front().cause.starts_with("1 stream's uploads waited for a copy engine another stream held"),
                 out.front().cause.c_str());
    }

    // kHostBoundIdleShare (the GPU idle half the region: host bound) and
    // kIdleCallShare (a call named where it held a tenth of the idle time).
    void generalBoundBoundaries_data()
    {
        QTest::addColumn<qint64>("kernelEnd");
        QTest::addColumn<qint64>("malloc");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("calls"); // the end of the cause: its last clause
        QTest::addColumn<qint64>("cost");
        const QString bound = "x the GPU's own bound (its busiest engine, ";
        QTest::newRow("idle half the region: host bound")
            << qint64(500 * kUs) << qint64(10 * kUs) << "host bound: the GPU idles 50% of the timed region (1.00 ms)"
            << "2.00" + bound + "0.50 ms)" << qint64(500 * kUs);
        QTest::newRow("idle under half: compute bound")
            << qint64(500 * kUs + 1) << qint64(10 * kUs)
            << "compute bound: the GPU idles 50% of the timed region (1.00 ms)" << "2.00" + bound + "0.50 ms)"
            << qint64(500 * kUs - 1);
        QTest::newRow("a tenth of the idle time: named")
            << qint64(400 * kUs) << qint64(60 * kUs) << "host bound: the GPU idles 60% of the timed region (1.00 ms)"
            << "; the GPU idled most while the host was in cudaHostAlloc (1 call, 0.10 ms), cudaMalloc (1 call, 0.06 ms)"
            << qint64(600 * kUs);
        QTest::newRow("under a tenth: not named")
            << qint64(400 * kUs) << qint64(60 * kUs - 1) << "host bound: the GPU idles 60% of the timed region (1.00 ms)"
            << "; the GPU idled most while the host was in cudaHostAlloc (1 call, 0.10 ms)" << qint64(600 * kUs);
    }
    void generalBoundBoundaries()
    {
        QFETCH(qint64, kernelEnd);
        QFETCH(qint64, malloc);
        QFETCH(QString, head);
        QFETCH(QString, calls);
        QFETCH(qint64, cost);
        Verdict v;
        applyRule(idleHostRun(kernelEnd, malloc), {}, true,
                  [&](const findings::Context& c, std::vector<Finding>&) { v = judgeRun(c, {}); });
        const QString cause = QString::fromStdString(v.cause);
        QVERIFY2(cause.startsWith(head), qPrintable(cause));
        QVERIFY2(cause.endsWith(calls), qPrintable(cause));
        QCOMPARE(v.costNs, cost);
    }

    // kMaxJudgedInstances: a region group's first 64 instances are judged,
    // the rest only counted (steps of four chunks, as below; the setup step
    // is warm-up).
    void maxJudgedInstancesBoundary_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("judged");
        QTest::newRow("64 steps: all judged") << 64 << 64;
        QTest::newRow("65: the first 64") << 65 << 64;
    }
    void maxJudgedInstancesBoundary()
    {
        QFETCH(int, steps);
        QFETCH(int, judged);
        Loop loop = syncLoop();
        loop.chunks = 4 * steps;
        Run run = withSetup(buildLoop(loop), 500'000 * kUs);
        addSteps(run, 4, RegionSource::ProfilerStep, "ProfilerStep#");
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(a.regions.size(), std::size_t(1));
        const RegionJudgement& r = a.regions.front();
        QCOMPARE(r.instancesFound, std::size_t(steps));
        QCOMPARE(r.group.regions.size(), std::size_t(judged));
        QCOMPARE(r.spans.size(), std::size_t(judged));
    }

    // kCommonFindingShare: a finding of the steps' summary holds in at
    // least half the steps judged. Steps of four chunks with a device
    // synchronize after each (three with GPU work after them: the rule's
    // minimum); all steps but the first lose their waits.
    void commonFindingBoundary_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("common");
        QTest::newRow("in 1 of 2 steps: holds in most") << 2 << true;
        QTest::newRow("in 1 of 3: does not") << 3 << false;
    }
    void commonFindingBoundary()
    {
        QFETCH(int, steps);
        QFETCH(bool, common);
        Loop loop = syncLoop();
        loop.chunks = 4 * steps;
        Run run = withSetup(buildLoop(loop), 500'000 * kUs);
        addSteps(run, 4, RegionSource::ProfilerStep, "ProfilerStep#"); // the setup, then the steps
        const std::int64_t secondStep = run.regions[2].beginNs;
        std::erase_if(run.ops, [&](const Op& op) { return op.kind == OpKind::Sync && op.startNs >= secondStep; });
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(a.regions.size(), std::size_t(1));
        // The steps judged alone (judgeRegionGroup, before the whole span's
        // shares join them): the threshold decides.
        const RegionJudgement r = judgeRegionGroup(run, a.rates, a.regions.front().group);
        QCOMPARE(r.instancesFound, std::size_t(steps)); // the setup step is warm-up
        const auto sync = std::find_if(r.common.begin(), r.common.end(),
                                       [](const CommonFinding& c) { return c.kind == FindingKind::SyncInLoop; });
        QCOMPARE(sync != r.common.end(), common);
        if (common) {
            QCOMPARE(sync->instances, 1);
            QVERIFY(!sync->fromWholeSpan);
        }
        // The whole span names the waits either way, so the report lists
        // them with each step's share of what their fix saves the whole.
        const RegionJudgement& reported = a.regions.front();
        const auto shared = std::find_if(reported.common.begin(), reported.common.end(), [](const CommonFinding& c) {
            return c.kind == FindingKind::SyncInLoop && c.alsoKinds.empty();
        });
        QVERIFY(shared != reported.common.end() && shared->fromWholeSpan);
    }

    // ---- Boundaries of what is judged (JudgedSpan.cpp)

    // kSteadyStateMinRepeats, kSteadyStateShareOfMost,
    // kSteadyStateMinOpRepeats, kSteadyStateWholeShare and kSetupCallParts:
    // a loop of kernels after a cudaHostAlloc and, in some rows, a few
    // uploads from 1 ms on.
    void steadyStateBoundaries_data()
    {
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("uploads");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("setupCall");
        QTest::addColumn<qint64>("every");
        QTest::addColumn<bool>("steady");
        QTest::addColumn<qint64>("begin");
        QTest::addColumn<QString>("words"); // setup text, or why the whole region
        const qint64 ms = 1000 * kUs;
        QTest::newRow("a kernel twice: no loop") << 2 << 0 << 5 * ms << ms << ms << false << qint64(0)
                                                 << "no GPU op recurs 3 times or more: no loop to tell from its setup";
        QTest::newRow("three times: a loop") << 3 << 0 << 5 * ms << ms << ms << true << 5 * ms
                                             << "setup: 5 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("an op a quarter as frequent: the loop's")
            << 12 << 3 << 5 * ms << ms << ms << true << ms
            << "setup: 1 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("under a quarter: setup") << 12 << 2 << 5 * ms << ms << ms << true << 5 * ms
                                                << "setup: 5 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("once, a quarter of 4: setup") << 4 << 1 << 5 * ms << ms << ms << true << 5 * ms
                                                     << "setup: 5 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        // Kernels 3..3.5, 51.25.., 99.5..100 ms: the loop is 97% of the region.
        QTest::newRow("97% of the region: the whole") << 3 << 0 << 3 * ms << ms << qint64(48'250 * kUs) << false
                                                      << qint64(0) << "the repeated GPU work fills it: no setup to leave out";
        QTest::newRow("under 97%: the loop") << 3 << 0 << 3 * ms + 1 << ms << qint64(48'250 * kUs) << true << 3 * ms + 1
                                             << "setup: 3 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("a call with a tenth of the setup: named")
            << 3 << 0 << 10 * ms << ms << ms << true << 10 * ms
            << "setup: 10 ms before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("under a tenth: not named") << 3 << 0 << 10 * ms << ms - 1 << ms << true << 10 * ms
                                                  << "setup: 10 ms before the judged span";
    }
    void steadyStateBoundaries()
    {
        QFETCH(int, kernels);
        QFETCH(int, uploads);
        QFETCH(qint64, first);
        QFETCH(qint64, setupCall);
        QFETCH(qint64, every);
        QFETCH(bool, steady);
        QFETCH(qint64, begin);
        QFETCH(QString, words);
        const JudgedSpan j = judgedSpan(loopAfterSetup(kernels, uploads, first, setupCall, every));
        QCOMPARE(j.basis, steady ? JudgedSpan::Basis::SteadyState : JudgedSpan::Basis::TimedRegion);
        QCOMPARE(j.span.beginNs, begin);
        QCOMPARE(QString::fromStdString(steady ? j.setupText : j.whyWhole), words);
    }

    // kRegionShareOfGpuOps: an outermost range around half the GPU ops is
    // judged; around fewer, the steady state is.
    void rangeShareBoundary_data()
    {
        QTest::addColumn<qint64>("end");
        QTest::addColumn<bool>("judged");
        QTest::newRow("2 of 4 kernels") << qint64(6600 * kUs) << true;
        QTest::newRow("1 of 4") << qint64(5600 * kUs) << false;
    }
    void rangeShareBoundary()
    {
        QFETCH(qint64, end);
        QFETCH(bool, judged);
        Run run = loopAfterSetup(4, 0);
        Region range;
        range.name = "loop";
        range.beginNs = 5000 * kUs;
        range.endNs = end;
        run.regions.push_back(range);
        const JudgedSpan j = judgedSpan(run);
        QCOMPARE(j.basis, judged ? JudgedSpan::Basis::Regions : JudgedSpan::Basis::SteadyState);
        QCOMPARE(j.label, judged ? std::string("region 'loop'") : std::string("steady state (the repeated GPU work)"));
    }

    // kWarmUpStepFactor and kWarmUpMinSteps: a first step over 1.5x the
    // median of the others is warm-up, judged only with two others or more.
    void warmUpBoundaries_data()
    {
        QTest::addColumn<QList<qint64>>("steps");
        QTest::addColumn<int>("kept");
        QTest::addColumn<QString>("setup");
        const qint64 ms = 1000 * kUs;
        const QString call = " before the judged span, of which cudaHostAlloc 1 ms (1 call)";
        QTest::newRow("1.5x: a step") << QList<qint64>{ms + ms / 2, ms, ms} << 3 << "setup: 1 ms" + call;
        QTest::newRow("over 1.5x: warm-up") << QList<qint64>{ms + ms / 2 + 1, ms, ms} << 2
                                            << "setup and warm-up: 2.5 ms" + call;
        QTest::newRow("two steps: no warm-up judged") << QList<qint64>{10 * ms, ms} << 2 << "setup: 1 ms" + call;
    }
    void warmUpBoundaries()
    {
        QFETCH(QList<qint64>, steps);
        QFETCH(int, kept);
        QFETCH(QString, setup);
        Run run = loopAfterSetup(3, 0);
        std::int64_t t = 1000 * kUs;
        for (qsizetype i = 0; i < steps.size(); ++i) {
            Region step;
            step.name = "ProfilerStep#" + std::to_string(i);
            step.source = RegionSource::ProfilerStep;
            step.beginNs = t;
            step.endNs = t += steps[i];
            run.regions.push_back(step);
        }
        const JudgedSpan j = judgedSpanOf(run, regionGroups(run).front(), true);
        QCOMPARE(int(j.group.regions.size()), kept);
        QCOMPARE(QString::fromStdString(j.setupText), setup);
    }

    // ---- The stored H200 traces.

    void ourPipelinesOnTheH200()
    {
        const Trace trace = load("../../docs/traces/h200-strategies-8x32.json");
        const auto findingsOfRun = [&](const char* name) { return analyzeFindings(runNamed(trace, name), trace.sweeps); };
        const RunFindings serialized = findingsOfRun("serialized pageable");
        QVERIFY2(find(serialized, FindingKind::PageableCopies), qPrintable(describe(serialized)));
        // One stream alone saves nothing there (each pageable copy blocks
        // the host); every fix together brings it near the overlapped run.
        QVERIFY(serialized.whatIf.replayed);
        QVERIFY2(serialized.whatIf.allFixesSpanNs < serialized.activeNs / 3,
                 qPrintable(QString::number(serialized.whatIf.allFixesSpanNs)));
        const RunFindings overlapped = findingsOfRun("overlapped pinned");
        QVERIFY2(onlyTheBound(overlapped), qPrintable(describe(overlapped)));
        const RunFindings oneStream = findingsOfRun("pinned, one stream");
        QVERIFY2(find(oneStream, FindingKind::OneStream), qPrintable(describe(oneStream)));
        QVERIFY(!find(oneStream, FindingKind::PageableCopies));
        const RunFindings pageableAsync = findingsOfRun("pageable async");
        QVERIFY2(find(pageableAsync, FindingKind::PageableCopies), qPrintable(describe(pageableAsync)));
        QVERIFY(!find(pageableAsync, FindingKind::OneStream));
        // The best strategy, near its bound: nothing to find.
        const RunFindings pinned = findingsOfRun("data already pinned");
        QVERIFY2(onlyTheBound(pinned), qPrintable(describe(pinned)));
        for (const char* name : {"registered host memory", "data already pinned"}) {
            const RunFindings f = findingsOfRun(name);
            QVERIFY2(!find(f, FindingKind::OneStream) && !find(f, FindingKind::PageableCopies)
                         && !find(f, FindingKind::SyncInLoop) && !find(f, FindingKind::AllocInLoop),
                     qPrintable(name + QString(": ") + describe(f)));
        }
    }

    void pytorchTraces_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QList<int>>("expected");
        QTest::addColumn<QList<int>>("absent");
        const auto k = [](FindingKind kind) { return int(kind); };
        QTest::newRow("pageable, sync") << "pytorch-pageable-sync.json" << QList<int>{k(FindingKind::PageableCopies)}
                                       << QList<int>{k(FindingKind::OneStream), k(FindingKind::LegacyDefaultStream)};
        QTest::newRow("two streams, pinned") << "pytorch-two-streams-pinned.json" << QList<int>{}
                                             << QList<int>{k(FindingKind::PageableCopies), k(FindingKind::OneStream),
                                                           k(FindingKind::LegacyDefaultStream),
                                                           k(FindingKind::SyncInLoop)};
        // loss.item() each step: a cudaStreamSynchronize that empties the
        // GPU, but the host's own work between calls binds: the replay
        // without it saves under 2%, and the bound says so.
        QTest::newRow("train step") << "pytorch-train-step.json" << QList<int>{}
                                    << QList<int>{k(FindingKind::LegacyDefaultStream), k(FindingKind::SyncInLoop)};
    }
    void pytorchTraces()
    {
        QFETCH(QString, file);
        QFETCH(QList<int>, expected);
        QFETCH(QList<int>, absent);
        const Trace trace = load(file);
        QCOMPARE(trace.runs.size(), std::size_t(1));
        const RunFindings f = analyzeFindings(trace.runs.front(), trace.sweeps);
        for (int kind : expected)
            QVERIFY2(find(f, FindingKind(kind)), qPrintable(toString(FindingKind(kind)) + QString(" missing:\n") + describe(f)));
        for (int kind : absent)
            QVERIFY2(!find(f, FindingKind(kind)), qPrintable(toString(FindingKind(kind)) + QString(" found:\n") + describe(f)));
        QCOMPARE(f.findings.back().kind, FindingKind::Bound);
        if (file == "pytorch-train-step.json")
            QVERIFY2(f.findings.back().cause.find("host's own work between calls") != std::string::npos,
                     f.findings.back().cause.c_str());
    }

    // analyzeSpan finds the rules' findings ahead, from the index alone, as
    // though the run replays: where that holds, and where it does not (a
    // run whose graph has no GPU work), the findings are those found after.
    void findingsFoundAheadAreTheSame_data()
    {
        QTest::addColumn<QString>("file");
        const QDir data(OVERLAPSCOPE_TEST_DATA);
        for (const QString& folder : {QString("."), QString("profiled"), QString("profiled/what-if"), QString("profiled/what-if-h100")})
            for (const QString& name : QDir(data.filePath(folder)).entryList({"*.json"}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(folder + "/" + name)) << QString(folder + "/" + name);
        QTest::newRow("built, no GPU work") << QString();
    }
    void findingsFoundAheadAreTheSame()
    {
        QFETCH(QString, file);
        Run run;
        std::vector<BandwidthSweep> sweeps;
        if (file.isEmpty()) {
            RunBuilder b;
            const int thread = b.lane("host thread", LaneKind::HostThread);
            for (int i = 0; i < 8; ++i)
                b.call(thread, "cudaStreamSynchronize", i * 100'000, i * 100'000 + 40'000);
            run = b.finish();
        } else {
            const Trace trace = load(file);
            run = trace.runs.front();
            sweeps = trace.sweeps;
        }
        const TransferRates rates = transferRatesFor(run, sweeps);
        const Interval span = timedRegion(run);
        const RunMetrics metrics = computeMetrics(run, rates);
        const RunIndex index(run, span);
        const auto found = [&](std::optional<bool> assumed) {
            WhatIf whatIf(run, rates, span);
            FindingsAhead ahead;
            if (assumed)
                ahead = findFindingsAhead(index, metrics, rates, *assumed);
            const RunFindings f = findFindings(index, whatIf, metrics, rates, {}, std::move(ahead));
            return std::pair(whatIf.summary().replayed, describe(f) + QString::fromStdString(f.verdict.words));
        };
        const auto [replayed, after] = found(std::nullopt);
        QCOMPARE(replayed, !file.isEmpty());
        QCOMPARE(found(true).second, after);
        QCOMPARE(found(false).second, after);
    }

    // Traces that measured no pinned rate (a Kineto trace of pageable copies
    // on an H200, a public Nsight report of CloverLeaf on an A100): pinning
    // is replayed at the rate the device class table assumes, and the cost
    // says so. A device the table does not know keeps the estimate and says
    // how to give a rate; --pinned-rate then prices it.
    void pinnedRateAssumedForTheDevice_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("costRate");
        QTest::newRow("Kineto, H200") << "pytorch-pageable-sync.json" << "rate assumed for H200 on PCIe Gen5 x16";
        QTest::newRow("Nsight, A100") << "nsight/cloverleaf-cuda_nsys_perlmutter-reduced.sqlite"
                                      << "rate assumed for A100 SXM4 on PCIe Gen4 x16";
    }
    void pinnedRateAssumedForTheDevice()
    {
        QFETCH(QString, file);
        QFETCH(QString, costRate);
        const Trace trace = load(file);
        QCOMPARE(trace.runs.size(), std::size_t(1));
        Run run = trace.runs.front();
        const RunAnalysis a = analyzeRun(run, trace.sweeps, nullptr);
        const Finding* p = find(a.findings, FindingKind::PageableCopies);
        QVERIFY2(p, qPrintable(describe(a.findings)));
        QCOMPARE(p->costSource, CostSource::Replay);
        QCOMPARE(QString::fromStdString(p->costRate), costRate);
        QVERIFY(p->costNs > 0);
        QVERIFY2(p->cause.find("no pinned rate") == std::string::npos, p->cause.c_str());
        QVERIFY(has(a.findings.whatIf.allFixes, Fix::PinHostMemory));
        QVERIFY(a.findings.whatIf.allFixesSpanNs < a.findings.whatIf.replaySpanNs);
        QVERIFY(QString::fromStdString(analysisJson(trace, {a})).contains("\"costRate\":\"" + costRate + "\""));

        run.device.name = "Unknown GPU";
        const RunAnalysis u = analyzeRun(run, trace.sweeps, nullptr);
        const Finding* q = find(u.findings, FindingKind::PageableCopies);
        QVERIFY2(q, qPrintable(describe(u.findings)));
        QCOMPARE(q->costSource, CostSource::Estimate);
        QVERIFY(q->costRate.empty());
        QVERIFY2(q->cause.find("no pinned rate known for Unknown GPU: cost is an estimate; --pinned-rate H2D,D2H "
                               "sets one")
                     != std::string::npos,
                 q->cause.c_str());

        AnalysisOptions options;
        options.pinnedRates = {25, 26};
        const RunAnalysis g = analyzeRun(run, trace.sweeps, nullptr, options);
        const Finding* r = find(g.findings, FindingKind::PageableCopies);
        QVERIFY2(r, qPrintable(describe(g.findings)));
        QCOMPARE(r->costSource, CostSource::Replay);
        QCOMPARE(r->costRate, std::string("rate given: 25.0 GB/s H2D, 26.0 GB/s D2H"));
    }

    // The example programs (examples/*.cu) profiled on the H200: each one's
    // pitfall is found, and with --fix nothing but the bound.
    void profiledExamples_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<int>("kind");
        QTest::newRow("pageable_async") << "pageable_async" << int(FindingKind::PageableCopies);
        QTest::newRow("one_stream") << "one_stream" << int(FindingKind::OneStream);
        QTest::newRow("legacy_default_stream") << "legacy_default_stream" << int(FindingKind::LegacyDefaultStream);
        QTest::newRow("sync_in_loop") << "sync_in_loop" << int(FindingKind::SyncInLoop);
        QTest::newRow("malloc_in_loop") << "malloc_in_loop" << int(FindingKind::AllocInLoop);
    }
    void profiledExamples()
    {
        QFETCH(QString, example);
        QFETCH(int, kind);
        const Trace before = load("profiled/" + example + ".json");
        const RunFindings f = analyzeFindings(before.runs.front(), before.sweeps);
        const Finding* found = find(f, FindingKind(kind));
        QVERIFY2(found, qPrintable(describe(f)));
        QVERIFY(found->costNs > 0);
        QVERIFY(found->opCount >= 15); // one or more per chunk of 16
        QCOMPARE(found->device, 0);
        const Trace after = load("profiled/" + example + "-fix.json");
        const RunAnalysis fixed = analyzeRun(after.runs.front(), after.sweeps, nullptr);
        const RunFindings& g = fixed.findings;
        QVERIFY2(onlyTheBound(g), qPrintable(describe(g)));
        // The loop is judged, not the process: its 300-500 ms of pinned
        // allocations are the setup, said apart, and never the verdict.
        QCOMPARE(fixed.judged.basis, JudgedSpan::Basis::SteadyState);
        QVERIFY2(fixed.judged.setupText.find("of which cudaHostAlloc") != std::string::npos
                     && fixed.judged.setupText.find("(2 calls)") != std::string::npos,
                 fixed.judged.setupText.c_str());
        QVERIFY(g.wallNs * 5 < after.runs.front().wallNs());
        QVERIFY2(g.findings.front().cause.find("cudaHostAlloc") == std::string::npos, g.findings.front().cause.c_str());
        // Fixed, the loop runs at the link's rate: transfer bound, within 15%
        // of its busiest engine. (The stored sync_in_loop is the variant whose
        // host check binds: host bound, as its --host-bound twin says.)
        if (example != "sync_in_loop") {
            QVERIFY2(g.findings.front().cause.starts_with("transfer bound: "), g.findings.front().cause.c_str());
            QCOMPARE(fixed.findings.verdict.kind, VerdictKind::TransferBound);
        }
    }

    // ---- What is judged (judgement/JudgedSpan.h)

    // A profiled loop behind 500 ms of pinned allocations: the steady state
    // (the repeated uploads, kernels and downloads) is judged, and the setup
    // is said apart, named by the call that took it.
    void steadyStateLeavesSetupOut()
    {
        Run run = withSetup(buildLoop(syncLoop()), 500'000 * kUs);
        const JudgedSpan j = judgedSpan(run);
        QCOMPARE(j.basis, JudgedSpan::Basis::SteadyState);
        const Op& firstUpload = *std::find_if(run.ops.begin(), run.ops.end(),
                                              [](const Op& op) { return op.kind == OpKind::Upload; });
        const Op& call = callOf(run, firstUpload);
        QCOMPARE(j.span.beginNs, call.startNs);
        QCOMPARE(j.setup.beginNs, run.timedBeginNs);
        QCOMPARE(j.setup.endNs, j.span.beginNs);
        QVERIFY2(j.setupText.find("of which cudaHostAlloc 500 ms (1 call)") != std::string::npos, j.setupText.c_str());
        // The verdict is the loop's: its host sync per chunk, not the
        // allocation (which the whole process's bound would name).
        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QVERIFY2(find(a.findings, FindingKind::SyncInLoop), qPrintable(describe(a.findings)));
        QVERIFY(a.findings.wallNs < 20'000 * kUs);
        QVERIFY2(a.findings.findings.back().cause.find("cudaHostAlloc") == std::string::npos,
                 a.findings.findings.back().cause.c_str());
        // Pipelines keep their timed region: setup is already outside it.
        Run pipeline = run;
        pipeline.pipeline = "overlapped";
        pipeline.params.chunks = 6;
        QCOMPARE(judgedSpan(pipeline).basis, JudgedSpan::Basis::TimedRegion);
    }

    // Nothing recurs (one chunk): the timed region, said so.
    void noLoopIsTheTimedRegion()
    {
        Loop one = syncLoop();
        one.chunks = 1;
        const Run run = buildLoop(one);
        const JudgedSpan j = judgedSpan(run);
        QCOMPARE(j.basis, JudgedSpan::Basis::TimedRegion);
        QCOMPARE(j.span.beginNs, run.timedBeginNs);
        QCOMPARE(j.span.endNs, run.timedEndNs);
    }

    // Profiler steps: each is judged on its own; a first step much slower
    // than the rest (it paid the allocations) is warm-up; the findings that
    // hold in most steps are summarised with their median cost.
    void stepsAreJudgedEach()
    {
        // Four chunks a step: three waits in each with GPU work after them
        // (the rule's minimum, kMinRepeats).
        Loop twelve = syncLoop();
        twelve.chunks = 12;
        Run run = withSetup(buildLoop(twelve), 500'000 * kUs);
        addSteps(run, 4, RegionSource::ProfilerStep, "ProfilerStep#");
        QCOMPARE(run.regions.size(), std::size_t(4)); // the setup step and three of four chunks
        const JudgedSpan j = judgedSpan(run);
        QCOMPARE(j.basis, JudgedSpan::Basis::Regions);
        QCOMPARE(j.group.name, std::string("ProfilerStep#N"));
        QCOMPARE(j.group.regions.size(), std::size_t(3)); // warm-up left out
        QCOMPARE(j.span.beginNs, run.regions[1].beginNs);
        QVERIFY2(j.setupText.starts_with("setup and warm-up: "), j.setupText.c_str());

        const RunAnalysis a = analyzeRun(run, {}, nullptr);
        QCOMPARE(a.regions.size(), std::size_t(1));
        const RegionJudgement& r = a.regions.front();
        QCOMPARE(r.instancesFound, std::size_t(3));
        QCOMPARE(r.spans.size(), std::size_t(3));
        QVERIFY(r.medianNs > 0 && r.slowestNs >= r.medianNs);
        const auto sync = std::find_if(r.common.begin(), r.common.end(),
                                       [](const CommonFinding& c) { return c.kind == FindingKind::SyncInLoop; });
        QVERIFY(sync != r.common.end());
        QCOMPARE(sync->instances, 3);
        QVERIFY(sync->medianCostNs > 0 && sync->medianCostNs <= r.medianNs);
        // The JSON carries them (docs/what-if.md, schema 2).
        Trace trace;
        trace.runs.push_back(run);
        const std::string json = analysisJson(trace, {a});
        QVERIFY2(json.find("\"regions\":[{\"name\":\"ProfilerStep#N\",\"count\":3") != std::string::npos,
                 json.c_str());
        QVERIFY(json.find("\"basis\":\"regions\"") != std::string::npos);
    }

    // An outermost NVTX range around most of the GPU work is judged by
    // default; one around little of it is not (the steady state is).
    void outermostRangeAroundTheWork()
    {
        Run run = withSetup(buildLoop(syncLoop()), 500'000 * kUs);
        Region loop;
        loop.name = "loop";
        loop.beginNs = firstCallBegin(run, OpKind::Upload);
        loop.endNs = run.timedEndNs;
        loop.lane = hostLane(run);
        run.regions.push_back(loop);
        JudgedSpan j = judgedSpan(run);
        QCOMPARE(j.basis, JudgedSpan::Basis::Regions);
        QCOMPARE(j.label, std::string("region 'loop'"));
        run.regions.front().endNs = run.regions.front().beginNs + 1; // around one call at most
        j = judgedSpan(run);
        QCOMPARE(j.basis, JudgedSpan::Basis::SteadyState);
    }

    // --region: a name, else a regular expression over whole names; an
    // invalid one is said, not thrown; no match leaves the default rule.
    void regionOption()
    {
        Run run = withSetup(buildLoop(syncLoop()), 500'000 * kUs);
        addSteps(run, 2, RegionSource::Nvtx, "iteration ");
        std::string error;
        QCOMPARE(regionGroupsMatching(run, "iteration 2", &error).front().regions.size(), std::size_t(1));
        QCOMPARE(regionGroupsMatching(run, "iteration N", &error).front().regions.size(), std::size_t(4));
        QCOMPARE(regionGroupsMatching(run, "iteration [12]", &error).front().regions.size(), std::size_t(2));
        QVERIFY(regionGroupsMatching(run, "iter", &error).empty()); // a regex matches whole names
        QVERIFY(error.empty());
        QVERIFY(regionGroupsMatching(run, "(", &error).empty());
        QVERIFY2(error.find("not a valid regular expression") != std::string::npos
                     || error.find("neither") != std::string::npos,
                 error.c_str());
        AnalysisOptions options;
        options.region = "iteration [123]";
        std::string note;
        const RunAnalysis a = analyzeRun(run, {}, nullptr, options, &note);
        QVERIFY(note.empty());
        QCOMPARE(a.judged.basis, JudgedSpan::Basis::Regions);
        QCOMPARE(a.judged.span.beginNs, run.regions[1].beginNs);
        QCOMPARE(a.regions.size(), std::size_t(1));
        QCOMPARE(a.regions.front().instancesFound, std::size_t(3));
        options.region = "no such region";
        const RunAnalysis b = analyzeRun(run, {}, nullptr, options, &note);
        QVERIFY2(note.find("no region matches 'no such region'") != std::string::npos, note.c_str());
        QCOMPARE(b.judged.basis, judgedSpan(run).basis);
    }

    // A region's span reaches the end of the GPU work enqueued inside it
    // (by correlation), not just its own end.
    void regionSpanCoversItsGpuWork()
    {
        Run run = buildLoop(Loop{});
        Region issue;
        issue.name = "issue";
        issue.beginNs = run.timedBeginNs;
        issue.endNs = firstCallBegin(run, OpKind::Download) + 1; // the host issues, the GPU runs on
        issue.lane = hostLane(run);
        run.regions.push_back(issue);
        const Interval span = regionSpan(run, 0);
        const Op& download = *std::find_if(run.ops.begin(), run.ops.end(),
                                           [](const Op& op) { return op.kind == OpKind::Download; });
        QVERIFY(span.endNs >= download.execEndNs);
        QVERIFY(span.endNs > issue.endNs);
    }

    // A trace diff (analysis/TraceDiff.h) of an example plain and with --fix,
    // profiled on the H200: the runs pair by program, every number is the
    // one the analysis of each trace alone gives (as `analyze` prints it),
    // and the example's pitfall is resolved with its cost before.
    void diffOfAnExampleAndItsFix_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<int>("kind");
        QTest::newRow("pageable_async") << "pageable_async" << int(FindingKind::PageableCopies);
        QTest::newRow("one_stream") << "one_stream" << int(FindingKind::OneStream);
        QTest::newRow("sync_in_loop") << "sync_in_loop" << int(FindingKind::SyncInLoop);
        QTest::newRow("legacy_default_stream") << "legacy_default_stream" << int(FindingKind::LegacyDefaultStream);
    }
    void diffOfAnExampleAndItsFix()
    {
        QFETCH(QString, example);
        QFETCH(int, kind);
        const Trace before = load("profiled/what-if/" + example + ".json");
        const Trace after = load("profiled/what-if/" + example + "-fix.json");
        const RunMatching matching = matchRuns(before, after);
        QCOMPARE(matching.pairs.size(), std::size_t(1));
        QCOMPARE(matching.pairs.front().by, std::string("program")); // "app (pid 1)" with "app --fix (pid 2)"
        const TraceDiff diff = diffTraces(before, after, matching);
        QCOMPARE(diff.pairs.size(), std::size_t(1));
        const RunPairDiff& p = diff.pairs.front();
        const RunAnalysis b = analyzeTrace(before).front();
        const RunAnalysis a = analyzeTrace(after).front();
        for (const auto& [side, alone] : {std::pair{&p.before, &b}, std::pair{&p.after, &a}}) {
            QCOMPARE(side->wallNs, alone->findings.wallNs);
            QCOMPARE(side->activeNs, alone->findings.activeNs);
            QCOMPARE(side->overlapNs, alone->metrics.copyWithKernelNs);
            QCOMPARE(side->overlapPossibleNs, alone->metrics.overlapPossibleNs);
            QCOMPARE(side->devices.size(), alone->findings.devices.size());
            QCOMPARE(side->devices.front().h2dNs, alone->findings.devices.front().h2dNs);
            QCOMPARE(side->devices.front().computeNs, alone->findings.devices.front().computeNs);
            QCOMPARE(side->devices.front().idleNs, alone->findings.devices.front().idleNs);
            QCOMPARE(side->allFixesSpanNs, alone->findings.whatIf.allFixesSpanNs);
        }
        QCOMPARE(p.savedNs, b.findings.activeNs - a.findings.activeNs);
        QVERIFY2(p.savedNs > 0, qPrintable(QString::fromStdString(savedSentence(p))));
        QVERIFY(std::abs(p.savedPercent - 100.0 * double(p.savedNs) / double(b.findings.activeNs)) < 1e-9);
        QVERIFY(QString::fromStdString(savedSentence(p)).startsWith("saved "));

        // Every finding of either side once: the pitfall resolved with its
        // cost, the bound (the only finding after the fix) changed, last.
        const Finding* pitfall = find(b.findings, FindingKind(kind));
        QVERIFY(pitfall);
        const auto resolved = std::find_if(p.findings.begin(), p.findings.end(), [&](const FindingDiff& f) {
            return f.before && f.before->id == findingId(*pitfall);
        });
        QVERIFY(resolved != p.findings.end());
        QCOMPARE(resolved->change, FindingChange::Resolved);
        QCOMPARE(resolved->before->costNs, pitfall->costNs);
        QVERIFY(!resolved->after);
        QCOMPARE(p.findings.size(), b.findings.findings.size() + a.findings.findings.size() - 1);
        const FindingDiff& bound = p.findings.back();
        QCOMPARE(bound.change, FindingChange::Changed);
        QCOMPARE(bound.before->id, std::string("bound"));
        QCOMPARE(bound.before->costNs, b.findings.findings.back().costNs);
        QCOMPARE(bound.after->costNs, a.findings.findings.back().costNs);

        // Swapped, the fix is a regression: the pitfall is new, the span lost.
        const TraceDiff back = diffTraces(after, before, matchRuns(after, before));
        QCOMPARE(back.pairs.front().savedNs, -p.savedNs);
        QVERIFY(QString::fromStdString(savedSentence(back.pairs.front())).startsWith("lost "));
        QVERIFY(std::any_of(back.pairs.front().findings.begin(), back.pairs.front().findings.end(),
                            [](const FindingDiff& f) { return f.change == FindingChange::New; }));
    }

    // How runs pair, and how the user names one.
    void runsPairByNameThenProgram()
    {
        const auto traceOf = [](std::initializer_list<const char*> names) {
            Trace t;
            for (const char* name : names) {
                Run run;
                run.name = name;
                t.runs.push_back(run);
            }
            return t;
        };
        const Trace before = traceOf({"serialized pageable", "app (pid 12)", "tool -x (pid 3)", "gone"});
        const Trace after = traceOf({"tool -x (pid 99)", "app --fix (pid 13)", "serialized pageable", "extra run"});
        const RunMatching m = matchRuns(before, after);
        QCOMPARE(m.pairs.size(), std::size_t(3));
        QCOMPARE(m.pairs[0].after, std::size_t(2));
        QCOMPARE(m.pairs[0].by, std::string("name"));
        QCOMPARE(m.pairs[1].after, std::size_t(1));
        QCOMPARE(m.pairs[1].by, std::string("program"));
        QCOMPARE(m.pairs[2].after, std::size_t(0));
        QCOMPARE(m.pairs[2].by, std::string("name without pid"));
        QVERIFY(m.onlyBefore == std::vector<std::size_t>{3});
        QVERIFY(m.onlyAfter == std::vector<std::size_t>{3});
        // Nothing in common: two lone runs still pair; more do not.
        QCOMPARE(matchRuns(traceOf({"a"}), traceOf({"b"})).pairs.front().by, std::string("only runs"));
        QVERIFY(matchRuns(traceOf({"a", "c"}), traceOf({"b"})).pairs.empty());

        std::string why;
        QVERIFY(selectRun(before, "app (pid 12)", &why) == std::optional<std::size_t>(1));
        QVERIFY(selectRun(before, "tool -x", &why) == std::optional<std::size_t>(2));
        QVERIFY(selectRun(before, "4", &why) == std::optional<std::size_t>(3));
        QVERIFY(!selectRun(before, "5", &why));
        QVERIFY2(why.find("holds 4 runs") != std::string::npos, why.c_str());
        QVERIFY(!selectRun(before, "nobody", &why));
        QVERIFY(!selectRun(traceOf({"x (pid 1)", "x (pid 2)"}), "x", &why));
        QVERIFY2(why.find("2 runs are named so") != std::string::npos, why.c_str());
        // A name wins over a position.
        QVERIFY(selectRun(traceOf({"b", "1"}), "1", &why) == std::optional<std::size_t>(1));
    }

    // Recorded on the H200 (scripts/gpu-regions.sh, docs/logs/
    // h200-regions-results.json): the PyTorch loop as six profiler steps,
    // step 0 pinning the memory. Each step is judged, the first as warm-up,
    // and the finding that holds in every step is the one whose fix the
    // measurement confirms (13.7 -> 7.0 ms a step unprofiled, 14.5 -> 6.9
    // traced); fixed, no finding holds.
    void storedProfilerSteps()
    {
        const Trace plain = load("profiled/regions/torch_steps.json");
        const Run& run = *std::max_element(plain.runs.begin(), plain.runs.end(), [](const Run& a, const Run& b) {
            return a.regions.size() < b.regions.size();
        });
        const RunAnalysis a = analyzeRun(run, plain.sweeps, nullptr);
        QCOMPARE(a.judged.basis, JudgedSpan::Basis::Regions);
        QCOMPARE(a.judged.group.name, std::string("ProfilerStep#N"));
        QCOMPARE(a.judged.group.regions.size(), std::size_t(5)); // step 0 is warm-up
        QVERIFY2(a.judged.setupText.starts_with("setup and warm-up: ")
                     && a.judged.setupText.find("cudaHostAlloc") != std::string::npos,
                 a.judged.setupText.c_str());
        QCOMPARE(a.regions.size(), std::size_t(1));
        const RegionJudgement& steps = a.regions.front();
        QCOMPARE(steps.instancesFound, std::size_t(5));
        QVERIFY(!steps.common.empty());
        const CommonFinding& top = steps.common.front();
        QCOMPARE(findingId(top.kind, top.alsoKinds), std::string("one-stream+host-sync"));
        QCOMPARE(top.instances, 5);
        QCOMPARE(top.costSource, CostSource::Replay);
        // Within 25% of the measured saving per step, traced (7.60 ms).
        QVERIFY2(top.medianCostNs > 5'700'000 && top.medianCostNs < 9'500'000, qPrintable(QString::number(top.medianCostNs)));
        // In core's words, which `analyze` prints and the window shows.
        QVERIFY(judgedSentence(run, a).starts_with("Judged: " + a.judged.label + ", "));
        const std::vector<WordsLine> words = regionJudgementWords(run, steps);
        QVERIFY2(words.front().depth == 0 && words.front().text.starts_with("Each of ProfilerStep#N: 5 judged; median "),
                 words.front().text.c_str());
        QVERIFY2(words[1].depth == 1 && words[1].text.starts_with("in 5 of 5: "), words[1].text.c_str());
        QCOMPARE(words[3].text, "fix: " + top.fix);
        // One step judged alone (as the window judges a picked one) is the
        // step as the judgement saw it.
        Run slice;
        const RunAnalysis alone =
            judgeRegionInstance(run, a.rates, steps.slowestRegion, regionSpan(run, steps.slowestRegion), &slice);
        QCOMPARE(spanNs(alone.judged.span.beginNs, alone.judged.span.endNs), steps.slowestNs);
        QVERIFY(!slice.ops.empty() && slice.ops.size() < run.ops.size());
        // The record_function ranges are regions inside the steps.
        QVERIFY(std::count_if(run.regions.begin(), run.regions.end(),
                              [](const Region& r) { return r.name == "h2d" && r.depth > 0; }) >= 16 * 5);

        const Trace fixed = load("profiled/regions/torch_steps-fix.json");
        const Run& f = *std::max_element(fixed.runs.begin(), fixed.runs.end(), [](const Run& x, const Run& y) {
            return x.regions.size() < y.regions.size();
        });
        const RunAnalysis b = analyzeRun(f, fixed.sweeps, nullptr);
        QCOMPARE(b.regions.size(), std::size_t(1));
        QVERIFY(b.regions.front().medianNs * 3 < steps.medianNs * 2);
        // Steps and the whole are one computation at two scopes: each step's
        // saving is its share of the whole span's replay, and they add up to
        // it. The fixed run keeps one wait at each step's end, which the
        // fix of waits per chunk keeps too (a step's results are used at its
        // end): its whole span names nothing, and its steps add up to that.
        {
            const RegionJudgement& j = b.regions.front();
            QCOMPARE(j.wholeAllFixesSavingNs, std::int64_t(0));
            QCOMPARE(j.allFixesStepsSumNs, std::int64_t(0));
            QVERIFY(j.disagreement.empty());
            QVERIFY(j.common.empty());
        }
        {
            const RunAnalysis* r = &a;
            const RegionJudgement& j = r->regions.front();
            QVERIFY(j.wholeAllFixesSavingNs > 0);
            QVERIFY2(std::abs(j.allFixesStepsSumNs - j.wholeAllFixesSavingNs) <= j.wholeAllFixesSavingNs / 10,
                     qPrintable(QString("%1 of %2").arg(j.allFixesStepsSumNs).arg(j.wholeAllFixesSavingNs)));
            QVERIFY(j.disagreement.empty());
            for (const Finding& w : r->findings.findings) {
                if (w.kind == FindingKind::Bound)
                    continue;
                const auto c = std::find_if(j.common.begin(), j.common.end(), [&](const CommonFinding& x) {
                    return x.kind == w.kind && x.alsoKinds == w.alsoKinds;
                });
                QVERIFY2(c != j.common.end() && c->fromWholeSpan, findingId(w).c_str());
                QCOMPARE(c->wholeCostNs, w.costNs);
                QVERIFY(std::abs(c->stepsSumNs - w.costNs) <= w.costNs / 10);
            }
        }
    }

    // examples/sync_in_loop with its NVTX ranges, profiled on the H200: the
    // program's ranges are regions, and an outermost one around the loop is
    // what is judged (its 400-500 ms of setup apart).

    // A step judged on a view of the run (its op ranges: what
    // judgeRegionGroup does, no copy of its ops) is judged exactly as on
    // a slice of the run (what the window shows): the same verdict,
    // findings, costs, words and replays, step by step, on stored PyTorch
    // traces (Kineto, and profiled processes).
    void aStepsViewJudgesAsItsSlice_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"profiled/regions/torch_steps.json", "profiled/regions/torch_steps-fix.json",
                              "profiled/what-if-h100/torch_train_steps-12-kineto.json", "pytorch-implicit-syncs-stack.json",
                              "profiled/what-if/torch_train_steps-kineto.json",
                              "profiled/what-if-h100/torch_implicit_syncs-kineto.json"})
            QTest::newRow(f) << QString(f);
    }
    void aStepsViewJudgesAsItsSlice()
    {
        QFETCH(QString, file);
        const Trace t = load(file);
        const auto text = [](const RunAnalysis& a) {
            std::string out = std::string(toString(a.findings.verdict.kind)) + " | " + a.findings.verdict.words + "\n";
            const WhatIfSummary& w = a.findings.whatIf;
            out += "replayed " + std::to_string(w.replayed) + " " + w.why + " " + std::to_string(w.measuredSpanNs) + " "
                   + std::to_string(w.replaySpanNs) + " " + std::to_string(w.allFixesSpanNs) + " "
                   + std::to_string(w.replays.size()) + "\n";
            out += "wall " + std::to_string(a.metrics.wallNs) + "\n";
            for (const Finding& f : a.findings.findings)
                out += findingId(f.kind, f.alsoKinds) + " " + std::to_string(f.costNs) + " "
                       + std::to_string(f.opCount) + " " + std::to_string(int(f.costSource)) + " | " + f.cause + " | "
                       + f.fix + "\n";
            return out;
        };
        int judged = 0;
        for (const Run& run : t.runs) {
            const RunAnalysis a = analyzeRun(run, t.sweeps, nullptr);
            for (const RegionJudgement& steps : a.regions)
                for (std::size_t i = 0; i < steps.group.regions.size(); ++i) {
                    const std::uint32_t r = steps.group.regions[i];
                    Run slice;
                    const RunAnalysis onSlice = judgeRegionInstance(run, a.rates, r, steps.spans[i], &slice);
                    const RunAnalysis onView = judgeRegionInstance(run, a.rates, r, steps.spans[i]);
                    QCOMPARE(text(onView), text(onSlice));
                    ++judged;
                }
        }
        QVERIFY(judged >= 2);
    }
    void storedNvtxRanges()
    {
        const Trace t = load("profiled/regions/sync_in_loop_nvtx.json");
        const Run& run = t.runs.front();
        const RunAnalysis a = analyzeRun(run, t.sweeps, nullptr);
        QCOMPARE(a.judged.basis, JudgedSpan::Basis::Regions);
        QCOMPARE(a.judged.group.regions.size(), std::size_t(1));
        QCOMPARE(run.regions[a.judged.group.regions.front()].depth, std::uint16_t(0));
        QVERIFY(a.judged.span.endNs - a.judged.span.beginNs < run.wallNs() / 10);
        QVERIFY2(find(a.findings, FindingKind::SyncInLoop), qPrintable(describe(a.findings)));
        std::string error;
        const auto chunks = regionGroupsMatching(run, "chunk N", &error);
        QCOMPARE(chunks.size(), std::size_t(1));
        QCOMPARE(chunks.front().regions.size(), std::size_t(16));
    }

private:
    // A serial loop with a device synchronize after each chunk, its chunks
    // on three streams: the synchronize alone holds them apart.
    static Loop syncLoop()
    {
        Loop l;
        l.serial = true;
        l.deviceSync = true;
        return l;
    }
    static std::uint16_t hostLane(const Run& run)
    {
        for (std::uint16_t i = 0; i < run.lanes.size(); ++i)
            if (run.lanes[i].kind == LaneKind::HostThread)
                return i;
        return Region::kNoLane;
    }
    static const Op& callOf(const Run& run, const Op& gpu)
    {
        return *std::find_if(run.ops.begin(), run.ops.end(), [&](const Op& op) {
            return op.correlation == gpu.correlation && !isGpuOp(op.kind);
        });
    }
    static std::int64_t firstCallBegin(const Run& run, OpKind kind)
    {
        std::int64_t first = INT64_MAX;
        for (const Op& op : run.ops)
            if (op.kind == kind)
                first = std::min(first, callOf(run, op).startNs);
        return first;
    }
    // The run with a pinned allocation of `ns` before it all.
    static Run withSetup(Run run, std::int64_t ns)
    {
        const std::int64_t begin = run.timedBeginNs - ns - 10 * kUs;
        Op alloc;
        alloc.kind = OpKind::Alloc;
        alloc.lane = hostLane(run);
        alloc.startNs = begin;
        alloc.endNs = begin + ns;
        alloc.nameId = static_cast<std::uint32_t>(run.names.size());
        run.names.push_back("cudaHostAlloc");
        run.ops.push_back(alloc);
        run.timedBeginNs = begin;
        run.sortOps();
        return run;
    }
    // Regions of `chunksPerStep` chunks each on the host thread, from one
    // upload call to the next step's, after a first region over the setup.
    static void addSteps(Run& run, int chunksPerStep, RegionSource source, const std::string& prefix)
    {
        std::vector<std::int64_t> starts;
        for (const Op& op : run.ops)
            if (op.kind == OpKind::Upload)
                starts.push_back(callOf(run, op).startNs);
        std::sort(starts.begin(), starts.end());
        std::vector<std::int64_t> bounds{run.timedBeginNs};
        for (std::size_t i = 0; i < starts.size(); i += static_cast<std::size_t>(chunksPerStep))
            bounds.push_back(starts[i]);
        bounds.push_back(run.timedEndNs);
        for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
            Region r;
            r.name = prefix + std::to_string(i);
            r.beginNs = bounds[i];
            r.endNs = bounds[i + 1];
            r.lane = hostLane(run);
            r.source = source;
            run.regions.push_back(r);
        }
    }

    static bool isCopyOrCall(const Op& op) { return isCopy(op.kind) || op.kind == OpKind::ApiCall; }
    static bool isCopy(OpKind k) { return k == OpKind::Upload || k == OpKind::Download; }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
