#include "trace/CsvExport.h"

#include "TestOps.h"

#include <QtTest>

using namespace ovs;
using ovs::test::makeOp;

namespace {

Trace makeTrace()
{
    Trace trace;
    Run real;
    real.name = "overlapped pinned";
    real.device.name = "NVIDIA H200";
    real.lanes = {{"stream 0", LaneKind::Stream}, {"host", LaneKind::HostThread}};
    real.ops = {
        makeOp(OpKind::Upload, 0, 3, 1'000, 2'000, 2'000, HostMemoryKind::Pinned),
        makeOp(OpKind::Download, 0, 3, 2'000, 4'000, 3'000, HostMemoryKind::Pinned, 2'500, 3'500),
        makeOp(OpKind::Sync, 1, -1, 4'000, 4'000, 0, HostMemoryKind::None),
    };

    Run simulated;
    simulated.name = "say \"hi\", twice";
    simulated.device.name = "Sim, H200";
    simulated.device.simulated = true;
    simulated.lanes = {{"host\nthread", LaneKind::HostThread}};
    simulated.ops = {makeOp(OpKind::StageIn, 0, 0, 0, 3, 10, HostMemoryKind::Pageable)};

    trace.runs = {real, simulated};
    return trace;
}

// RFC 4180 records, so a quoted line break does not end a row.
QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row << field;
            field.clear();
        } else if (c == '\n') {
            row << field;
            field.clear();
            rows << row;
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

} // namespace

class TestCsvExport : public QObject {
    Q_OBJECT

private slots:
    void header();
    void oneRowPerOp();
    void rowValues_data();
    void rowValues();
    void quotesFieldsThatNeedIt();
    void emptyTraceIsHeaderOnly();
    void exportWritesFile();
};

void TestCsvExport::header()
{
    const QString text = QString::fromStdString(traceToCsv(makeTrace()));
    QCOMPARE(text.section('\n', 0, 0),
             QStringLiteral("run,run_name,device,simulated,lane,lane_kind,kind,chunk,start_ns,end_ns,duration_ns,bytes,"
                            "memory,gbps,exec_start_ns,exec_end_ns"));
}

void TestCsvExport::oneRowPerOp()
{
    const auto rows = parseCsv(QString::fromStdString(traceToCsv(makeTrace())));
    QCOMPARE(rows.size(), 1 + 3 + 1);
    for (const auto& row : rows)
        QCOMPARE(row.size(), 16);
    QVERIFY(traceToCsv(makeTrace()).ends_with('\n'));
}

void TestCsvExport::rowValues_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QStringList>("fields");
    QTest::newRow("upload without exec")
        << 1
        << QStringList{"0",    "overlapped pinned", "NVIDIA H200", "false", "stream 0", "stream", "upload", "3",
                       "1000", "2000",              "1000",        "2000",  "pinned",   "2.000",  "",       ""};
    // GB/s from the engine's 1000 ns, not the stream's 2000 ns.
    QTest::newRow("download with exec")
        << 2
        << QStringList{"0",    "overlapped pinned", "NVIDIA H200", "false", "stream 0", "stream", "download", "3",
                       "2000", "4000",              "2000",        "3000",  "pinned",   "3.000",  "2500",     "3500"};
    QTest::newRow("sync moves nothing")
        << 3
        << QStringList{"0",    "overlapped pinned", "NVIDIA H200", "false", "host", "host", "sync", "-1",
                       "4000", "4000",              "0",           "0",     "none", "",     "",     ""};
    QTest::newRow("simulated run")
        << 4
        << QStringList{"1", "say \"hi\", twice", "Sim, H200 [simulated]", "true", "host\nthread", "host", "stage_in",
                       "0", "0",                 "3",                     "3",    "10",           "pageable", "3.333",
                       "",  ""};
}

void TestCsvExport::rowValues()
{
    QFETCH(int, row);
    QFETCH(QStringList, fields);
    const auto rows = parseCsv(QString::fromStdString(traceToCsv(makeTrace())));
    QVERIFY(row < rows.size());
    QCOMPARE(rows[row], fields);
}

void TestCsvExport::quotesFieldsThatNeedIt()
{
    const std::string text = traceToCsv(makeTrace());
    QVERIFY(text.find(",\"say \"\"hi\"\", twice\",\"Sim, H200 [simulated]\",true,\"host\nthread\",host,") !=
            std::string::npos);
    // Plain fields stay unquoted.
    QVERIFY(text.find("\n0,overlapped pinned,NVIDIA H200,false,stream 0,stream,upload,3,") != std::string::npos);
}

void TestCsvExport::emptyTraceIsHeaderOnly()
{
    const auto rows = parseCsv(QString::fromStdString(traceToCsv(Trace{})));
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].size(), 16);
}

void TestCsvExport::exportWritesFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("ops.csv").toStdString();
    std::string error;
    QVERIFY2(exportCsv(makeTrace(), path, &error), error.c_str());
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toStdString(), traceToCsv(makeTrace()));
    QVERIFY(!exportCsv(makeTrace(), dir.filePath("missing/ops.csv").toStdString(), &error));
    QVERIFY2(QString::fromStdString(error).contains("No such file or directory"), error.c_str());
}

QTEST_APPLESS_MAIN(TestCsvExport)
#include "tst_csv_export.moc"
