// The seed's pipelines on the simulated device: outputs verified, op counts,
// per-stream ordering, slot reuse, bad parameters, failures and cancel.
#include "pipeline/PipelineRunner.h"
#include "record/Recorder.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <algorithm>
#include <map>

using namespace ovs;

Q_DECLARE_METATYPE(ovs::PipelineKind)

namespace {

int count(const Run& run, OpKind kind)
{
    return static_cast<int>(std::count_if(run.ops.begin(), run.ops.end(), [kind](const Op& op) { return op.kind == kind; }));
}

const Op* find(const Run& run, OpKind kind, int chunk)
{
    for (const auto& op : run.ops)
        if (op.kind == kind && op.chunk == chunk)
            return &op;
    return nullptr;
}

// Records what reached the sink, and can cancel after a number of ops or of
// progress reports (one per chunk, before its work: a trigger that does not
// depend on when a strategy hands its ops over).
class ProbeSink : public RecordSink {
public:
    CancelFlag* cancelAfter = nullptr;
    std::size_t cancelAtOps = 0;       // 0: not from ops
    int cancelAtProgress = 0;          // 0: not from progress
    int progressReports = 0;
    int batches = 0;
    std::size_t opsSeen = 0;
    bool started = false;
    bool finished = false;
    bool opsBeforeFinish = false;

    void runStarted(const Run&) override { started = true; }
    void opsCompleted(std::span<const Op> ops) override
    {
        ++batches;
        opsSeen += ops.size();
        opsBeforeFinish = !finished;
        if (cancelAfter && cancelAtOps > 0 && opsSeen >= cancelAtOps)
            cancelAfter->cancel();
    }
    void progress(double, const std::string&) override
    {
        ++progressReports;
        if (cancelAfter && cancelAtProgress > 0 && progressReports >= cancelAtProgress)
            cancelAfter->cancel();
    }
    void runFinished(const Run&) override { finished = true; }
};

PipelineConfig config(PipelineKind kind, int chunks, std::uint64_t chunkBytes, int slotCount, int repeats)
{
    PipelineConfig c;
    c.kind = kind;
    c.chunks = chunks;
    c.chunkBytes = chunkBytes;
    c.slotCount = slotCount;
    c.kernelRepeats = repeats;
    return c;
}

} // namespace

