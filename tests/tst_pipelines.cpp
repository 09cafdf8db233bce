// The seed's pipelines on the simulated device: outputs verified, op counts,
// per-stream ordering, slot reuse, bad parameters, failures and cancel.
#include "pipeline/PipelineRunner.h"
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

// Records what reached the sink, and can cancel after a number of ops.
class ProbeSink : public RecordSink {
public:
    CancelFlag* cancelAfter = nullptr;
    std::size_t cancelAtOps = 0;
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
        if (cancelAfter && opsSeen >= cancelAtOps)
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
        QTest::newRow("serialized, seed shape") << PipelineKind::Serialized << 8 << 3 << 1;
        QTest::newRow("overlapped, seed shape") << PipelineKind::Overlapped << 8 << 3 << 1;
        QTest::newRow("overlapped, one slot") << PipelineKind::Overlapped << 5 << 1 << 1;
        QTest::newRow("overlapped, more slotCount than chunks") << PipelineKind::Overlapped << 2 << 4 << 1;
        QTest::newRow("overlapped, kernel x3") << PipelineKind::Overlapped << 6 << 3 << 3;
        QTest::newRow("serialized, kernel x2") << PipelineKind::Serialized << 3 << 1 << 2;
    }
    void runsVerifyAndRecordEveryOp()
    {
        QFETCH(PipelineKind, kind);
        QFETCH(int, chunks);
        QFETCH(int, slotCount);
        QFETCH(int, repeats);
        SimDevice dev(*findSimPreset("h200"));
        ProbeSink sink;
        CancelFlag cancel;
        const Run run = runPipeline(dev, config(kind, chunks, 1 << 20, slotCount, repeats), sink, cancel);

        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY2(run.verification.checked && run.verification.passed, run.verification.message.c_str());
        QVERIFY(run.device.simulated);
        QCOMPARE(run.timing, std::string("simulated"));
        QVERIFY(run.wallNs() > 0);
        QCOMPARE(count(run, OpKind::Upload), chunks);
        QCOMPARE(count(run, OpKind::Kernel), chunks);
        QCOMPARE(count(run, OpKind::Download), chunks);
        QCOMPARE(count(run, OpKind::StageOut), chunks);
        if (kind == PipelineKind::Serialized) {
            QCOMPARE(run.lanes.size(), std::size_t(2));
            QCOMPARE(count(run, OpKind::Alloc), chunks);
            QCOMPARE(count(run, OpKind::Free), chunks);
            QCOMPARE(count(run, OpKind::StageIn), 0);
        } else {
            QCOMPARE(run.lanes.size(), std::size_t(1 + slotCount));
            QCOMPARE(count(run, OpKind::Alloc), 2 * slotCount);
            QCOMPARE(count(run, OpKind::StageIn), chunks);
        }
        QVERIFY(sink.started && sink.finished && sink.batches > 1);
        QCOMPARE(sink.opsSeen, run.ops.size());

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
            if (kind == PipelineKind::Overlapped) {
                // Chunk c rotates onto slot c % slotCount; lane 0 is the host.
                QCOMPARE(int(up->lane), 1 + c % slotCount);
                // Slot reuse: staging is refilled only after the slot's last
                // download completed and its result was copied out.
                if (c >= slotCount) {
                    const Op* previous = find(run, OpKind::Download, c - slotCount);
                    const Op* refill = find(run, OpKind::StageIn, c);
                    QVERIFY(refill->startNs >= previous->endNs);
                    QVERIFY(find(run, OpKind::StageOut, c - slotCount)->endNs <= refill->startNs);
                }
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

    void cancelInTheMiddleDrainsAndReports_data()
    {
        QTest::addColumn<PipelineKind>("kind");
        QTest::newRow("serialized") << PipelineKind::Serialized;
        QTest::newRow("overlapped") << PipelineKind::Overlapped;
    }
    void cancelInTheMiddleDrainsAndReports()
    {
        QFETCH(PipelineKind, kind);
        SimDevice dev(*findSimPreset("h200"));
        CancelFlag cancel;
        ProbeSink sink;
        sink.cancelAfter = &cancel;
        sink.cancelAtOps = 10;
        const Run run = runPipeline(dev, config(kind, 16, 1 << 20, 3, 1), sink, cancel);
        QCOMPARE(run.status, RunStatus::Cancelled);
        QVERIFY(!run.verification.checked);
        QVERIFY(count(run, OpKind::Upload) < 16);
        QVERIFY(count(run, OpKind::Upload) > 0);
        QVERIFY(sink.finished);
        // Nothing left in flight, nothing freed under a copy, nothing leaked.
        for (const auto& a : dev.activities())
            QVERIFY(a.endNs <= dev.hostNowNs());
        QVERIFY(dev.takeHazards().empty());
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestPipelines)
#include "tst_pipelines.moc"
