// The core's layers as the build enforces them: every #include in a core
// folder names only that folder or the folders below it in core/layers.txt,
// the table core/CMakeLists.txt links the per-folder libraries by. The
// window's (ui/layers.txt) the same way: a ui folder includes only the ui
// folders below it, and any core folder (ui sits on the whole core).
#include <QtTest>

#include <map>
#include <set>

namespace {

// tests/data need not exist: the path is cleaned as text.
const QString kCore = QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../core"));
const QString kUi = QDir::cleanPath(QStringLiteral(OVERLAPSCOPE_TEST_DATA "/../../ui"));

// core/layers.txt: "folder: lower lower ...", lowest first.
struct Layers {
    QStringList order;
    std::map<QString, QStringList> below; // direct arrows
    QStringList problems;                 // the table itself breaking its rules

    static Layers parse(const QString& text)
    {
        Layers layers;
        const QStringList lines = text.split('\n');
        for (int i = 0; i < lines.size(); ++i) {
            const QString line = lines[i].trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0) {
                layers.problems << QString("line %1: expected 'folder: lower ...'").arg(i + 1);
                continue;
            }
            const QString folder = line.left(colon).trimmed();
            const QStringList lower = line.mid(colon + 1).split(' ', Qt::SkipEmptyParts);
            for (const QString& l : lower)
                if (!layers.order.contains(l))
                    layers.problems << QString("line %1: %2 names %3, which is not listed above it").arg(i + 1).arg(folder, l);
            if (layers.order.contains(folder))
                layers.problems << QString("line %1: %2 is listed twice").arg(i + 1).arg(folder);
            layers.order << folder;
            layers.below[folder] = lower;
        }
        return layers;
    }

    // The folders `folder` may include: itself and everything below it.
    std::set<QString> reachable(const QString& folder) const
    {
        std::set<QString> seen{folder};
        QStringList todo{folder};
        while (!todo.isEmpty()) {
            const auto it = below.find(todo.takeLast());
            if (it == below.end())
                continue;
            for (const QString& lower : it->second)
                if (seen.insert(lower).second)
                    todo << lower;
        }
        return seen;
    }
};

// Every include of a folder (`"folder/...`) from `dir`'s sources that the
// table does not allow, as "file:line includes X, not below folder".
// `beneath`: folders every one of the table's may include too (for ui, the
// core's).
QStringList upwardIncludes(const Layers& layers, const QString& rootDir, const QString& folder,
                           const QStringList& beneath = {})
{
    static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*\"([A-Za-z0-9_]+)/[^\"]*\""));
    QStringList found;
    std::set<QString> allowed = layers.reachable(folder);
    allowed.insert(beneath.begin(), beneath.end());
    QDir dir(rootDir + '/' + folder);
    for (const QString& name : dir.entryList({"*.h", "*.cpp", "*.cu", "*.cuh"}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) {
            found << folder + '/' + name + ": cannot be read";
            continue;
        }
        int lineNumber = 0;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine());
            ++lineNumber;
            const auto match = include.match(line);
            if (match.hasMatch() && !allowed.count(match.captured(1)))
                found << QString("%1/%2:%3 includes %4, which is not below %1")
                             .arg(folder, name)
                             .arg(lineNumber)
                             .arg(line.trimmed());
        }
    }
    return found;
}

QString readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT

