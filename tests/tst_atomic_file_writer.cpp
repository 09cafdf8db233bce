#include "io/AtomicFileWriter.h"
#include "io/SameFile.h"

#include <QtTest>

#include <cerrno>
#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ovs;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

unsigned modeOf(const QString& path)
{
    struct stat info {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

// Everything in the folder but `keep`: a failed or finished save must leave
// no temporary file behind.
QStringList strayFiles(const QString& folder, const QStringList& keep)
{
    QStringList names = QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const auto& name : keep)
        names.removeAll(name);
    return names;
}

bool save(const QString& path, const QByteArray& bytes, std::string* error)
{
    return writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), bytes.size()), error);
}

// Makes writes past `bytes` fail with EFBIG, a real write error from the
// kernel, without a full disk or a test hook in the writer.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        ::getrlimit(RLIMIT_FSIZE, &m_saved);
        m_savedHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = m_saved;
        limit.rlim_cur = bytes;
        m_ok = ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_savedHandler);
    }
    bool ok() const { return m_ok; }

private:
    rlimit m_saved {};
    void (*m_savedHandler)(int) = nullptr;
    bool m_ok = false;
};

} // namespace

class TestAtomicFileWriter : public QObject {
    Q_OBJECT

private slots:
    void writesNewFile();
    void replacesAndKeepsMode_data();
    void replacesAndKeepsMode();
    void followsSymlinks_data();
    void followsSymlinks();
    void refuses_data();
    void refuses();
    void writeFailureKeepsOldFile_data();
    void writeFailureKeepsOldFile();
    void devicesWrittenStraight();
    void streamsChunks();
    void uncommittedLeavesOldFile();
    void errorsInWords_data();
    void errorsInWords();
    void sameFileThroughAnyPath_data();
    void sameFileThroughAnyPath();
    void outputThatIsTheInputIsNamed();
};

void TestAtomicFileWriter::writesNewFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("new.txt");
    std::string error;
    QVERIFY2(save(path, "hello\n", &error), error.c_str());
    QCOMPARE(readAll(path), QByteArray("hello\n"));
    const mode_t mask = ::umask(0);
    ::umask(mask);
    QCOMPARE(modeOf(path), 0666u & ~unsigned(mask));
    QCOMPARE(strayFiles(dir.path(), {"new.txt"}), QStringList());
}

void TestAtomicFileWriter::replacesAndKeepsMode_data()
{
    QTest::addColumn<unsigned>("mode");
    QTest::newRow("owner only") << 0600u;
    QTest::newRow("group readable") << 0640u;
    QTest::newRow("executable") << 0755u;
    QTest::newRow("world writable") << 0666u;
}

void TestAtomicFileWriter::replacesAndKeepsMode()
{
    QFETCH(unsigned, mode);
    QTemporaryDir dir;
    const QString path = dir.filePath("out.csv");
    writeFile(path, "old content that is longer than the new one\n");
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
    std::string error;
    QVERIFY2(save(path, "new\n", &error), error.c_str());
    QCOMPARE(readAll(path), QByteArray("new\n"));
    QCOMPARE(modeOf(path), mode);
    QCOMPARE(strayFiles(dir.path(), {"out.csv"}), QStringList());
}

void TestAtomicFileWriter::followsSymlinks_data()
{
    QTest::addColumn<QString>("linkTarget"); // relative to the link's folder
    QTest::addColumn<bool>("targetExists");
    QTest::newRow("relative, same folder") << "real.json" << true;
    QTest::newRow("relative, other folder") << "sub/real.json" << true;
    QTest::newRow("dangling") << "sub/real.json" << false;
}

void TestAtomicFileWriter::followsSymlinks()
{
    QFETCH(QString, linkTarget);
    QFETCH(bool, targetExists);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("sub"));
    const QString target = dir.filePath(linkTarget);
    if (targetExists) {
        writeFile(target, "old");
        QCOMPARE(::chmod(QFile::encodeName(target).constData(), 0640), 0);
    }
    const QString link = dir.filePath("link.json");
    QVERIFY(QFile::link(linkTarget, link));
    // A chain of two links resolves to the same file.
    const QString outer = dir.filePath("outer.json");
    QVERIFY(QFile::link("link.json", outer));

    std::string error;
    QVERIFY2(save(outer, "new", &error), error.c_str());
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(QFileInfo(outer).isSymLink());
    QCOMPARE(readAll(target), QByteArray("new"));
    if (targetExists)
        QCOMPARE(modeOf(target), 0640u);
    QCOMPARE(strayFiles(QFileInfo(target).path(), {"real.json", "link.json", "outer.json"}), QStringList());
}

