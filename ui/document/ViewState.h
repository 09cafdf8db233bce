#pragma once

#include <QObject>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ovs::ui {

// Which op of the document: run, lane, index in RunTimeline::laneOps(lane).
struct OpRef {
    int run = -1;
    int lane = -1;
    int index = -1;
    bool isValid() const { return run >= 0 && lane >= 0 && index >= 0; }
    bool operator==(const OpRef&) const = default;
};

// Which region of the document: run, index in its Run::regions.
struct RegionRef {
    int run = -1;
    int index = -1;
    bool isValid() const { return run >= 0 && index >= 0; }
    bool operator==(const RegionRef&) const = default;
};

// A what-if shown as a ghost run under a measured one: the run and the
// fixes (core's FixSet) it is replayed with. run = -1: none.
struct WhatIfChoice {
    int run = -1;
    std::uint32_t fixes = 0;
    bool isValid() const { return run >= 0 && fixes != 0; }
    bool operator==(const WhatIfChoice&) const = default;
};

// The shared view of the time axis, selection and measurement: every view
// (timeline, details, charts) reads it and changes it through here, so they
// stay in step. Times are ns on the runs' common axis.
class ViewState : public QObject {
    Q_OBJECT

public:
    static constexpr std::int64_t kMinimumSpanNs = 100;

    explicit ViewState(QObject* parent = nullptr);

    std::int64_t visibleStartNs() const { return m_startNs; }
    std::int64_t visibleEndNs() const { return m_endNs; }
    std::int64_t extentNs() const { return m_extentNs; }
    // Clamped to [0, extent] where possible, never narrower than kMinimumSpanNs.
    void setVisibleRange(std::int64_t startNs, std::int64_t endNs);
    // factor > 1 zooms in around centerNs, < 1 zooms out.
    void zoom(double factor, std::int64_t centerNs);
    // Moves by a fraction of the visible width (negative: left).
    void pan(double fraction);
    // The whole extent (with a margin), e.g. after a load or on "reset view".
    void setExtent(std::int64_t extentNs);
    void resetView();

    OpRef selection() const { return m_selection; }
    void setSelection(const OpRef& op);

    // The region picked in the regions band (a step, an NVTX range): the
    // view zooms to it, and a findings view shows its findings.
    RegionRef selectedRegion() const { return m_selectedRegion; }
    void setSelectedRegion(const RegionRef& region);

    // Ops outlined together, e.g. those a finding concerns (the summary's
    // findings list); empty: none.
    const std::vector<OpRef>& highlight() const { return m_highlight; }
    void setHighlight(std::vector<OpRef> ops);

    // Two instants the user marked, to read the interval between them.
    std::optional<std::pair<std::int64_t, std::int64_t>> measurement() const { return m_measurement; }
    void setMeasurement(std::int64_t aNs, std::int64_t bNs);
    void clearMeasurement();

    // While a replay runs: the playhead (ns, common axis). Views hide what
    // has not happened yet (ops starting after it) and draw a line there.
    std::optional<std::int64_t> playhead() const { return m_playhead; }
    void setPlayhead(std::int64_t ns);
    void clearPlayhead();

    // The what-if drawn under its run (the findings view's choice, or "all
    // fixes"); the ghost itself comes from the document's AnalysisCache.
    WhatIfChoice whatIf() const { return m_whatIf; }
    void setWhatIf(const WhatIfChoice& choice);
    void clearWhatIf() { setWhatIf({}); }

    // Runs (ranks) folded to their title row: the timeline draws no lanes
    // for them. The time range is untouched, so folding never loses the zoom.
    bool isCollapsed(int run) const;
    void setCollapsed(int run, bool collapsed);
    // Every run of `runCount` folded, or none.
    void setAllCollapsed(int runCount, bool collapsed);
    const std::vector<int>& collapsedRuns() const { return m_collapsed; }

signals:
    void visibleRangeChanged(qint64 startNs, qint64 endNs);
    void selectionChanged(const ovs::ui::OpRef& op);
    // A region was picked (run, index in its Run::regions), or the pick
    // cleared (-1, -1).
    void regionSelected(int run, int region);
    void highlightChanged();
    void measurementChanged();
    void playheadChanged();
    void whatIfChanged();
    void collapsedChanged();

private:
    std::int64_t m_startNs = 0;
    std::int64_t m_endNs = 1'000'000;
    std::int64_t m_extentNs = 1'000'000;
    OpRef m_selection;
    RegionRef m_selectedRegion;
    std::vector<OpRef> m_highlight;
    std::optional<std::pair<std::int64_t, std::int64_t>> m_measurement;
    std::optional<std::int64_t> m_playhead;
    WhatIfChoice m_whatIf;
    std::vector<int> m_collapsed; // sorted run indices
};

} // namespace ovs::ui
