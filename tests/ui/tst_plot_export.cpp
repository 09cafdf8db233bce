#include "export/AtomicFile.h"
#include "export/ExportCaps.h"
#include "export/ImageFormat.h"
#include "export/PlotExport.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using ovs::ui::ExportCaps;
using ovs::ui::ImageFormat;
using ovs::ui::PlotExportOptions;

Q_DECLARE_METATYPE(ovs::ui::ImageFormat)

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& data)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

} // namespace

// The one exporter of the timeline and the charts: format from the
// extension, size caps, atomic writes.
class TestPlotExport : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QCustomPlot* m_plot = nullptr;

private slots:
    void initTestCase()
    {
        m_plot = new QCustomPlot;
        m_plot->addGraph();
        m_plot->graph(0)->setData({1, 2, 3}, {1, 4, 9});
        m_plot->rescaleAxes();
        m_plot->resize(400, 300);
    }
    void cleanupTestCase() { delete m_plot; }

    void formatFromExtension_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("known");
        QTest::addColumn<ImageFormat>("format");
        QTest::newRow("png") << "out.png" << true << ImageFormat::Png;
        QTest::newRow("upper case") << "OUT.PNG" << true << ImageFormat::Png;
        QTest::newRow("svg") << "dir/bw.svg" << true << ImageFormat::Svg;
        QTest::newRow("pdf") << "bw.pdf" << true << ImageFormat::Pdf;
        QTest::newRow("unknown") << "out.xyz" << false << ImageFormat::Png;
        QTest::newRow("none") << "out" << false << ImageFormat::Png;
        QTest::newRow("a backup") << "out.png.bak" << false << ImageFormat::Png;
    }
    void formatFromExtension()
    {
        QFETCH(QString, path);
        QFETCH(bool, known);
        QFETCH(ImageFormat, format);
        QString error;
        const auto got = ovs::ui::imageFormatForPath(path, &error);
        QCOMPARE(got.has_value(), known);
        if (known)
            QCOMPARE(*got, format);
        else
            QVERIFY2(error.contains(path) && error.contains(".png, .svg or .pdf"), qPrintable(error));
    }

    void caps_data()
    {
        QTest::addColumn<ImageFormat>("format");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("fits");
        QTest::newRow("ordinary") << ImageFormat::Png << 1600 << 900 << 1.0 << true;
        QTest::newRow("at the side cap") << ImageFormat::Png << 32768 << 1000 << 1.0 << true;
        QTest::newRow("a side over") << ImageFormat::Png << 1600 << 32769 << 1.0 << false;
        QTest::newRow("scaled over a side") << ImageFormat::Png << 1600 << 20000 << 2.0 << false;
        QTest::newRow("too many pixels") << ImageFormat::Png << 16000 << 16000 << 1.0 << false;
        QTest::newRow("svg of the same") << ImageFormat::Svg << 16000 << 16000 << 1.0 << true;
        QTest::newRow("svg over a side") << ImageFormat::Svg << 1600 << 40000 << 1.0 << false;
        QTest::newRow("pdf over a side") << ImageFormat::Pdf << 40000 << 100 << 1.0 << false;
        QTest::newRow("empty") << ImageFormat::Png << 0 << 100 << 1.0 << false;
        QTest::newRow("bad scale") << ImageFormat::Png << 100 << 100 << qQNaN() << false;
    }
    void caps()
    {
        QFETCH(ImageFormat, format);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(double, scale);
        QFETCH(bool, fits);
        QCOMPARE(ExportCaps::check(format, width, height, scale).isEmpty(), fits);
    }

    void writesTheExtensionsFormat_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "chart.png" << QByteArray("\x89PNG");
        QTest::newRow("svg") << "chart.svg" << QByteArray("<?xml");
        QTest::newRow("pdf") << "chart.pdf" << QByteArray("%PDF");
    }
    void writesTheExtensionsFormat()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        const QString path = m_dir.filePath(name);
        PlotExportOptions options;
        options.width = 500;
        options.height = 300;
        options.scale = 2;
        QString error;
        QVERIFY2(ovs::ui::exportPlot(*m_plot, path, options, &error), qPrintable(error));
        const QByteArray data = readAll(path);
        QVERIFY2(data.startsWith(magic), data.left(16).constData());
        if (name.endsWith(".png"))
            QCOMPARE(QImage(path).size(), QSize(1000, 600));
        // Nothing else is left beside it (no temporary files).
        QCOMPARE(QDir(m_dir.path()).entryList({name + "*"}, QDir::Files).size(), 1);
    }

    void refusalKeepsTheOldFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("mention");
        QTest::newRow("unknown extension") << "keep.xyz" << 500 << ".png, .svg or .pdf";
        QTest::newRow("over the cap") << "keep.png" << 40000 << "32768";
    }
    void refusalKeepsTheOldFile()
    {
        QFETCH(QString, name);
        QFETCH(int, width);
        QFETCH(QString, mention);
        const QString path = m_dir.filePath(name);
        writeFile(path, "old contents");
        PlotExportOptions options;
        options.width = width;
        options.height = 300;
        QString error;
        QVERIFY(!ovs::ui::exportPlot(*m_plot, path, options, &error));
        QVERIFY2(error.contains(mention), qPrintable(error));
        QCOMPARE(readAll(path), QByteArray("old contents"));
    }

    void writeErrorsInWords()
    {
        QString error;
        QVERIFY(!ovs::ui::writeFileAtomically("/nonexistent-overlapscope-dir/x.png", "data", &error));
        QVERIFY2(error.contains("no such directory"), qPrintable(error));
        QVERIFY(!ovs::ui::writeFileAtomically(m_dir.path(), "data", &error)); // a folder
        QVERIFY2(error.contains("folder"), qPrintable(error));
    }

    void thePlotIsLeftAsItWas()
    {
        m_plot->replot();
        const QRect before = m_plot->axisRect()->rect();
        PlotExportOptions options;
        options.width = 1200;
        options.height = 1000;
        QString error;
        QVERIFY2(ovs::ui::exportPlot(*m_plot, m_dir.filePath("big.svg"), options, &error), qPrintable(error));
        m_plot->replot();
        QCOMPARE(m_plot->axisRect()->rect(), before);
    }
};

QTEST_MAIN(TestPlotExport)
#include "tst_plot_export.moc"
