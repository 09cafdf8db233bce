#pragma once

#include <cstdint>

namespace ovs::ui {

// The time axis of the timeline's plot column as pixels: [startNs, endNs]
// spans [left, left + width] px, as QCPAxis maps its range onto its rect.
// Qt-free, so the arithmetic that zoom, pan, hover and export all rely on is
// tested with data rows (as KDAB hotspot tests its TimeLineData), including
// traces whose times reach 2^63 ns.
struct TimeAxisMapping {
    std::int64_t startNs = 0;
    std::int64_t endNs = 1;
    double left = 0;
    double width = 1;

    // The visible span, at least 1 ns; exact as a double even near the int64 limits.
    double spanNs() const;
    double nsPerPixel() const;
    double pixelAt(double ns) const;
    double timeAt(double x) const;
    // timeAt rounded into the int64 range (never overflows).
    std::int64_t nsAt(double x) const;
    bool containsX(double x) const { return x >= left && x <= left + width; }
};

} // namespace ovs::ui
