// The simulator's timing model against hand-computed cases. The preset uses
// round numbers (1 byte/ns links, microsecond latencies) so every expected
// time below can be worked out on paper.
#include "device/Copies.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <cmath>

using namespace ovs;

namespace {

SimPreset roundPreset()
{
    SimPreset p;
    p.id = "test";
    p.name = "Test GPU";
    p.pinnedH2DGBps = 1.0;   // 1 byte per ns
    p.pinnedD2HGBps = 1.0;
    p.pageableH2DGBps = 0.5; // 2 ns per byte
    p.pageableD2HGBps = 0.5;
    p.copyLatencyUs = 0;
    p.apiCallUs = 1.0;
    p.launchLatencyUs = 2.0;
    p.syncWakeUs = 5.0;
    p.kernelGBps = 4.0;      // 2 * bytes moved at 4 bytes/ns: bytes/2 ns
    p.kernelFixedUs = 0;
    p.hostMemcpyGBps = 0.25; // 4 ns per byte
    p.deviceMemoryBytes = 100'000'000;
    return p;
}

constexpr std::size_t kMB = 1'000'000;

} // namespace

class TestSimDevice : public QObject {
    Q_OBJECT

private slots:
    void copyOnIdleStream()
    {
        SimDevice dev(roundPreset());
        Stream s(dev);
        DeviceBuffer<std::byte> d(dev, kMB);
        PinnedHostBuffer<std::byte> h(dev, kMB);
        const auto t0 = dev.hostNowNs();
        CopyToken t = copyToDeviceAsync(s, d, h);
        // api 1 us, ready 2 us later, 1e6 bytes at 1 byte/ns
        const auto& a = dev.activities().back();
        QCOMPARE(a.readyNs, t0 + 3'000);
        QCOMPARE(a.startNs, t0 + 3'000);
        QCOMPARE(a.endNs, t0 + 3'000 + 1'000'000);
        QVERIFY(!t.isDone());
        t.wait();
        // The host wakes syncWake after completion.
        QCOMPARE(dev.hostNowNs(), a.endNs + 5'000);
    }

    void sameDirectionCopiesShareOneEngine()
    {
        SimDevice dev(roundPreset());
        Stream s1(dev), s2(dev);
        DeviceBuffer<std::byte> d1(dev, kMB), d2(dev, kMB);
        PinnedHostBuffer<std::byte> h1(dev, kMB), h2(dev, kMB);
        CopyToken a = copyToDeviceAsync(s1, d1, h1);
        CopyToken b = copyToDeviceAsync(s2, d2, h2);
        const auto& acts = dev.activities();
        QCOMPARE(acts.size(), std::size_t(2));
        // The second upload is ready early but waits for the engine.
        QVERIFY(acts[1].readyNs < acts[0].endNs);
        QCOMPARE(acts[1].startNs, acts[0].endNs);
        QCOMPARE(acts[1].endNs - acts[1].startNs, std::int64_t(1'000'000));
    }

    void oppositeDirectionsOverlap()
    {
        SimDevice dev(roundPreset());
        Stream s1(dev), s2(dev);
        DeviceBuffer<std::byte> d1(dev, kMB), d2(dev, kMB);
        PinnedHostBuffer<std::byte> h1(dev, kMB), h2(dev, kMB);
        CopyToken up = copyToDeviceAsync(s1, d1, h1);
        CopyToken down = copyToHostAsync(s2, h2, d2);
        const auto& acts = dev.activities();
        QCOMPARE(acts[1].startNs, acts[1].readyNs); // its own engine: no wait
        QVERIFY(acts[1].startNs < acts[0].endNs);
    }

    // Both directions at once share the link: with a bidirectional rate of
    // 1.5 bytes/ns (two 1 byte/ns links), the download that joins a running
    // upload goes at 2 - 2/1.5 = 2/3 of its rate while they overlap, so the
    // pair ends when 2 MB at 1.5 bytes/ns would: 1.333 ms after they start.
    void oppositeDirectionsShareTheLinkAtTheBidirectionalRate()
    {
        SimPreset p = roundPreset();
        p.bidirectionalGBps = 1.5;
        SimDevice dev(p);
        Stream s1(dev), s2(dev);
        DeviceBuffer<std::byte> d1(dev, kMB), d2(dev, kMB);
        PinnedHostBuffer<std::byte> h1(dev, kMB), h2(dev, kMB);
        CopyToken up = copyToDeviceAsync(s1, d1, h1);
        CopyToken down = copyToHostAsync(s2, h2, d2);
        const auto& acts = dev.activities();
        QCOMPARE(acts[0].endNs - acts[0].startNs, std::int64_t(1'000'000)); // booked first: its own rate
        QVERIFY(acts[1].startNs < acts[0].endNs);
        // 1 us after the upload started (its later issue), at 2/3 rate until
        // the upload ends, then the rest at the full rate.
        const std::int64_t offset = acts[1].startNs - acts[0].startNs;
        const double shared = (1'000'000.0 - static_cast<double>(offset)) * 2.0 / 3.0;
        const auto expectedEnd = acts[0].endNs + static_cast<std::int64_t>(std::llround(1'000'000.0 - shared));
        QVERIFY2(std::abs(acts[1].endNs - expectedEnd) <= 2, qPrintable(QString::number(acts[1].endNs - expectedEnd)));
        QVERIFY(acts[1].endNs - acts[0].startNs > 1'300'000);
        QVERIFY(acts[1].endNs - acts[0].startNs < 1'340'000);
    }

    // One copy engine for both directions takes copies in issue order: a
    // download waiting for its kernel holds back an upload issued after it.
    void oneCopyEngineTakesCopiesInIssueOrder()
    {
        SimPreset p = roundPreset();
        p.copyEngines = 1;
        p.asyncEngineCount = 1;
        SimDevice dev(p);
        Stream s1(dev), s2(dev);
        DeviceBuffer<float> d1(dev, kMB / 4), d2(dev, kMB / 4);
        PinnedHostBuffer<float> h1(dev, kMB / 4), h2(dev, kMB / 4), back(dev, kMB / 4);
        CopyToken up1 = copyToDeviceAsync(s1, d1, h1);
        dev.launchIncrement(d1.devicePtr(), kMB / 4, 1, s1.id());
        CopyToken down1 = copyToHostAsync(s1, back, d1);
        CopyToken up2 = copyToDeviceAsync(s2, d2, h2);
        const auto& acts = dev.activities();
        QCOMPARE(acts.size(), std::size_t(4));
        const auto& kernel = acts[1];
        QCOMPARE(acts[2].startNs, kernel.endNs); // the download waits for the kernel
        QVERIFY(acts[3].readyNs < acts[2].startNs); // the upload was ready long before
        QCOMPARE(acts[3].startNs, acts[2].endNs);  // but comes after the download
        down1.wait();
        up2.wait();
    }

    // An op on the legacy default stream waits for all work on blocking
    // streams, and their later work waits for it; non-blocking streams and
    // the per-thread default stream's peers are exempt.
    void legacyDefaultStreamSynchronizesBlockingStreams()
    {
        SimDevice dev(roundPreset());
        Stream blocking(dev, StreamSync::Blocking);
        Stream nonBlocking(dev, StreamSync::NonBlocking);
        Stream legacy = Stream::defaultStream(dev, DefaultStreamOp::Legacy);
        QCOMPARE(legacy.id(), kLegacyDefaultStream);
        DeviceBuffer<float> a(dev, kMB / 4), b(dev, kMB / 4), tiny(dev, 1);
        PinnedHostBuffer<float> ha(dev, kMB / 4), hb(dev, kMB / 4);
        CopyToken upA = copyToDeviceAsync(blocking, a, ha);
        dev.launchIncrement(tiny.devicePtr(), 1, 1, legacy.id());
        CopyToken upB = copyToDeviceAsync(nonBlocking, b, hb);
        CopyToken upA2 = copyToDeviceAsync(blocking, a, ha);
        const auto& acts = dev.activities();
        const auto& legacyKernel = acts[1];
        QVERIFY(legacyKernel.readyNs >= acts[0].endNs); // waited for the blocking stream's upload
        QVERIFY(acts[3].readyNs >= legacyKernel.endNs); // the blocking stream's next op waited for it
        QVERIFY(acts[2].readyNs < acts[0].endNs);       // the non-blocking stream did not wait
        upA.wait();
        upB.wait();
        upA2.wait();

        // With non-blocking streams only, the legacy op waits for nobody.
        SimDevice free(roundPreset());
        Stream s(free, StreamSync::NonBlocking);
        Stream zero = Stream::defaultStream(free, DefaultStreamOp::Legacy);
        DeviceBuffer<float> c(free, kMB / 4), t(free, 1);
        PinnedHostBuffer<float> hc(free, kMB / 4);
        CopyToken up = copyToDeviceAsync(s, c, hc);
        free.launchIncrement(t.devicePtr(), 1, 1, zero.id());
        QVERIFY(free.activities()[1].startNs < free.activities()[0].endNs);
        up.wait();
        QVERIFY_THROWS_EXCEPTION(DeviceError, free.destroyStream(kLegacyDefaultStream));
    }

    // cudaMalloc and cudaMallocHost wait for the device to be idle.
    void allocationWaitsForTheDevice()
    {
        SimDevice dev(roundPreset());
        Stream s(dev);
        DeviceBuffer<std::byte> d(dev, kMB);
        PinnedHostBuffer<std::byte> h(dev, kMB);
        CopyToken up = copyToDeviceAsync(s, d, h);
        const auto copyEnd = dev.activities().back().endNs;
        QVERIFY(dev.hostNowNs() < copyEnd);
        DeviceBuffer<std::byte> more(dev, 16);
        QVERIFY(dev.hostNowNs() >= copyEnd);
        QVERIFY(up.isDone());
        CopyToken again = copyToDeviceAsync(s, d, h);
        const auto againEnd = dev.activities().back().endNs;
        PinnedHostBuffer<std::byte> pinnedMore(dev, 16);
        QVERIFY(dev.hostNowNs() >= againEnd);
        QVERIFY(again.isDone());
    }

    void eventsShowQueueTimeAsOpTime()
    {
        // Events mark when the stream reached a point: an upload queued behind
        // another stream's upload looks twice as long as it ran.
        SimDevice dev(roundPreset());
        Stream s1(dev), s2(dev);
        DeviceBuffer<std::byte> d1(dev, kMB), d2(dev, kMB);
        PinnedHostBuffer<std::byte> h1(dev, kMB), h2(dev, kMB);
        Event start2(dev), end2(dev);
        CopyToken a = copyToDeviceAsync(s1, d1, h1);
        start2.record(s2);
        CopyToken b = copyToDeviceAsync(s2, d2, h2);
        end2.record(s2);
        end2.synchronize();
        const auto eventNs = end2.nsSince(start2);
        const auto& run = dev.activities()[1];
        QCOMPARE(run.endNs - run.startNs, std::int64_t(1'000'000));
        QVERIFY2(eventNs > 1'900'000, qPrintable(QString::number(eventNs)));
    }

    void kernelAndStreamOrder()
    {
        SimDevice dev(roundPreset());
        Stream s(dev);
        DeviceBuffer<float> d(dev, kMB / 4);
        PinnedHostBuffer<float> h(dev, kMB / 4);
        for (auto& x : h.span())
            x = 2.0f;
        CopyToken up = copyToDeviceAsync(s, d, h);
        dev.launchIncrement(d.devicePtr(), d.size(), 3, s.id());
        CopyToken down = copyToHostAsync(s, h, d);
        down.wait();
        up.wait();
        const auto& acts = dev.activities();
        QCOMPARE(acts.size(), std::size_t(5)); // upload, 3 kernel passes, download
        for (std::size_t i = 1; i < acts.size(); ++i)
            QVERIFY(acts[i].startNs >= acts[i - 1].endNs);
        QCOMPARE(acts[1].endNs - acts[1].startNs, std::int64_t(kMB / 2)); // read + write at 4 bytes/ns
        for (float x : h.span())
            QCOMPARE(x, 5.0f);
    }

    void hostCopyChargesHostTime()
    {
        SimDevice dev(roundPreset());
        PinnedHostBuffer<std::byte> h(dev, kMB);
        std::vector<std::byte> src(kMB, std::byte{7});
        const auto t0 = dev.hostNowNs();
        dev.hostCopy(h.hostPtr(), src.data(), kMB);
        QCOMPARE(dev.hostNowNs() - t0, std::int64_t(4 * kMB));
        QCOMPARE(h.span()[kMB - 1], std::byte{7});
    }

    void hostCopyParallelSharesTheHostsBandwidth_data()
    {
        // 1,024,000 bytes: parts fall on 64-byte lines for 2 and 4 threads.
        // Per thread 4 ns/byte; the cap, when set, is 0.5 bytes/ns together.
        QTest::addColumn<int>("threads");
        QTest::addColumn<double>("capGBps");
        QTest::addColumn<QList<qlonglong>>("ends");
        QTest::newRow("one thread, under the cap") << 1 << 0.5 << QList<qlonglong>{4'096'000};
        QTest::newRow("two threads reach the cap") << 2 << 0.5 << QList<qlonglong>{2'048'000, 2'048'000};
        // Four threads would want 1 byte/ns; they get 0.125 each (8 ns/byte).
        QTest::newRow("four threads, capped") << 4 << 0.5
                                              << QList<qlonglong>{2'048'000, 2'048'000, 2'048'000, 2'048'000};
        QTest::newRow("four threads, no cap") << 4 << 0.0
                                              << QList<qlonglong>{1'024'000, 1'024'000, 1'024'000, 1'024'000};
        // Parts of 341,312, 341,312 and 341,376 bytes: all three at 6 ns/byte
        // until the two smaller end at 2,047,872 ns; the last 64 bytes then
        // run alone at the per-thread 4 ns/byte.
        QTest::newRow("three uneven parts, capped") << 3 << 0.5
                                                    << QList<qlonglong>{2'047'872, 2'047'872, 2'048'128};
    }
    void hostCopyParallelSharesTheHostsBandwidth()
    {
        QFETCH(int, threads);
        QFETCH(double, capGBps);
        QFETCH(QList<qlonglong>, ends);
        SimPreset preset = roundPreset();
        preset.hostMemoryGBps = capGBps;
        SimDevice dev(preset);
        constexpr std::size_t bytes = 1'024'000;
        PinnedHostBuffer<std::byte> h(dev, bytes);
        std::vector<std::byte> src(bytes);
        for (std::size_t i = 0; i < bytes; ++i)
            src[i] = std::byte(i % 251);
        const auto t0 = dev.hostNowNs();
        const auto intervals = dev.hostCopyParallel(h.hostPtr(), src.data(), bytes, threads);
        QCOMPARE(intervals.size(), std::size_t(ends.size()));
        qlonglong last = 0;
        for (int i = 0; i < ends.size(); ++i) {
            QCOMPARE(intervals[std::size_t(i)].startNs, t0);
            QCOMPARE(intervals[std::size_t(i)].endNs - t0, ends[i]);
            last = std::max(last, ends[i]);
        }
        QCOMPARE(dev.hostNowNs() - t0, last); // the caller waits for the last part
        const auto copied = h.span();
        QVERIFY(std::equal(copied.begin(), copied.end(), src.begin()));
        QVERIFY(dev.takeHazards().empty());
    }

    void hostCopyParallelChecksHazards_data()
    {
        QTest::addColumn<bool>("intoDownloadTarget"); // else: read the source of an upload
        QTest::addColumn<bool>("writesUploadSource");
        QTest::addColumn<bool>("hazard");
        QTest::newRow("write into a buffer a download is filling") << true << false << true;
        QTest::newRow("read a buffer an upload is reading") << false << false << false;
        QTest::newRow("write into a buffer an upload is reading") << false << true << true;
    }
    void hostCopyParallelChecksHazards()
    {
        QFETCH(bool, intoDownloadTarget);
        QFETCH(bool, writesUploadSource);
        QFETCH(bool, hazard);
        SimDevice dev(roundPreset());
        Stream s(dev);
        DeviceBuffer<std::byte> d(dev, kMB);
        PinnedHostBuffer<std::byte> busy(dev, kMB);
        PinnedHostBuffer<std::byte> other(dev, kMB);
        CopyToken t = intoDownloadTarget ? copyToHostAsync(s, busy, d) : copyToDeviceAsync(s, d, busy);
        if (intoDownloadTarget || writesUploadSource)
            dev.hostCopyParallel(busy.hostPtr(), other.hostPtr(), kMB, 4);
        else
            dev.hostCopyParallel(other.hostPtr(), busy.hostPtr(), kMB, 4);
        const auto hazards = dev.takeHazards();
        QCOMPARE(!hazards.empty(), hazard);
        if (hazard)
            QVERIFY2(QString::fromStdString(hazards.front()).contains("host copy"), hazards.front().c_str());
        t.wait();
        // After the wait the same copy is fine.
        dev.hostCopyParallel(busy.hostPtr(), other.hostPtr(), kMB, 4);
        QVERIFY(dev.takeHazards().empty());
    }

    void hostCopyParallelRefusesBadThreadCounts()
    {
        SimDevice dev(roundPreset());
        std::vector<std::byte> a(64), b(64);
        for (int threads : {0, -1, 65}) {
            try {
                dev.hostCopyParallel(a.data(), b.data(), a.size(), threads);
                QFAIL("expected a DeviceError");
            } catch (const DeviceError& e) {
                QVERIFY2(QString(e.what()).contains("threads"), e.what());
            }
        }
    }

    void registrationCostsPerPreset()
    {
        // registerUs fixed plus page-locking at registerGBps; unregistering
        // costs the fixed part.
        SimPreset preset = roundPreset();
        preset.registerUs = 10.0;
        preset.registerGBps = 0.5;
        SimDevice dev(preset);
        std::vector<std::byte> user(kMB);
        const auto t0 = dev.hostNowNs();
        dev.registerHost(user.data(), kMB);
        QCOMPARE(dev.hostNowNs() - t0, std::int64_t(10'000 + 2 * kMB));
        const auto t1 = dev.hostNowNs();
        dev.unregisterHost(user.data());
        QCOMPARE(dev.hostNowNs() - t1, std::int64_t(10'000));
    }

    void pageableCopyBlocksTheHost()
    {
        SimDevice dev(roundPreset());
        Stream s(dev);
        DeviceBuffer<std::byte> d(dev, kMB);
        std::vector<std::byte> src(kMB, std::byte{1});
        const auto t0 = dev.hostNowNs();
        CopyToken t = copyToDeviceAsync(s, d, std::span<const std::byte>(src), HostMemoryKind::Pageable);
        // api + launch latency + 2 ns/byte, then the host wakes, then records
        // the token's completion event (one more api call).
        QCOMPARE(dev.hostNowNs(), t0 + 1'000 + 2'000 + 2 * std::int64_t(kMB) + 5'000 + 1'000);
        t.wait(); // its completion event passes the stream shortly after
    }

    void backfillUsesEarlierGap()
    {
        SimEngine engine;
        QCOMPARE(engine.schedule(1000, 100), std::int64_t(1000));
        QCOMPARE(engine.schedule(0, 500), std::int64_t(0));      // fits before
        QCOMPARE(engine.schedule(600, 500), std::int64_t(1100)); // does not fit in [500, 1000)
        QCOMPARE(engine.schedule(500, 500), std::int64_t(500));  // exactly fits
        QCOMPARE(engine.busyUntil(), std::int64_t(1600));
    }

    void outOfDeviceMemoryIsAClearError()
    {
        SimDevice dev(roundPreset());
        DeviceBuffer<std::byte> big(dev, 60'000'000);
        try {
            DeviceBuffer<std::byte> tooMuch(dev, 60'000'000);
            QFAIL("expected an out-of-memory error");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("out of memory"), e.what());
        }
        // The device stays usable.
        DeviceBuffer<std::byte> fits(dev, 30'000'000);
        QCOMPARE(dev.deviceBytesInUse(), std::uint64_t(90'000'000));
    }

    void deterministic()
    {
        auto runOnce = [] {
            SimDevice dev(roundPreset());
            Stream s1(dev), s2(dev);
            DeviceBuffer<std::byte> d1(dev, kMB), d2(dev, kMB);
            PinnedHostBuffer<std::byte> h1(dev, kMB), h2(dev, kMB);
            CopyToken a = copyToDeviceAsync(s1, d1, h1);
            CopyToken b = copyToHostAsync(s2, h2, d2);
            a.wait();
            b.wait();
            return dev.hostNowNs();
        };
        QCOMPARE(runOnce(), runOnce());
    }
};

QTEST_GUILESS_MAIN(TestSimDevice)
#include "tst_sim_device.moc"
