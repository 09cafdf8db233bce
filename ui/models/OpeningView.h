#pragma once

#include "document/TimeFrame.h"

namespace ovs::ui {

class AnalysisCache;
class TraceDocument;

// What the window opens on, which depends on the runs' analyses: here, on
// the floor of the analysis cache, so that TimeFrame (document) knows
// nothing of it. The framing itself is TimeFrame's.

// The span a run is judged over (core's JudgedSpan, from the run's
// analysis in `cache`), on the axis; empty where the run is judged whole
// (our pipelines, older traces) and until its analysis is in: the cache
// judges on its worker, since putting a million-op run back together here
// would block the GUI thread. It asks for nothing.
AxisSpan judgedAxisSpan(const TraceDocument& document, int run, const AnalysisCache& cache);

// The judged spans of the runs analysed so far together, framed
// (TimeFrame::fitAll); empty when none narrows the view (then the whole
// document is shown). The window asks the cache for the runs' analyses and
// frames again as they arrive (AnalysisCache::analysed); setup stays one
// "show all" (0, Home) away.
AxisSpan openingView(const TraceDocument& document, const AnalysisCache& cache);

} // namespace ovs::ui
