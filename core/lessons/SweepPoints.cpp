#include "lessons/SweepPoints.h"

#include "lessons/LessonKit.h"

#include <algorithm>

namespace ovs {

bool SweepSeries::hasBounds() const
{
    return std::any_of(points.begin(), points.end(), [](const SweepPoint& p) { return p.boundNs > 0; });
}

std::string sweptParameterName(SweptParameter parameter)
{
    switch (parameter) {
    case SweptParameter::None:
        return {};
    case SweptParameter::ChunkBytes:
        return "chunk size";
    case SweptParameter::KernelRepeats:
        return "kernel passes per chunk";
    }
    return {};
}

SweepSeries sweepSeries(const Lesson& lesson, const LessonMeasurements& measured)
{
    SweepSeries series;
    series.parameter = lesson.swept;
    if (lesson.swept == SweptParameter::None)
        return series;
    for (const LessonRunResult& r : measured.runs) {
        if (r.run.status != RunStatus::Completed || r.run.wallNs() <= 0)
            continue;
        SweepPoint point;
        point.stepId = r.stepId;
        if (lesson.swept == SweptParameter::ChunkBytes) {
            point.value = r.run.params.chunkBytes;
            point.label = lessonkit::mib(point.value);
        } else {
            point.value = static_cast<std::uint64_t>(std::max(0, r.run.params.kernelRepeats));
            point.label = std::to_string(point.value) + (point.value == 1 ? " pass" : " passes");
        }
        if (point.value == 0)
            continue; // no place on a log axis, and no run of a sweep has it
        point.wallNs = r.run.wallNs();
        point.boundNs = std::max<std::int64_t>(0, r.analysis.findings.verdict.boundNs);
        point.binding = r.analysis.findings.verdict.binding();
        point.simulated = r.run.device.simulated;
        series.simulated = series.simulated || point.simulated;
        series.points.push_back(std::move(point));
    }
    std::stable_sort(series.points.begin(), series.points.end(),
                     [](const SweepPoint& a, const SweepPoint& b) { return a.value < b.value; });
    if (lesson.swept != SweptParameter::ChunkBytes)
        return series;
    for (std::size_t i = 0; i < series.points.size(); ++i)
        if (series.best < 0 || series.points[i].wallNs < series.points[static_cast<std::size_t>(series.best)].wallNs)
            series.best = static_cast<int>(i);
    return series;
}

} // namespace ovs
