// Engine-true timing on the simulated device: the engine model's records,
// their join to ops by the recorder, and what they show that events cannot
// (an op queued behind another stream's copy on the one copy engine).
#include "device/Copies.h"
#include "device/DeviceBuffer.h"
#include "device/PinnedHostBuffer.h"
#include "device/Stream.h"
#include "pipeline/PipelineRunner.h"
#include "record/Recorder.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <memory>
#include <vector>

using namespace ovs;

Q_DECLARE_METATYPE(ovs::PipelineKind)

namespace {

class OpsSink : public RecordSink {
public:
    std::vector<Op> ops;
    void opsCompleted(std::span<const Op> batch) override { ops.insert(ops.end(), batch.begin(), batch.end()); }
};

bool overlaps(std::int64_t aStart, std::int64_t aEnd, std::int64_t bStart, std::int64_t bEnd)
{
    return aStart < bEnd && bStart < aEnd;
}

QByteArray describe(const Op& op)
{
    return QByteArray(toString(op.kind)) + " chunk " + QByteArray::number(op.chunk) + " lane "
        + QByteArray::number(op.lane) + ": events [" + QByteArray::number(qlonglong(op.startNs)) + ", "
        + QByteArray::number(qlonglong(op.endNs)) + "], exec [" + QByteArray::number(qlonglong(op.execStartNs))
        + ", " + QByteArray::number(qlonglong(op.execEndNs)) + "]";
}

std::vector<const Op*> opsOf(const std::vector<Op>& ops, OpKind kind)
{
    std::vector<const Op*> found;
    for (const Op& op : ops)
        if (op.kind == kind)
            found.push_back(&op);
    return found;
}

} // namespace

class TestEngineTiming : public QObject {
    Q_OBJECT

private slots:
    void deviceRecordsTaggedCompletedWork()
    {
        SimDevice dev(*findSimPreset("h200"));
        std::string why = "unchanged";
        QCOMPARE(dev.engineTimingSource(&why), std::string("simulated engine model"));

        const std::size_t count = 1 << 20;
        Stream stream(dev);
        PinnedHostBuffer<float> host(dev, count);
        DeviceBuffer<float> device(dev, count);

        // Untagged work leaves no records.
        copyToDeviceAsync(stream, device, host).wait();
        QVERIFY(dev.takeEngineRecords().empty());

        dev.tagWork(7);
        CopyToken up = copyToDeviceAsync(stream, device, host);
        dev.launchIncrement(device.devicePtr(), count, 2, stream.id());
        dev.tagWork(0);
        CopyToken down = copyToHostAsync(stream, host, device);
        // Still running on the virtual clock: CUPTI would not have delivered it either.
        QVERIFY(dev.takeEngineRecords().empty());
        down.wait();
        up.wait();

        const auto records = dev.takeEngineRecords();
        QCOMPARE(records.size(), std::size_t(3)); // the copy and two kernel passes; the download was untagged
        for (const EngineRecord& r : records) {
            QCOMPARE(r.opId, std::uint64_t(7));
            QVERIFY(r.endNs > r.startNs);
            QVERIFY(r.endNs <= dev.hostNowNs());
        }
        QCOMPARE(records[0].memory, HostMemoryKind::Pinned);
        QCOMPARE(records[1].memory, HostMemoryKind::None);
        QVERIFY(records[1].startNs >= records[0].endNs); // one stream runs in order
        QVERIFY(dev.takeEngineRecords().empty());        // each record is handed over once
    }

