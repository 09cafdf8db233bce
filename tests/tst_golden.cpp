// What OverlapScope says about every stored trace, pinned: the `analyze`
// text and `analyze --json` of each trace under tests/data and docs/traces
// (native, Chrome/Kineto, Nsight SQLite, folders of ranks), `diff` and
// `diff --json` of each stored before/after pair (X.json beside X-fix.json),
// and the analysis of simulated recordings made here (cases.txt), each
// compared byte for byte with its expected file in tests/data/golden/.
//
// A change to any number, verdict or word fails here, naming the case and
// the field (JSON) or the line (text). A deliberate change is one command,
// scripts/regenerate-golden.sh, and a reviewed diff of the expected files
// (docs/testing.md). Nothing is masked: the outputs of a stored trace do not
// depend on the machine or the clock, and the simulator is deterministic.
#include "TestTimeouts.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// The repository's root: outputs name traces by their path from there.
QString sourceRoot()
{
    return QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA) + "/../..");
}

QString goldenDir()
{
    return QStringLiteral(OVERLAPSCOPE_TEST_DATA) + "/golden";
}

bool updating()
{
    return qEnvironmentVariableIsSet("OVERLAPSCOPE_GOLDEN_UPDATE");
}

// One output: how to make it, and where its expected text is.
struct Case {
    QString name;     // the expected file's name without extension
    QStringList args; // the CLI's arguments (paths from the root)
    QStringList recordArgs; // when set: first `record` these into a trace, which args name as TRACE
};

// Up to `limit` places where two JSON values differ, as "path: expected X,
// got Y"; the path is as a reader finds it (runs[0].findings[1].costMs).
void jsonDifferences(const QJsonValue& expected, const QJsonValue& actual, const QString& path, QStringList& out,
                     int limit)
{
    if (out.size() >= limit)
        return;
    const auto text = [](const QJsonValue& v) {
        if (v.isObject())
            return QStringLiteral("{...}");
        if (v.isArray())
            return QStringLiteral("[%1 items]").arg(v.toArray().size());
        if (v.isUndefined())
            return QStringLiteral("(absent)");
        return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
    };
    if (expected.type() != actual.type()) {
        out << QStringLiteral("%1: expected %2, got %3").arg(path, text(expected), text(actual));
        return;
    }
    if (expected.isObject()) {
        const QJsonObject e = expected.toObject();
        const QJsonObject a = actual.toObject();
        QStringList keys = e.keys();
        for (const QString& k : a.keys())
            if (!e.contains(k))
                keys << k;
        for (const QString& k : keys)
            jsonDifferences(e.value(k), a.value(k), path.isEmpty() ? k : path + "." + k, out, limit);
    } else if (expected.isArray()) {
        const QJsonArray e = expected.toArray();
        const QJsonArray a = actual.toArray();
        if (e.size() != a.size())
            out << QStringLiteral("%1: expected %2 items, got %3").arg(path).arg(e.size()).arg(a.size());
        for (qsizetype i = 0; i < std::min(e.size(), a.size()); ++i)
            jsonDifferences(e.at(i), a.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), out, limit);
    } else if (expected != actual) {
        out << QStringLiteral("%1: expected %2, got %3").arg(path, text(expected), text(actual));
    }
}

// JSON laid out a member per line, so that a reviewed diff of an expected
// file shows the field that changed. Only whitespace outside strings is
// added: every token, numbers' digits included, stays as the CLI wrote it.
// An array of plain values stays on one line.
QByteArray indentedJson(const QByteArray& json)
{
    QByteArray out;
    int depth = 0;
    int inlineArrays = 0; // open arrays being written on one line
    bool inString = false;
    const auto newline = [&] { out += '\n' + QByteArray(2 * depth, ' '); };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < json.size())
                out += json[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
        } else if (inlineArrays > 0) {
            out += c;
            inlineArrays += c == '[' ? 1 : c == ']' ? -1 : 0;
        } else if (c == '[' || c == '{') {
            // An array holding no object or array is written as it is.
            qsizetype j = i + 1;
            bool quoted = false;
            while (c == '[' && j < json.size() && (quoted || (json[j] != ']' && json[j] != '{' && json[j] != '['))) {
                if (json[j] == '\\')
                    ++j;
                else if (json[j] == '"')
                    quoted = !quoted;
                ++j;
            }
            out += c;
            if (c == '[' && j < json.size() && json[j] == ']') {
                inlineArrays = 1;
            } else {
                ++depth;
                newline();
            }
        } else if (c == ']' || c == '}') {
            --depth;
            newline();
            out += c;
        } else if (c == ',') {
            out += c;
            newline();
        } else if (c == ':') {
            out += ": ";
        } else if (c != '\n') {
            out += c;
        }
    }
    return out + '\n';
}