private slots:
    void theTableIsWellFormed()
    {
        const QString text = readAll(kCore + "/layers.txt");
        QVERIFY2(!text.isEmpty(), qPrintable(kCore + "/layers.txt is missing or empty"));
        const Layers layers = Layers::parse(text);
        QVERIFY2(layers.problems.isEmpty(), qPrintable(layers.problems.join('\n')));
        QVERIFY(layers.order.contains("trace"));
    }

    void everyCoreFolderHasALayer()
    {
        const Layers layers = Layers::parse(readAll(kCore + "/layers.txt"));
        for (const QString& folder : QDir(kCore).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(layers.order.contains(folder), qPrintable("core/" + folder + " has no line in core/layers.txt"));
    }

    void includesPointOnlyDown_data()
    {
        QTest::addColumn<QString>("folder");
        for (const QString& folder : Layers::parse(readAll(kCore + "/layers.txt")).order)
            QTest::newRow(qPrintable(folder)) << folder;
    }
    void includesPointOnlyDown()
    {
        QFETCH(QString, folder);
        const Layers layers = Layers::parse(readAll(kCore + "/layers.txt"));
        const QStringList found = upwardIncludes(layers, kCore, folder);
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    void theUiTableIsWellFormed()
    {
        const QString text = readAll(kUi + "/layers.txt");
        QVERIFY2(!text.isEmpty(), qPrintable(kUi + "/layers.txt is missing or empty"));
        const Layers layers = Layers::parse(text);
        QVERIFY2(layers.problems.isEmpty(), qPrintable(layers.problems.join('\n')));
        QVERIFY(layers.order.contains("document"));
        // A ui folder named as a core one would pass for the core's.
        const QStringList core = Layers::parse(readAll(kCore + "/layers.txt")).order;
        for (const QString& folder : layers.order)
            QVERIFY2(!core.contains(folder), qPrintable("ui/" + folder + " has a core folder's name"));
    }

    void everyUiFolderHasALayer()
    {
        const Layers layers = Layers::parse(readAll(kUi + "/layers.txt"));
        for (const QString& folder : QDir(kUi).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(layers.order.contains(folder), qPrintable("ui/" + folder + " has no line in ui/layers.txt"));
    }

    void uiIncludesPointOnlyDown_data()
    {
        QTest::addColumn<QString>("folder");
        for (const QString& folder : Layers::parse(readAll(kUi + "/layers.txt")).order)
            QTest::newRow(qPrintable(folder)) << folder;
    }
    void uiIncludesPointOnlyDown()
    {
        QFETCH(QString, folder);
        const Layers layers = Layers::parse(readAll(kUi + "/layers.txt"));
        const QStringList core = Layers::parse(readAll(kCore + "/layers.txt")).order;
        const QStringList found = upwardIncludes(layers, kUi, folder, core);
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    // The checker itself, on a made-up core: it must catch what it is for.
    void theCheckCatchesAnUpwardInclude_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("beneath");
        QTest::addColumn<int>("violations");
        const QString table = "low:\nmid: low\nhigh: mid\nside: low\n";
        QTest::newRow("own folder") << table << "mid" << "#include \"mid/A.h\"\n" << QStringList() << 0;
        QTest::newRow("one down") << table << "mid" << "#include \"low/A.h\"\n" << QStringList() << 0;
        QTest::newRow("two down") << table << "high" << "#include \"low/A.h\"\n" << QStringList() << 0;
        QTest::newRow("system headers") << table << "low" << "#include <vector>\n#include \"A.h\"\n" << QStringList() << 0;
        QTest::newRow("up") << table << "low" << "#include \"mid/A.h\"\n" << QStringList() << 1;
        QTest::newRow("sideways") << table << "mid" << "#include \"side/A.h\"\n" << QStringList() << 1;
        QTest::newRow("spaced, twice") << table << "mid" << "  #  include \"high/A.h\"\n#include \"side/B.h\"\n"
                                       << QStringList() << 2;
        QTest::newRow("unknown folder") << table << "high" << "#include \"elsewhere/A.h\"\n" << QStringList() << 1;
        // ui's table: the core beneath every folder of it, and nothing else.
        QTest::newRow("a folder beneath") << table << "low" << "#include \"trace/Run.h\"\n" << QStringList{"trace"} << 0;
        QTest::newRow("up, with a floor beneath")
            << table << "low" << "#include \"trace/Run.h\"\n#include \"high/A.h\"\n" << QStringList{"trace"} << 1;
        QTest::newRow("not beneath") << table << "low" << "#include \"cuda/A.h\"\n" << QStringList{"trace"} << 1;
    }
    void theCheckCatchesAnUpwardInclude()
    {
        QFETCH(QString, table);
        QFETCH(QString, folder);
        QFETCH(QString, source);
        QFETCH(QStringList, beneath);
        QFETCH(int, violations);
        QTemporaryDir core;
        QVERIFY(QDir(core.path()).mkpath(folder));
        QFile file(core.filePath(folder + "/Unit.cpp"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(source.toUtf8());
        file.close();
        const QStringList found = upwardIncludes(Layers::parse(table), core.path(), folder, beneath);
        QVERIFY2(found.size() == violations, qPrintable(found.join('\n')));
    }

    void theTableRefusesUpwardArrows_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("problem");
        QTest::newRow("names a later folder") << "low: high\nhigh:\n" << "not listed above it";
        QTest::newRow("listed twice") << "low:\nlow:\n" << "listed twice";
        QTest::newRow("no colon") << "low\n" << "expected";
    }
    void theTableRefusesUpwardArrows()
    {
        QFETCH(QString, table);
        QFETCH(QString, problem);
        const Layers layers = Layers::parse(table);
        QVERIFY2(layers.problems.join('\n').contains(problem), qPrintable(layers.problems.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
