#include "document/ViewState.h"

#include "base/Saturating.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ovs::ui {

ViewState::ViewState(QObject* parent) : QObject(parent) {}

void ViewState::setVisibleRange(std::int64_t startNs, std::int64_t endNs)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    // Saturating throughout: a loaded trace may put times near 2^63.
    if (saturatingSub<std::int64_t>(endNs, startNs) < kMinimumSpanNs) {
        const std::int64_t mid = std::midpoint(startNs, endNs);
        startNs = saturatingSub<std::int64_t>(mid, kMinimumSpanNs / 2);
        endNs = saturatingAdd<std::int64_t>(startNs, kMinimumSpanNs);
    }
    // Keep the view over the data: shift (not shrink) a range that runs off
    // either end, unless it is wider than everything.
    const std::int64_t limit = std::max(m_extentNs, kMinimumSpanNs);
    const std::int64_t span = saturatingSub<std::int64_t>(endNs, startNs);
    if (span >= limit) {
        startNs = std::min<std::int64_t>(startNs, 0);
        endNs = std::max(endNs, limit);
        startNs = std::max(startNs, saturatingSub<std::int64_t>(endNs, span));
    } else {
        if (startNs < 0) {
            endNs = saturatingSub<std::int64_t>(endNs, startNs);
            startNs = 0;
        }
        if (endNs > limit) {
            startNs = saturatingSub<std::int64_t>(startNs, endNs - limit);
            endNs = limit;
        }
    }
    if (startNs == m_startNs && endNs == m_endNs)
        return;
    m_startNs = startNs;
    m_endNs = endNs;
    emit visibleRangeChanged(m_startNs, m_endNs);
}

void ViewState::zoom(double factor, std::int64_t centerNs)
{
    if (!(factor > 0))
        return;
    const double start = static_cast<double>(m_startNs);
    const double end = static_cast<double>(m_endNs);
    const double center = static_cast<double>(centerNs);
    setVisibleRange(saturatingCast<std::int64_t>(std::round(center - (center - start) / factor)),
                    saturatingCast<std::int64_t>(std::round(center + (end - center) / factor)));
}

void ViewState::pan(double fraction)
{
    const double span = static_cast<double>(m_endNs) - static_cast<double>(m_startNs);
    const std::int64_t shift = saturatingCast<std::int64_t>(std::round(fraction * span));
    setVisibleRange(saturatingAdd<std::int64_t>(m_startNs, shift), saturatingAdd<std::int64_t>(m_endNs, shift));
}

void ViewState::setExtent(std::int64_t extentNs)
{
    m_extentNs = std::max<std::int64_t>(extentNs, kMinimumSpanNs);
}

void ViewState::resetView()
{
    // A 2% margin on the right so the last op does not touch the edge.
    setVisibleRange(0, saturatingAdd<std::int64_t>(m_extentNs, m_extentNs / 50));
}

void ViewState::setSelection(const OpRef& op)
{
    if (op == m_selection)
        return;
    m_selection = op;
    emit selectionChanged(m_selection);
}

void ViewState::setSelectedRegion(const RegionRef& region)
{
    const RegionRef next = region.isValid() ? region : RegionRef{};
    if (next == m_selectedRegion)
        return;
    m_selectedRegion = next;
    emit regionSelected(m_selectedRegion.run, m_selectedRegion.index);
}

void ViewState::setHighlight(std::vector<OpRef> ops)
{
    if (ops == m_highlight)
        return;
    m_highlight = std::move(ops);
    emit highlightChanged();
}

void ViewState::setMeasurement(std::int64_t aNs, std::int64_t bNs)
{
    m_measurement = std::make_pair(std::min(aNs, bNs), std::max(aNs, bNs));
    emit measurementChanged();
}

void ViewState::clearMeasurement()
{
    if (!m_measurement)
        return;
    m_measurement.reset();
    emit measurementChanged();
}

void ViewState::setPlayhead(std::int64_t ns)
{
    if (m_playhead == ns)
        return;
    m_playhead = ns;
    emit playheadChanged();
}

void ViewState::clearPlayhead()
{
    if (!m_playhead)
        return;
    m_playhead.reset();
    emit playheadChanged();
}

void ViewState::setWhatIf(const WhatIfChoice& choice)
{
    const WhatIfChoice next = choice.isValid() ? choice : WhatIfChoice{};
    if (next == m_whatIf)
        return;
    m_whatIf = next;
    emit whatIfChanged();
}

bool ViewState::isCollapsed(int run) const
{
    return std::binary_search(m_collapsed.begin(), m_collapsed.end(), run);
}

void ViewState::setCollapsed(int run, bool collapsed)
{
    if (run < 0 || isCollapsed(run) == collapsed)
        return;
    if (collapsed)
        m_collapsed.insert(std::lower_bound(m_collapsed.begin(), m_collapsed.end(), run), run);
    else
        m_collapsed.erase(std::lower_bound(m_collapsed.begin(), m_collapsed.end(), run));
    emit collapsedChanged();
}

void ViewState::setAllCollapsed(int runCount, bool collapsed)
{
    std::vector<int> next;
    for (int run = 0; collapsed && run < runCount; ++run)
        next.push_back(run);
    if (next == m_collapsed)
        return;
    m_collapsed = std::move(next);
    emit collapsedChanged();
}

} // namespace ovs::ui
