#pragma once

#include <cstdint>
#include <vector>

namespace ovs {
struct ResolvedFocus;
struct Region;
}

namespace ovs::ui {

class TraceDocument;

// A range of the shared time axis, in ns. Empty (end <= start): nothing to show.
struct AxisSpan {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool isEmpty() const { return endNs <= startNs; }
    bool operator==(const AxisSpan&) const = default;
};

// One run's place on the shared axis: its own times plus its display
// offset, saturating. Taken once per frame by what draws many ops (finding
// the offset looks at every run).
struct RunAxis {
    std::int64_t offsetNs = 0;
    std::int64_t toAxis(std::int64_t runNs) const;
    std::int64_t toRun(std::int64_t axisNs) const;
};

// How much around a span a view shows.
enum class FramePolicy : std::uint8_t {
    Fit,     // a twentieth of the span each side: a finding's ops, timed regions, a region, the judged span
    Op,      // a quarter each side: one op, double-clicked
    Context, // the span again each side (it fills the middle third): a lesson's focus, against what came before and after
};

// The window's one time authority beside ViewState (as KDAB hotspot's
// TimeLineData): a run's own times to the shared axis and back (each run
// sits at its display offset; saturating, as hostile traces put times near
// 2^63), and which axis range frames a span, by policy. The timeline, the
// lesson view and its slide export, the replay and the findings all frame
// and convert here, so the same lesson looks the same in the window and on
// a slide. Pixels are TimeAxisMapping's.
class TimeFrame {
public:
    explicit TimeFrame(const TraceDocument& document) : m_document(document) {}

    RunAxis runAxis(int run) const;
    std::int64_t toAxis(int run, std::int64_t runNs) const;
    std::int64_t toRun(int run, std::int64_t axisNs) const;
    AxisSpan toAxis(int run, std::int64_t beginNs, std::int64_t endNs) const;

    // The view range that shows `span` as `policy` says (at least
    // ViewState::kMinimumSpanNs of margin each side).
    static AxisSpan frame(const AxisSpan& span, FramePolicy policy);

    // Several spans together (empty ones add nothing), framed to fit;
    // empty when all are. What the window opens on (models/OpeningView.h:
    // the runs' judged spans) and a lesson's overview.
    static AxisSpan fitAll(const std::vector<AxisSpan>& spans);

    // A lesson's focus (run index = document run), framed in context.
    AxisSpan lessonFocus(const ResolvedFocus& focus) const;
    // A lesson's overview: every run's timed region (a run without one: the
    // whole run), framed; the setup before them would squeeze the lesson
    // into a sliver. Empty when the document has no runs.
    AxisSpan lessonOverview() const;
    // One region of a run, framed (a click on the regions band).
    AxisSpan region(int run, const Region& region) const;

private:
    const TraceDocument& m_document;
};

} // namespace ovs::ui
