// CUPTI time to host time: interpolated between pairs, held beyond them.
#include "cupti/ClockMap.h"

#include <QtTest>

using ovs::cupti::ClockMap;

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

    // A map with a limit (the CUDA device's, which lives as long as the
    // process) forgets its older half past it, and maps by the newer pairs.
    void pastItsLimitTheOlderHalfIsForgotten()
    {
        ClockMap map(4);
        for (std::int64_t i = 1; i <= 4; ++i)
            QVERIFY(map.add(static_cast<std::uint64_t>(i * 1000), i * 1000 + i * 10)); // offset 10 * i
        QCOMPARE(map.toMonotonic(500), std::int64_t(510)); // all four kept: the first pair's offset
        QVERIFY(map.add(5000, 5050));
        // Five pairs > 4: the oldest two are gone, so before the third pair its offset holds.
        QCOMPARE(map.toMonotonic(500), std::int64_t(530));
        QCOMPARE(map.toMonotonic(5000), std::int64_t(5050));
        QVERIFY(!map.add(5000, 9999)); // not increasing: ignored, and said
        map.clear();
        QVERIFY(map.empty());
    }

    void pairsNoClockCouldReadAreIgnored()
    {
        // A damaged stream's pairs (found by fuzz_profile_stream): beyond
        // any clock, or a negative host reading; times still map, without
        // overflowing, through the pairs that are kept.
        ClockMap map;
        QVERIFY(!map.add(std::uint64_t(1) << 63, 1000));
        QVERIFY(!map.add(1000, -7164805536009721482));
        QVERIFY(!map.add(1000, std::int64_t(1) << 62));
        QVERIFY(map.empty());
        QVERIFY(map.add(1000, 101000));
        QCOMPARE(map.toMonotonic(2000), std::int64_t(102000));
        static_cast<void>(map.toMonotonic(~std::uint64_t(0))); // wraps, no overflow (UBSan)
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