class TestPipelines : public QObject {
    Q_OBJECT

private slots:
    void runsVerifyAndRecordEveryOp_data()
    {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<int>("repeats");
        QTest::addColumn<int>("threads");
        QTest::newRow("serialized, seed shape") << PipelineKind::Serialized << 8 << 3 << 1 << 1;
        QTest::newRow("overlapped, seed shape") << PipelineKind::Overlapped << 8 << 3 << 1 << 1;
        QTest::newRow("overlapped, one slot") << PipelineKind::Overlapped << 5 << 1 << 1 << 1;
        QTest::newRow("overlapped, more slotCount than chunks") << PipelineKind::Overlapped << 2 << 4 << 1 << 1;
        QTest::newRow("overlapped, kernel x3") << PipelineKind::Overlapped << 6 << 3 << 3 << 1;
        QTest::newRow("overlapped, 4 staging threads") << PipelineKind::Overlapped << 8 << 3 << 1 << 4;
        QTest::newRow("overlapped, 3 staging threads, 1 slot") << PipelineKind::Overlapped << 4 << 1 << 2 << 3;
        QTest::newRow("serialized, kernel x2") << PipelineKind::Serialized << 3 << 1 << 2 << 1;
        QTest::newRow("registered, seed shape") << PipelineKind::Registered << 8 << 3 << 1 << 1;
        QTest::newRow("registered, one stream, kernel x2") << PipelineKind::Registered << 3 << 1 << 2 << 1;
        QTest::newRow("pinned-data, seed shape") << PipelineKind::PinnedData << 8 << 3 << 1 << 1;
        QTest::newRow("pinned-data, more streams than chunks") << PipelineKind::PinnedData << 2 << 5 << 1 << 1;
        QTest::newRow("pageable-async, seed shape") << PipelineKind::PageableAsync << 8 << 3 << 1 << 1;
        QTest::newRow("pinned-one-stream, seed shape") << PipelineKind::PinnedOneStream << 8 << 3 << 1 << 1;
        // Staging threads mean nothing without staging: ignored, not an error.
        QTest::newRow("pinned-data ignores staging threads") << PipelineKind::PinnedData << 4 << 2 << 1 << 4;
    }
    void runsVerifyAndRecordEveryOp()
    {
        QFETCH(PipelineKind, kind);
        QFETCH(int, chunks);
        QFETCH(int, slotCount);
        QFETCH(int, repeats);
        QFETCH(int, threads);
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        CancelFlag cancel;
        PipelineConfig cfg = config(kind, chunks, 1 << 20, slotCount, repeats);
        cfg.stagingThreads = threads;
        const Run run = runPipeline(dev, cfg, sink, cancel);

        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY2(run.verification.checked && run.verification.passed, run.verification.message.c_str());
        QVERIFY(run.device.simulated);
        QCOMPARE(run.timing, std::string("simulated"));
        QCOMPARE(run.pipeline, std::string(pipelineKindInfo(kind).id));
        QVERIFY(run.wallNs() > 0);
        QCOMPARE(count(run, OpKind::Upload), chunks);
        QCOMPARE(count(run, OpKind::Kernel), chunks);
        QCOMPARE(count(run, OpKind::Download), chunks);
        // The timed loop is region "loop", and each chunk's iteration a region
        // inside it, in chunk order, on the host lane.
        QCOMPARE(run.regions.size(), std::size_t(chunks) + 1);
        const Region& loop = run.regions.front();
        QCOMPARE(loop.name, std::string("loop"));
        QCOMPARE(loop.depth, std::uint16_t(0));
        QCOMPARE(loop.source, RegionSource::Pipeline);
        QCOMPARE(loop.beginNs, run.timedBeginNs);
        QCOMPARE(loop.endNs, run.timedEndNs);
        QCOMPARE(run.lanes.at(loop.lane).name, std::string("host"));
        std::int64_t previousEnd = loop.beginNs;
        for (int c = 0; c < chunks; ++c) {
            const Region& chunk = run.regions[static_cast<std::size_t>(c) + 1];
            QCOMPARE(chunk.name, "chunk " + std::to_string(c));
            QCOMPARE(chunk.depth, std::uint16_t(1));
            QCOMPARE(chunk.lane, loop.lane);
            QVERIFY(chunk.beginNs >= previousEnd);
            QVERIFY(chunk.endNs >= chunk.beginNs);
            previousEnd = chunk.endNs;
        }
        QVERIFY(previousEnd <= loop.endNs);

        const bool staged = kind == PipelineKind::Overlapped;
        const int stagingLanes = staged && threads > 1 ? threads : 0;
        const int streams = kind == PipelineKind::Serialized || kind == PipelineKind::PinnedOneStream ? 1 : slotCount;
        QCOMPARE(run.params.slotCount, streams);
        QCOMPARE(run.params.stagingThreads, staged ? threads : 1);
        QCOMPARE(run.name.find("staging threads") != std::string::npos, stagingLanes > 0);
        QCOMPARE(run.lanes.size(), std::size_t(1 + stagingLanes + streams));
        // Lanes: the host, the staging threads, then the streams.
        QCOMPARE(run.lanes[0].name, std::string("host"));
        for (int t = 0; t < stagingLanes; ++t) {
            QCOMPARE(run.lanes[std::size_t(1 + t)].name, "staging " + std::to_string(t + 1));
            QCOMPARE(run.lanes[std::size_t(1 + t)].kind, LaneKind::HostThread);
        }
        const int firstStream = 1 + stagingLanes;
        for (int s = 0; s < streams; ++s) {
            QCOMPARE(run.lanes[std::size_t(firstStream + s)].kind, LaneKind::Stream);
            QCOMPARE(run.lanes[std::size_t(firstStream + s)].streamKind, StreamKind::NonBlocking);
        }
        for (int t = 0; t < firstStream; ++t)
            QCOMPARE(run.lanes[std::size_t(t)].streamKind, StreamKind::Unknown);

        const int parts = stagingLanes > 0 ? threads : 1;
        switch (kind) {
        case PipelineKind::Serialized:
            QCOMPARE(count(run, OpKind::Alloc), chunks);
            QCOMPARE(count(run, OpKind::Free), chunks);
            QCOMPARE(count(run, OpKind::StageIn), 0);
            QCOMPARE(count(run, OpKind::StageOut), chunks);
            break;
        case PipelineKind::Overlapped:
            QCOMPARE(count(run, OpKind::Alloc), 2 * slotCount);
            QCOMPARE(count(run, OpKind::StageIn), chunks * parts);
            QCOMPARE(count(run, OpKind::StageOut), chunks * parts);
            break;
        case PipelineKind::Registered:
            // Input and output registered, and unregistered at the end.
            QCOMPARE(count(run, OpKind::Register), 4);
            QCOMPARE(count(run, OpKind::Alloc), slotCount);
            break;
        case PipelineKind::PinnedData:
        case PipelineKind::PinnedOneStream:
            QCOMPARE(count(run, OpKind::Alloc), streams + 2); // a device buffer per stream, pinned input and output
            break;
        case PipelineKind::PageableAsync:
            // Each pageable copy holds the host while the driver stages it.
            QVERIFY(count(run, OpKind::HostWait) >= 2 * chunks);
            QCOMPARE(count(run, OpKind::Alloc), slotCount);
            break;
        }
        if (!staged && kind != PipelineKind::Serialized) {
            QCOMPARE(count(run, OpKind::StageIn), 0);
            QCOMPARE(count(run, OpKind::StageOut), 0);
            QCOMPARE(count(run, OpKind::Free), 0);
        }
        if (kind != PipelineKind::Registered)
            QCOMPARE(count(run, OpKind::Register), 0);
        QVERIFY(sink.started && sink.finished && sink.batches > 1);
        QCOMPARE(sink.opsSeen, run.ops.size());

        // Every op of the timed work lies in the timed region; registration
        // is inside it, so its cost counts.
        for (const auto& op : run.ops)
            if (op.chunk >= 0 || op.kind == OpKind::Register)
                QVERIFY(op.startNs >= run.timedBeginNs && op.endNs <= run.timedEndNs);

        const HostMemoryKind expectedMemory = kind == PipelineKind::Serialized || kind == PipelineKind::PageableAsync
            ? HostMemoryKind::Pageable
            : kind == PipelineKind::Registered ? HostMemoryKind::Registered : HostMemoryKind::Pinned;
        for (int c = 0; c < chunks; ++c) {
            const Op* up = find(run, OpKind::Upload, c);
            const Op* k = find(run, OpKind::Kernel, c);
            const Op* down = find(run, OpKind::Download, c);
            QVERIFY(up && k && down);
            QCOMPARE(up->lane, k->lane);
            QCOMPARE(k->lane, down->lane);
            QCOMPARE(run.lanes[up->lane].kind, LaneKind::Stream);
            QVERIFY(up->endNs <= k->startNs);
            QVERIFY(k->endNs <= down->startNs);
            QCOMPARE(up->bytes, std::uint64_t(1 << 20));
            QCOMPARE(up->memory, expectedMemory);
            QCOMPARE(down->memory, expectedMemory);
            // Chunk c rotates onto stream c % streams.
            QCOMPARE(int(up->lane), firstStream + c % streams);
            if (c >= streams) {
                // A stream takes its next chunk only after its last download.
                QVERIFY(up->startNs >= find(run, OpKind::Download, c - streams)->endNs);
            }
            if (staged && c >= slotCount) {
                // Slot reuse: staging is refilled only after the slot's last
                // download completed and its result was copied out.
                const Op* previous = find(run, OpKind::Download, c - slotCount);
                for (const auto& op : run.ops) {
                    if (op.kind == OpKind::StageIn && op.chunk == c)
                        QVERIFY(op.startNs >= previous->endNs);
                    if (op.kind == OpKind::StageOut && op.chunk == c - slotCount)
                        QVERIFY(op.endNs <= find(run, OpKind::StageIn, c)->startNs);
                }
            }
            if (stagingLanes > 0) {
                // Every staging thread copies a part of every chunk, in and out,
                // and the parts add up to the chunk.
                for (OpKind stage : {OpKind::StageIn, OpKind::StageOut}) {
                    std::uint64_t bytes = 0;
                    for (int t = 0; t < threads; ++t) {
                        int onLane = 0;
                        for (const auto& op : run.ops)
                            if (op.kind == stage && op.chunk == c && op.lane == 1 + t) {
                                ++onLane;
                                bytes += op.bytes;
                            }
                        QCOMPARE(onLane, 1);
                    }
                    QCOMPARE(bytes, std::uint64_t(1 << 20));
                }
                QVERIFY(find(run, OpKind::StageIn, c)->endNs <= up->startNs);
            }
        }
        // Ops in one lane never overlap, and every op is well formed.
        std::map<int, std::int64_t> laneEnd;
        for (const auto& op : run.ops) {
            QVERIFY(op.endNs >= op.startNs);
            QVERIFY(op.startNs >= 0);
            QVERIFY(op.lane < run.lanes.size());
            QCOMPARE(run.lanes[op.lane].kind == LaneKind::Stream, isGpuOp(op.kind));
            auto it = laneEnd.find(op.lane);
            if (it != laneEnd.end())
                QVERIFY2(op.startNs >= it->second, qPrintable(QString("lane %1 overlaps at %2").arg(op.lane).arg(op.startNs)));
            laneEnd[op.lane] = op.endNs;
        }
    }

