// Trace files are read and written off the GUI thread: load() and save()
// return at once, results and the loader's own messages come back as signals.
#include "../TestTimeouts.h"
#include "UiTestSupport.h"
#include "workers/TraceLoader.h"

#include "devicefactory/DeviceFactory.h"
#include "pipeline/PipelineRunner.h"
#include "record/TraceCollector.h"
#include "formats/TraceJson.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace ovs;
using namespace ovs::ui;

namespace {

const int kTimeoutMs = ovsTestTimeoutMs(30'000);

// A real recording: every strategy on the simulated H200.
Trace recordedTrace()
{
    auto device = createDevice("sim:h200");
    TraceCollector collector;
    collector.trace().tool = "tst_trace_loader";
    CancelFlag cancel;
    for (const auto& info : pipelineKinds()) {
        PipelineConfig config;
        config.kind = info.kind;
        config.chunks = 4;
        config.chunkBytes = 1 << 20;
        runPipeline(*device, config, collector, cancel);
    }
    return collector.trace();
}

} // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_good;
    QByteArray m_goodText;
    Trace m_trace;

    QString writeFile(const QString& name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_trace = recordedTrace();
        QCOMPARE(m_trace.runs.size(), pipelineKinds().size());
        m_good = m_dir.filePath("good.json");
        std::string error;
        QVERIFY2(saveTrace(m_trace, m_good.toStdString(), &error), error.c_str());
        QFile file(m_good);
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_goodText = file.readAll();
    }

    void loadsAGoodTraceInTheBackground()
    {
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(m_good);
        // Nothing happens inside the call: the result comes as an event.
        QVERIFY(loader.isBusy());
        QCOMPARE(loaded.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!loader.isBusy());
        QCOMPARE(loaded.at(0).at(0).toString(), m_good);
        const auto trace = loaded.at(0).at(1).value<std::shared_ptr<Trace>>();
        QVERIFY(trace);
        QCOMPARE(trace->runs.size(), m_trace.runs.size());
        for (std::size_t i = 0; i < trace->runs.size(); ++i) {
            QCOMPARE(trace->runs[i].name, m_trace.runs[i].name);
            QCOMPARE(trace->runs[i].ops.size(), m_trace.runs[i].ops.size());
            QCOMPARE(trace->runs[i].wallNs(), m_trace.runs[i].wallNs());
            QVERIFY(trace->runs[i].device.simulated);
        }
    }

    // File > Open and drag and drop go through this loader: an Nsight
    // Systems report (SQLite) opens as a trace, whatever its name.
    void loadsAnNsightReport()
    {
        const QString report = m_dir.filePath("saxpy.nsight");
        QVERIFY(QFile::copy(OVERLAPSCOPE_SOURCE_DIR "/tests/data/nsight/saxpy-mpi-cuda_nsys_perlmutter0.sqlite", report));
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(report);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QCOMPARE(failed.count(), 0);
        const auto trace = loaded.at(0).at(1).value<std::shared_ptr<Trace>>();
        QVERIFY(trace);
        QCOMPARE(trace->runs.size(), std::size_t(1));
        QCOMPARE(trace->runs[0].name, std::string("saxpy-mpi-cuda (pid 1230493)"));
        QCOMPARE(trace->runs[0].regions.size(), std::size_t(22));
    }

    void badFilesFailWithTheLoadersMessage_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("malformed") << QByteArray("{\"format\": \"overlapscope-trace\", \"version\": 1,,}")
                                   << "not valid JSON";
        QTest::newRow("truncated") << m_goodText.left(m_goodText.size() / 2) << "not valid JSON";
        QTest::newRow("empty") << QByteArray() << "empty";
        QTest::newRow("not a trace") << QByteArray("{\"hello\": [1, 2, 3]}") << "format";
        QTest::newRow("an array") << QByteArray("[1, 2, 3]") << "object";
        QFile report(OVERLAPSCOPE_SOURCE_DIR "/tests/data/nsight/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
        QVERIFY(report.open(QIODevice::ReadOnly));
        QTest::newRow("an Nsight report cut short") << report.read(8192)
                                                    << "Nsight Systems report: the SQLite database cannot be read";
        QByteArray newer = m_goodText;
        // One past what this build reads, whatever that is.
        const int next = Trace::kFormatVersion + 1;
        newer.replace(QByteArray("\"version\":") + QByteArray::number(m_trace.formatVersion()),
                      QByteArray("\"version\":") + QByteArray::number(next));
        QTest::newRow("newer version") << newer
                                       << QString("this trace is format version %1; this build reads up to %2")
                                              .arg(next)
                                              .arg(Trace::kFormatVersion);
    }

