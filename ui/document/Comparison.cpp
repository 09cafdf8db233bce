#include "document/Comparison.h"

#include <QFileInfo>

#include <iterator>
#include <utility>

namespace ovs::ui {

ComparisonBuild buildComparison(Trace&& before, Trace&& after, const QString& beforePath, const QString& afterPath,
                                const AnalysisOptions& options)
{
    ComparisonBuild build;
    const RunMatching matching = matchRuns(before, after);
    if (matching.pairs.empty()) {
        build.error = QStringLiteral("No run of %1 pairs with a run of %2 by name (overlapscope-cli diff --run "
                                     "picks them by hand)")
                          .arg(QFileInfo(beforePath).fileName(), QFileInfo(afterPath).fileName());
        return build;
    }
    auto comparison = std::make_shared<Comparison>();
    comparison->beforePath = beforePath;
    comparison->afterPath = afterPath;
    comparison->diff = diffTraces(before, after, matching, options);

    Trace trace;
    trace.tool = std::move(after.tool);
    trace.createdUtc = std::move(after.createdUtc);
    for (const RunMatch& match : matching.pairs) {
        Run& b = before.runs[match.before];
        Run& a = after.runs[match.after];
        b.name = "before: " + b.name;
        a.name = "after: " + a.name;
        trace.runs.push_back(std::move(b));
        trace.runs.push_back(std::move(a));
    }
    comparison->afterSweepsBegin = before.sweeps.size();
    trace.sweeps = std::move(before.sweeps);
    trace.sweeps.insert(trace.sweeps.end(), std::make_move_iterator(after.sweeps.begin()),
                        std::make_move_iterator(after.sweeps.end()));
    build.trace = std::move(trace);
    build.comparison = std::move(comparison);
    return build;
}

} // namespace ovs::ui
