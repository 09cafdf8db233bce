#include "export/ExportCaps.h"

#include <cmath>

namespace ovs::ui {

QString ExportCaps::check(ImageFormat format, int width, int height, double scale)
{
    if (width <= 0 || height <= 0)
        return QStringLiteral("the picture would be empty (%1 x %2 px)").arg(width).arg(height);
    if (width > kMaxSidePixels || height > kMaxSidePixels)
        return QStringLiteral("the layout would be %1 x %2 px, over the cap of %3 px a side")
            .arg(width)
            .arg(height)
            .arg(kMaxSidePixels);
    if (format != ImageFormat::Png)
        return {};
    if (!(scale > 0) || !std::isfinite(scale))
        return QStringLiteral("the scale must be a positive number");
    const double pixelsWide = std::ceil(width * scale);
    const double pixelsHigh = std::ceil(height * scale);
    if (pixelsWide > kMaxSidePixels || pixelsHigh > kMaxSidePixels
        || pixelsWide * pixelsHigh > static_cast<double>(kMaxTotalPixels))
        return QStringLiteral("the PNG would be %1 x %2 px (%3 MP), over the cap of %4 px a side and %5 MP in all")
            .arg(pixelsWide, 0, 'f', 0)
            .arg(pixelsHigh, 0, 'f', 0)
            .arg(pixelsWide * pixelsHigh / (1024.0 * 1024.0), 0, 'f', 0)
            .arg(kMaxSidePixels)
            .arg(kMaxTotalPixels / (1024 * 1024));
    return {};
}

} // namespace ovs::ui