// The first lines that differ, numbered as in the expected file (its first
// line is the exit status), for a reader of the CI log.
QStringList lineDifferences(const QString& expected, const QString& actual, int limit)
{
    const QStringList e = expected.split('\n');
    const QStringList a = actual.split('\n');
    QStringList out;
    for (qsizetype i = 0; i < std::max(e.size(), a.size()) && out.size() < limit; ++i) {
        const QString ei = i < e.size() ? e[i] : QStringLiteral("(no line)");
        const QString ai = i < a.size() ? a[i] : QStringLiteral("(no line)");
        if (ei != ai)
            out << QStringLiteral("line %1:\n  expected: %2\n  got:      %3").arg(i + 2).arg(ei, ai);
    }
    if (e.size() != a.size())
        out << QStringLiteral("expected %1 lines, got %2").arg(e.size()).arg(a.size());
    return out;
}

} // namespace

class TestGolden : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Output {
        bool finished = false;
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    static Output cli(const QStringList& args)
    {
        QProcess process;
        process.setWorkingDirectory(sourceRoot());
        process.start(OVERLAPSCOPE_CLI_PATH, args);
        Output o;
        o.finished = process.waitForFinished(ovsTestTimeoutMs(120000));
        if (!o.finished)
            process.kill();
        o.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        o.out = process.readAllStandardOutput();
        o.err = process.readAllStandardError();
        return o;
    }

    // Every trace under tests/data and docs/traces, and every folder of
    // ranks (a folder of tests/data/ranks), by its path from the root.
    static QStringList storedTraces()
    {
        QStringList traces;
        for (const QString& top : {QStringLiteral("tests/data"), QStringLiteral("docs/traces")}) {
            QDirIterator it(sourceRoot() + "/" + top, {"*.json", "*.sqlite"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = QDir(sourceRoot()).relativeFilePath(it.next());
                if (!path.startsWith("tests/data/golden/") && !path.startsWith("tests/data/ranks/"))
                    traces << path;
            }
        }
        for (const QString& folder : QDir(sourceRoot() + "/tests/data/ranks").entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            traces << "tests/data/ranks/" + folder;
        traces.sort();
        return traces;
    }

    static QString caseName(QString path)
    {
        for (const QString& prefix : {QStringLiteral("tests/data/"), QStringLiteral("docs/")})
            if (path.startsWith(prefix))
                path = (prefix == "docs/" ? "docs-" : "") + path.mid(prefix.size());
        path.replace('/', "__");
        for (const QString& ext : {QStringLiteral(".json"), QStringLiteral(".sqlite")})
            if (path.endsWith(ext))
                path.chop(ext.size());
        return path;
    }

    // cases.txt: a simulated recording per line, "NAME: record's arguments".
    static QList<Case> simulatedCases()
    {
        QList<Case> cases;
        QFile file(goldenDir() + "/cases.txt");
        if (!file.open(QIODevice::ReadOnly))
            return cases;
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
        for (const QString& raw : lines) {
            const QString line = raw.trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const qsizetype colon = line.indexOf(':');
            Case c;
            c.name = "sim__" + line.left(colon).trimmed();
            c.recordArgs = line.mid(colon + 1).split(' ', Qt::SkipEmptyParts);
            cases << c;
        }
        return cases;
    }

    static QList<Case> allCases()
    {
        QList<Case> cases;
        const QStringList traces = storedTraces();
        for (const QString& trace : traces) {
            const QString name = caseName(trace);
            cases << Case{name + ".analyze", {"analyze", "--quiet", trace}, {}};
            cases << Case{name + ".analyze-json", {"analyze", "--quiet", "--json", trace}, {}};
            QString fixed = trace;
            if (fixed.endsWith(".json") && !fixed.endsWith("-fix.json")) {
                fixed.insert(fixed.size() - 5, "-fix");
                if (traces.contains(fixed)) {
                    cases << Case{name + ".diff", {"diff", "--quiet", trace, fixed}, {}};
                    cases << Case{name + ".diff-json", {"diff", "--quiet", "--json", trace, fixed}, {}};
                }
            }
        }
        for (const Case& sim : simulatedCases()) {
            cases << Case{sim.name + ".analyze", {"analyze", "--quiet", "TRACE"}, sim.recordArgs};
            cases << Case{sim.name + ".analyze-json", {"analyze", "--quiet", "--json", "TRACE"}, sim.recordArgs};
        }
        return cases;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(goldenDir() + "/cases.txt"), "tests/data/golden/cases.txt is missing");
    }

    void outputsAreTheExpectedOnes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("recordArgs");
        QTest::addColumn<QString>("expectedFile");
        for (const Case& c : allCases()) {
            const QString ext = c.name.endsWith("-json") ? ".json" : ".txt";
            QTest::newRow(qPrintable(c.name)) << c.args << c.recordArgs << goldenDir() + "/expected/" + c.name + ext;
        }
    }

