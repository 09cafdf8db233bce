// Presets are complete and labelled; fresh pageable memory costs page faults.
#include "device/Copies.h"
#include "devicefactory/DeviceFactory.h"
#include "sim/SimDevice.h"

#include <QtTest>

using namespace ovs;

class TestSimPresets : public QObject {
    Q_OBJECT

private slots:
    void presetsAreCompleteAndSaySimulated()
    {
        QVERIFY(simPresets().size() >= 2);
        for (const auto& p : simPresets()) {
            QVERIFY(!p.source.empty());
            QVERIFY(p.pinnedH2DGBps > 0 && p.pinnedD2HGBps > 0 && p.pageableH2DGBps > 0 && p.pageableD2HGBps > 0);
            QVERIFY(p.hostMemcpyGBps > 0 && p.kernelGBps > 0 && p.deviceMemoryBytes > 0);
            auto device = createDevice("sim:" + p.id);
            QVERIFY(device->info().simulated);
            QVERIFY(QString::fromStdString(device->info().label()).contains("[simulated]"));
        }
    }

    void deviceSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("error");
        QTest::newRow("sim") << "sim" << "";
        QTest::newRow("sim preset") << "sim:rtx4090" << "";
        QTest::newRow("unknown preset") << "sim:gtx480" << "unknown simulator preset";
        QTest::newRow("unknown device") << "tpu" << "unknown device";
        QTest::newRow("bad cuda index") << "cuda:x" << "cuda:N";
    }
    void deviceSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(QString, error);
        try {
            auto device = createDevice(spec.toStdString());
            QVERIFY2(error.isEmpty(), "expected an error");
            QVERIFY(device->info().simulated);
        } catch (const DeviceError& e) {
            QVERIFY2(!error.isEmpty() && QString(e.what()).contains(error), e.what());
        }
    }

    void noGpuSaysSoAndPointsToTheSimulator()
    {
        std::string why;
        if (cudaDeviceAvailable(&why))
            QSKIP("a CUDA GPU is present");
        QVERIFY(!why.empty());
        try {
            createDevice("cuda");
            QFAIL("expected an error without a GPU");
        } catch (const DeviceError& e) {
            QVERIFY2(QString(e.what()).contains("--device sim"), e.what());
        }
        // auto falls back to the simulator, labelled.
        QVERIFY(createDevice("auto")->info().simulated);
    }

    void freshPageableMemoryFaultsOnce()
    {
        SimPreset p = *findSimPreset("h200");
        SimDevice dev(p);
        Stream s(dev);
        const std::size_t n = 1 << 20;
        DeviceBuffer<float> d(dev, n);
        std::vector<float> host(n);
        auto download = [&] {
            const auto t0 = dev.hostNowNs();
            copyToHost(s, std::span<float>(host), d, HostMemoryKind::Pageable);
            return dev.hostNowNs() - t0;
        };
        dev.noteFreshHostMemory(host.data(), n * sizeof(float));
        const auto cold = download();
        const auto warm = download();
        const double faultNs = double(n * sizeof(float)) / p.pageFaultGBps;
        QVERIFY(qAbs(double(cold - warm) - faultNs) < 0.01 * faultNs);
    }
};

QTEST_GUILESS_MAIN(TestSimPresets)
#include "tst_sim_presets.moc"
