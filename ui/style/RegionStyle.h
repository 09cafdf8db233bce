#pragma once

#include "trace/Run.h"

#include <QColor>
#include <QString>

#include <string_view>

namespace ovs::ui {

// A region's colour in the regions band, the same in the window and in
// every export: a hue from its name, hashed without the trailing step number
// (ProfilerStep#0, #1 ... share one colour, as do iteration 1, 2 ...), so a
// name keeps its colour across runs, traces and sessions; muted so the band
// never competes with the op colours. Light and dark themes each get their
// own lightness.
QColor regionColor(std::string_view name, bool dark);
// The name as hashed: "ProfilerStep#12" -> "ProfilerStep#".
std::string_view regionFamily(std::string_view name);
// "nvtx", "profiler step", ... for tooltips.
QString regionSourceLabel(RegionSource source);

} // namespace ovs::ui
