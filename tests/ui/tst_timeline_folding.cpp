#include "timeline/TimelineFolding.h"

#include <QTest>

#include <numeric>

using ovs::Op;
using ovs::OpKind;
using ovs::ui::TimelineFolding;

namespace {

Op makeOp(std::int64_t start, std::int64_t end, OpKind kind = OpKind::Upload)
{
    Op op;
    op.startNs = start;
    op.endNs = end;
    op.kind = kind;
    return op;
}

std::uint64_t totalCount(const std::vector<TimelineFolding::Item>& items)
{
    return std::accumulate(items.begin(), items.end(), std::uint64_t(0),
                           [](std::uint64_t sum, const TimelineFolding::Item& item) { return sum + item.count; });
}

} // namespace

class TestTimelineFolding : public QObject {
    Q_OBJECT

private slots:
    void wideOpsKept_data()
    {
        QTest::addColumn<double>("nsPerPixel");
        QTest::addColumn<int>("expectedItems");
        // Three 1000 ns ops with 1000 ns gaps.
        QTest::newRow("each op 10 px") << 100.0 << 3;
        QTest::newRow("each op 3 px: still itself") << 1000.0 / 3 << 3;
        QTest::newRow("each op 5 px") << 200.0 << 3;
    }
    void wideOpsKept()
    {
        QFETCH(double, nsPerPixel);
        QFETCH(int, expectedItems);
        const std::vector<Op> ops = {makeOp(0, 1000), makeOp(2000, 3000, OpKind::Kernel), makeOp(4000, 5000)};
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), nsPerPixel, items);
        QCOMPARE(int(items.size()), expectedItems);
        for (std::size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].count, 1u);
            QCOMPARE(items[i].firstIndex, i);
            QCOMPARE(items[i].startNs, ops[i].startNs);
            QCOMPARE(items[i].endNs, ops[i].endNs);
            QCOMPARE(items[i].kind, ops[i].kind);
        }
    }

    void narrowRunsMerged()
    {
        // 100 ops of 10 ns back to back (1000 ns), at 100 ns per pixel: each
        // op is 0.1 px, the whole run 10 px.
        std::vector<Op> ops;
        for (int i = 0; i < 100; ++i)
            ops.push_back(makeOp(i * 10, i * 10 + 10, i % 4 == 0 ? OpKind::Kernel : OpKind::Upload));
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), 100.0, items);
        QVERIFY(items.size() < 10);
        QCOMPARE(totalCount(items), std::uint64_t(100));
        QCOMPARE(items.front().startNs, 0);
        QCOMPARE(items.back().endNs, 1000);
        std::int64_t busy = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const auto& item = items[i];
            QVERIFY(item.isFolded());
            // Uploads cover three quarters of every bin; the kernels keep a mark each.
            QCOMPARE(item.kind, OpKind::Upload);
            QVERIFY(item.hasKind(OpKind::Kernel));
            QVERIFY(item.isMixed());
            if (i > 0)
                QCOMPARE(item.startNs, items[i - 1].endNs); // sorted and gap-free
            busy += item.busyNs;
        }
        QCOMPARE(busy, 1000);
    }

    void sameKindBlocksMerge()
    {
        // 100 uploads of 10 ns back to back, 0.1 px each: one block.
        std::vector<Op> ops;
        for (int i = 0; i < 100; ++i)
            ops.push_back(makeOp(i * 10, i * 10 + 10));
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), 100.0, items);
        QCOMPARE(int(items.size()), 1);
        QCOMPARE(items.front().busyNs, 1000);
        QVERIFY(!items.front().isMixed());
    }

    void minorityKindsKeepTheirMark_data()
    {
        QTest::addColumn<qint64>("kernelStart");
        QTest::addColumn<double>("nsPerPixel");
        // A 2 ns kernel among three 100 ns uploads, all in one 3 px bin.
        QTest::newRow("kernel first") << qint64(0) << 1000.0;
        QTest::newRow("kernel in the middle") << qint64(100) << 1000.0;
        QTest::newRow("kernel last") << qint64(300) << 1000.0;
        QTest::newRow("far zoomed out") << qint64(100) << 1e6;
    }
    void minorityKindsKeepTheirMark()
    {
        QFETCH(qint64, kernelStart);
        QFETCH(double, nsPerPixel);
        std::vector<Op> ops;
        std::int64_t t = 0;
        for (int i = 0; i < 3; ++i) {
            if (t == kernelStart) {
                ops.push_back(makeOp(t, t + 2, OpKind::Kernel));
                t += 2;
            }
            ops.push_back(makeOp(t, t + 100, OpKind::Upload));
            t += 100;
        }
        if (t == kernelStart)
            ops.push_back(makeOp(t, t + 2, OpKind::Kernel));
        QCOMPARE(int(ops.size()), 4);
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), nsPerPixel, items);
        QCOMPARE(int(items.size()), 1);
        const auto& item = items.front();
        QCOMPARE(item.kind, OpKind::Upload);
        QVERIFY(item.hasKind(OpKind::Kernel));
        QVERIFY(!item.hasKind(OpKind::Download));
        QCOMPARE(item.firstStartNs[std::size_t(OpKind::Kernel)], kernelStart);
        QCOMPARE(item.firstStartNs[std::size_t(OpKind::Upload)], kernelStart == 0 ? 2 : 0);
    }

    void wideOpBreaksFold()
    {
        std::vector<Op> ops = {makeOp(0, 10), makeOp(10, 20), makeOp(20, 5010, OpKind::Kernel), makeOp(5010, 5020),
                               makeOp(5020, 5030)};
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), 10.0, items);
        QCOMPARE(int(items.size()), 3);
        QCOMPARE(items[0].count, 2u);
        QCOMPARE(items[1].count, 1u);
        QCOMPARE(items[1].firstIndex, std::size_t(2));
        QCOMPARE(items[2].count, 2u);
        QCOMPARE(items[2].firstIndex, std::size_t(3));
    }

    void dominantKindByTime()
    {
        // One long-ish download beats three short uploads in the same bin.
        std::vector<Op> ops = {makeOp(0, 2), makeOp(2, 4), makeOp(4, 6), makeOp(6, 26, OpKind::Download)};
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), 100.0, items);
        QCOMPARE(int(items.size()), 1);
        QCOMPARE(items.front().kind, OpKind::Download);
        QCOMPARE(items.front().count, 4u);
    }

    void millionOps_data()
    {
        QTest::addColumn<int>("pixels");
        QTest::addColumn<qint64>("gapNs");
        QTest::newRow("1000 px, dense") << 1000 << qint64(5);
        QTest::newRow("1000 px, sparse") << 1000 << qint64(200);
        QTest::newRow("3000 px, dense") << 3000 << qint64(5);
    }
    void millionOps()
    {
        QFETCH(int, pixels);
        QFETCH(qint64, gapNs);
        std::vector<Op> ops;
        ops.reserve(1'000'000);
        std::int64_t t = 0;
        for (int i = 0; i < 1'000'000; ++i) {
            const auto kind = static_cast<OpKind>(i % 3);
            const std::int64_t duration = 20 + (std::int64_t(i) * 7919) % 50;
            ops.push_back(makeOp(t, t + duration, kind));
            t += duration + gapNs;
        }
        const double nsPerPixel = static_cast<double>(t) / pixels;
        std::vector<TimelineFolding::Item> items;
        TimelineFolding::fold(ops, 0, ops.size(), nsPerPixel, items);
        QVERIFY2(items.size() <= std::size_t(2 * pixels), qPrintable(QString::number(items.size())));
        QCOMPARE(totalCount(items), std::uint64_t(1'000'000));
        for (std::size_t i = 1; i < items.size(); ++i)
            QVERIFY(items[i - 1].startNs <= items[i].startNs);
    }

    void rangeBoundaries_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<int>("expectedCount");
        QTest::newRow("all") << 0 << 10 << 10;
        QTest::newRow("middle") << 3 << 7 << 4;
        QTest::newRow("empty") << 5 << 5 << 0;
        QTest::newRow("last past end is clamped") << 8 << 50 << 2;
        QTest::newRow("first past last") << 9 << 4 << 0;
    }
    void rangeBoundaries()
    {
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(int, expectedCount);
        std::vector<Op> ops;
        for (int i = 0; i < 10; ++i)
            ops.push_back(makeOp(i * 100, i * 100 + 50));
        std::vector<TimelineFolding::Item> items(3); // reused buffers are cleared
        for (double nsPerPixel : {1.0, 1000.0}) {
            TimelineFolding::fold(ops, std::size_t(first), std::size_t(last), nsPerPixel, items);
            QCOMPARE(totalCount(items), std::uint64_t(expectedCount));
            if (expectedCount > 0) {
                QCOMPARE(items.front().firstIndex, std::size_t(first));
                QCOMPARE(items.front().startNs, ops[std::size_t(first)].startNs);
            }
        }
    }

    void stableUnderPanning()
    {
        // Folding bins are absolute: the blocks an op range makes do not
        // depend on where the visible range starts.
        std::vector<Op> ops;
        for (int i = 0; i < 1000; ++i)
            ops.push_back(makeOp(i * 13, i * 13 + 5, static_cast<OpKind>(i % 2)));
        std::vector<TimelineFolding::Item> whole, part;
        TimelineFolding::fold(ops, 0, ops.size(), 10.0, whole);
        TimelineFolding::fold(ops, whole[5].firstIndex, ops.size(), 10.0, part);
        QVERIFY(part.size() > 10);
        for (std::size_t i = 0; i < 10; ++i) {
            QCOMPARE(part[i].startNs, whole[i + 5].startNs);
            QCOMPARE(part[i].endNs, whole[i + 5].endNs);
            QCOMPARE(part[i].count, whole[i + 5].count);
            QCOMPARE(part[i].kind, whole[i + 5].kind);
        }
    }
};

QTEST_APPLESS_MAIN(TestTimelineFolding)
#include "tst_timeline_folding.moc"
