#include "timeline/TimeAxisMapping.h"

#include <QTest>

#include <limits>

using ovs::ui::TimeAxisMapping;

namespace {

constexpr qint64 kMax = std::numeric_limits<qint64>::max();

TimeAxisMapping mapping(qint64 start, qint64 end, double left, double width)
{
    TimeAxisMapping m;
    m.startNs = start;
    m.endNs = end;
    m.left = left;
    m.width = width;
    return m;
}

} // namespace

// The time axis as pixels, with rows as KDAB hotspot tests its TimeLineData:
// ordinary views, views at the int64 limits, and degenerate widths.
class TestTimeAxisMapping : public QObject {
    Q_OBJECT

private slots:
    void pixelAndTime_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("x");
        QTest::addColumn<qint64>("expectedNs");
        QTest::newRow("left edge") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 50.0 << qint64(1000);
        QTest::newRow("right edge") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 150.0 << qint64(2000);
        QTest::newRow("middle") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 100.0 << qint64(1500);
        QTest::newRow("left of the column") << qint64(1000) << qint64(2000) << 50.0 << 100.0 << 0.0 << qint64(500);
        QTest::newRow("sub-ns per pixel") << qint64(0) << qint64(100) << 0.0 << 1000.0 << 15.0 << qint64(2);
        QTest::newRow("at 2^63") << kMax - 1000 << kMax << 0.0 << 1000.0 << 1000.0 << kMax;
        QTest::newRow("past 2^63 saturates") << kMax - 1000 << kMax << 0.0 << 1000.0 << 1e9 << kMax;
        QTest::newRow("the whole int64 range") << qint64(0) << kMax << 0.0 << 2.0 << 2.0 << kMax;
        QTest::newRow("far left saturates") << qint64(0) << kMax << 100.0 << 1.0 << -1e9
                                            << std::numeric_limits<qint64>::min();
        QTest::newRow("zero width acts as 1 px") << qint64(0) << qint64(1000) << 0.0 << 0.0 << 1.0 << qint64(1000);
        QTest::newRow("empty range acts as 1 ns") << qint64(7) << qint64(7) << 0.0 << 10.0 << 10.0 << qint64(8);
    }
    void pixelAndTime()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, left);
        QFETCH(double, width);
        QFETCH(double, x);
        QFETCH(qint64, expectedNs);
        const TimeAxisMapping m = mapping(start, end, left, width);
        QCOMPARE(m.nsAt(x), expectedNs);
        QVERIFY(m.nsPerPixel() > 0);
        // Round trip where the time is representable without saturation.
        if (expectedNs != kMax && expectedNs != std::numeric_limits<qint64>::min())
            QVERIFY(std::abs(m.pixelAt(m.timeAt(x)) - x) < 1e-6 * std::max(1.0, std::abs(x)));
    }

    void containsX_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<bool>("inside");
        QTest::newRow("before") << 49.0 << false;
        QTest::newRow("left edge") << 50.0 << true;
        QTest::newRow("inside") << 120.0 << true;
        QTest::newRow("right edge") << 150.0 << true;
        QTest::newRow("after") << 151.0 << false;
    }
    void containsX()
    {
        QFETCH(double, x);
        QFETCH(bool, inside);
        QCOMPARE(mapping(0, 1000, 50, 100).containsX(x), inside);
    }
};

QTEST_APPLESS_MAIN(TestTimeAxisMapping)
#include "tst_time_axis_mapping.moc"
