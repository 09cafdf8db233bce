#include "timeline/TimelineLegend.h"

#include "style/OpStyle.h"
#include "timeline/TimelineLegendItem.h"
#include "timeline/TimelineStyle.h"

#include <algorithm>

namespace ovs::ui {

namespace {

constexpr int kIndent = 8;
constexpr int kLegendRightMargin = 18;

} // namespace

TimelineLegend::TimelineLegend()
{
    setFillOrder(QCPLayoutGrid::foColumnsFirst);
    setBorderPen(Qt::NoPen);
    setBrush(Qt::NoBrush);
    setColumnSpacing(18);
    setRowSpacing(3);
    setMargins(QMargins(kIndent, 4, kLegendRightMargin, 8));
}

bool TimelineLegend::setEntries(std::uint32_t kinds, bool timedRegion)
{
    if (m_built && kinds == m_kinds && timedRegion == m_timedRegion)
        return false;
    m_built = true;
    m_kinds = kinds;
    m_timedRegion = timedRegion;
    clearItems();
    for (OpKind kind : legendOrder())
        if (kinds & (1u << static_cast<unsigned>(kind)))
            addItem(new TimelineLegendItem(this, kind));
    if (timedRegion)
        addItem(new TimelineLegendItem(this, std::nullopt));
    return true;
}

void TimelineLegend::applyStyle(const TimelineStyle& style)
{
    setFont(style.base);
    setTextColor(style.text);
    setIconTextPadding(6);
    for (TimelineLegendItem* item : entries()) {
        item->setFont(style.base);
        item->setTextColor(style.text);
        item->setTimedRegionColors(style.plottable.timedRegion, style.plottable.timedEdge);
    }
}

std::vector<TimelineLegendItem*> TimelineLegend::entries() const
{
    // A wrapped legend grid has empty cells: itemCount() counts cells.
    std::vector<TimelineLegendItem*> items;
    for (int i = 0; i < elementCount(); ++i)
        if (auto* item = qobject_cast<TimelineLegendItem*>(elementAt(i)))
            items.push_back(item);
    return items;
}

int TimelineLegend::columnsFor(int width) const
{
    // The most columns that fit: each column is as wide as its widest item.
    const std::vector<TimelineLegendItem*> items = entries();
    if (items.empty())
        return 1;
    const int available = width - margins().left() - margins().right();
    for (int columns = static_cast<int>(items.size()); columns > 1; --columns) {
        int total = (columns - 1) * columnSpacing();
        for (int column = 0; column < columns; ++column) {
            int widest = 0;
            for (std::size_t i = static_cast<std::size_t>(column); i < items.size(); i += static_cast<std::size_t>(columns))
                widest = std::max(widest, items[i]->minimumOuterSizeHint().width());
            total += widest;
        }
        if (total <= available)
            return columns;
    }
    return 1;
}

int TimelineLegend::heightFor(int width) const
{
    const std::vector<TimelineLegendItem*> items = entries();
    if (items.empty())
        return 0;
    int itemHeight = 0;
    for (const TimelineLegendItem* item : items)
        itemHeight = std::max(itemHeight, item->minimumOuterSizeHint().height());
    const int count = static_cast<int>(items.size());
    const int columns = columnsFor(width);
    const int rows = (count + columns - 1) / columns;
    return rows * itemHeight + (rows - 1) * rowSpacing() + margins().top() + margins().bottom();
}

void TimelineLegend::layoutFor(int width)
{
    if (entries().empty())
        return;
    const int columns = columnsFor(width);
    if (wrap() != columns) {
        setWrap(columns);
        setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

} // namespace ovs::ui
