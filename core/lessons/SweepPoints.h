#pragma once

#include "findings/Verdict.h"
#include "lessons/Lesson.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// One run of a lesson's sweep, as its chart draws it: the swept value, the
// wall time measured, and the bound (the time the run could not beat at the
// rates it was judged by: its verdict's, findings/Verdict.h).
struct SweepPoint {
    std::string stepId;
    std::string label;          // the value in words: "4 MiB", "12 passes"
    std::uint64_t value = 0;    // chunk bytes or kernel passes per chunk
    std::int64_t wallNs = 0;
    std::int64_t boundNs = 0;   // 0: no bound known (no rates for the run)
    BoundKind binding = BoundKind::None; // the pipeline model's binding term
    bool simulated = false;     // the run ran on a simulated device
};

// A lesson's sweep chart: its points in order of the swept value.
struct SweepSeries {
    SweptParameter parameter = SweptParameter::None;
    std::vector<SweepPoint> points;
    // Index of the fastest point, where the runs do the same work at every
    // value (chunk size: the same data, cut differently) so that the fastest
    // is the answer to look for; -1 when there are no points, or when the
    // work grows with the value (kernel passes: the least work is fastest,
    // which teaches nothing).
    int best = -1;
    bool simulated = false; // any point is
    bool hasBounds() const; // any point has one
};

// The runs of `measured` that completed, each at the value of the lesson's
// swept parameter; empty when the lesson sweeps nothing. A run that did not
// complete (cancelled, failed) has no wall time to draw and is left out.
SweepSeries sweepSeries(const Lesson& lesson, const LessonMeasurements& measured);

// The swept parameter in words, for an axis: "chunk size".
std::string sweptParameterName(SweptParameter parameter);

} // namespace ovs
