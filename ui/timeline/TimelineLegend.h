#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <vector>

namespace ovs::ui {

class TimelineLegendItem;
struct TimelineStyle;

// The timeline's legend: the op kinds present (in legendOrder) and, when any
// run has one, the timed region. It wraps into as many columns as fit the
// width it is laid out for.
class TimelineLegend : public QCPLegend {
    Q_OBJECT

public:
    TimelineLegend();

    // kinds: bit per OpKind. Returns whether the entries changed.
    bool setEntries(std::uint32_t kinds, bool timedRegion);
    void applyStyle(const TimelineStyle& style);
    std::vector<TimelineLegendItem*> entries() const;

    int columnsFor(int width) const;
    int heightFor(int width) const;
    // Wraps the entries into columnsFor(width).
    void layoutFor(int width);

private:
    std::uint32_t m_kinds = 0;
    bool m_timedRegion = false;
    bool m_built = false;
};

} // namespace ovs::ui
