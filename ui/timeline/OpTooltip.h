#pragma once

#include "document/RunTimeline.h"

#include <QString>

namespace ovs::ui {

// What the timeline's hover tooltip says about one op: kind, chunk, lane,
// times, size and achieved rate; for ops with an engine-true interval, how
// long they waited for the engine. Rich text (QToolTip renders it).
QString opTooltipText(const RunTimeline& run, int lane, const Op& op);

} // namespace ovs::ui