    void streamLanesSayWhatTheirStreamsAre_data()
    {
        QTest::addColumn<int>("sync");
        QTest::addColumn<int>("defaultOp");
        QTest::addColumn<int>("streamKind");  // of the pipeline's own streams
        QTest::addColumn<int>("defaultKind"); // of the default-stream kernel's lane; -1: none
        QTest::newRow("non-blocking") << int(StreamSync::NonBlocking) << int(DefaultStreamOp::None)
                                      << int(StreamKind::NonBlocking) << -1;
        QTest::newRow("blocking") << int(StreamSync::Blocking) << int(DefaultStreamOp::None)
                                  << int(StreamKind::Blocking) << -1;
        QTest::newRow("blocking + legacy default") << int(StreamSync::Blocking) << int(DefaultStreamOp::Legacy)
                                                   << int(StreamKind::Blocking) << int(StreamKind::LegacyDefault);
        QTest::newRow("non-blocking + legacy default") << int(StreamSync::NonBlocking) << int(DefaultStreamOp::Legacy)
                                                       << int(StreamKind::NonBlocking)
                                                       << int(StreamKind::LegacyDefault);
        QTest::newRow("blocking + per-thread default") << int(StreamSync::Blocking) << int(DefaultStreamOp::PerThread)
                                                       << int(StreamKind::Blocking)
                                                       << int(StreamKind::PerThreadDefault);
    }
    void streamLanesSayWhatTheirStreamsAre()
    {
        QFETCH(int, sync);
        QFETCH(int, defaultOp);
        QFETCH(int, streamKind);
        QFETCH(int, defaultKind);
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        CancelFlag cancel;
        PipelineConfig cfg = config(PipelineKind::PinnedData, 4, 1 << 20, 3, 1);
        cfg.streamSync = static_cast<StreamSync>(sync);
        cfg.defaultStreamOp = static_cast<DefaultStreamOp>(defaultOp);
        const Run run = runPipeline(dev, cfg, sink, cancel);
        QVERIFY2(run.status == RunStatus::Completed, run.error.c_str());
        std::vector<int> kinds;
        for (const Lane& lane : run.lanes)
            if (lane.kind == LaneKind::Stream)
                kinds.push_back(int(lane.streamKind));
            else
                QCOMPARE(lane.streamKind, StreamKind::Unknown);
        std::vector<int> expected(3, streamKind);
        if (defaultKind >= 0)
            expected.push_back(defaultKind);
        QCOMPARE(kinds, expected);
    }

