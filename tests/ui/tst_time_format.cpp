#include "style/TimeFormat.h"

#include <QTest>

using ovs::ui::TimeFormat;

class TestTimeFormat : public QObject {
    Q_OBJECT

private slots:
    void duration_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << 0.0 << 3 << QStringLiteral("0 ns");
        QTest::newRow("ns") << 850.0 << 3 << QStringLiteral("850 ns");
        QTest::newRow("ns rounds") << 849.6 << 3 << QStringLiteral("850 ns");
        QTest::newRow("us") << 12'400.0 << 3 << QStringLiteral("12.4 \u00b5s");
        QTest::newRow("us small") << 1'234.0 << 3 << QStringLiteral("1.23 \u00b5s");
        QTest::newRow("ms") << 3'210'000.0 << 3 << QStringLiteral("3.21 ms");
        QTest::newRow("ms wall 4 digits") << 321'972'297.0 << 4 << QStringLiteral("322.0 ms");
        QTest::newRow("s keeps ms") << 1'204'000'000.0 << 3 << QStringLiteral("1.204 s");
        QTest::newRow("carry into next unit") << 999'960.0 << 3 << QStringLiteral("1.00 ms");
        QTest::newRow("carry ns to us") << 999.7 << 3 << QStringLiteral("1.00 \u00b5s");
        QTest::newRow("negative") << -2'500.0 << 3 << QStringLiteral("-2.50 \u00b5s");
    }
    void duration()
    {
        QFETCH(double, ns);
        QFETCH(int, digits);
        QFETCH(QString, expected);
        QCOMPARE(TimeFormat::duration(ns, digits), expected);
    }

    void tick_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<double>("step");
        QTest::addColumn<double>("magnitude");
        QTest::addColumn<QString>("expected");
        QTest::newRow("origin") << 0.0 << 50e6 << 330e6 << QStringLiteral("0 ms");
        QTest::newRow("whole ms") << 150e6 << 50e6 << 330e6 << QStringLiteral("150 ms");
        QTest::newRow("half ms") << 322.5e6 << 0.5e6 << 330e6 << QStringLiteral("322.5 ms");
        QTest::newRow("fine step in ms") << 322.002e6 << 2e3 << 322.01e6 << QStringLiteral("322.002 ms");
        QTest::newRow("tenth") << 45.2e6 << 0.2e6 << 46.2e6 << QStringLiteral("45.2 ms");
        QTest::newRow("us axis") << 3e3 << 1e3 << 5e3 << QStringLiteral("3 \u00b5s");
        QTest::newRow("ns axis") << 200.0 << 100.0 << 900.0 << QStringLiteral("200 ns");
        QTest::newRow("s axis") << 1.5e9 << 0.5e9 << 2e9 << QStringLiteral("1.5 s");
    }
    void tick()
    {
        QFETCH(double, ns);
        QFETCH(double, step);
        QFETCH(double, magnitude);
        QFETCH(QString, expected);
        QCOMPARE(TimeFormat::tick(ns, step, magnitude), expected);
    }

    void niceStep_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<int>("target");
        QTest::addColumn<double>("expected");
        QTest::newRow("exact 1") << 10.0 << 10 << 1.0;
        QTest::newRow("up to 2") << 15.0 << 10 << 2.0;
        QTest::newRow("up to 5") << 330e6 << 10 << 50e6;
        QTest::newRow("up to 10") << 70.0 << 10 << 10.0;
        QTest::newRow("small") << 1e-3 << 5 << 2e-4;
        QTest::newRow("degenerate") << 0.0 << 5 << 1.0;
    }
    void niceStep()
    {
        QFETCH(double, span);
        QFETCH(int, target);
        QFETCH(double, expected);
        const double step = TimeFormat::niceStep(span, target);
        QVERIFY2(qAbs(step - expected) <= expected * 1e-9, qPrintable(QString::number(step)));
        if (span > 0)
            QVERIFY(span / step <= target + 1e-9);
    }

    void bandwidth_data()
    {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("expected");
        QTest::newRow("pinned") << quint64(33554432) << qint64(612'300) << QStringLiteral("54.8 GB/s");
        QTest::newRow("staging") << quint64(33554432) << qint64(5'855'728) << QStringLiteral("5.73 GB/s");
        QTest::newRow("hundreds") << quint64(1'000'000'000) << qint64(4'000'000) << QStringLiteral("250 GB/s");
        QTest::newRow("no time") << quint64(100) << qint64(0) << QStringLiteral("n/a");
    }
    void bandwidth()
    {
        QFETCH(quint64, bytes);
        QFETCH(qint64, ns);
        QFETCH(QString, expected);
        QCOMPARE(TimeFormat::bandwidth(bytes, ns), expected);
    }

    void bytes_data()
    {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("B") << quint64(512) << QStringLiteral("512 B");
        QTest::newRow("KiB fraction") << quint64(1536) << QStringLiteral("1.5 KiB");
        QTest::newRow("MiB whole") << quint64(32) * 1024 * 1024 << QStringLiteral("32 MiB");
        QTest::newRow("GiB") << quint64(3) * 1024 * 1024 * 1024 / 2 << QStringLiteral("1.5 GiB");
    }
    void bytes()
    {
        QFETCH(quint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(TimeFormat::bytes(bytes), expected);
    }
};

QTEST_APPLESS_MAIN(TestTimeFormat)
#include "tst_time_format.moc"
