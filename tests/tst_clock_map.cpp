// CUPTI time to host time: interpolated between pairs, held beyond them.
#include "profile/ClockMap.h"

#include <QtTest>

using ovs::profile::ClockMap;

class TestClockMap : public QObject {
    Q_OBJECT

private slots:
    void mapsThroughThePairs_data()
    {
        QTest::addColumn<qint64>("cupti");
        QTest::addColumn<qint64>("monotonic");
        // Pairs: cupti 1000 <-> 101000 (offset 100000), cupti 3000 <-> 103020 (offset 100020).
        QTest::newRow("before the first pair") << qint64(500) << qint64(100500);
        QTest::newRow("on the first pair") << qint64(1000) << qint64(101000);
        QTest::newRow("halfway: drift shared out") << qint64(2000) << qint64(102010);
        QTest::newRow("on the last pair") << qint64(3000) << qint64(103020);
        QTest::newRow("after the last pair") << qint64(4000) << qint64(104020);
    }
    void mapsThroughThePairs()
    {
        QFETCH(qint64, cupti);
        QFETCH(qint64, monotonic);
        ClockMap map;
        map.add(1000, 101000);
        map.add(3000, 103020);
        QCOMPARE(map.toMonotonic(static_cast<std::uint64_t>(cupti)), monotonic);
    }

    void pairsGoingBackAreIgnored()
    {
        ClockMap map;
        map.add(1000, 101000);
        map.add(900, 500); // a clock step back must not fold the mapping
        QCOMPARE(map.toMonotonic(1000), std::int64_t(101000));
        QCOMPARE(map.toMonotonic(900), std::int64_t(100900));
    }

    void withoutPairsTimesStayAsTheyAre()
    {
        ClockMap map;
        QVERIFY(map.empty());
        QCOMPARE(map.toMonotonic(1234), std::int64_t(1234));
    }
};

QTEST_APPLESS_MAIN(TestClockMap)
#include "tst_clock_map.moc"
