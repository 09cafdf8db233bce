#include <QtTest>

#ifdef OVERLAPSCOPE_HAVE_CUDA

#include "cuda/CudaDevice.h"
#include "device/Copies.h"
#include "device/DeviceBuffer.h"
#include "device/Event.h"
#include "device/PinnedHostBuffer.h"
#include "device/Stream.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

using namespace ovs;

namespace {

constexpr std::size_t kMiB = 1024 * 1024;
constexpr std::size_t k256MiBFloats = 256 * kMiB / sizeof(float);
constexpr std::size_t kNoMismatch = static_cast<std::size_t>(-1);

// The seed's input: multiples of 0.25 below 65, so adding small integers stays exact.
float inputValue(std::size_t i)
{
    return static_cast<float>(i % 257) * 0.25f;
}

void fillInput(std::span<float> data)
{
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = inputValue(i);
}

// Checks the last element first: it is the one a copy still in flight would miss.
std::size_t firstMismatch(std::span<const float> data, float added)
{
    if (!data.empty() && data.back() != inputValue(data.size() - 1) + added)
        return data.size() - 1;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (data[i] != inputValue(i) + added)
            return i;
    }
    return kNoMismatch;
}

QByteArray mismatchText(std::span<const float> data, std::size_t index, float added)
{
    if (index == kNoMismatch)
        return {};
    return QByteArray("element ") + QByteArray::number(qulonglong(index)) + " is " + QByteArray::number(data[index])
        + ", expected " + QByteArray::number(inputValue(index) + added);
}

// Unregisters even when a check fails half-way, before the vector frees the pages.
class Registration {
public:
    Registration(Device& device, void* p, std::size_t bytes) : m_device(device), m_p(p)
    {
        m_device.registerHost(p, bytes);
    }
    ~Registration()
    {
        try {
            m_device.unregisterHost(m_p);
        } catch (const DeviceError& error) {
            qWarning("%s", error.what());
        }
    }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

private:
    Device& m_device;
    void* m_p;
};

} // namespace

