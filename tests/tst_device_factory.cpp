// The device factory is the one home of device specs, listings and the
// "[simulated]" label: every front end offers what it lists and opens what
// it names.
#include "devicefactory/DeviceFactory.h"
#include "sim/SimPreset.h"

#include <QtTest>

using namespace ovs;

class TestDeviceFactory : public QObject {
    Q_OBJECT

private slots:
    void everySimulatedListingOpensAndSaysSimulated()
    {
        const auto listings = simDeviceListings();
        QCOMPARE(listings.size(), simPresets().size());
        for (const auto& listing : listings) {
            QVERIFY(listing.available);
            auto device = createDevice(listing.spec);
            QVERIFY(device->info().simulated);
            QCOMPARE(listing.label, device->info().label());
            QVERIFY2(QString::fromStdString(listing.label).endsWith("[simulated]"), listing.label.c_str());
        }
    }

    void theFullListingEndsWithTheSimulatedOnes()
    {
        const auto all = listDevices();
        const auto sim = simDeviceListings();
        QVERIFY(all.size() > sim.size()); // the GPUs, or one entry saying why there is none
        for (std::size_t i = 0; i < sim.size(); ++i)
            QCOMPARE(all[all.size() - sim.size() + i].spec, sim[i].spec);
    }

    void theDefaultSpecIsTheDefaultPreset()
    {
        auto device = createDevice(defaultSimDeviceSpec());
        QCOMPARE(device->info().preset, defaultSimPreset().id);
        QCOMPARE(simDeviceSpec(defaultSimPreset().id), defaultSimDeviceSpec());
    }

    void theSyntaxNamesEverySpec()
    {
        const QString syntax = QString::fromStdString(deviceSpecSyntax());
        for (const QString& spec : {"auto", "cuda", "cuda:N"})
            QVERIFY2(syntax.contains(spec), qPrintable(syntax));
        for (const auto& listing : simDeviceListings())
            QVERIFY2(syntax.contains(QString::fromStdString(listing.spec)), qPrintable(syntax));
    }

    // A spec naming no device is the caller's mistake; a device this machine
    // lacks is DeviceUnavailable (the CLI's exit status 4).
    void unavailableIsToldFromMisspelled_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("unavailable");
        QTest::newRow("unknown device") << "tpu" << false;
        QTest::newRow("unknown preset") << "sim:gtx480" << false;
        QTest::newRow("bad index") << "cuda:x" << false;
        QTest::newRow("no such GPU") << "cuda:999" << true;
    }
    void unavailableIsToldFromMisspelled()
    {
        QFETCH(QString, spec);
        QFETCH(bool, unavailable);
        try {
            createDevice(spec.toStdString());
            QFAIL("expected an error");
        } catch (const DeviceUnavailable&) {
            QVERIFY(unavailable);
        } catch (const DeviceError&) {
            QVERIFY(!unavailable);
        }
    }

    void aHostileSpecIsQuotedEscapedAndShort()
    {
        const std::string spec = "\x1b]0;pwned\x07" + std::string(100000, 'x');
        try {
            createDevice(spec);
            QFAIL("expected an error");
        } catch (const DeviceError& e) {
            const std::string message = e.what();
            QVERIFY(message.find('\x1b') == std::string::npos);
            QVERIFY2(message.size() < 1000, message.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestDeviceFactory)
#include "tst_device_factory.moc"
