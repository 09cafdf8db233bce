#pragma once

#include "models/WhatIfGhost.h"

#include "replay/Fix.h"

#include <QString>

class QFontMetrics;

namespace ovs::ui {

// The title row of a what-if ghost: the fixes, the replayed span against
// the replay of the run as it was (the measured span beside it), and the
// saving, which is the finding's cost: "what if: pin host memory — replay
// 6.10 ms vs 262 ms unchanged (measured 262 ms): saves 256 ms (97.7%)".
QString ghostTitle(FixSet fixes, const WhatIfGhost& ghost);

// The title broken into lines at spaces so that none is wider than `width`
// pixels in `metrics` (a word wider than that keeps a line of its own): a
// title row is never cut off at the plot's right edge, however narrow the
// timeline or long the fix's words.
QString wrapTitle(const QString& title, const QFontMetrics& metrics, int width);

} // namespace ovs::ui
