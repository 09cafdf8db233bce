#pragma once

#include "analysis/TraceDiff.h"
#include "trace/Trace.h"

#include <QString>

#include <cstddef>
#include <memory>
#include <optional>

namespace ovs::ui {

// Two traces compared, as the window shows them (File > Compare…) and
// `overlapscope export --compare` draws them: the document holds each pair's
// runs one above the other (before, then after), aligned where their judged
// regions start, and this says what the comparison found (core's TraceDiff,
// the numbers `overlapscope-cli diff` prints).
struct Comparison {
    QString beforePath;
    QString afterPath;
    TraceDiff diff;
    // The document's sweeps from here on came from the after trace; those
    // before it from the before trace (the bandwidth chart overlays them).
    std::size_t afterSweepsBegin = 0;
};

// What buildComparison makes: the document's trace and the comparison, or
// the reason there is none.
struct ComparisonBuild {
    std::optional<Trace> trace;
    std::shared_ptr<const Comparison> comparison;
    QString error;
};

// Pairs the runs by name (core's matchRuns) and compares them (diffTraces);
// the trace holds, per pair, the before run named "before: NAME" and the after
// run named "after: NAME", then both traces' sweeps. Runs left unpaired are
// left out (the comparison names them). An error where no run pairs.
// Analyses and replays every paired run: off the GUI thread in the window.
// `options`: what each run is judged with (export --compare's --pinned-rate).
ComparisonBuild buildComparison(Trace&& before, Trace&& after, const QString& beforePath, const QString& afterPath,
                                const AnalysisOptions& options = {});

} // namespace ovs::ui
