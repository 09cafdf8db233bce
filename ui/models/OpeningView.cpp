#include "models/OpeningView.h"

#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"

#include <vector>

namespace ovs::ui {

AxisSpan judgedAxisSpan(const TraceDocument& document, int run, const AnalysisCache& cache)
{
    // Core decides what is judged (judgement/JudgedSpan.h: regions, else the
    // steady state); a run judged whole does not narrow the view.
    const auto analysed = cache.analysisIfReady(run);
    if (!analysed || analysed->analysis.judged.wholeRun())
        return {};
    const Interval& judged = analysed->analysis.judged.span;
    return TimeFrame(document).toAxis(run, judged.beginNs, judged.endNs);
}

AxisSpan openingView(const TraceDocument& document, const AnalysisCache& cache)
{
    // Runs without a narrower judged span (our pipelines' runs, older
    // traces) do not widen it: the view opens on the work of those that have.
    std::vector<AxisSpan> judged;
    for (int run = 0; run < document.runCount(); ++run)
        judged.push_back(judgedAxisSpan(document, run, cache));
    return TimeFrame::fitAll(judged);
}

} // namespace ovs::ui
