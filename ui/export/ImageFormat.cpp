#include "export/ImageFormat.h"

#include <QFileInfo>

namespace ovs::ui {

std::optional<ImageFormat> imageFormatForPath(const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ImageFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ImageFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ImageFormat::Pdf;
    if (error)
        *error = QStringLiteral("cannot tell the format of '%1': use .png, .svg or .pdf").arg(path);
    return std::nullopt;
}

QString imageFormatName(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Png: return QStringLiteral("PNG");
    case ImageFormat::Svg: return QStringLiteral("SVG");
    case ImageFormat::Pdf: return QStringLiteral("PDF");
    }
    return {};
}

} // namespace ovs::ui