    void everyStrategyIsDeterministic()
    {
        for (const auto& info : pipelineKinds()) {
            auto wall = [&] {
                SimDevice dev(*findSimPreset("h200"));
                ProbeSink sink;
                CancelFlag cancel;
                PipelineConfig cfg = config(info.kind, 4, 2 << 20, 3, 1);
                cfg.stagingThreads = 2;
                const Run run = runPipeline(dev, cfg, sink, cancel);
                return std::pair(run.wallNs(), run.ops.size());
            };
            QCOMPARE(wall(), wall());
        }
    }

    void stagingThreadsAndNoStagingBeatTheSeedsStagingOnTheH200Model()
    {
        // Deterministic model behaviour at the seed's defaults, not a timing
        // measurement: one staging thread bounds the overlapped path, four
        // share that work, and data already pinned needs none.
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        CancelFlag cancel;
        PipelineConfig seed = config(PipelineKind::Overlapped, 8, 32 << 20, 3, 1);
        const Run one = runPipeline(dev, seed, sink, cancel);
        seed.stagingThreads = 4;
        const Run four = runPipeline(dev, seed, sink, cancel);
        const Run pinned = runPipeline(dev, config(PipelineKind::PinnedData, 8, 32 << 20, 3, 1), sink, cancel);
        const Run oneStream = runPipeline(dev, config(PipelineKind::PinnedOneStream, 8, 32 << 20, 3, 1), sink, cancel);
        for (const Run* run : {&one, &four, &pinned, &oneStream})
            QVERIFY2(run->verification.passed, run->verification.message.c_str());
        QVERIFY2(four.wallNs() * 2 < one.wallNs(), qPrintable(QString("%1 vs %2").arg(four.wallNs()).arg(one.wallNs())));
        QVERIFY(pinned.wallNs() < four.wallNs());
        QVERIFY(pinned.wallNs() < one.wallNs());
        // One stream cannot overlap one chunk's copies with another's.
        QVERIFY(pinned.wallNs() < oneStream.wallNs());
    }