    void badFilesFailWithTheLoadersMessage()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const QString path = writeFile(QString("bad-%1.json").arg(QTest::currentDataTag()).replace(' ', '-'), content);
        const QString loadersMessage = QString::fromStdString(loadTrace(path.toStdString()).error);
        QVERIFY(!loadersMessage.isEmpty());

        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(path);
        QCOMPARE(failed.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(failed.at(0).at(0).toString(), path);
        const QString message = failed.at(0).at(1).toString();
        QCOMPARE(message, loadersMessage);
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void missingFileFails()
    {
        TraceLoader loader;
        QSignalSpy failed(&loader, &TraceLoader::failed);
        loader.load(m_dir.filePath("no-such-file.json"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
        QVERIFY(!failed.at(0).at(1).toString().isEmpty());
    }

    void savesAndLoadsInTheOrderAsked()
    {
        TraceLoader loader;
        QSignalSpy saved(&loader, &TraceLoader::saved);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        const QString path = m_dir.filePath("saved.json");
        Trace one = m_trace;
        one.runs.resize(1);
        loader.save(path, one);
        loader.load(path);
        QCOMPARE(saved.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.at(0).at(0).toString(), path);
        QCOMPARE(loaded.at(0).at(1).value<std::shared_ptr<Trace>>()->runs.size(), std::size_t(1));
    }

    void failedSaveSaysWhyAndKeepsTheOldFile()
    {
        TraceLoader loader;
        QSignalSpy saved(&loader, &TraceLoader::saved);
        QSignalSpy saveFailed(&loader, &TraceLoader::saveFailed);
        const QString path = m_dir.filePath("no-such-folder/trace.json");
        loader.save(path, m_trace);
        QTRY_COMPARE_WITH_TIMEOUT(saveFailed.count(), 1, kTimeoutMs);
        QCOMPARE(saved.count(), 0);
        QCOMPARE(saveFailed.at(0).at(0).toString(), path);
        QVERIFY(!saveFailed.at(0).at(1).toString().isEmpty());
        QVERIFY(!QFile::exists(path));
    }

    // A cancel stops the loads asked for before it, never a later one; a
    // load it stopped ends in cancelled(), with no trace and no error.
    void aCancelStopsOnlyTheLoadsBeforeIt()
    {
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy failed(&loader, &TraceLoader::failed);
        QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
        loader.load(m_good);
        loader.cancelLoads();
        loader.load(m_good);
        // Both end, in order; the first either read before the cancel
        // reached it or cancelled, the second read whole.
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count() + cancelled.count(), 2, kTimeoutMs);
        QCOMPARE(failed.count(), 0);
        QVERIFY(loaded.count() >= 1);
        QCOMPARE(loaded.last().at(0).toString(), m_good);
    }

    void destroyingWhileBusyDropsTheResult()
    {
        auto loader = std::make_unique<TraceLoader>();
        int results = 0;
        connect(loader.get(), &TraceLoader::loaded, this, [&] { ++results; });
        loader->load(m_good);
        loader.reset(); // waits for the parse, delivers nothing
        // The parse has ended, so its result is posted already if it ever will be.
        QVERIFY(ovs::test::deliverPostedEvents(kTimeoutMs));
        QCOMPARE(results, 0);
    }
};

QTEST_MAIN(TestTraceLoader)
#include "tst_trace_loader.moc"
