#include "document/TimeFrame.h"

#include "document/TraceDocument.h"
#include "document/ViewState.h"

#include "base/Saturating.h"
#include "lessons/Lesson.h"

#include <algorithm>
#include <limits>

namespace ovs::ui {

namespace {

// Grows `into` to cover `span` (an empty `into` becomes `span`).
void unite(AxisSpan& into, const AxisSpan& span)
{
    if (span.isEmpty())
        return;
    if (into.isEmpty()) {
        into = span;
        return;
    }
    into.startNs = std::min(into.startNs, span.startNs);
    into.endNs = std::max(into.endNs, span.endNs);
}

} // namespace

std::int64_t RunAxis::toAxis(std::int64_t runNs) const
{
    return saturatingAdd<std::int64_t>(runNs, offsetNs);
}

std::int64_t RunAxis::toRun(std::int64_t axisNs) const
{
    return saturatingSub<std::int64_t>(axisNs, offsetNs);
}

RunAxis TimeFrame::runAxis(int run) const
{
    return {m_document.displayOffsetNs(run)};
}

std::int64_t TimeFrame::toAxis(int run, std::int64_t runNs) const
{
    return runAxis(run).toAxis(runNs);
}

std::int64_t TimeFrame::toRun(int run, std::int64_t axisNs) const
{
    return runAxis(run).toRun(axisNs);
}

AxisSpan TimeFrame::toAxis(int run, std::int64_t beginNs, std::int64_t endNs) const
{
    const RunAxis axis = runAxis(run);
    return {axis.toAxis(beginNs), axis.toAxis(endNs)};
}

AxisSpan TimeFrame::frame(const AxisSpan& span, FramePolicy policy)
{
    const std::int64_t length = std::max<std::int64_t>(saturatingSub<std::int64_t>(span.endNs, span.startNs), 0);
    std::int64_t margin = 0;
    switch (policy) {
    case FramePolicy::Fit: margin = length / 20; break;
    case FramePolicy::Op: margin = length / 4; break;
    case FramePolicy::Context: margin = length; break;
    }
    margin = std::max(margin, ViewState::kMinimumSpanNs);
    return {saturatingSub<std::int64_t>(span.startNs, margin), saturatingAdd<std::int64_t>(span.endNs, margin)};
}

AxisSpan TimeFrame::fitAll(const std::vector<AxisSpan>& spans)
{
    AxisSpan all;
    for (const AxisSpan& span : spans)
        unite(all, span);
    return all.isEmpty() ? all : frame(all, FramePolicy::Fit);
}

AxisSpan TimeFrame::lessonFocus(const ResolvedFocus& focus) const
{
    return frame(toAxis(focus.runIndex, focus.startNs, focus.endNs), FramePolicy::Context);
}

AxisSpan TimeFrame::lessonOverview() const
{
    std::vector<AxisSpan> timedRegions;
    for (int run = 0; run < m_document.runCount(); ++run) {
        const RunTimeline& timeline = m_document.run(run);
        const Run& header = timeline.run();
        const bool timed = header.timedEndNs > header.timedBeginNs;
        timedRegions.push_back(
            toAxis(run, timed ? header.timedBeginNs : 0, timed ? header.timedEndNs : timeline.endNs()));
    }
    return fitAll(timedRegions);
}

AxisSpan TimeFrame::region(int run, const Region& region) const
{
    return frame(toAxis(run, region.beginNs, region.endNs), FramePolicy::Fit);
}

} // namespace ovs::ui
