#include "formats/CsvExport.h"

#include "TestOps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>

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

// The table part: rows after the header, comment lines skipped.
QList<QStringList> tableRows(const std::string& csv)
{
    QStringList lines = QString::fromStdString(csv).split('\n');
    lines.removeIf([](const QString& line) { return line.startsWith('#'); });
    return parseCsv(lines.join('\n'));
}

// The "# run N: {json}" lines, parsed.
QList<QJsonObject> runLines(const std::string& csv)
{
    QList<QJsonObject> runs;
    for (const QString& line : QString::fromStdString(csv).split('\n')) {
        static const QRegularExpression pattern("^# run (\\d+): (.*)$");
        const auto match = pattern.match(line);
        if (!match.hasMatch())
            continue;
        if (match.captured(1).toInt() != runs.size())
            return {}; // numbered from 0, in order
        runs << QJsonDocument::fromJson(match.captured(2).toUtf8()).object();
    }
    return runs;
}

} // namespace

class TestCsvExport : public QObject {
    Q_OBJECT

private slots:
    void layout();
    void oneRowPerOp();
    void rowValues_data();
    void rowValues();
    void runLines();
    void namesNeverInRows();
    void emptyTraceIsHeaderOnly();
    void streamsInPieces();
    void streamsAHugeNameInPieces();
    void exportWritesFile();
};

void TestCsvExport::layout()
{
    const QStringList lines = QString::fromStdString(traceToCsv(makeTrace())).split('\n');
    QVERIFY(lines.size() > 4);
    QVERIFY(lines[0].startsWith("# OverlapScope ops"));
    QVERIFY(lines[1].startsWith("# run 0: {"));
    // The second run's lane name holds a line break, escaped on its line.
    QVERIFY(lines[2].startsWith("# run 1: {"));
    QCOMPARE(lines[3], QStringLiteral("run,lane,lane_kind,kind,chunk,start_ns,end_ns,duration_ns,bytes,memory,gbps,"
                                      "exec_start_ns,exec_end_ns,device"));
}

void TestCsvExport::oneRowPerOp()
{
    const std::string csv = traceToCsv(makeTrace());
    const auto rows = tableRows(csv);
    QCOMPARE(rows.size(), 1 + 3 + 1);
    for (const auto& row : rows)
        QCOMPARE(row.size(), 14);
    QVERIFY(csv.ends_with('\n'));
}

void TestCsvExport::rowValues_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QStringList>("fields");
    QTest::newRow("upload without exec")
        << 1
        << QStringList{"0", "0", "stream", "upload", "3", "1000", "2000", "1000", "2000", "pinned", "2.000", "", "", "0"};
    // GB/s from the engine's 1000 ns, not the stream's 2000 ns.
    QTest::newRow("download with exec")
        << 2
        << QStringList{"0",    "0",    "stream", "download", "3",    "2000", "4000",
                       "2000", "3000", "pinned", "3.000",    "2500", "3500", "0"};
    QTest::newRow("sync moves nothing")
        << 3 << QStringList{"0", "1", "host", "sync", "-1", "4000", "4000", "0", "0", "none", "", "", "", ""};
    QTest::newRow("simulated run")
        << 4 << QStringList{"1", "0", "host", "stage_in", "0", "0", "3", "3", "10", "pageable", "3.333", "", "", ""};
}

void TestCsvExport::rowValues()
{
    QFETCH(int, row);
    QFETCH(QStringList, fields);
    const auto rows = tableRows(traceToCsv(makeTrace()));
    QVERIFY(row < rows.size());
    QCOMPARE(rows[row], fields);
}

void TestCsvExport::runLines()
{
    const auto runs = ::runLines(traceToCsv(makeTrace()));
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0]["name"].toString(), QStringLiteral("overlapped pinned"));
    QCOMPARE(runs[0]["device"].toString(), QStringLiteral("NVIDIA H200"));
    QCOMPARE(runs[0]["simulated"].toBool(), false);
    QCOMPARE(runs[0]["lanes"].toArray().size(), 2);
    QCOMPARE(runs[0]["lanes"][1]["name"].toString(), QStringLiteral("host"));
    QCOMPARE(runs[0]["lanes"][1]["kind"].toString(), QStringLiteral("host"));
    QCOMPARE(runs[1]["name"].toString(), QStringLiteral("say \"hi\", twice"));
    QCOMPARE(runs[1]["device"].toString(), QStringLiteral("Sim, H200 [simulated]"));
    QCOMPARE(runs[1]["simulated"].toBool(), true);
    QCOMPARE(runs[1]["lanes"][0]["name"].toString(), QStringLiteral("host\nthread"));
}

void TestCsvExport::namesNeverInRows()
{
    // A long name is written once, however many ops the run has.
    Trace trace = makeTrace();
    const std::string longName(100'000, 'Q');
    trace.runs[0].name = longName;
    for (int i = 0; i < 200; ++i)
        trace.runs[0].ops.push_back(trace.runs[0].ops.front());
    const std::string csv = traceToCsv(trace);
    QCOMPARE(std::count(csv.begin(), csv.end(), 'Q'), std::ptrdiff_t(longName.size()));
    QVERIFY(csv.size() < longName.size() + 64 * 1024);
}

void TestCsvExport::emptyTraceIsHeaderOnly()
{
    const auto rows = tableRows(traceToCsv(Trace{}));
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].size(), 14);
    QVERIFY(::runLines(traceToCsv(Trace{})).isEmpty());
}

void TestCsvExport::streamsInPieces()
{
    Trace trace = makeTrace();
    for (int i = 0; i < 20'000; ++i)
        trace.runs[0].ops.push_back(trace.runs[0].ops[i % 3]);
    std::string joined;
    std::size_t pieces = 0;
    std::size_t largest = 0;
    writeCsv(trace, [&](std::string_view piece) {
        joined.append(piece);
        ++pieces;
        largest = std::max(largest, piece.size());
    });
    QCOMPARE(joined, traceToCsv(trace));
    QVERIFY(pieces > 1);
    QVERIFY(largest < 128 * 1024);
}

void TestCsvExport::streamsAHugeNameInPieces()
{
    // A 16 MiB run name (the hostile-input table has 200 MiB) reaches the
    // sink in pieces of about a MiB, never as one escaped copy of the whole
    // name, and the pieces add up to the same file.
    Trace trace = makeTrace();
    trace.runs[0].name = std::string(16u << 20, 'n');
    trace.runs[0].name[12345] = '"'; // escaped, so the line is longer than the name
    std::string joined;
    std::size_t largest = 0;
    writeCsv(trace, [&](std::string_view piece) {
        joined.append(piece);
        largest = std::max(largest, piece.size());
    });
    QCOMPARE(joined, traceToCsv(trace));
    QVERIFY2(largest <= (3u << 20), qPrintable(QString::number(largest)));
    QCOMPARE(::runLines(joined).size(), 2);
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
    QVERIFY2(QString::fromStdString(error).contains("no such directory"), error.c_str());
}

QTEST_APPLESS_MAIN(TestCsvExport)
#include "tst_csv_export.moc"