    void theModelReproducesTheSeedsOrdering()
    {
        // On the RTX 4090 preset, overlapped beats serialized as in the seed.
        // Deterministic model behaviour, not a timing measurement.
        SimDevice dev(*findSimPreset("rtx4090"));
        ProbeSink sink;
        CancelFlag cancel;
        const Run serial = runPipeline(dev, config(PipelineKind::Serialized, 8, 32 << 20, 3, 1), sink, cancel);
        const Run overlap = runPipeline(dev, config(PipelineKind::Overlapped, 8, 32 << 20, 3, 1), sink, cancel);
        QVERIFY(overlap.wallNs() < serial.wallNs());
    }

    void impossibleParametersFailClearly_data()
    {
        QTest::addColumn<int>("chunks");
        QTest::addColumn<qulonglong>("chunkBytes");
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<int>("repeats");
        QTest::addColumn<QString>("message");
        QTest::newRow("no chunks") << 0 << 1024ull << 3 << 1 << "chunk count";
        QTest::newRow("chunk not a whole float") << 4 << 6ull << 3 << 1 << "multiple of 4";
        QTest::newRow("no slotCount") << 4 << 1024ull << 0 << 1 << "slot count";
        QTest::newRow("no kernel") << 4 << 1024ull << 3 << 0 << "kernel repeats";
        QTest::newRow("more than the machine's memory") << 1000000 << (16ull << 30) << 3 << 1 << "host memory";
    }
    void impossibleParametersFailClearly()
    {
        QFETCH(int, chunks);
        QFETCH(qulonglong, chunkBytes);
        QFETCH(int, slotCount);
        QFETCH(int, repeats);
        QFETCH(QString, message);
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(dev, config(PipelineKind::Overlapped, chunks, chunkBytes, slotCount, repeats), sink, cancel);
        QCOMPARE(run.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(run.error).contains(message), run.error.c_str());
        QVERIFY(!run.verification.passed);
        QVERIFY(sink.finished);
    }

