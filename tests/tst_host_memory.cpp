// The memory check counts what is available now (MemAvailable), not what
// the machine has.
#include "base/HostMemory.h"
#include "pipeline/PipelineConfig.h"

#include <QtTest>

using namespace ovs;

class TestHostMemory : public QObject {
    Q_OBJECT

private slots:
    void readsMemAvailable_data()
    {
        QTest::addColumn<QString>("meminfo");
        QTest::addColumn<qlonglong>("bytes"); // -1: none
        QTest::newRow("linux") << "MemTotal:       16310412 kB\nMemFree:          512000 kB\nMemAvailable:    8000000 kB\n"
                               << qlonglong(8000000) * 1024;
        QTest::newRow("first line") << "MemAvailable: 1 kB\n" << qlonglong(1024);
        QTest::newRow("absent (old kernel)") << "MemTotal: 100 kB\nMemFree: 50 kB\n" << qlonglong(-1);
        QTest::newRow("only a lookalike") << "XMemAvailable: 100 kB\n" << qlonglong(-1);
        QTest::newRow("no number") << "MemAvailable: kB\n" << qlonglong(-1);
        QTest::newRow("other unit") << "MemAvailable: 100 MB\n" << qlonglong(-1);
        QTest::newRow("overflows") << "MemAvailable: 99999999999999999999 kB\n" << qlonglong(-1);
        QTest::newRow("empty") << "" << qlonglong(-1);
    }
    void readsMemAvailable()
    {
        QFETCH(QString, meminfo);
        QFETCH(qlonglong, bytes);
        const auto parsed = memAvailableBytes(meminfo.toStdString());
        if (bytes < 0)
            QVERIFY(!parsed);
        else
            QCOMPARE(qlonglong(parsed.value_or(0)), bytes);
    }

    void aRunLargerThanWhatIsAvailableIsRefused()
    {
        const std::uint64_t available = availableHostMemoryBytes();
        if (available == 0)
            QSKIP("this machine does not say how much memory is available");
        PipelineConfig config;
        config.kind = PipelineKind::Serialized; // input and output: 2 x the data
        config.chunkBytes = kMaxChunkBytes;
        // Just over the usable share of what is available now.
        config.chunks = static_cast<int>(available / 100 * kHostMemoryUsablePercent / (2 * config.chunkBytes) + 1);
        const QString problem = QString::fromStdString(validate(config));
        QVERIFY2(problem.contains("available now"), qPrintable(problem));
        // Well within it, nothing is said.
        config.chunkBytes = 1 << 20;
        config.chunks = 1;
        QCOMPARE(validate(config), std::string());
    }
};

QTEST_GUILESS_MAIN(TestHostMemory)
#include "tst_host_memory.moc"
