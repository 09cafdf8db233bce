// Saturating arithmetic for loaded times and sizes (base/Saturating.h).
#include "base/Saturating.h"

#include <QtTest>

#include <limits>

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
};

QTEST_APPLESS_MAIN(TestSaturating)
#include "tst_saturating.moc"
