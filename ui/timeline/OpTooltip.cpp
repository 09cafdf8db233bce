#include "timeline/OpTooltip.h"

#include "style/OpStyle.h"
#include "style/TimeFormat.h"
#include "style/DisplayText.h"
#include "timeline/TooltipRow.h"

#include <QStringList>

namespace ovs::ui {

namespace {

QString laneName(const RunTimeline& run, int lane)
{
    const auto& lanes = run.run().lanes;
    if (lane >= 0 && static_cast<std::size_t>(lane) < lanes.size() && !lanes[static_cast<std::size_t>(lane)].name.empty())
        return displayText(lanes[static_cast<std::size_t>(lane)].name);
    return QStringLiteral("lane %1").arg(lane);
}

QString swatch(OpKind kind)
{
    return QStringLiteral("<span style='color:%1'>&#9632;</span> ").arg(opColor(kind).name());
}

// The rate the engine achieved: over the engine-true interval when known,
// since the event interval includes time queued behind other copies.
std::int64_t rateIntervalNs(const Op& op)
{
    return op.hasExec() ? op.execEndNs - op.execStartNs : op.durationNs();
}

void appendCommonRows(QString& rows, const RunTimeline& run, int lane, const Op& op)
{
    rows += tooltipRow(QStringLiteral("lane"), laneName(run, lane).toHtmlEscaped());
    rows += tooltipRow(QStringLiteral("start"), TimeFormat::duration(static_cast<double>(op.startNs), 4));
    rows += tooltipRow(QStringLiteral("end"), TimeFormat::duration(static_cast<double>(op.endNs), 4));
    rows += tooltipRow(QStringLiteral("duration"), TimeFormat::duration(static_cast<double>(op.durationNs())));
    if (op.bytes > 0) {
        rows += tooltipRow(QStringLiteral("size"), TimeFormat::bytes(op.bytes));
        rows += tooltipRow(op.hasExec() ? QStringLiteral("achieved (engine)") : QStringLiteral("achieved"),
                    TimeFormat::bandwidth(op.bytes, rateIntervalNs(op)));
    }
    if (op.memory != HostMemoryKind::None)
        rows += tooltipRow(QStringLiteral("host memory"), QString::fromLatin1(toString(op.memory)));
}

QString waitSentence(const Op& op)
{
    return QStringLiteral("waited %1 before the engine ran it")
        .arg(TimeFormat::duration(static_cast<double>(op.execStartNs - op.startNs)));
}

QString heading(const Op& op)
{
    QString text = swatch(op.kind) + QStringLiteral("<b>%1</b>").arg(opKindLabel(op.kind).toHtmlEscaped());
    if (op.chunk >= 0)
        text += QStringLiteral(" &middot; chunk %1").arg(op.chunk);
    return text;
}

} // namespace

QString opTooltipText(const RunTimeline& run, int lane, const Op& op)
{
    QString rows;
    appendCommonRows(rows, run, lane, op);
    QString text = heading(op) + QStringLiteral("<table>") + rows + QStringLiteral("</table>");
    if (op.hasExec())
        text += QStringLiteral("<i>%1</i>").arg(waitSentence(op));
    return text;
}

} // namespace ovs::ui
