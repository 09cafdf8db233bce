#include "export/PlotExport.h"

#include "export/AtomicFile.h"
#include "export/ExportCaps.h"
#include "export/ExportError.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QImageWriter>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>
#include <new>

namespace ovs::ui {

namespace {

// Renders into an image of our own rather than QCustomPlot::toPixmap, so
// only one buffer of the picture's size exists (toPixmap's pixmap would be
// copied again to set the resolution).
bool renderPng(QCustomPlot& plot, const PlotExportOptions& o, QBuffer& out, QString* error)
{
    const int pixelsWide = static_cast<int>(std::ceil(o.width * o.scale));
    const int pixelsHigh = static_cast<int>(std::ceil(o.height * o.scale));
    QImage image(pixelsWide, pixelsHigh, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return exportFailed(error,
                            QStringLiteral("not enough memory for a %1 x %2 px image").arg(pixelsWide).arg(pixelsHigh));
    // The same layout at a higher density: say so for printing.
    const int dotsPerMeter = static_cast<int>(std::lround(96.0 * o.scale / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.fill(Qt::transparent); // toPainter fills the plot's background brush
    {
        QCPPainter painter(&image);
        if (o.scale > 1.0)
            painter.setMode(QCPPainter::pmNonCosmetic); // lines scale with the picture
        painter.scale(o.scale, o.scale);
        plot.toPainter(&painter, o.width, o.height);
    }
    QImageWriter writer(&out, "png");
    if (!writer.write(image))
        return exportFailed(error, writer.errorString());
    return true;
}

bool renderVector(QCustomPlot& plot, QPaintDevice& device, const PlotExportOptions& o)
{
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    plot.toPainter(&painter, o.width, o.height);
    return painter.end();
}

} // namespace

QByteArray renderPlot(QCustomPlot& plot, ImageFormat format, const PlotExportOptions& options, QString* error)
{
    if (const QString over = ExportCaps::check(format, options.width, options.height, options.scale); !over.isEmpty()) {
        exportFailed(error, over);
        return {};
    }
    QByteArray data;
    QBuffer buffer(&data);
    buffer.open(QIODevice::WriteOnly);
    try {
        switch (format) {
        case ImageFormat::Png:
            if (!renderPng(plot, options, buffer, error))
                return {};
            break;
        case ImageFormat::Svg: {
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setSize(QSize(options.width, options.height));
            generator.setViewBox(QRect(0, 0, options.width, options.height));
            generator.setTitle(options.title);
            if (!renderVector(plot, generator, options)) {
                exportFailed(error, QStringLiteral("the SVG could not be rendered"));
                return {};
            }
            break;
        }
        case ImageFormat::Pdf: {
            // One PDF point per layout pixel: the page is the picture.
            QPdfWriter writer(&buffer);
            writer.setResolution(72);
            writer.setPageSize(QPageSize(QSizeF(options.width, options.height), QPageSize::Point, QString(),
                                         QPageSize::ExactMatch));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            writer.setTitle(options.title);
            writer.setCreator(QStringLiteral("OverlapScope"));
            if (!renderVector(plot, writer, options)) {
                exportFailed(error, QStringLiteral("the PDF could not be rendered"));
                return {};
            }
            break;
        }
        }
    } catch (const std::bad_alloc&) {
        exportFailed(error, QStringLiteral("not enough memory to render the picture"));
        return {};
    }
    if (data.isEmpty())
        exportFailed(error, QStringLiteral("the %1 could not be rendered").arg(imageFormatName(format)));
    return data;
}

bool exportPlot(QCustomPlot& plot, const QString& path, const PlotExportOptions& options, QString* error)
{
    QString why;
    const auto format = imageFormatForPath(path, &why);
    if (!format)
        return exportFailed(error, why);
    const QByteArray data = renderPlot(plot, *format, options, &why);
    if (data.isEmpty())
        return exportFailed(error, QStringLiteral("cannot export %1: %2").arg(path, why));
    return writeFileAtomically(path, data, error);
}

} // namespace ovs::ui