void TestAtomicFileWriter::refuses_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<QString>("words");
    QTest::newRow("read-only file") << "readonly" << "the file is read-only";
    QTest::newRow("folder") << "folder" << "it is a folder";
    QTest::newRow("missing folder") << "missing" << "no such directory";
    QTest::newRow("file as folder") << "notdir" << "a part of the path is not a folder";
    QTest::newRow("empty name") << "empty" << "no file name given";
}

void TestAtomicFileWriter::refuses()
{
    QFETCH(QString, setup);
    QFETCH(QString, words);
    QTemporaryDir dir;
    QString path = dir.filePath("target");
    if (setup == "readonly") {
        writeFile(path, "keep me");
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0444), 0);
    } else if (setup == "folder") {
        QVERIFY(QDir(dir.path()).mkdir("target"));
    } else if (setup == "missing") {
        path = dir.filePath("no/such/target");
    } else if (setup == "notdir") {
        writeFile(dir.filePath("file"), "x");
        path = dir.filePath("file/target");
    } else {
        path.clear();
    }
    std::string error;
    QVERIFY(!save(path, "new", &error));
    QVERIFY2(QString::fromStdString(error).contains(words), error.c_str());
    QVERIFY2(error.find('\n') == std::string::npos, "one line");
    if (setup == "readonly")
        QCOMPARE(readAll(path), QByteArray("keep me"));
    QCOMPARE(strayFiles(dir.path(), {"target", "file"}), QStringList());
}

void TestAtomicFileWriter::writeFailureKeepsOldFile_data()
{
    QTest::addColumn<int>("chunkBytes");
    QTest::newRow("one large write") << (1 << 20);
    QTest::newRow("many small writes") << 1000;
}

void TestAtomicFileWriter::writeFailureKeepsOldFile()
{
    QFETCH(int, chunkBytes);
    QTemporaryDir dir;
    const QString path = dir.filePath("trace.json");
    writeFile(path, "the old trace");
    const std::string chunk(static_cast<std::size_t>(chunkBytes), 'x');

    AtomicFileWriter writer;
    QVERIFY(writer.open(path.toStdString()));
    bool ok = true;
    {
        FileSizeLimit limit(64 * 1024);
        QVERIFY(limit.ok());
        for (int written = 0; ok && written < 4 << 20; written += chunkBytes)
            ok = writer.write(chunk);
        ok = ok && writer.commit();
    }
    QVERIFY(!ok);
    QVERIFY(writer.failed());
    QVERIFY2(writer.error().find("file too large") != std::string::npos, writer.error().c_str());
    QVERIFY(!writer.write("more"));
    QVERIFY(!writer.commit());
    QCOMPARE(readAll(path), QByteArray("the old trace"));
    QCOMPARE(strayFiles(dir.path(), {"trace.json"}), QStringList());
}

void TestAtomicFileWriter::devicesWrittenStraight()
{
    std::string error;
    QVERIFY2(save("/dev/null", QByteArray(1 << 20, 'x'), &error), error.c_str());
    QVERIFY(QFileInfo("/dev/null").exists() && !QFileInfo("/dev/null").isFile()); // still the device
    // /dev/full fails every write as a full disk does.
    QVERIFY(!save("/dev/full", "x", &error));
    QVERIFY2(error == "cannot save to '/dev/full': disk full", error.c_str());
}

void TestAtomicFileWriter::streamsChunks()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("stream.csv");
    AtomicFileWriter writer;
    QVERIFY(writer.open(path.toStdString()));
    QByteArray expected;
    // Small chunks that gather in the buffer, then one past its size.
    for (int i = 0; i < 20000; ++i) {
        const std::string row = "row " + std::to_string(i) + "\n";
        QVERIFY(writer.write(row));
        expected += QByteArray::fromStdString(row);
    }
    const std::string large(3 << 20, 'L');
    QVERIFY(writer.write(large));
    expected += QByteArray::fromStdString(large);
    QVERIFY(writer.write("end\n"));
    expected += "end\n";
    QVERIFY(!QFile::exists(path)); // nothing visible before commit
    QVERIFY2(writer.commit(), writer.error().c_str());
    QCOMPARE(readAll(path), expected);
    QCOMPARE(strayFiles(dir.path(), {"stream.csv"}), QStringList());
}

void TestAtomicFileWriter::uncommittedLeavesOldFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("keep.json");
    writeFile(path, "old");
    {
        AtomicFileWriter writer;
        QVERIFY(writer.open(path.toStdString()));
        QVERIFY(writer.write(std::string(1 << 20, 'n')));
    }
    QCOMPARE(readAll(path), QByteArray("old"));
    AtomicFileWriter discarded;
    QVERIFY(discarded.open(path.toStdString()));
    QVERIFY(discarded.write("new"));
    discarded.discard();
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(strayFiles(dir.path(), {"keep.json"}), QStringList());
}

