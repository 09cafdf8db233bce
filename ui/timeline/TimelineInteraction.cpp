#include "timeline/TimelineInteraction.h"

#include "base/Saturating.h"

#include <Qt>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ovs::ui {

std::optional<TimelineInteraction::Command> TimelineInteraction::commandForKey(int key)
{
    switch (key) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal: return Command::ZoomIn;
    case Qt::Key_S:
    case Qt::Key_Minus: return Command::ZoomOut;
    case Qt::Key_A:
    case Qt::Key_Left: return Command::PanLeft;
    case Qt::Key_D:
    case Qt::Key_Right: return Command::PanRight;
    case Qt::Key_0:
    case Qt::Key_Home: return Command::ShowAll;
    case Qt::Key_Escape: return Command::Escape;
    default: return std::nullopt;
    }
}

void TimelineInteraction::press(double x, Button button, Modifiers modifiers)
{
    m_pressX = x;
    m_bandEndX = x;
    m_pressMapping = m_mapping;
    m_drag = Drag::None;
    if (button == Button::Left && modifiers.control) {
        m_drag = Drag::Measure;
        m_measureAnchorNs = m_mapping.nsAt(x);
    } else if ((button == Button::Left && modifiers.shift) || button == Button::Right) {
        m_drag = Drag::ZoomBand;
    } else if (button == Button::Left) {
        m_drag = Drag::Pending;
    }
}

bool TimelineInteraction::move(double x, bool moved)
{
    switch (m_drag) {
    case Drag::Pending:
        if (!moved)
            return false;
        m_drag = Drag::Pan;
        [[fallthrough]];
    case Drag::Pan: {
        // Relative to the view at the press, so the grabbed instant stays under the pointer.
        const std::int64_t shift =
            saturatingCast<std::int64_t>(std::round(-(x - m_pressX) * m_pressMapping.nsPerPixel()));
        m_view.setVisibleRange(saturatingAdd<std::int64_t>(m_pressMapping.startNs, shift),
                               saturatingAdd<std::int64_t>(m_pressMapping.endNs, shift));
        return false;
    }
    case Drag::ZoomBand:
        m_bandEndX = x;
        return true;
    case Drag::Measure:
        if (moved)
            m_view.setMeasurement(m_measureAnchorNs, m_mapping.nsAt(x));
        return false;
    case Drag::None:
        return false;
    }
    return false;
}

void TimelineInteraction::release(double x, bool moved, const OpRef& hit)
{
    switch (m_drag) {
    case Drag::Pending:
        m_view.setSelection(hit);
        break;
    case Drag::ZoomBand:
        if (std::abs(x - m_pressX) >= kMinimumBandPixels)
            m_view.setVisibleRange(m_mapping.nsAt(std::min(m_pressX, x)), m_mapping.nsAt(std::max(m_pressX, x)));
        break;
    case Drag::Measure:
        if (moved)
            m_view.setMeasurement(m_measureAnchorNs, m_mapping.nsAt(x));
        else
            m_view.clearMeasurement();
        break;
    case Drag::Pan:
    case Drag::None:
        break;
    }
    m_drag = Drag::None;
}

void TimelineInteraction::release(double x, bool moved, const RegionRef& region, const AxisSpan& framed)
{
    if (m_drag != Drag::Pending) {
        release(x, moved, OpRef{});
        return;
    }
    m_drag = Drag::None;
    if (region.isValid() && region == m_view.selectedRegion()) {
        // A second click puts the pick down: the findings go back to the
        // judged span; the view stays where the user is looking.
        m_view.setSelectedRegion({});
        return;
    }
    m_view.setSelectedRegion(region);
    if (!framed.isEmpty())
        m_view.setVisibleRange(framed.startNs, framed.endNs);
}

std::pair<double, double> TimelineInteraction::band() const
{
    if (m_drag != Drag::ZoomBand)
        return {0, 0};
    const double left = m_mapping.left;
    const double right = m_mapping.left + m_mapping.width;
    return {std::clamp(std::min(m_pressX, m_bandEndX), left, right),
            std::clamp(std::max(m_pressX, m_bandEndX), left, right)};
}

std::int64_t TimelineInteraction::centerNs(std::optional<double> cursorX) const
{
    if (cursorX && m_mapping.containsX(*cursorX))
        return m_mapping.nsAt(*cursorX);
    return std::midpoint(m_view.visibleStartNs(), m_view.visibleEndNs());
}

bool TimelineInteraction::wheel(double horizontalNotches, double verticalNotches, Modifiers modifiers,
                                std::optional<double> cursorX)
{
    if (modifiers.control) {
        if (verticalNotches == 0)
            return false;
        m_view.zoom(std::pow(kWheelZoomPerNotch, verticalNotches), centerNs(cursorX));
        return true;
    }
    double horizontal = horizontalNotches;
    if (horizontal == 0 && modifiers.shift)
        horizontal = verticalNotches;
    if (horizontal == 0)
        return false;
    m_view.pan(-horizontal * kKeyPanFraction);
    return true;
}

void TimelineInteraction::pinch(double value, std::optional<double> cursorX)
{
    m_view.zoom(1.0 + value, centerNs(cursorX));
}

bool TimelineInteraction::command(Command command, std::optional<double> cursorX)
{
    switch (command) {
    case Command::ZoomIn: m_view.zoom(kKeyZoomFactor, centerNs(cursorX)); return true;
    case Command::ZoomOut: m_view.zoom(1.0 / kKeyZoomFactor, centerNs(cursorX)); return true;
    case Command::PanLeft: m_view.pan(-kKeyPanFraction); return true;
    case Command::PanRight: m_view.pan(kKeyPanFraction); return true;
    case Command::ShowAll: m_view.resetView(); return true;
    case Command::Escape:
        if (m_view.measurement()) {
            m_view.clearMeasurement();
            return true;
        }
        if (m_view.selection().isValid()) {
            m_view.setSelection({});
            return true;
        }
        if (m_view.selectedRegion().isValid()) {
            m_view.setSelectedRegion({});
            return true;
        }
        return false;
    }
    return false;
}

void TimelineInteraction::zoomToOp(const OpRef& op, const AxisSpan& span)
{
    const AxisSpan framed = TimeFrame::frame(span, FramePolicy::Op);
    m_view.setSelection(op);
    m_view.setVisibleRange(framed.startNs, framed.endNs);
}

} // namespace ovs::ui