    void outputsAreTheExpectedOnes()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, recordArgs);
        QFETCH(QString, expectedFile);
        if (!recordArgs.isEmpty()) {
            // One recording per simulated case, shared by its text and JSON.
            const QString trace = m_dir.filePath(QFileInfo(expectedFile).completeBaseName().section('.', 0, 0) + ".json");
            if (!QFile::exists(trace)) {
                const Output recorded = cli(QStringList{"record", "--quiet", "--no-bench", "-o", trace} + recordArgs);
                QVERIFY2(recorded.finished && recorded.exitCode == 0,
                         qPrintable("record " + recordArgs.join(' ') + " failed: " + QString::fromUtf8(recorded.err)));
            }
            args.replaceInStrings(QRegularExpression("^TRACE$"), trace);
        }
        const Output o = cli(args);
        QVERIFY2(o.finished, qPrintable("overlapscope-cli " + args.join(' ') + " did not finish"));
        // The exit status is part of what a CI job reads: it goes first.
        const bool json = expectedFile.endsWith(".json");
        const QByteArray body = json ? indentedJson(o.out) : o.out;
        if (json) {
            // --json is JSON, and the layout above changed none of it.
            QJsonParseError error;
            const QJsonDocument raw = QJsonDocument::fromJson(o.out, &error);
            QVERIFY2(error.error == QJsonParseError::NoError,
                     qPrintable("not JSON: " + error.errorString() + " at " + QString::number(error.offset)));
            QCOMPARE(QJsonDocument::fromJson(body), raw);
        }
        const QByteArray actual = "exit " + QByteArray::number(o.exitCode) + "\n" + body;
        if (updating()) {
            QDir().mkpath(QFileInfo(expectedFile).path());
            QFile file(expectedFile);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(actual);
            return;
        }
        QFile file(expectedFile);
        QVERIFY2(file.open(QIODevice::ReadOnly),
                 qPrintable("no expected output " + QDir(sourceRoot()).relativeFilePath(expectedFile)
                            + ": a new trace or case? run scripts/regenerate-golden.sh and review the new file"));
        const QByteArray expected = file.readAll();
        if (actual == expected)
            return;
        QStringList differences;
        const QByteArray expectedBody = expected.mid(expected.indexOf('\n') + 1);
        const QByteArray expectedStatus = expected.left(expected.indexOf('\n'));
        if (expectedStatus != actual.left(actual.indexOf('\n')))
            differences << QStringLiteral("exit status: expected '%1', got 'exit %2'")
                               .arg(QString::fromUtf8(expectedStatus))
                               .arg(o.exitCode);
        if (json) {
            QJsonParseError expectedError, actualError;
            const QJsonDocument e = QJsonDocument::fromJson(expectedBody, &expectedError);
            const QJsonDocument a = QJsonDocument::fromJson(o.out, &actualError);
            if (expectedError.error == QJsonParseError::NoError && actualError.error == QJsonParseError::NoError)
                jsonDifferences(e.isObject() ? QJsonValue(e.object()) : QJsonValue(e.array()),
                                a.isObject() ? QJsonValue(a.object()) : QJsonValue(a.array()), QString(), differences, 12);
        }
        if (differences.isEmpty() || (differences.size() == 1 && differences[0].startsWith("exit status")))
            differences << lineDifferences(QString::fromUtf8(expectedBody), QString::fromUtf8(body), 12);
        QFAIL(qPrintable("overlapscope-cli " + args.join(' ') + "\nsays something else than "
                         + QDir(sourceRoot()).relativeFilePath(expectedFile) + ":\n" + differences.join('\n')
                         + "\n(a deliberate change: scripts/regenerate-golden.sh, then review the diff; "
                           "docs/testing.md)"));
    }

    // An expected file no case makes any more is stale: a trace was removed
    // or renamed, and its pinned outputs with it.
    void noExpectedFileIsStale()
    {
        QSet<QString> made;
        for (const Case& c : allCases())
            made << c.name + (c.name.endsWith("-json") ? ".json" : ".txt");
        const QStringList present = QDir(goldenDir() + "/expected").entryList(QDir::Files);
        QStringList stale;
        for (const QString& f : present)
            if (!made.contains(f))
                stale << f;
        if (updating()) {
            for (const QString& f : stale)
                QFile::remove(goldenDir() + "/expected/" + f);
            return;
        }
        QVERIFY2(stale.isEmpty(), qPrintable("expected files no case makes: " + stale.join(", ")
                                              + " (scripts/regenerate-golden.sh removes them)"));
        QVERIFY2(present.size() >= 100, "fewer expected files than the stored traces make: is the folder complete?");
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
