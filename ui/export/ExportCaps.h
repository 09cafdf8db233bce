#pragma once

#include "export/ImageFormat.h"

#include <QString>

namespace ovs::ui {

// The documented size limits of every picture export (docs/gui.md): a
// hostile trace (65,535 lanes, 2,000 runs) must not turn into a
// gigapixel image. Layouts are capped at kMaxSidePixels a side in every
// format; PNG pixels (layout x scale) also at kMaxTotalPixels in all, which
// keeps the one image buffer at 512 MB (4 bytes a pixel), so an export stays
// under 1 GB of memory.
struct ExportCaps {
    static constexpr int kMaxSidePixels = 32768;
    static constexpr long long kMaxTotalPixels = 128LL * 1024 * 1024;

    // Empty when a width x height layout rendered at `scale` fits the caps;
    // otherwise what is over, with the figures.
    static QString check(ImageFormat format, int width, int height, double scale);
};

} // namespace ovs::ui
