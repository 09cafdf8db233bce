#pragma once

#include "document/TimeFrame.h"
#include "document/ViewState.h"
#include "timeline/TimeAxisMapping.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace ovs::ui {

// What mouse, wheel and keys do to the timeline (Perfetto / Nsight Systems
// conventions), as a widget-free state machine over the shared ViewState:
//   Ctrl+wheel, pinch     zoom time around the cursor
//   wheel                 left to the parent (scrolls a surrounding view)
//   Shift+wheel, h-wheel  pan time
//   W / S, + / -          zoom in / out around the cursor (else the centre)
//   A / D, Left / Right   pan by a tenth of the view
//   0, Home               show everything (ViewState::resetView)
//   left drag             pan
//   Shift+drag, right drag  zoom to the dragged time range
//   Ctrl+drag             measure the interval (Ctrl+click clears it)
//   click                 select the op (empty space clears); on the regions
//                         band, select the region and zoom to it

//   double click          zoom to the op
//   Esc                   clear the measurement, else the selection, else the region
// Only time zooms and pans; lanes keep their rows. The widget translates its
// events into these calls (positions in px along the time axis) and sets the
// plot column's mapping before each, so tests drive gestures with data rows.
class TimelineInteraction {
public:
    enum class Button { Left, Right, Other };
    enum class Drag { None, Pending, Pan, ZoomBand, Measure };
    enum class Command { ZoomIn, ZoomOut, PanLeft, PanRight, ShowAll, Escape };
    struct Modifiers {
        bool control = false;
        bool shift = false;
    };

    static constexpr double kKeyZoomFactor = 1.25;
    static constexpr double kKeyPanFraction = 0.1;
    static constexpr double kWheelZoomPerNotch = 1.2;
    // A zoom band narrower than this is a slip, not a range.
    static constexpr double kMinimumBandPixels = 4;

    explicit TimelineInteraction(ViewState& view) : m_view(view) {}

    void setMapping(const TimeAxisMapping& mapping) { m_mapping = mapping; }
    const TimeAxisMapping& mapping() const { return m_mapping; }

    // The command a key (Qt::Key) stands for, if any.
    static std::optional<Command> commandForKey(int key);

    // A press at x inside the plot column starts a gesture.
    void press(double x, Button button, Modifiers modifiers);
    // `moved`: the pointer has gone past the drag distance from the press.
    // Returns true when the zoom band changed (the widget repaints it).
    bool move(double x, bool moved);
    // Ends the gesture; `hit` is the op under the pointer, selected by a click.
    void release(double x, bool moved, const OpRef& hit);
    // Ends the gesture over a region of the regions band: a click selects
    // it and shows `framed` (TimeFrame::region); a click on the region
    // already picked puts it down (the view stays).
    void release(double x, bool moved, const RegionRef& region, const AxisSpan& framed);
    void cancel() { m_drag = Drag::None; }
    Drag drag() const { return m_drag; }
    // The zoom band being dragged, in px, ordered and inside the column.
    std::pair<double, double> band() const;

    // Wheel turns in notches (angle / 120). Returns false for a plain
    // vertical wheel, which belongs to whatever holds the timeline.
    bool wheel(double horizontalNotches, double verticalNotches, Modifiers modifiers, std::optional<double> cursorX);
    void pinch(double value, std::optional<double> cursorX);
    // Returns false when there was nothing to do (Esc with nothing to clear).
    bool command(Command command, std::optional<double> cursorX);
    // Selects the op and frames it (FramePolicy::Op); its span on the shared axis.
    void zoomToOp(const OpRef& op, const AxisSpan& span);

private:
    // Where zooms centre: the cursor when it is over the column, else the view's middle.
    std::int64_t centerNs(std::optional<double> cursorX) const;

    ViewState& m_view;
    TimeAxisMapping m_mapping;
    Drag m_drag = Drag::None;
    double m_pressX = 0;
    double m_bandEndX = 0;
    TimeAxisMapping m_pressMapping;
    std::int64_t m_measureAnchorNs = 0;
};

} // namespace ovs::ui
