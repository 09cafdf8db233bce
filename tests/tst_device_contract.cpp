// The async contract of the device layer, checked on the simulated device
// (which, unlike a GPU, sees every host access): tokens, drain on
// destruction, and hazard reports for misuse.
#include "device/Copies.h"
#include "sim/SimDevice.h"

#include <QtTest>

#include <memory>

using namespace ovs;

namespace {
constexpr std::size_t kFloats = 1 << 20; // 4 MiB
SimDevice makeDevice()
{
    return SimDevice(*findSimPreset("h200"));
}
} // namespace

class TestDeviceContract : public QObject {
    Q_OBJECT

private slots:
    void touchingAfterWaitIsSafe()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> h(dev, kFloats);
        CopyToken t = copyToHostAsync(s, h, d);
        t.wait();
        h.span()[0] = 1.0f;
        QVERIFY(dev.takeHazards().empty());
    }

    void touchingInFlightDownloadIsAHazard()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> h(dev, kFloats);
        CopyToken t = copyToHostAsync(s, h, d);
        (void)h.span(); // the host reads what the copy is still writing
        const auto hazards = dev.takeHazards();
        QCOMPARE(hazards.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(hazards.front()).contains("in flight"), hazards.front().c_str());
        t.wait();
    }

    void writingInFlightUploadSourceIsAHazard_data()
    {
        QTest::addColumn<bool>("hostWrites");
        QTest::addColumn<int>("expectedHazards");
        QTest::newRow("host reads the source: two readers, no race") << false << 0;
        QTest::newRow("host overwrites the source: race") << true << 1;
    }
    void writingInFlightUploadSourceIsAHazard()
    {
        QFETCH(bool, hostWrites);
        QFETCH(int, expectedHazards);
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> staging(dev, kFloats);
        std::vector<float> other(kFloats, 3.0f);
        CopyToken t = copyToDeviceAsync(s, d, staging);
        if (hostWrites)
            dev.hostCopy(staging.hostPtr(), other.data(), staging.bytes());
        else
            dev.hostCopy(other.data(), staging.hostPtr(), staging.bytes());
        QCOMPARE(int(dev.takeHazards().size()), expectedHazards);
        t.wait();
    }

    void rawFreeInFlightIsAHazardButDrains()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        void* raw = dev.allocatePinned(kFloats * sizeof(float));
        dev.copyAsync(raw, d.devicePtr(), kFloats * sizeof(float), CopyDirection::DeviceToHost, HostMemoryKind::Pinned,
                      s.id());
        const auto end = dev.activities().back().endNs;
        dev.freePinned(raw);
        QCOMPARE(dev.takeHazards().size(), std::size_t(1));
        QVERIFY(dev.hostNowNs() >= end); // never freed under the copy
    }

    void destroyingBufferWithCopyInFlightDrainsFirst()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        auto h = std::make_unique<PinnedHostBuffer<float>>(dev, kFloats);
        CopyToken t = copyToHostAsync(s, *h, d);
        const auto end = dev.activities().back().endNs;
        h.reset(); // RAII: waits for the copy, then frees; no hazard
        QVERIFY(dev.hostNowNs() >= end);
        QVERIFY(dev.takeHazards().empty());
    }

    void destroyingStreamDrainsIt()
    {
        SimDevice dev = makeDevice();
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> h(dev, kFloats);
        std::int64_t end = 0;
        {
            Stream s(dev);
            CopyToken t = copyToDeviceAsync(s, d, h);
            end = dev.activities().back().endNs;
            t = CopyToken(); // replacing the token waits for the copy it held
            QVERIFY(dev.hostNowNs() >= end);
            dev.launchIncrement(d.devicePtr(), d.size(), 1, s.id());
            end = dev.activities().back().endNs;
        }
        QVERIFY(dev.hostNowNs() >= end);
    }

    void unwaitedTokenDrainsOnDestruction()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> h(dev, kFloats);
        std::int64_t end = 0;
        {
            CopyToken t = copyToDeviceAsync(s, d, h);
            end = dev.activities().back().endNs;
            QVERIFY(t.pending());
        }
        QVERIFY(dev.hostNowNs() >= end);
    }

    void safeCopyIsUsableAtOnce()
    {
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        std::vector<float> in(kFloats, 1.5f), out(kFloats, 0.0f);
        copyToDevice(s, d, std::span<const float>(in), HostMemoryKind::Pageable);
        dev.launchIncrement(d.devicePtr(), d.size(), 1, s.id());
        copyToHost(s, std::span<float>(out), d, HostMemoryKind::Pageable);
        QCOMPARE(out.front(), 2.5f);
        QCOMPARE(out.back(), 2.5f);
        QVERIFY(dev.takeHazards().empty());
    }

    void misuseIsAClearError_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("size mismatch") << 0 << "size mismatch";
        QTest::newRow("pageable memory described as pinned") << 1 << "not a pinned range";
        QTest::newRow("unknown stream") << 2 << "does not exist";
        QTest::newRow("free of a foreign pointer") << 3 << "did not allocate";
        QTest::newRow("elapsed time of an unfinished event") << 4 << "not completed";
    }
    void misuseIsAClearError()
    {
        QFETCH(int, which);
        QFETCH(QString, message);
        SimDevice dev = makeDevice();
        Stream s(dev);
        DeviceBuffer<float> d(dev, kFloats);
        PinnedHostBuffer<float> small(dev, kFloats / 2);
        std::vector<float> pageable(kFloats);
        try {
            switch (which) {
            case 0: { CopyToken t = copyToDeviceAsync(s, d, small); break; }
            case 1:
                dev.copyAsync(d.devicePtr(), pageable.data(), kFloats * 4, CopyDirection::HostToDevice,
                              HostMemoryKind::Pinned, s.id());
                break;
            case 2: dev.synchronizeStream(999); break;
            case 3: dev.freeDevice(pageable.data()); break;
            case 4: {
                Event a(dev), b(dev);
                a.record(s);
                CopyToken t = copyToDeviceAsync(s, d, std::span<const float>(pageable), HostMemoryKind::Pageable);
                dev.launchIncrement(d.devicePtr(), d.size(), 50, s.id());
                b.record(s);
                (void)b.nsSince(a);
                break;
            }
            }
            QFAIL("expected a DeviceError");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestDeviceContract)
#include "tst_device_contract.moc"