void TestAtomicFileWriter::errorsInWords_data()
{
    QTest::addColumn<int>("errnoValue");
    QTest::addColumn<QString>("words");
    QTest::newRow("ENOSPC") << ENOSPC << "disk full";
    QTest::newRow("EDQUOT") << EDQUOT << "disk quota exceeded";
    QTest::newRow("EACCES") << EACCES << "permission denied";
    QTest::newRow("EPERM") << EPERM << "permission denied";
    QTest::newRow("EROFS") << EROFS << "read-only file system";
    QTest::newRow("ENOENT") << ENOENT << "no such directory";
    QTest::newRow("EFBIG") << EFBIG << "file too large";
}

void TestAtomicFileWriter::errorsInWords()
{
    QFETCH(int, errnoValue);
    QFETCH(QString, words);
    QCOMPARE(QString::fromStdString(describeFileError(errnoValue)), words);
}

// convert X.json -o X.json must be refused however the two paths reach the
// one file; a file beside it, or a device, is not the same.
void TestAtomicFileWriter::sameFileThroughAnyPath_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::newRow("the same name") << "x.json" << "x.json" << true;
    QTest::newRow("./x") << "x.json" << "./x.json" << true;
    QTest::newRow("through a folder and ..") << "x.json" << "sub/../x.json" << true;
    QTest::newRow("absolute and relative") << "@/x.json" << "x.json" << true;
    QTest::newRow("a symbolic link") << "x.json" << "link.json" << true;
    QTest::newRow("a link to the link") << "link2.json" << "x.json" << true;
    QTest::newRow("a hard link") << "x.json" << "hard.json" << true;
    QTest::newRow("another file") << "x.json" << "y.json" << false;
    QTest::newRow("a copy") << "x.json" << "copy.json" << false;
    QTest::newRow("one not made yet") << "x.json" << "new.json" << false;
    QTest::newRow("two not made yet, one name") << "new.png" << "./new.png" << true;
    QTest::newRow("two not made yet, two names") << "new.png" << "other.png" << false;
    QTest::newRow("not made yet, other folders") << "new.png" << "sub/new.png" << false;
    QTest::newRow("a device") << "/dev/null" << "/dev/null" << false;
}

void TestAtomicFileWriter::sameFileThroughAnyPath()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    QTemporaryDir dir;
    writeFile(dir.filePath("x.json"), "{}");
    writeFile(dir.filePath("y.json"), "{}");
    writeFile(dir.filePath("copy.json"), "{}");
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    QVERIFY(QFile::link("x.json", dir.filePath("link.json")));
    QVERIFY(QFile::link(dir.filePath("link.json"), dir.filePath("link2.json")));
    QCOMPARE(::link(QFile::encodeName(dir.filePath("x.json")).constData(),
                    QFile::encodeName(dir.filePath("hard.json")).constData()),
             0);
    // Relative paths as a user types them, from the folder.
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const auto path = [&](const QString& p) { return (p.startsWith('@') ? dir.path() + p.mid(1) : p).toStdString(); };
    const bool forward = sameFile(path(a), path(b));
    const bool backward = sameFile(path(b), path(a));
    QVERIFY(QDir::setCurrent(before));
    QCOMPARE(forward, same);
    QCOMPARE(backward, same);
}

void TestAtomicFileWriter::outputThatIsTheInputIsNamed()
{
    QTemporaryDir dir;
    const QString input = dir.filePath("run.json");
    writeFile(input, "{}");
    QVERIFY(QFile::link(input, dir.filePath("link.json")));
    const QString itself = QString::fromStdString(whyOutputIsInput(input.toStdString(), input.toStdString()));
    QVERIFY2(itself.contains("is the input itself") && itself.contains("run.json"), qPrintable(itself));
    const QString linked =
        QString::fromStdString(whyOutputIsInput(dir.filePath("link.json").toStdString(), input.toStdString()));
    QVERIFY2(linked.contains("link.json") && linked.contains("(the same file)"), qPrintable(linked));
    QVERIFY(whyOutputIsInput(dir.filePath("other.json").toStdString(), input.toStdString()).empty());
    // A long path is quoted short.
    QVERIFY(QDir(dir.path()).mkdir(QString(250, 'd')));
    const std::string deep = dir.filePath(QString(250, 'd') + "/run.json").toStdString();
    writeFile(QString::fromStdString(deep), "{}");
    const std::string message = whyOutputIsInput(deep, deep);
    QVERIFY2(message.size() < 400 && message.find("\xE2\x80\xA6") != std::string::npos, message.c_str());
}

QTEST_GUILESS_MAIN(TestAtomicFileWriter)
#include "tst_atomic_file_writer.moc"
