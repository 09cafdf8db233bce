#include "timeline/TimeRulerTicker.h"

#include "style/TimeFormat.h"

#include <algorithm>
#include <cmath>

namespace ovs::ui {

TimeRulerTicker::TimeRulerTicker(const QCPAxis* axis) : m_axis(axis) {}

double TimeRulerTicker::getTickStep(const QCPRange& range)
{
    // Ticks are generated before the layout is updated for a new size (an
    // export at another width), so the width comes from the viewport, which
    // is already set, minus the axis rect's fixed margins.
    double pixels = m_axis->axisRect()->width();
    if (const QCustomPlot* plot = m_axis->parentPlot()) {
        const QMargins margins = m_axis->axisRect()->margins();
        pixels = plot->viewport().width() - margins.left() - margins.right();
    }
    // Room for a label and a gap at the axis's font: large fonts
    // (presentation mode, slides) get fewer ticks, never overlapping labels.
    const double labelPixels = QFontMetricsF(m_axis->tickLabelFont()).horizontalAdvance(QStringLiteral("000.00 ms"));
    const int target = std::max(2, static_cast<int>(pixels / std::max(kPixelsPerTick, labelPixels * 1.5)));
    m_step = TimeFormat::niceStep(range.size(), target);
    m_magnitude = std::max(std::abs(range.lower), std::abs(range.upper));
    return m_step;
}

QString TimeRulerTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return TimeFormat::tick(tick, m_step, m_magnitude);
}

} // namespace ovs::ui
