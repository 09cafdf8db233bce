// The staging threads of the CUDA device: how a copy is cut into parts, that
// every byte arrives, that each part's interval is its own, and that one
// thread copies inline.
#include "device/HostCopyPool.h"

#include <QtTest>

#include <chrono>
#include <numeric>
#include <vector>

using namespace ovs;

namespace {
std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

class TestHostCopyPool : public QObject {
    Q_OBJECT

private slots:
    void partsCoverTheBufferExactly_data()
    {
        QTest::addColumn<qulonglong>("bytes");
        QTest::addColumn<int>("parts");
        QTest::newRow("one part") << 1000ull << 1;
        QTest::newRow("even") << 1'024'000ull << 4;
        QTest::newRow("uneven") << 1'000'003ull << 7;
        QTest::newRow("smaller than a line per part") << 100ull << 4;
        QTest::newRow("empty") << 0ull << 3;
        QTest::newRow("many threads") << (32ull << 20) << 64;
    }
    void partsCoverTheBufferExactly()
    {
        QFETCH(qulonglong, bytes);
        QFETCH(int, parts);
        const auto split = HostCopyPool::split(bytes, parts);
        QCOMPARE(split.size(), std::size_t(parts));
        std::size_t next = 0;
        std::size_t largest = 0;
        std::size_t smallest = bytes;
        for (const auto& part : split) {
            QCOMPARE(part.offset, next); // contiguous, in order, no gap or overlap
            next += part.bytes;
            largest = std::max(largest, part.bytes);
            smallest = std::min(smallest, part.bytes);
        }
        QCOMPARE(next, std::size_t(bytes));
        // Inner boundaries on cache lines, and as even as that allows.
        for (std::size_t i = 1; i < split.size(); ++i)
            if (split[i].offset != 0 && split[i].offset != bytes)
                QCOMPARE(split[i].offset % 64, std::size_t(0));
        QVERIFY(largest - smallest <= 128);
    }

    void copiesEveryByteAndTimesEachPart_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<qulonglong>("bytes");
        QTest::newRow("inline") << 1 << (4ull << 20);
        QTest::newRow("two") << 2 << (4ull << 20);
        QTest::newRow("four, uneven size") << 4 << 4'000'037ull;
        QTest::newRow("seven") << 7 << (8ull << 20);
        QTest::newRow("more threads than lines") << 8 << 200ull;
    }
    void copiesEveryByteAndTimesEachPart()
    {
        QFETCH(int, threads);
        QFETCH(qulonglong, bytes);
        std::vector<unsigned char> src(bytes);
        for (std::size_t i = 0; i < src.size(); ++i)
            src[i] = static_cast<unsigned char>(i * 7 + i / 4096);
        std::vector<unsigned char> dst(bytes, 0);
        HostCopyPool pool;
        const auto before = steadyNs();
        const auto intervals = pool.copy(dst.data(), src.data(), bytes, threads);
        const auto after = steadyNs();
        QVERIFY(dst == src);
        QCOMPARE(intervals.size(), std::size_t(threads));
        for (const auto& interval : intervals) {
            QVERIFY(interval.startNs <= interval.endNs);
            // On the steady clock, inside the call.
            QVERIFY(interval.startNs >= before);
            QVERIFY(interval.endNs <= after);
        }
        // One thread runs on the caller: no worker is started for it.
        QCOMPARE(pool.threadCount(), threads == 1 ? 0 : threads);
    }

    void threadsAreKeptFromCopyToCopy()
    {
        HostCopyPool pool;
        std::vector<char> src(1 << 20, 'x');
        std::vector<char> dst(src.size());
        for (int threads : {4, 2, 4, 3, 1, 4}) {
            std::fill(dst.begin(), dst.end(), '\0');
            QCOMPARE(pool.copy(dst.data(), src.data(), src.size(), threads).size(), std::size_t(threads));
            QVERIFY(dst == src);
            QCOMPARE(pool.threadCount(), 4);
        }
    }

    void badThreadCountsAreRefused()
    {
        HostCopyPool pool;
        char a[8] = {};
        char b[8] = {};
        for (int threads : {0, -2, HostCopyPool::kMaxThreads + 1})
            QVERIFY_THROWS_EXCEPTION(DeviceError, pool.copy(a, b, sizeof a, threads));
        QCOMPARE(pool.threadCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestHostCopyPool)
#include "tst_host_copy_pool.moc"
