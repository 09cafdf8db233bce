#include "timeline/TimeAxisMapping.h"

#include "base/Saturating.h"

#include <algorithm>

namespace ovs::ui {

double TimeAxisMapping::spanNs() const
{
    // In double: endNs - startNs overflows int64 for a range across 2^63.
    return std::max(1.0, static_cast<double>(endNs) - static_cast<double>(startNs));
}

double TimeAxisMapping::nsPerPixel() const
{
    return spanNs() / std::max(1.0, width);
}

double TimeAxisMapping::pixelAt(double ns) const
{
    return left + (ns - static_cast<double>(startNs)) / spanNs() * std::max(1.0, width);
}

double TimeAxisMapping::timeAt(double x) const
{
    return static_cast<double>(startNs) + (x - left) * nsPerPixel();
}

std::int64_t TimeAxisMapping::nsAt(double x) const
{
    return saturatingCast<std::int64_t>(std::round(timeAt(x)));
}

} // namespace ovs::ui
