// The record stream's encoder and decoder: what the injection library writes
// comes back record by record, however the bytes arrive, and a damaged
// stream is told apart from one still being written.
#include "TestProfileStream.h"
#include "profile/ProfileStreamDecoder.h"

#include <QtTest>

#include <cstring>

using namespace ovs::profile;
using ovs::test::TestProfileStream;

class TestProfileStreamCodec : public QObject {
    Q_OBJECT

    static std::vector<DecodedRecord> decodeAll(ProfileStreamDecoder& decoder)
    {
        std::vector<DecodedRecord> records;
        DecodedRecord r;
        while (decoder.next(r))
            records.push_back(r);
        return records;
    }

private slots:
    void recordsComeBackWhateverTheChunkSize_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("one byte at a time") << 1;
        QTest::newRow("7 bytes") << 7;
        QTest::newRow("whole stream") << (1 << 20);
    }
    void recordsComeBackWhateverTheChunkSize()
    {
        QFETCH(int, chunk);
        TestProfileStream s(4242, 7, std::string_view("python3\0train.py", 16));
        s.clock(1000, 5000);
        s.kernel(1100, 1900, "_Z6kernelPf", 13, 21);
        s.end();
        ProfileStreamDecoder decoder;
        std::vector<RecordType> types;
        std::string commandLine;
        std::string kernelName;
        const auto& bytes = s.bytes();
        for (std::size_t at = 0; at < bytes.size(); at += static_cast<std::size_t>(chunk)) {
            decoder.feed(bytes.data() + at, std::min<std::size_t>(static_cast<std::size_t>(chunk), bytes.size() - at));
            DecodedRecord r;
            while (decoder.next(r)) {
                types.push_back(r.type);
                if (r.type == RecordType::Begin) {
                    const auto begin = r.payload<BeginRecord>();
                    QVERIFY(begin);
                    QCOMPARE(begin->pid, 4242u);
                    QCOMPARE(begin->parentPid, 7u);
                    commandLine = std::string(*r.text(sizeof(BeginRecord), begin->textBytes));
                }
                if (r.type == RecordType::String) {
                    const auto string = r.payload<StringRecord>();
                    kernelName = std::string(*r.text(sizeof(StringRecord), string->textBytes));
                }
            }
        }
        QCOMPARE(types, (std::vector<RecordType>{RecordType::Begin, RecordType::Clock, RecordType::String,
                                                 RecordType::Kernel, RecordType::End}));
        QCOMPARE(commandLine, std::string("python3\0train.py", 16));
        QCOMPARE(kernelName, std::string("_Z6kernelPf"));
        QVERIFY(decoder.error().empty());
        QCOMPARE(decoder.pendingBytes(), std::size_t(0));
        QCOMPARE(decoder.consumedBytes(), bytes.size());
    }

    void aCutOffRecordStaysPending()
    {
        TestProfileStream s(1);
        s.kernel(1, 2, "k", 7, 1);
        const auto& bytes = s.bytes();
        ProfileStreamDecoder decoder;
        decoder.feed(bytes.data(), bytes.size() - 5);
        const auto records = decodeAll(decoder);
        QCOMPARE(records.back().type, RecordType::String); // the kernel record is cut
        QVERIFY(decoder.pendingBytes() > 0);
        QVERIFY(decoder.error().empty());
        decoder.feed(bytes.data() + bytes.size() - 5, 5);
        DecodedRecord r;
        QVERIFY(decoder.next(r));
        QCOMPARE(r.type, RecordType::Kernel);
        QCOMPARE(decoder.pendingBytes(), std::size_t(0));
    }

    void damagedStreamsSayWhy_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a stream") << QByteArray("{\"format\": \"overlapscope-trace\"}") << "bad magic";
        QByteArray zeroSize(kStreamMagic, sizeof kStreamMagic);
        zeroSize.append(QByteArray(8, '\0'));
        QTest::newRow("zero-size record") << zeroSize << "a record of 0 bytes";
        QByteArray odd(kStreamMagic, sizeof kStreamMagic);
        const RecordHeader header{1, 0, 13};
        odd.append(reinterpret_cast<const char*>(&header), sizeof header);
        odd.append(QByteArray(16, '\0'));
        QTest::newRow("unaligned size") << odd << "a record of 13 bytes";
    }
    void damagedStreamsSayWhy()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        ProfileStreamDecoder decoder;
        decoder.feed(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        DecodedRecord r;
        QVERIFY(!decoder.next(r));
        QVERIFY2(QString::fromStdString(decoder.error()).contains(message), decoder.error().c_str());
    }

    void rangeRecordsCarryTheirMessage()
    {
        // NVTX records come after End in the type list, with their text.
        TestProfileStream s(1);
        s.range(kRangePush, 5'000, 77, "h2d \xc3\xbc");
        s.range(kRangeEnd, 6'000, 78, {}, 9, 2);
        ProfileStreamDecoder decoder;
        decoder.feed(s.bytes().data(), s.bytes().size());
        const auto records = decodeAll(decoder);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[1].type, RecordType::Range);
        const auto push = records[1].payload<RangeRecord>();
        QVERIFY(push);
        QCOMPARE(push->action, std::uint16_t(kRangePush));
        QCOMPARE(push->monotonicNs, std::int64_t(5'000));
        QCOMPARE(push->threadId, 77u);
        QCOMPARE(std::string(*records[1].text(sizeof(RangeRecord), push->textBytes)), std::string("h2d \xc3\xbc"));
        const auto end = records[2].payload<RangeRecord>();
        QVERIFY(end);
        QCOMPARE(end->action, std::uint16_t(kRangeEnd));
        QCOMPARE(end->rangeId, std::uint64_t(9));
        QCOMPARE(end->domainId, 2u);
        QCOMPARE(end->textBytes, 0u);
        QCOMPARE(sizeof(RangeRecord), std::size_t(32)); // the layout the stream version promises
    }

    void unifiedMemoryRecordsComeBack()
    {
        // The newest type: after Range, so readers before it skip it by size.
        QVERIFY(static_cast<int>(RecordType::UnifiedMemory) > static_cast<int>(RecordType::Range));
        TestProfileStream s(1);
        s.unifiedMemory(kUmBytesHtoD, 1'000, 3'000, 2u << 20, 1, kUmCausePrefetch);
        s.unifiedMemory(kUmCpuPageFault, 4'000, 4'000, 1, kUmNoDevice);
        ProfileStreamDecoder decoder;
        decoder.feed(s.bytes().data(), s.bytes().size());
        const auto records = decodeAll(decoder);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[1].type, RecordType::UnifiedMemory);
        QCOMPARE(records[1].bodyBytes, std::uint32_t(sizeof(UnifiedMemoryRecord)));
        const auto migration = records[1].payload<UnifiedMemoryRecord>();
        QVERIFY(migration);
        QCOMPARE(migration->counter, std::uint32_t(kUmBytesHtoD));
        QCOMPARE(migration->startNs, std::uint64_t(1'000));
        QCOMPARE(migration->endNs, std::uint64_t(3'000));
        QCOMPARE(migration->value, std::uint64_t(2u << 20));
        QCOMPARE(migration->deviceId, 1u);
        QCOMPARE(migration->cause, std::uint32_t(kUmCausePrefetch));
        const auto fault = records[2].payload<UnifiedMemoryRecord>();
        QVERIFY(fault);
        QCOMPARE(fault->counter, std::uint32_t(kUmCpuPageFault));
        QCOMPARE(fault->deviceId, kUmNoDevice);
        QCOMPARE(sizeof(UnifiedMemoryRecord), std::size_t(48)); // the layout the stream version promises
    }

    void stackRecordsComeBack()
    {
        // After UnreadBuffers, so readers before them skip them by size.
        QVERIFY(static_cast<int>(RecordType::StackState) > static_cast<int>(RecordType::UnreadBuffers));
        TestProfileStream s(1);
        s.stackState(kStacksSync, 4, 1);
        ModuleRecord m;
        m.loadBias = 0x7f0000000000;
        m.lowAddress = 0x7f0000001000;
        m.highAddress = 0x7f0000009000;
        m.buildIdBytes = 3;
        m.buildId[0] = 0xab;
        m.buildId[2] = 0xcd;
        s.module(m, "/home/me/app");
        s.stack(9, {0x7f0000001234, 0x7f0000005678, 0x401000});
        s.callStack(42, 9);
        ProfileStreamDecoder decoder;
        // Cut anywhere: a stack comes back whole once its last byte arrives.
        for (std::size_t at = 0; at < s.bytes().size(); at += 5)
            decoder.feed(s.bytes().data() + at, std::min<std::size_t>(5, s.bytes().size() - at));
        const auto records = decodeAll(decoder);
        QCOMPARE(records.size(), std::size_t(5));
        QVERIFY(decoder.error().empty());
        const auto state = records[1].payload<StackStateRecord>();
        QVERIFY(state);
        QCOMPARE(state->mode, std::uint32_t(kStacksSync));
        QCOMPARE(state->callsWithoutStack, std::uint64_t(4));
        QCOMPARE(state->truncatedStacks, std::uint64_t(1));
        const auto module = records[2].payload<ModuleRecord>();
        QVERIFY(module);
        QCOMPARE(module->loadBias, m.loadBias);
        QCOMPARE(module->highAddress, m.highAddress);
        QCOMPARE(module->buildIdBytes, 3u);
        QCOMPARE(module->buildId[2], std::uint8_t(0xcd));
        QCOMPARE(records[2].text(sizeof(ModuleRecord), module->textBytes).value_or(""), std::string_view("/home/me/app"));
        const auto stack = records[3].payload<StackRecord>();
        QVERIFY(stack);
        QCOMPARE(stack->stackId, 9u);
        QCOMPARE(stack->frameCount, 3u);
        QCOMPARE(records[3].bodyBytes, std::uint32_t(sizeof(StackRecord) + 3 * 8));
        std::uint64_t frames[3];
        std::memcpy(frames, records[3].body + sizeof(StackRecord), sizeof frames);
        QCOMPARE(frames[1], std::uint64_t(0x7f0000005678));
        const auto call = records[4].payload<CallStackRecord>();
        QVERIFY(call);
        QCOMPARE(call->correlationId, 42u);
        QCOMPARE(call->stackId, 9u);
        // The layouts the stream version promises.
        QCOMPARE(sizeof(StackStateRecord), std::size_t(32));
        QCOMPARE(sizeof(ModuleRecord), std::size_t(56));
        QCOMPARE(sizeof(StackRecord), std::size_t(8));
        QCOMPARE(sizeof(CallStackRecord), std::size_t(8));

        // A stream that ends inside a stack says so rather than reading past it.
        ProfileStreamDecoder cut;
        cut.feed(s.bytes().data(), s.bytes().size() - 20);
        QCOMPARE(decodeAll(cut).size(), std::size_t(3));
        QVERIFY(cut.pendingBytes() > 0);
        QVERIFY(cut.error().empty());
    }

    void shortPayloadsAreNotRead()
    {
        DecodedRecord r;
        const std::uint8_t body[8] = {};
        r.body = body;
        r.bodyBytes = sizeof body;
        QVERIFY(!r.payload<KernelRecord>());
        QVERIFY(r.payload<ThreadRecord>());
        QVERIFY(!r.text(4, 5)); // text would run past the record
        QVERIFY(r.text(4, 4));
    }
};

QTEST_APPLESS_MAIN(TestProfileStreamCodec)
#include "tst_profile_stream.moc"
