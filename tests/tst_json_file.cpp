// Streaming JSON to files: JsonWriter's drain and writeJsonFile, which the
// native save and the Chrome export use.
#include "formats/ChromeTraceExport.h"
#include "io/JsonFile.h"
#include "formats/TraceJson.h"

#include "TestOps.h"

#include <QtTest>

using namespace ovs;
using ovs::test::makeOp;

namespace {

// Enough ops that the text passes the drain size several times.
Trace largeTrace()
{
    Trace trace;
    Run run;
    run.name = "large";
    run.lanes = {{"stream 0", LaneKind::Stream}};
    for (int i = 0; i < 60'000; ++i)
        run.ops.push_back(makeOp(OpKind::Upload, 0, i, i * 10, i * 10 + 5, 1 << 20, HostMemoryKind::Pinned));
    trace.runs = {run};
    return trace;
}

void writeValues(JsonWriter& w)
{
    w.beginArray();
    for (int i = 0; i < 200'000; ++i) {
        w.beginObject();
        w.member("i", i);
        w.member("text", "some text to make it longer");
        w.endObject();
    }
    w.endArray();
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestJsonFile : public QObject {
    Q_OBJECT

private slots:
    void drainGivesTheSameTextInPieces()
    {
        std::string whole;
        JsonWriter plain(whole);
        writeValues(plain);

        std::string buffer;
        std::string joined;
        std::size_t pieces = 0;
        std::size_t largest = 0;
        JsonWriter streamed(buffer, [&](std::string_view piece) {
            joined.append(piece);
            ++pieces;
            largest = std::max(largest, piece.size());
        });
        writeValues(streamed);
        streamed.flush();
        QVERIFY(buffer.empty());
        QCOMPARE(joined, whole);
        QVERIFY(pieces > 2);
        QVERIFY(largest < 2 * 1024 * 1024); // the buffer never holds much more than its drain size
    }

    void filesMatchTheirStrings_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("native") << "native";
        QTest::newRow("chrome") << "chrome";
    }

    void filesMatchTheirStrings()
    {
        QFETCH(QString, format);
        const Trace trace = largeTrace();
        QTemporaryDir dir;
        const QString path = dir.filePath("trace.json");
        std::string error;
        const bool native = format == "native";
        const bool ok = native ? saveTrace(trace, path.toStdString(), &error)
                               : exportChromeTrace(trace, path.toStdString(), &error);
        QVERIFY2(ok, error.c_str());
        const std::string expected = native ? traceToJson(trace) : traceToChromeJson(trace);
        QVERIFY(expected.size() > 2 * 1024 * 1024);
        QCOMPARE(readAll(path).toStdString(), expected);
    }

    void failureSaysWhyAndKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("old.json");
        QFile old(path);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
        old.close();
        QVERIFY(old.setPermissions(QFileDevice::ReadOwner));
        std::string error;
        QVERIFY(!writeJsonFile(path.toStdString(), writeValues, &error));
        QVERIFY2(error.find("read-only") != std::string::npos, error.c_str());
        QCOMPARE(readAll(path), QByteArray("old"));
        QVERIFY(!writeJsonFile(dir.filePath("missing/x.json").toStdString(), writeValues, &error));
        QVERIFY2(error.find("no such directory") != std::string::npos, error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestJsonFile)
#include "tst_json_file.moc"
