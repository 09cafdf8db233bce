// Saturating arithmetic for loaded times and sizes (base/Saturating.h), and
// the sort of lists sorted in runs (base/SortedRuns.h).
#include "base/Saturating.h"
#include "base/SortedRuns.h"

#include <QtTest>

#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace ovs;

namespace {
constexpr qint64 kMax = std::numeric_limits<qint64>::max();
constexpr qint64 kMin = std::numeric_limits<qint64>::min();
constexpr quint64 kUMax = std::numeric_limits<quint64>::max();
} // namespace

class TestSaturating : public QObject {
    Q_OBJECT

private slots:
    void signedOps_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<qint64>("a");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("add in range") << "add" << qint64(2) << qint64(3) << qint64(5);
        QTest::newRow("add past max") << "add" << kMax << qint64(1) << kMax;
        QTest::newRow("add past min") << "add" << kMin << qint64(-1) << kMin;
        QTest::newRow("sub in range") << "sub" << qint64(2) << qint64(3) << qint64(-1);
        QTest::newRow("sub past max") << "sub" << kMax << qint64(-1) << kMax;
        QTest::newRow("sub past min") << "sub" << kMin << qint64(1) << kMin;
        QTest::newRow("max minus min") << "sub" << kMax << kMin << kMax;
        QTest::newRow("mul in range") << "mul" << qint64(-4) << qint64(5) << qint64(-20);
        QTest::newRow("mul past max") << "mul" << kMax / 2 << qint64(3) << kMax;
        QTest::newRow("mul negative past min") << "mul" << kMax << qint64(-2) << kMin;
        QTest::newRow("mul two negatives") << "mul" << kMin << qint64(-1) << kMax;
        QTest::newRow("span forward") << "span" << qint64(10) << qint64(25) << qint64(15);
        QTest::newRow("span backward is empty") << "span" << qint64(25) << qint64(10) << qint64(0);
        QTest::newRow("span of everything") << "span" << kMin << kMax << kMax;
    }

    void signedOps()
    {
        QFETCH(QString, op);
        QFETCH(qint64, a);
        QFETCH(qint64, b);
        QFETCH(qint64, expected);
        std::int64_t result = 0;
        if (op == "add")
            result = saturatingAdd<std::int64_t>(a, b);
        else if (op == "sub")
            result = saturatingSub<std::int64_t>(a, b);
        else if (op == "mul")
            result = saturatingMul<std::int64_t>(a, b);
        else
            result = spanNs(a, b);
        QCOMPARE(qint64(result), expected);
    }

    void unsignedOps()
    {
        QCOMPARE(saturatingAdd<std::uint64_t>(kUMax, 1), kUMax);
        QCOMPARE(saturatingSub<std::uint64_t>(1, 2), std::uint64_t(0));
        QCOMPARE(saturatingMul<std::uint64_t>(kUMax / 2, 3), kUMax);
        QCOMPARE(saturatingAdd<std::uint64_t>(40, 2), std::uint64_t(42));
    }

    void casts_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<qint64>("asInt64");
        QTest::addColumn<quint64>("asUint64");
        QTest::addColumn<int>("asInt");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("in range") << 12.9 << qint64(12) << quint64(12) << 12;
        QTest::newRow("negative") << -3.5 << qint64(-3) << quint64(0) << -3;
        QTest::newRow("2^63") << 9223372036854775808.0 << kMax << quint64(9223372036854775808ull)
                               << std::numeric_limits<int>::max();
        QTest::newRow("1e300") << 1e300 << kMax << kUMax << std::numeric_limits<int>::max();
        QTest::newRow("-1e300") << -1e300 << kMin << quint64(0) << std::numeric_limits<int>::min();
        QTest::newRow("infinity") << inf << kMax << kUMax << std::numeric_limits<int>::max();
        QTest::newRow("nan") << std::nan("") << qint64(0) << quint64(0) << 0;
    }

    void casts()
    {
        QFETCH(double, value);
        QFETCH(qint64, asInt64);
        QFETCH(quint64, asUint64);
        QFETCH(int, asInt);
        QCOMPARE(qint64(saturatingCast<std::int64_t>(value)), asInt64);
        QCOMPARE(quint64(saturatingCast<std::uint64_t>(value)), asUint64);
        QCOMPARE(saturatingCast<int>(value), asInt);
    }

    // sortSortedRuns gives std::stable_sort's order: pairs compared by their
    // first value alone, so equal keys show whether their order was kept.
    void sortedRunsSortStably_data()
    {
        QTest::addColumn<int>("values");
        QTest::addColumn<int>("runs"); // how many sorted runs the list is made of; 0: random
        QTest::addColumn<int>("keys"); // distinct keys
        QTest::newRow("empty") << 0 << 1 << 1;
        QTest::newRow("one") << 1 << 1 << 1;
        QTest::newRow("sorted") << 1000 << 1 << 1000;
        QTest::newRow("two runs") << 1000 << 2 << 100;
        QTest::newRow("three runs, many ties") << 999 << 3 << 7;
        QTest::newRow("odd run count") << 1001 << 7 << 50;
        QTest::newRow("descending") << 200 << 200 << 200;
        QTest::newRow("random") << 5000 << 0 << 300;
    }
    void sortedRunsSortStably()
    {
        QFETCH(int, values);
        QFETCH(int, runs);
        QFETCH(int, keys);
        std::mt19937 random(values * 31 + runs);
        std::vector<std::pair<int, int>> list; // (key, place in the input)
        for (int i = 0; i < values; ++i)
            list.emplace_back(static_cast<int>(random() % keys), i);
        if (runs == values) // descending
            std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        else if (runs > 0)
            for (int r = 0; r < runs; ++r) {
                const auto from = list.begin() + values * r / runs;
                const auto to = list.begin() + values * (r + 1) / runs;
                std::stable_sort(from, to, [](const auto& a, const auto& b) { return a.first < b.first; });
            }
        const auto byKey = [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; };
        std::vector<std::pair<int, int>> expected = list;
        std::stable_sort(expected.begin(), expected.end(), byKey);
        sortSortedRuns(list, byKey);
        QVERIFY(list == expected);
    }
};

QTEST_APPLESS_MAIN(TestSaturating)
#include "tst_saturating.moc"