    void deviceOutOfMemoryFailsTheRunNotTheProgram()
    {
        SimPreset small = *findSimPreset("h200");
        small.deviceMemoryBytes = 3 << 20; // room for one 2 MiB slot, not two
        SimDevice dev(small);
        ProbeSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(dev, config(PipelineKind::Overlapped, 4, 2 << 20, 2, 1), sink, cancel);
        QCOMPARE(run.status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(run.error).contains("out of memory"), run.error.c_str());
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(0)); // the slot that was allocated was freed
        // The device is still usable for a run that fits.
        const Run next = runPipeline(dev, config(PipelineKind::Overlapped, 4, 1 << 20, 1, 1), sink, cancel);
        QVERIFY2(next.verification.passed, next.verification.message.c_str());
    }

    void chunkRegionsStopAtTheirCap()
    {
        // A run of many chunks keeps regions for the first kMaxChunkRegions
        // only (and its loop); the wall-time baseline keeps none. The
        // recorder alone, as a pipeline drives it, without the chunks' work.
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        for (bool opTiming : {true, false}) {
            Recorder recorder(dev, sink, Run{}, opTiming);
            recorder.setHostLane(recorder.addHostLane("host"));
            recorder.begin();
            recorder.markTimedBegin();
            for (int c = 0; c < Recorder::kMaxChunkRegions + 3; ++c)
                recorder.beginChunk(c);
            recorder.endChunks();
            recorder.markTimedEnd();
            const Run run = recorder.finish();
            if (!opTiming) {
                QVERIFY(run.regions.empty());
                continue;
            }
            QCOMPARE(run.regions.size(), std::size_t(Recorder::kMaxChunkRegions) + 1);
            QCOMPARE(run.regions.front().name, std::string("loop"));
            QCOMPARE(run.regions.back().name, "chunk " + std::to_string(Recorder::kMaxChunkRegions - 1));
        }
    }

    void cancelInTheMiddleDrainsAndReports_data()
    {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<bool>("fromOps");
        // From progress, every strategy: the cancel lands between chunks.
        // From ops, only those with live host ops: the strategies without
        // staging hand their GPU ops over after their timed region (engine
        // records are fetched at most every 20 ms).
        for (const auto& info : pipelineKinds()) {
            QTest::newRow((std::string(info.id) + ", from progress").c_str()) << info.kind << false;
            if (info.kind != PipelineKind::Registered && info.kind != PipelineKind::PinnedData
                && info.kind != PipelineKind::PinnedOneStream)
                QTest::newRow((std::string(info.id) + ", from ops").c_str()) << info.kind << true;
        }
    }
    void cancelInTheMiddleDrainsAndReports()
    {
        QFETCH(PipelineKind, kind);
        QFETCH(bool, fromOps);
        SimDevice dev(*findSimPreset("h200"));
        CancelFlag cancel;
        ProbeSink sink;
        sink.cancelAfter = &cancel;
        if (fromOps)
            sink.cancelAtOps = 10;
        else
            sink.cancelAtProgress = 6; // while chunk 6 of 16 is under way
        const Run run = runPipeline(dev, config(kind, 16, 1 << 20, 3, 1), sink, cancel);
        QCOMPARE(run.status, RunStatus::Cancelled);
        QVERIFY(!run.verification.checked);
        QVERIFY(count(run, OpKind::Upload) < 16);
        QVERIFY(count(run, OpKind::Upload) > 0);
        QVERIFY(sink.finished);
        // The chunk under way when it stopped is closed at the stop, inside the loop.
        QVERIFY(!run.regions.empty());
        QCOMPARE(run.regions.front().name, std::string("loop"));
        QVERIFY(run.regions.size() < 1 + 16);
        for (const Region& region : run.regions)
            QVERIFY(region.endNs <= run.regions.front().endNs);
        // Nothing left in flight, nothing freed under a copy, nothing leaked.
        for (const auto& a : dev.activities())
            QVERIFY(a.endNs <= dev.hostNowNs());
        QVERIFY(dev.takeHazards().empty());
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestPipelines)
#include "tst_pipelines.moc"
