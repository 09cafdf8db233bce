#include "timeline/RegionTooltip.h"

#include "style/DisplayText.h"
#include "style/RegionStyle.h"
#include "style/TimeFormat.h"
#include "timeline/TooltipRow.h"

namespace ovs::ui {

QString regionTooltipText(const Run& run, const Region& region, bool dark)
{
    QString text = QStringLiteral("<span style='color:%1'>&#9632;</span> <b>%2</b>")
                       .arg(regionColor(region.name, dark).name(), displayText(region.name).toHtmlEscaped());
    QString rows;
    rows += tooltipRow(QStringLiteral("duration"), TimeFormat::duration(static_cast<double>(region.durationNs()), 4));
    rows += tooltipRow(QStringLiteral("start"), TimeFormat::duration(static_cast<double>(region.beginNs), 4));
    rows += tooltipRow(QStringLiteral("end"), TimeFormat::duration(static_cast<double>(region.endNs), 4));
    rows += tooltipRow(QStringLiteral("source"), regionSourceLabel(region.source).toHtmlEscaped());
    if (region.lane < run.lanes.size())
        rows += tooltipRow(QStringLiteral("thread"), displayText(run.lanes[region.lane].name).toHtmlEscaped());
    if (region.depth > 0)
        rows += tooltipRow(QStringLiteral("depth"), QString::number(region.depth));
    return text + QStringLiteral("<table>") + rows + QStringLiteral("</table><i>click: zoom to it</i>");
}

} // namespace ovs::ui