class TestCudaDevice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        std::string why;
        if (!cudaRuntimeHasDevice(&why)) {
            QVERIFY2(!why.empty(), "cudaRuntimeHasDevice said no without saying why");
            QCOMPARE(cudaDeviceCount(), 0);
            try {
                createCudaDevice(0);
                QFAIL("createCudaDevice succeeded without a device");
            } catch (const DeviceError& error) {
                qInfo("%s", error.what());
                QVERIFY2(std::string(error.what()).find("--device sim") != std::string::npos, error.what());
            }
            m_skipReason = QByteArray("no CUDA device: ") + why.c_str();
            return;
        }
        QVERIFY(cudaDeviceCount() > 0);
        try {
            m_device = createCudaDevice(0);
        } catch (const DeviceError& error) {
            QFAIL(error.what());
        }
    }

    // Skips every test, not the whole case, so each one reports why.
    void init()
    {
        if (!m_device)
            QSKIP(m_skipReason.constData());
    }

    void cleanupTestCase() { m_device.reset(); }

    void info()
    {
        const DeviceInfo& info = m_device->info();
        qInfo("%s: %s, %d async engines", info.name.c_str(), info.detail.c_str(), info.asyncEngineCount);
        QVERIFY(!info.name.empty());
        QVERIFY(!info.simulated);
        QVERIFY(info.preset.empty());
        QCOMPARE(info.label(), info.name);
        QVERIFY2(info.detail.starts_with("sm_"), info.detail.c_str());
        for (const char* part : {" SMs, PCI ", ", driver ", ", runtime ", " GiB"})
            QVERIFY2(info.detail.find(part) != std::string::npos, info.detail.c_str());
        QVERIFY(info.asyncEngineCount >= 1);
        QVERIFY(info.totalMemoryBytes >= (std::uint64_t(1) << 30));
    }

    void pinnedRoundtrip()
    {
        const std::size_t count = 4 * kMiB + 3;
        Stream stream(*m_device);
        PinnedHostBuffer<float> in(*m_device, count);
        PinnedHostBuffer<float> out(*m_device, count);
        fillInput(in.span());
        std::ranges::fill(out.span(), -1.0f);
        DeviceBuffer<float> device(*m_device, count);

        CopyToken up = copyToDeviceAsync(stream, device, in);
        CopyToken down = copyToHostAsync(stream, out, device);
        down.wait();
        QVERIFY(!down.pending());
        // Same stream: the download finishing means the upload did.
        QVERIFY(up.isDone());
        up.wait();
        QCOMPARE(std::memcmp(in.hostPtr(), out.hostPtr(), in.bytes()), 0);
    }

    void incrementRepeats_data()
    {
        QTest::addColumn<qulonglong>("count");
        QTest::addColumn<int>("repeats");
        QTest::newRow("one element, 3 passes") << qulonglong(1) << 3;
        QTest::newRow("odd size, 3 passes") << qulonglong(1000003) << 3;
        QTest::newRow("seed chunk (32 MiB), 3 passes") << qulonglong(8388608) << 3;
        QTest::newRow("one pass") << qulonglong(12345) << 1;
        QTest::newRow("no pass") << qulonglong(4097) << 0;
    }

    void incrementRepeats()
    {
        QFETCH(qulonglong, count);
        QFETCH(int, repeats);
        Stream stream(*m_device);
        PinnedHostBuffer<float> host(*m_device, count);
        fillInput(host.span());
        DeviceBuffer<float> device(*m_device, count);

        CopyToken up = copyToDeviceAsync(stream, device, host);
        m_device->launchIncrement(device.devicePtr(), device.size(), repeats, stream.id());
        CopyToken down = copyToHostAsync(stream, host, device);
        down.wait();
        up.wait();

        const std::size_t bad = firstMismatch(host.span(), float(repeats));
        QVERIFY2(bad == kNoMismatch, mismatchText(host.span(), bad, float(repeats)).constData());
    }

    void pageableSafeCopies()
    {
        const std::size_t count = 16 * kMiB + 1;
        std::vector<float> in(count);
        fillInput(in);
        std::vector<float> out(count, -1.0f);
        Stream stream(*m_device);
        DeviceBuffer<float> device(*m_device, count);

        copyToDevice(stream, device, std::span<const float>(in), HostMemoryKind::Pageable);
        m_device->launchIncrement(device.devicePtr(), device.size(), 1, stream.id());
        copyToHost(stream, std::span<float>(out), device, HostMemoryKind::Pageable);

        const std::size_t bad = firstMismatch(out, 1.0f);
        QVERIFY2(bad == kNoMismatch, mismatchText(out, bad, 1.0f).constData());
        QCOMPARE(firstMismatch(in, 0.0f), kNoMismatch);
    }

    void eventsTime()
    {
        Stream stream(*m_device);
        Event first(*m_device);
        Event second(*m_device);
        first.record(stream);
        second.record(stream);
        second.synchronize();
        QVERIFY(first.isDone());
        QVERIFY(second.nsSince(first) >= 0);

        PinnedHostBuffer<float> source(*m_device, k256MiBFloats);
        std::memset(source.hostPtr(), 0, source.bytes());
        DeviceBuffer<float> target(*m_device, k256MiBFloats);
        Event start(*m_device);
        Event end(*m_device);
        const std::int64_t hostBefore = m_device->hostNowNs();
        start.record(stream);
        m_device->copyAsync(target.devicePtr(), source.hostPtr(), source.bytes(), CopyDirection::HostToDevice,
                            HostMemoryKind::Pinned, stream.id());
        end.record(stream);
        end.synchronize();
        const std::int64_t hostElapsed = m_device->hostNowNs() - hostBefore;
        QVERIFY(end.isDone());

        const std::int64_t copyNs = end.nsSince(start);
        qInfo("256 MiB pinned HtoD: %lld ns on the events, %lld ns on the host clock, %.2f GB/s",
              static_cast<long long>(copyNs), static_cast<long long>(hostElapsed),
              double(source.bytes()) / double(copyNs));
        // Even at 2.6 TB/s 256 MiB takes 100 us; a ms/us/ns slip fails one bound.
        QVERIFY2(copyNs > 100'000, QByteArray::number(qlonglong(copyNs)).constData());
        QVERIFY2(copyNs <= hostElapsed + 1'000'000, QByteArray::number(qlonglong(copyNs)).constData());
    }

    void streamWaitEventOrders()
    {
        const std::size_t count = 16 * kMiB;
        PinnedHostBuffer<float> in(*m_device, count);
        PinnedHostBuffer<float> out(*m_device, count);
        fillInput(in.span());
        DeviceBuffer<float> device(*m_device, count);
        Stream producer(*m_device);
        Stream consumer(*m_device);
        Event produced(*m_device);

        // Without the wait the consumer's pass and download would race the
        // producer's upload and 20 passes.
        CopyToken up = copyToDeviceAsync(producer, device, in);
        m_device->launchIncrement(device.devicePtr(), count, 20, producer.id());
        produced.record(producer);
        m_device->streamWaitEvent(consumer.id(), produced.id());
        m_device->launchIncrement(device.devicePtr(), count, 1, consumer.id());
        CopyToken down = copyToHostAsync(consumer, out, device);
        down.wait();
        QVERIFY(produced.isDone());
        up.wait();

        const std::size_t bad = firstMismatch(out.span(), 21.0f);
        QVERIFY2(bad == kNoMismatch, mismatchText(out.span(), bad, 21.0f).constData());
    }

    void absurdAllocationThrows()
    {
        const std::size_t onePiB = std::size_t(1) << 50;
        std::string message;
        try {
            void* p = m_device->allocateDevice(onePiB);
            m_device->freeDevice(p);
            QFAIL("a 1 PiB device allocation succeeded");
        } catch (const DeviceError& error) {
            message = error.what();
        }
        qInfo("%s", message.c_str());
        QVERIFY2(message.find("cudaMalloc") != std::string::npos, message.c_str());
        QVERIFY2(message.find(std::to_string(onePiB)) != std::string::npos, message.c_str());

        try {
            void* p = m_device->allocatePinned(onePiB);
            m_device->freePinned(p);
            QFAIL("a 1 PiB pinned allocation succeeded");
        } catch (const DeviceError& error) {
            message = error.what();
        }
        qInfo("%s", message.c_str());
        QVERIFY2(message.find("cudaMallocHost") != std::string::npos, message.c_str());

        // The failure was not sticky: the device still allocates, copies and launches.
        const std::size_t count = kMiB;
        std::vector<float> host(count);
        fillInput(host);
        Stream stream(*m_device);
        DeviceBuffer<float> device(*m_device, count);
        copyToDevice(stream, device, std::span<const float>(host), HostMemoryKind::Pageable);
        m_device->launchIncrement(device.devicePtr(), count, 2, stream.id());
        copyToHost(stream, std::span<float>(host), device, HostMemoryKind::Pageable);
        const std::size_t bad = firstMismatch(host, 2.0f);
        QVERIFY2(bad == kNoMismatch, mismatchText(host, bad, 2.0f).constData());
    }

    void invalidIdsThrow()
    {
        Stream stream(*m_device);
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->synchronizeStream(1'000'000));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->destroyStream(1'000'000));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->eventDone(4'000'000'000u));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->recordEvent(1'000'000, stream.id()));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->launchIncrement(nullptr, 1, 1, 1'000'000));

        const StreamId gone = m_device->createStream();
        m_device->destroyStream(gone);
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->synchronizeStream(gone));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->destroyStream(gone));

        const EventId destroyed = m_device->createEvent();
        m_device->destroyEvent(destroyed);
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->eventDone(destroyed));
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->destroyEvent(destroyed));

        // A new event behaves like a new cudaEvent_t even on a reused handle
        // that was recorded in its previous life.
        EventId reusedId = 0;
        {
            Event old(*m_device);
            old.record(stream);
            old.synchronize();
            reusedId = old.id();
        }
        Event fresh(*m_device);
        QCOMPARE(fresh.id(), reusedId);
        QVERIFY(fresh.isDone());
        fresh.synchronize();
        Event recorded(*m_device);
        recorded.record(stream);
        recorded.synchronize();
        QVERIFY_THROWS_EXCEPTION(DeviceError, fresh.nsSince(recorded));
        QVERIFY_THROWS_EXCEPTION(DeviceError, recorded.nsSince(fresh));

        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->launchIncrement(nullptr, 16, 1, stream.id()));
        DeviceBuffer<float> device(*m_device, 16);
        QVERIFY_THROWS_EXCEPTION(DeviceError, m_device->launchIncrement(device.devicePtr(), 16, -1, stream.id()));
        stream.synchronize();
    }

    void registeredHostCopy()
    {
        const std::size_t count = 8 * kMiB + 5;
        std::vector<float> host(count);
        fillInput(host);
        Registration registration(*m_device, host.data(), count * sizeof(float));
        Stream stream(*m_device);
        DeviceBuffer<float> device(*m_device, count);

        CopyToken up = copyToDeviceAsync(stream, device, std::span<const float>(host), HostMemoryKind::Registered);
        m_device->launchIncrement(device.devicePtr(), count, 1, stream.id());
        CopyToken down = copyToHostAsync(stream, std::span<float>(host), device, HostMemoryKind::Registered);
        down.wait();
        up.wait();

        const std::size_t bad = firstMismatch(host, 1.0f);
        QVERIFY2(bad == kNoMismatch, mismatchText(host, bad, 1.0f).constData());
    }

    void destroyingStreamDrains()
    {
        PinnedHostBuffer<float> in(*m_device, k256MiBFloats);
        PinnedHostBuffer<float> out(*m_device, k256MiBFloats);
        fillInput(in.span());
        std::ranges::fill(out.span(), -1.0f);
        DeviceBuffer<float> device(*m_device, k256MiBFloats);
        {
            Stream stream(*m_device);
            m_device->copyAsync(device.devicePtr(), in.hostPtr(), in.bytes(), CopyDirection::HostToDevice,
                                HostMemoryKind::Pinned, stream.id());
            m_device->launchIncrement(device.devicePtr(), device.size(), 1, stream.id());
            m_device->copyAsync(out.hostPtr(), device.devicePtr(), out.bytes(), CopyDirection::DeviceToHost,
                                HostMemoryKind::Pinned, stream.id());
            // No wait: ~Stream must drain the ~10 ms of queued work.
        }
        const std::span<const float> result(out.hostPtr(), out.size());
        const std::size_t bad = firstMismatch(result, 1.0f);
        QVERIFY2(bad == kNoMismatch, mismatchText(result, bad, 1.0f).constData());
    }

    void manyEvents()
    {
        Stream stream(*m_device);
        EventId firstId = 0;
        for (int i = 0; i < 10000; ++i) {
            Event event(*m_device);
            event.record(stream);
            if (i == 0)
                firstId = event.id();
            // One at a time, the id just freed serves the next event.
            if (event.id() != firstId)
                QFAIL(qPrintable(QStringLiteral("event %1 got id %2, not %3").arg(i).arg(event.id()).arg(firstId)));
        }
        stream.synchronize();

        EventId highest[2] = {0, 0};
        for (EventId& roundHighest : highest) {
            std::vector<Event> events;
            events.reserve(10000);
            for (int i = 0; i < 10000; ++i) {
                events.emplace_back(*m_device);
                events.back().record(stream);
                roundHighest = std::max(roundHighest, events.back().id());
            }
            events.back().synchronize();
            QVERIFY(std::ranges::all_of(events, [](Event& event) { return event.isDone(); }));
        }
        // The second 10000 reused the first 10000's ids instead of growing.
        QCOMPARE(highest[1], highest[0]);
    }

    void streamIdsReused()
    {
        std::vector<StreamId> first;
        {
            Stream a(*m_device), b(*m_device), c(*m_device);
            first = {a.id(), b.id(), c.id()};
        }
        Stream a(*m_device), b(*m_device), c(*m_device);
        QCOMPARE((std::vector<StreamId>{a.id(), b.id(), c.id()}), first);
    }

private:
    std::unique_ptr<Device> m_device;
    QByteArray m_skipReason;
};

#else

class TestCudaDevice : public QObject {
    Q_OBJECT

private slots:
    void cudaDevice() { QSKIP("built without CUDA"); }
};

#endif

QTEST_GUILESS_MAIN(TestCudaDevice)
#include "tst_cuda_device.moc"
