// `overlapscope export` as a user on a GPU server runs it: no display, the
// window's renderer, the sizes asked for, clear errors.
#include <QtTest>

#include <QImage>

class TestGuiExport : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString err;
    };
    Result gui(const QStringList& args)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("QT_QPA_PLATFORM"); // export must pick offscreen by itself
        env.remove("DISPLAY");
        process.setProcessEnvironment(env);
        process.start(OVERLAPSCOPE_GUI_PATH, args);
        if (!process.waitForFinished(120000))
            return {};
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardError())};
    }
    QString trace() const { return QString(OVERLAPSCOPE_SOURCE_DIR) + "/docs/traces/sim-h200-seed-defaults.json"; }
    QTemporaryDir m_dir;

private slots:
    void pngHasTheRequestedSizeAndScale()
    {
        const QString one = m_dir.filePath("one.png");
        const QString two = m_dir.filePath("two.png");
        QCOMPARE(gui({"export", trace(), "-o", one, "--width", "1200", "--height", "700"}).exitCode, 0);
        QCOMPARE(gui({"export", trace(), "-o", two, "--width", "1200", "--height", "700", "--scale", "2"}).exitCode, 0);
        const QImage a(one), b(two);
        QCOMPARE(a.size(), QSize(1200, 700));
        QCOMPARE(b.size(), QSize(2400, 1400));
    }

    void defaultHeightFitsTheLanes()
    {
        const QString out = m_dir.filePath("auto.png");
        const Result r = gui({"export", trace(), "-o", out, "--bandwidth", m_dir.filePath("bw.png")});
        QCOMPARE(r.exitCode, 0);
        const QImage image(out);
        QCOMPARE(image.width(), 1600);
        QVERIFY(image.height() > 300);
        QVERIFY(!QImage(m_dir.filePath("bw.png")).isNull());
    }

    void vectorFormats_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << "svg" << QByteArray("<svg");
        QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
    }
    void vectorFormats()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath("timeline." + suffix);
        QCOMPARE(gui({"export", trace(), "-o", out}).exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(magic));
    }

    void badInputIsAClearError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no output") << QStringList{"export", "x.json"} << 2 << "-o OUT";
        QTest::newRow("unknown format") << QStringList{"export", "x.json", "-o", "a.bmp"} << 2 << ".png, .svg or .pdf";
        QTest::newRow("missing trace") << QStringList{"export", "/nonexistent/t.json", "-o", "a.png"} << 2 << "t.json";
        QTest::newRow("bad scale") << QStringList{"export", "x.json", "-o", "a.png", "--scale", "99"} << 2 << "bad value";
        QTest::newRow("half a range") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "3"} << 2
                                      << "both --from-ms and --to-ms";
        QTest::newRow("reversed range") << QStringList{"export", "x.json", "-o", "a.png", "--from-ms", "3", "--to-ms", "1"}
                                        << 2 << "from < to";
        QTest::newRow("unknown option") << QStringList{"export", "x.json", "--frob"} << 2 << "unknown option";
    }
    void badInputIsAClearError()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Result r = gui(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void malformedTraceWritesNothing()
    {
        const QString bad = m_dir.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\":\"overlapscope-trace\",\"version\":1,\"runs\":[{\"name\":");
        f.close();
        const QString out = m_dir.filePath("never.png");
        const Result r = gui({"export", bad, "-o", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("line 1"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestGuiExport)
#include "tst_gui_export.moc"