    void runsGetExecTimes_data()
    {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("repeats");
        QTest::newRow("overlapped, seed shape") << PipelineKind::Overlapped << 1;
        QTest::newRow("overlapped, kernel x3") << PipelineKind::Overlapped << 3;
        QTest::newRow("serialized") << PipelineKind::Serialized << 1;
        QTest::newRow("data already pinned") << PipelineKind::PinnedData << 1;
    }
    void runsGetExecTimes()
    {
        QFETCH(PipelineKind, kind);
        QFETCH(int, repeats);
        SimDevice dev(*findSimPreset("h200"));
        OpsSink sink;
        CancelFlag cancel;
        PipelineConfig config;
        config.kind = kind;
        config.chunks = 8;
        config.chunkBytes = 4 << 20;
        config.slotCount = 3;
        config.kernelRepeats = repeats;
        const Run run = runPipeline(dev, config, sink, cancel);
        QCOMPARE(run.status, RunStatus::Completed);
        QVERIFY2(run.verification.passed, run.verification.message.c_str());
        QCOMPARE(run.timing, std::string("simulated"));

        int gpuOps = 0;
        for (const Op& op : run.ops) {
            if (!isGpuOp(op.kind)) {
                QVERIFY2(!op.hasExec(), describe(op).constData());
                continue;
            }
            ++gpuOps;
            QVERIFY2(op.hasExec(), describe(op).constData());
            QVERIFY2(op.execStartNs >= op.startNs, describe(op).constData());
            QVERIFY2(op.execEndNs <= op.endNs, describe(op).constData());
            QVERIFY2(op.execEndNs > op.execStartNs, describe(op).constData());
        }
        QCOMPARE(gpuOps, 3 * config.chunks);
        // What the sink saw live carries the same exec times.
        QCOMPARE(static_cast<int>(opsOf(sink.ops, OpKind::Upload).size()), config.chunks);
        for (const Op* op : opsOf(sink.ops, OpKind::Upload))
            QVERIFY2(op->hasExec(), describe(*op).constData());

        // One copy engine per direction: uploads never execute at once, and
        // on three streams at least one upload waits for the engine.
        const auto uploads = opsOf(run.ops, OpKind::Upload);
        bool someWait = false;
        for (std::size_t i = 0; i < uploads.size(); ++i) {
            someWait = someWait || uploads[i]->execStartNs > uploads[i]->startNs;
            for (std::size_t j = i + 1; j < uploads.size(); ++j)
                QVERIFY2(!overlaps(uploads[i]->execStartNs, uploads[i]->execEndNs, uploads[j]->execStartNs,
                                   uploads[j]->execEndNs),
                         describe(*uploads[i]) + " / " + describe(*uploads[j]));
        }
        QVERIFY(someWait);
    }

    // The case events get wrong: three uploads enqueued at once on three
    // streams. Each stream reaches its upload at once, so the events say all
    // three ran together; the engine ran them one after the other.
    void queuedUploadsShowTheirWait()
    {
        SimDevice dev(*findSimPreset("h200"));
        OpsSink sink;
        Run header;
        header.name = "three uploads";
        Recorder recorder(dev, sink, header);
        recorder.setHostLane(recorder.addHostLane("host"));
        const std::size_t count = 16 << 20 >> 2; // 16 MiB of floats
        std::vector<std::unique_ptr<Stream>> streams;
        std::vector<std::unique_ptr<PinnedHostBuffer<float>>> hosts;
        std::vector<std::unique_ptr<DeviceBuffer<float>>> devices;
        for (int i = 0; i < 3; ++i) {
            streams.push_back(std::make_unique<Stream>(dev));
            recorder.addStreamLane(*streams.back(), "stream " + std::to_string(i));
            hosts.push_back(std::make_unique<PinnedHostBuffer<float>>(dev, count));
            devices.push_back(std::make_unique<DeviceBuffer<float>>(dev, count));
        }
        recorder.begin();
        std::vector<CopyToken> tokens;
        for (int i = 0; i < 3; ++i)
            tokens.push_back(recorder.upload(*streams[i], *devices[i], *hosts[i], i));
        for (int i = 0; i < 3; ++i)
            recorder.wait(tokens[i], i);
        const Run run = recorder.finish();

        const auto uploads = opsOf(run.ops, OpKind::Upload);
        QCOMPARE(uploads.size(), std::size_t(3));
        for (const Op* op : uploads)
            QVERIFY2(op->hasExec(), describe(*op).constData());
        for (std::size_t i = 0; i < uploads.size(); ++i)
            for (std::size_t j = i + 1; j < uploads.size(); ++j) {
                const Op& a = *uploads[i];
                const Op& b = *uploads[j];
                QVERIFY2(overlaps(a.startNs, a.endNs, b.startNs, b.endNs), describe(a) + " / " + describe(b));
                QVERIFY2(!overlaps(a.execStartNs, a.execEndNs, b.execStartNs, b.execEndNs),
                         describe(a) + " / " + describe(b));
            }
        // The last to run waited for the other two copies.
        const Op* last = *std::max_element(uploads.begin(), uploads.end(),
                                           [](const Op* a, const Op* b) { return a->execStartNs < b->execStartNs; });
        const std::int64_t oneCopy = uploads.front()->execEndNs - uploads.front()->execStartNs;
        QVERIFY2(last->execStartNs - last->startNs >= 2 * oneCopy * 9 / 10, describe(*last).constData());
        QCOMPARE(opsOf(sink.ops, OpKind::Upload).size(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestEngineTiming)
#include "tst_engine_timing.moc"
