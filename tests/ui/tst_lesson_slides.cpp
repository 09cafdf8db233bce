// `overlapscope export --lesson NAME -o DIR` as a teacher runs it: no
// display, a small lesson on the simulator, numbered 1920x1080 slides and an
// index; clear errors for a bad name or folder.
#include "../TestTimeouts.h"
#include "UiTestSupport.h"

#include "devicefactory/DeviceFactory.h"
#include "lessons/LessonRunner.h"
#include "record/TraceCollector.h"
#include "sim/SimDevice.h"
#include "formats/TraceJson.h"

#include <QtTest>

#include <QDir>
#include <QImage>
#include <QImageReader>

#include <csignal>

class TestLessonSlides : public QObject {
    Q_OBJECT

    using Result = ovs::test::GuiResult;
    Result gui(const QStringList& args) { return ovs::test::runGui(args, 300000); }
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Two lessons: one with focus on pipeline runs, one with a bandwidth
    // sweep; both small (1 MiB chunks) on the simulator, in both themes.
    void writesNumberedSlides_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QString>("theme");
        QTest::newRow("one-vs-several-streams, light") << "one-vs-several-streams" << "light";
        QTest::newRow("pageable-vs-pinned, dark") << "pageable-vs-pinned" << "dark";
    }

    void writesNumberedSlides()
    {
        QFETCH(QString, lesson);
        QFETCH(QString, theme);
        // A folder that does not exist yet, two levels down.
        const QString dir = m_dir.filePath(lesson + "-" + theme + "/slides");
        const Result r = gui({"export", "--lesson", lesson, "-o", dir, "--device", "sim", "--chunk-mib", "1",
                              "--theme", theme, "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        const ovs::Lesson* definition = ovs::findLesson(lesson.toStdString());
        QVERIFY(definition);
        QStringList files = QDir(dir).entryList({"*.png"}, QDir::Files, QDir::Name);
        // Title, question, a slide per focus, (the sweep,) results, every run.
        QVERIFY2(files.size() >= 4 + static_cast<int>(definition->focus.size()), qPrintable(files.join(' ')));
        QCOMPARE(files.front(), QStringLiteral("01-title.png"));
        QCOMPARE(files[1], QStringLiteral("02-question.png"));
        QVERIFY(files.last().endsWith("-timeline.png"));
        QVERIFY(files.filter("-results.png").size() == 1);
        QCOMPARE(files.filter("-focus-").size(), static_cast<int>(definition->focus.size()));
        for (int i = 0; i < files.size(); ++i) {
            // Numbered in order, from 01, with no gap.
            QCOMPARE(files[i].left(3), QStringLiteral("%1-").arg(i + 1, 2, 10, QChar('0')));
            QImageReader reader(QDir(dir).filePath(files[i]));
            QCOMPARE(reader.format(), QByteArray("png"));
            const QImage image = reader.read();
            QVERIFY2(!image.isNull(), qPrintable(files[i]));
            QCOMPARE(image.size(), QSize(1920, 1080));
            // The theme reached the slide: its corner is the background.
            const QColor corner = image.pixelColor(4, 4);
            QVERIFY2(theme == "dark" ? corner.lightness() < 80 : corner.lightness() > 200, qPrintable(files[i]));
        }
        // index.md names every slide, shows it, and says the run was simulated.
        QFile index(QDir(dir).filePath("index.md"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(index.readAll());
        for (const QString& file : files)
            QVERIFY2(text.contains("](" + file + ")"), qPrintable(file));
        QVERIFY(text.contains("[simulated]"));
        QVERIFY(text.contains("--lesson " + lesson));
        // No temporary files of the atomic writer are left behind.
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), files.size() + 1);
    }

    // A lesson that sweeps a parameter (chunk size) gets its chart slide,
    // wall time and bound against chunk size, before the results; index.md
    // lists it in that order.
    void sweepLessonHasAChartSlide()
    {
        const QString dir = m_dir.filePath("chunk-size");
        const Result r = gui({"export", "--lesson", "chunk-size", "-o", dir, "--device", "sim", "--chunk-mib", "1",
                              "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList files = QDir(dir).entryList({"*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(files, (QStringList{"01-title.png", "02-question.png", "03-focus-1.png", "04-focus-2.png",
                                     "05-sweep.png", "06-chart.png", "07-results.png", "08-timeline.png"}));
        QFile index(QDir(dir).filePath("index.md"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(index.readAll());
        const qsizetype chart = text.indexOf("](06-chart.png)");
        QVERIFY2(chart > 0 && chart < text.indexOf("](07-results.png)"), qPrintable(text));
        QVERIFY(text.contains("Wall time against chunk size"));
        // The chart is drawn: its wall-time line (the light theme's blue)
        // and its bound (orange) cover a fair part of the slide.
        const QImage image(QDir(dir).filePath("06-chart.png"));
        QCOMPARE(image.size(), QSize(1920, 1080));
        int blue = 0, orange = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) {
                const QRgb c = image.pixel(x, y);
                blue += c == qRgb(0x1f, 0x5f, 0xbf);
                orange += c == qRgb(0xb3, 0x59, 0x00);
            }
        QVERIFY2(blue > 500 && orange > 500, qPrintable(QStringLiteral("%1 blue, %2 orange").arg(blue).arg(orange)));

        // A lesson without a sweep of its runs has none.
        const QString other = m_dir.filePath("no-chart");
        QVERIFY(gui({"export", "--lesson", "one-vs-several-streams", "-o", other, "--device", "sim", "--chunk-mib",
                     "1", "--only", "chart,results", "--quiet"})
                    .exitCode == 0);
        QCOMPARE(QDir(other).entryList({"*-chart.png"}, QDir::Files).size(), 0);
        QCOMPARE(QDir(other).entryList({"*-results.png"}, QDir::Files).size(), 1);
    }

    // Recorded elsewhere (the CLI on a GPU server), made into slides here.
    void slidesFromARecordedTrace()
    {
        const ovs::Lesson* lesson = ovs::findLesson("one-vs-several-streams");
        QVERIFY(lesson);
        ovs::SimDevice device(*ovs::findSimPreset("rtx4090"));
        ovs::TraceCollector sink;
        ovs::CancelFlag cancel;
        ovs::LessonOptions options;
        options.chunkBytes = 1 << 20;
        QVERIFY(ovs::runLesson(*lesson, device, sink, cancel, {}, options).judged);
        const QString trace = m_dir.filePath("recorded.json");
        std::string error;
        QVERIFY2(ovs::saveTrace(sink.trace(), trace.toStdString(), &error), error.c_str());

        const QString dir = m_dir.filePath("from-trace");
        Result r = gui({"export", "--lesson", "one-vs-several-streams", "--from", trace, "--chunk-mib", "1", "-o", dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList files = QDir(dir).entryList({"*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 4 + static_cast<int>(lesson->focus.size()));
        QFile index(QDir(dir).filePath("index.md"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(index.readAll());
        // The recording's device, not this machine's.
        QVERIFY2(text.contains(QString::fromStdString(device.info().label())), qPrintable(text));
        QVERIFY(text.contains("--from " + trace));

        // Read with another chunk size than it ran with: refused, in words.
        r = gui({"export", "--lesson", "one-vs-several-streams", "--from", trace, "-o", m_dir.filePath("wrong")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--chunk-mib"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("wrong")));
    }

    // --only keeps some kinds, numbered as in the whole set (docs keep the
    // focus and results slides), and index.md says so.
    void onlySomeKinds()
    {
        const QString dir = m_dir.filePath("only");
        const Result r = gui({"export", "--lesson", "pageable-vs-pinned", "-o", dir, "--device", "sim", "--chunk-mib",
                              "1", "--only", "focus,results", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList files = QDir(dir).entryList({"*.png"}, QDir::Files, QDir::Name);
        // Two focus slides, the sweep skipped, then the results as the sixth.
        QCOMPARE(files, (QStringList{"03-focus-1.png", "04-focus-2.png", "06-results.png"}));
        QFile index(QDir(dir).filePath("index.md"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(index.readAll());
        QVERIFY2(text.contains("3 of the 7 slides"), qPrintable(text));
        QVERIFY(text.contains("--only focus,results"));

        const Result bad = gui({"export", "--lesson", "pageable-vs-pinned", "-o", dir, "--only", "focus,pictures"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("timeline"), qPrintable(bad.err)); // names the kinds there are
    }

    void badLessonNameNamesTheValidOnes()
    {
        const Result r = gui({"export", "--lesson", "no-such-lesson", "-o", m_dir.filePath("bad")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no-such-lesson"), qPrintable(r.err));
        for (const ovs::Lesson& lesson : ovs::lessons())
            QVERIFY2(r.err.contains(QString::fromStdString(lesson.id)), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("bad")));
    }

    void listsTheLessons()
    {
        const Result r = gui({"export", "--lesson", "--list"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), static_cast<int>(ovs::lessons().size()));
        for (const ovs::Lesson& lesson : ovs::lessons())
            QVERIFY2(r.out.contains(QString::fromStdString(lesson.id)), qPrintable(r.out));
    }

    void usageErrorsInWords_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("no folder") << QStringList{"export", "--lesson", "issue-order"} << "-o DIR";
        QTest::newRow("bad theme") << QStringList{"export", "--lesson", "issue-order", "-o", "x", "--theme", "pink"}
                                   << "light or dark";
        QTest::newRow("bad chunk") << QStringList{"export", "--lesson", "issue-order", "-o", "x", "--chunk-mib", "0"}
                                   << "--chunk-mib";
        QTest::newRow("bad device") << QStringList{"export", "--lesson", "issue-order", "-o", "x", "--device", "tpu"}
                                    << "tpu";
        QTest::newRow("a trace too") << QStringList{"export", "--lesson", "issue-order", "-o", "x", "run.json"}
                                     << "run.json";
    }

    void usageErrorsInWords()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const Result r = gui(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
    }

    // Ctrl-C while the lesson runs: exit 130, the slides written before it
    // stay whole, and nothing half-written is left.
    void interruptKeepsWhatWasWritten()
    {
        const QString dir = m_dir.filePath("interrupted");
        QProcess process;
        process.start(OVERLAPSCOPE_GUI_PATH, {"export", "--lesson", "chunk-size", "-o", dir, "--device", "sim"});
        QVERIFY(process.waitForStarted(ovsTestTimeoutMs(30000)));
        QString err;
        // The first job starts after the two slides that need no run.
        while (!err.contains("job 1 of") && process.state() == QProcess::Running) {
            process.waitForReadyRead(1000);
            err += QString::fromUtf8(process.readAllStandardError());
        }
        QVERIFY2(err.contains("job 1 of"), qPrintable(err));
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(ovsTestTimeoutMs(120000)));
        err += QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 130);
        QVERIFY2(err.contains("cancelled"), qPrintable(err));
        const QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 2);
        QCOMPARE(files[0], QStringLiteral("01-title.png"));
        QCOMPARE(files[1], QStringLiteral("02-question.png"));
        for (const QString& file : files) {
            QVERIFY2(file.endsWith(".png") || file == "index.md", qPrintable(file));
            if (file.endsWith(".png"))
                QCOMPARE(QImage(QDir(dir).filePath(file)).size(), QSize(1920, 1080));
        }
    }

    // Asked for the GPU where there is none: 4, in words, nothing written.
    void cudaWithoutAGpu()
    {
        std::string why;
        if (ovs::cudaDeviceAvailable(&why))
            QSKIP("a CUDA GPU answers here: --device cuda runs on it");
        const QString dir = m_dir.filePath("cuda");
        const Result r = gui({"export", "--lesson", "issue-order", "-o", dir, "--device", "cuda"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("--device sim"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir));
    }

    void unwritableFolderIsAnErrorInWords()
    {
        // A file where the folder should be.
        QFile blocker(m_dir.filePath("blocker"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const Result r = gui({"export", "--lesson", "both-directions", "-o", m_dir.filePath("blocker/slides"),
                              "--device", "sim", "--chunk-mib", "1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("blocker"), qPrintable(r.err));
    }
};

QTEST_MAIN(TestLessonSlides)
#include "tst_lesson_slides.moc"
