#include "timeline/GhostTitle.h"

#include "style/TimeFormat.h"

#include <QFontMetrics>
#include <QObject>
#include <QStringList>

namespace ovs::ui {

QString ghostTitle(FixSet fixes, const WhatIfGhost& ghost)
{
    const auto ms = [](std::int64_t ns) { return TimeFormat::duration(static_cast<double>(ns), 4); };
    const QString what = QString::fromStdString(describeFixes(fixes));
    const std::int64_t saving = ghost.unchangedSpanNs - ghost.spanNs;
    QString title = QObject::tr("what if: %1 \u2014 replay %2 vs %3 unchanged (measured %4): ")
                        .arg(what, ms(ghost.spanNs), ms(ghost.unchangedSpanNs), ms(ghost.measuredSpanNs));
    if (saving <= 0 || ghost.unchangedSpanNs <= 0)
        return title + QObject::tr("saves nothing");
    const double percent = 100.0 * static_cast<double>(saving) / static_cast<double>(ghost.unchangedSpanNs);
    return title + QObject::tr("saves %1 (%2%)").arg(ms(saving)).arg(percent, 0, 'f', 1);
}

QString wrapTitle(const QString& title, const QFontMetrics& metrics, int width)
{
    if (width <= 0 || metrics.horizontalAdvance(title) <= width)
        return title;
    QStringList lines;
    QString line;
    for (const QString& word : title.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}

} // namespace ovs::ui
