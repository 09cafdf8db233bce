#pragma once

#include "trace/Run.h"

#include <QString>

namespace ovs::ui {

// What the timeline's hover tooltip says about a region of the regions
// band: its name in its colour, duration, where it begins and ends, its
// source and thread, and that a click zooms to it. Rich text.
QString regionTooltipText(const Run& run, const Region& region, bool dark);

} // namespace ovs::ui
