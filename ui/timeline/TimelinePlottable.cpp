#include "timeline/TimelinePlottable.h"

#include "base/Saturating.h"
#include "document/TraceDocument.h"
#include "style/OpStyle.h"
#include "style/RegionStyle.h"
#include "style/TimeFormat.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ovs::ui {

namespace {

// Pixel coordinates far outside the rect (deep zoom into a long op) are
// clamped: QPainter misdraws coordinates near the int range.
constexpr double kClampMargin = 4.0;
// Ops at least this wide get an outline; narrower ones would be all outline.
constexpr double kOutlineMinPixels = 4.0;
// How far (px) a hover or click may miss an op and still hit it.
constexpr double kHitTolerancePixels = 3.0;
// A ghost's fill: light enough that it never reads as a measured op, and
// its thin ops' marks a little stronger so they still show.
constexpr double kGhostFillAlpha = 0.4;
constexpr double kGhostMarkAlpha = 0.6;

const char* shortKindName(OpKind kind)
{
    switch (kind) {
    case OpKind::Upload: return "H2D";
    case OpKind::Kernel: return "kernel";
    case OpKind::Download: return "D2H";
    case OpKind::StageIn: return "stage in";
    case OpKind::StageOut: return "stage out";
    case OpKind::HostWait: return "wait";
    case OpKind::Alloc: return "alloc";
    case OpKind::Free: return "free";
    case OpKind::Sync: return "sync";
    case OpKind::Register: return "register";
    case OpKind::Memset: return "memset";
    case OpKind::DeviceCopy: return "D2D";
    case OpKind::ApiCall: return "api";
    case OpKind::PeerCopy: return "P2P";
    case OpKind::UnifiedMemory: return "UM";
    }
    return "";
}

QColor textColorOn(const QColor& fill)
{
    // Perceived luminance; the threshold keeps white on the mid greens/blues.
    const double y = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return y > 0.62 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

} // namespace

TimelinePlottable::TimelinePlottable(QCPAxis* timeAxis, QCPAxis* laneAxis, const TraceDocument* document, int run,
                                     const ViewState* view)
    : QCPAbstractPlottable(timeAxis, laneAxis), m_document(document), m_run(run), m_view(view)
{
    setSelectable(QCP::stNone);
    setAntialiasedFill(false);
    setAntialiased(false);
}

void TimelinePlottable::syncLaneRows() const
{
    // Recomputed, not only on a new lane count: a finished run on several
    // GPUs replaces its live lanes with the same number in device order,
    // and a frame or a hover may come before the plot's throttled refresh.
    // Linear in the lanes, as drawing them is.
    if (const RunTimeline* run = timeline())
        m_laneRows = LaneRows::of(run->run(), run->regionTracks());
}

const RunTimeline* TimelinePlottable::timeline() const
{
    if (!m_document || m_run < 0 || m_run >= m_document->runCount())
        return nullptr;
    return m_ghost ? m_ghost.get() : &m_document->run(m_run);
}

TimeAxisMapping TimelinePlottable::axisMapping() const
{
    // The axes follow the ViewState's int64 range (TimelinePlot sets them).
    const QCPAxis* axis = mKeyAxis.data();
    TimeAxisMapping mapping;
    mapping.startNs = saturatingCast<std::int64_t>(std::round(axis->range().lower));
    mapping.endNs = saturatingCast<std::int64_t>(std::round(axis->range().upper));
    mapping.left = axis->axisRect()->left();
    mapping.width = axis->axisRect()->width();
    return mapping;
}

double TimelinePlottable::xOf(std::int64_t runNs) const
{
    // Op times are the run's own; the axis is the document's shared one.
    return m_mapping.pixelAt(static_cast<double>(m_runAxis.toAxis(runNs)));
}

QRectF TimelinePlottable::opRect(std::int64_t startNs, std::int64_t endNs, int lane, const QRect& clip) const
{
    const QCPAxis* valueAxis = mValueAxis.data();
    double x0 = xOf(startNs);
    double x1 = xOf(endNs);
    x0 = std::clamp(x0, clip.left() - kClampMargin, clip.right() + kClampMargin);
    x1 = std::clamp(x1, clip.left() - kClampMargin, clip.right() + kClampMargin);
    // Every op stays visible: at least one pixel wide.
    if (x1 - x0 < 1.0)
        x1 = x0 + 1.0;
    const double row = m_laneRows.rowOf(lane);
    const double y0 = valueAxis->coordToPixel(row - kRowFill / 2);
    const double y1 = valueAxis->coordToPixel(row + kRowFill / 2);
    const double top = std::round(std::min(y0, y1));
    // Squeezed lanes (thousands in a picture) share pixel rows: each op
    // still covers at least one.
    const double bottom = std::max(std::round(std::max(y0, y1)), top + 1);
    return QRectF(QPointF(std::round(x0), top), QPointF(std::round(x1), bottom));
}

void TimelinePlottable::draw(QCPPainter* painter)
{
    const RunTimeline* drawn = timeline();
    if (!drawn || !mKeyAxis || !mValueAxis)
        return;
    syncLaneRows();
    const RunTimeline& run = *drawn;
    const QRect clip = clipRect();
    // A ghost starts where its measured run starts.
    m_runAxis = TimeFrame(*m_document).runAxis(m_run);
    m_mapping = axisMapping();
    painter->save();
    painter->setClipRect(clip);
    if (!m_ghost)
        drawTimedRegion(painter, clip);
    drawLaneStripes(painter, clip);
    drawGroupHeaders(painter, clip);
    drawRegionBand(painter, clip);
    // During a replay the ops are cut at the playhead: an op is drawn once
    // the playhead passed its start, and only up to it (drawLane also stops
    // its binary search there).
    const std::optional<double> playheadX = playheadPixel();
    if (playheadX) {
        painter->save();
        const double right = std::clamp(std::round(*playheadX) + 1, static_cast<double>(clip.left()),
                                        static_cast<double>(clip.right()) + 1);
        painter->setClipRect(QRectF(QPointF(clip.left(), clip.top()), QPointF(right, clip.bottom() + 1)));
    }
    for (int lane = 0; lane < run.laneCount(); ++lane)
        drawLane(painter, clip, lane);
    if (!m_ghost) {
        drawHighlight(painter, clip);
        drawSelection(painter, clip);
    }
    if (playheadX)
        painter->restore();
    drawMeasurement(painter, clip);
    drawPlayhead(painter, clip);
    painter->restore();
}

void TimelinePlottable::drawTimedRegion(QCPPainter* painter, const QRect& clip) const
{
    const Run& header = m_document->run(m_run).run();
    if (header.timedEndNs <= header.timedBeginNs)
        return;
    const double x0 = std::clamp(xOf(header.timedBeginNs), clip.left() - kClampMargin, clip.right() + kClampMargin);
    const double x1 = std::clamp(xOf(header.timedEndNs), clip.left() - kClampMargin, clip.right() + kClampMargin);
    painter->fillRect(QRectF(QPointF(x0, clip.top()), QPointF(x1, clip.bottom() + 1)), m_style.timedRegion);
    QPen edge(m_style.timedEdge, 1, Qt::DashLine);
    painter->setPen(edge);
    painter->drawLine(QPointF(std::round(x0), clip.top()), QPointF(std::round(x0), clip.bottom()));
    painter->drawLine(QPointF(std::round(x1), clip.top()), QPointF(std::round(x1), clip.bottom()));
}

void TimelinePlottable::drawLaneStripes(QCPPainter* painter, const QRect& clip) const
{
    const QCPAxis* valueAxis = mValueAxis.data();
    // Stripes thinner than 2 px would blend into a grey wash.
    if (std::abs(valueAxis->coordToPixel(1) - valueAxis->coordToPixel(0)) < 2)
        return;
    for (int row = 1; row < m_laneRows.rowCount(); row += 2) {
        if (m_laneRows.laneAt(row) < 0)
            continue; // a group header has its own band
        const double y0 = valueAxis->coordToPixel(row - 0.5);
        const double y1 = valueAxis->coordToPixel(row + 0.5);
        painter->fillRect(QRectF(QPointF(clip.left(), std::min(y0, y1)), QPointF(clip.right() + 1, std::max(y0, y1))),
                          m_style.stripe);
    }
}

void TimelinePlottable::drawGroupHeaders(QCPPainter* painter, const QRect& clip) const
{
    // A run on several GPUs: a band per group with the device's name at the
    // left of the plot, so it stays in view however the time axis pans.
    const QCPAxis* valueAxis = mValueAxis.data();
    for (const LaneRows::Header& header : m_laneRows.headers) {
        const double y0 = valueAxis->coordToPixel(header.row - 0.5);
        const double y1 = valueAxis->coordToPixel(header.row + 0.5);
        const QRectF band(QPointF(clip.left(), std::round(std::min(y0, y1))),
                          QPointF(clip.right() + 1, std::round(std::max(y0, y1))));
        painter->fillRect(band, m_style.groupBand);
        if (band.height() < QFontMetricsF(m_style.groupFont).height() * 0.8)
            continue; // squeezed rows: the band alone marks the group
        painter->setFont(m_style.groupFont);
        painter->setPen(m_style.groupText);
        painter->drawText(band.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                          header.text);
    }
}

void TimelinePlottable::drawRegionBand(QCPPainter* painter, const QRect& clip) const
{
    const RunTimeline* drawn = timeline();
    if (!drawn || m_laneRows.regionRows == 0)
        return;
    const RegionTracks& tracks = drawn->regionTracks();
    const Run& run = drawn->run();
    const QCPAxis* valueAxis = mValueAxis.data();
    const double top = valueAxis->coordToPixel(-0.5);
    const double bottom = valueAxis->coordToPixel(m_laneRows.regionRows - 0.5);
    painter->fillRect(QRectF(QPointF(clip.left(), std::round(std::min(top, bottom))),
                             QPointF(clip.right() + 1, std::round(std::max(top, bottom)))),
                      m_style.regionBand);
    const RegionRef selected = m_view ? m_view->selectedRegion() : RegionRef{};
    const std::int64_t lower = m_runAxis.toRun(m_mapping.startNs);
    const std::int64_t upper = m_runAxis.toRun(m_mapping.endNs);
    for (int track = 0; track < std::min(tracks.count(), m_laneRows.regionRows); ++track) {
        const double y0 = valueAxis->coordToPixel(track - kRegionFill / 2);
        const double y1 = valueAxis->coordToPixel(track + kRegionFill / 2);
        const double rowTop = std::round(std::min(y0, y1));
        const double rowBottom = std::max(std::round(std::max(y0, y1)), rowTop + 1);
        const RegionTracks::Track& t = tracks.tracks[static_cast<std::size_t>(track)];
        const auto [first, last] = tracks.visible(run, track, lower, upper);
        // Regions narrower than a few pixels merge into one block (in the
        // first one's colour), as ops fold: thousands of steps cost pixels,
        // not draws.
        QRectF folded;
        QColor foldedColor;
        const auto flush = [&] {
            if (!folded.isNull())
                painter->fillRect(folded, foldedColor);
            folded = QRectF();
        };
        for (std::size_t i = first; i < last; ++i) {
            const int index = static_cast<int>(t.regions[i]);
            const Region& region = run.regions[static_cast<std::size_t>(index)];
            double x0 = std::clamp(xOf(region.beginNs), clip.left() - kClampMargin, clip.right() + kClampMargin);
            double x1 = std::clamp(xOf(region.endNs), clip.left() - kClampMargin, clip.right() + kClampMargin);
            if (x1 - x0 < 1.0)
                x1 = x0 + 1.0;
            const QRectF rect(QPointF(std::round(x0), rowTop), QPointF(std::round(x1), rowBottom));
            if (rect.width() < kOutlineMinPixels) {
                if (!folded.isNull() && rect.left() <= folded.right() + 1) {
                    folded.setRight(std::max(folded.right(), rect.right()));
                    continue;
                }
                flush();
                folded = rect;
                foldedColor = regionColor(region.name, m_style.dark);
                continue;
            }
            flush();
            drawRegion(painter, rect, region, selected.run == m_run && selected.index == index);
        }
        flush();
    }
}

void TimelinePlottable::drawRegion(QCPPainter* painter, const QRectF& rect, const Region& region, bool selected) const
{
    const QColor color = regionColor(region.name, m_style.dark);
    painter->fillRect(rect, color);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(color.darker(m_style.dark ? 70 : 150), 1));
    painter->drawRect(rect.adjusted(0, 0, -1, -1));
    if (selected) {
        QPen halo(m_style.measureLabelBackground, 4);
        halo.setJoinStyle(Qt::MiterJoin);
        painter->setPen(halo);
        painter->drawRect(rect.adjusted(-2, -2, 2, 2));
        QPen pen(m_style.highlight, 2);
        pen.setJoinStyle(Qt::MiterJoin);
        painter->setPen(pen);
        painter->drawRect(rect.adjusted(-2, -2, 2, 2));
    }
    // The name where it fits, cut short with an ellipsis where most of it does.
    const QFontMetrics metrics(m_style.labelFont);
    if (rect.height() < metrics.height())
        return;
    const QRectF visible = rect.intersected(QRectF(clipRect())).adjusted(4, 0, -4, 0);
    const QString name = QString::fromStdString(region.name);
    const QString text = metrics.elidedText(name, Qt::ElideRight, static_cast<int>(visible.width()));
    if (text.isEmpty() || (text != name && text.size() < 4))
        return;
    painter->setFont(m_style.labelFont);
    painter->setPen(textColorOn(color));
    painter->drawText(visible, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, text);
}

void TimelinePlottable::drawLane(QCPPainter* painter, const QRect& clip, int lane)
{
    const RunTimeline& run = *timeline();
    const std::int64_t lower = m_mapping.startNs;
    std::int64_t upper = m_mapping.endNs;
    if (const auto playhead = m_view ? m_view->playhead() : std::nullopt)
        upper = std::min(upper, *playhead); // ops that start later have not happened yet
    if (upper < lower)
        return;
    const auto [first, last] = run.visibleRange(lane, m_runAxis.toRun(lower), m_runAxis.toRun(upper));
    const std::span<const Op> ops = run.laneOps(lane);
    TimelineFolding::fold(ops, first, last, m_mapping.nsPerPixel(), m_items);
    for (const TimelineFolding::Item& item : m_items) {
        if (item.isFolded())
            drawFolded(painter, clip, item, lane);
        else
            drawOp(painter, clip, ops[item.firstIndex], lane);
    }
    // Then, on top, a 1-pixel mark for every op narrower than a pixel, so
    // the wide op next to it (a kernel between two copies) cannot cover it.
    const double pixelNs = m_mapping.nsPerPixel();
    for (const TimelineFolding::Item& item : m_items) {
        if (item.isFolded()) {
            drawMarks(painter, clip, item, lane);
        } else if (static_cast<double>(item.endNs - item.startNs) < pixelNs) {
            QColor color = opColor(item.kind);
            if (m_ghost)
                color.setAlphaF(kGhostMarkAlpha);
            painter->fillRect(opRect(item.startNs, item.startNs, lane, clip), color);
        }
    }
}

void TimelinePlottable::drawOp(QCPPainter* painter, const QRect& clip, const Op& op, int lane)
{
    const QColor color = opColor(op.kind);
    const QRectF rect = opRect(op.startNs, op.endNs, lane, clip);
    if (m_ghost) {
        drawGhost(painter, rect, color);
        return;
    }
    // Squeezed rows (thousands of lanes) are too thin for outlines too.
    const bool roomy = rect.width() >= kOutlineMinPixels && rect.height() >= kOutlineMinPixels;
    if (op.hasExec() && roomy) {
        // The stream reached the op before the engine took it: the event
        // interval is shown light and hatched, the engine's interval solid.
        QColor waiting = color;
        waiting.setAlphaF(0.28);
        painter->fillRect(rect, waiting);
        painter->fillRect(rect, QBrush(color, Qt::BDiagPattern));
        painter->fillRect(opRect(op.execStartNs, op.execEndNs, lane, clip), color);
    } else {
        painter->fillRect(rect, color);
    }
    if (!roomy)
        return;
    QPen outline(color.darker(160), 1);
    painter->setPen(outline);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(rect.adjusted(0, 0, -1, -1));

    // A label inside when it fits: "H2D 3", else the chunk number alone.
    const QFontMetrics metrics(m_style.labelFont);
    if (rect.height() < metrics.height())
        return;
    const QRectF visible = rect.intersected(QRectF(clip)).adjusted(3, 0, -3, 0);
    const QString chunk = op.chunk >= 0 ? QString::number(op.chunk) : QString();
    const QString full = chunk.isEmpty() ? QString::fromLatin1(shortKindName(op.kind))
                                         : QStringLiteral("%1 %2").arg(QLatin1String(shortKindName(op.kind)), chunk);
    QString text;
    if (metrics.horizontalAdvance(full) <= visible.width())
        text = full;
    else if (!chunk.isEmpty() && metrics.horizontalAdvance(chunk) <= visible.width())
        text = chunk;
    if (text.isEmpty())
        return;
    painter->setFont(m_style.labelFont);
    painter->setPen(textColorOn(op.hasExec() ? color.lighter(170) : color));
    painter->drawText(visible, Qt::AlignCenter, text);
}

void TimelinePlottable::drawFolded(QCPPainter* painter, const QRect& clip, const TimelineFolding::Item& item,
                                   int lane) const
{
    // Several ops in one block: their colour with a darker cross-hatch and
    // outline, so it reads as "many" and never as one long op.
    const QColor color = opColor(item.kind);
    const QRectF rect = opRect(item.startNs, item.endNs, lane, clip);
    if (m_ghost) {
        drawGhost(painter, rect, color);
        return;
    }
    painter->fillRect(rect, color);
    if (rect.width() >= kOutlineMinPixels && rect.height() >= kOutlineMinPixels) {
        QColor hatch = color.darker(150);
        painter->fillRect(rect, QBrush(hatch, Qt::Dense6Pattern));
        QPen outline(color.darker(190), 1);
        painter->setPen(outline);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(rect.adjusted(0, 0, -1, -1));
    }
}

void TimelinePlottable::drawGhost(QCPPainter* painter, const QRectF& rect, const QColor& color) const
{
    QColor fill = color;
    fill.setAlphaF(kGhostFillAlpha);
    painter->fillRect(rect, fill);
    if (rect.width() < kOutlineMinPixels || rect.height() < kOutlineMinPixels)
        return;
    QPen outline(color, 1, Qt::DashLine);
    painter->setPen(outline);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(rect.adjusted(0, 0, -1, -1));
}

void TimelinePlottable::drawMarks(QCPPainter* painter, const QRect& clip, const TimelineFolding::Item& item,
                                  int lane) const
{
    // Every other kind in the block keeps a 1-pixel mark in its colour where
    // its first op starts: a short kernel among copies is never hidden.
    if (!item.isMixed())
        return;
    // Kinds whose first ops fall in one pixel take neighbouring pixels, so
    // a kernel and the download right after it both show.
    const QRectF rect = opRect(item.startNs, item.endNs, lane, clip);
    std::array<double, kOpKindCount> taken{};
    int takenCount = 0;
    for (int k = 0; k < kOpKindCount; ++k) {
        const auto kind = static_cast<OpKind>(k);
        if (kind == item.kind || !item.hasKind(kind))
            continue;
        const std::int64_t start = item.firstStartNs[static_cast<std::size_t>(k)];
        QRectF mark = opRect(start, start, lane, clip);
        double x = std::clamp(mark.left(), rect.left(), std::max(rect.left(), rect.right() - 1));
        while (std::find(taken.begin(), taken.begin() + takenCount, x) != taken.begin() + takenCount)
            x += 1;
        taken[static_cast<std::size_t>(takenCount++)] = x;
        mark.moveLeft(x);
        QColor color = opColor(kind);
        if (m_ghost)
            color.setAlphaF(kGhostMarkAlpha);
        painter->fillRect(mark, color);
    }
}

void TimelinePlottable::drawSelection(QCPPainter* painter, const QRect& clip) const
{
    const OpRef selected = m_view ? m_view->selection() : OpRef{};
    if (selected.run != m_run || !selected.isValid())
        return;
    const RunTimeline& run = m_document->run(m_run);
    if (selected.lane >= run.laneCount() || static_cast<std::size_t>(selected.index) >= run.laneOps(selected.lane).size())
        return;
    const Op& op = run.laneOps(selected.lane)[static_cast<std::size_t>(selected.index)];
    const QRectF rect = opRect(op.startNs, op.endNs, selected.lane, clip).adjusted(-2, -2, 2, 2);
    painter->setBrush(Qt::NoBrush);
    QPen halo(m_style.measureLabelBackground, 4);
    halo.setJoinStyle(Qt::MiterJoin);
    painter->setPen(halo);
    painter->drawRect(rect);
    QPen pen(m_style.highlight, 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->setPen(pen);
    painter->drawRect(rect);
}

void TimelinePlottable::drawHighlight(QCPPainter* painter, const QRect& clip) const
{
    if (!m_view || m_view->highlight().empty())
        return;
    const RunTimeline& run = m_document->run(m_run);
    // A finding's ops: a thin outline in the selection's colour over a halo,
    // so they stand out among the others however many share a pixel.
    QPen halo(m_style.measureLabelBackground, 3);
    halo.setJoinStyle(Qt::MiterJoin);
    QPen pen(m_style.highlight, 1);
    pen.setJoinStyle(Qt::MiterJoin);
    painter->setBrush(Qt::NoBrush);
    for (const OpRef& ref : m_view->highlight()) {
        if (ref.run != m_run || !ref.isValid() || ref.lane >= run.laneCount()
            || static_cast<std::size_t>(ref.index) >= run.laneOps(ref.lane).size())
            continue;
        const Op& op = run.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
        const QRectF rect = opRect(op.startNs, op.endNs, ref.lane, clip).adjusted(-1, -1, 1, 1);
        if (!rect.intersects(clip))
            continue;
        painter->setPen(halo);
        painter->drawRect(rect);
        painter->setPen(pen);
        painter->drawRect(rect);
    }
}

void TimelinePlottable::drawMeasurement(QCPPainter* painter, const QRect& clip) const
{
    const auto measurement = m_view ? m_view->measurement() : std::nullopt;
    if (!measurement)
        return;
    const double x0 = std::clamp(m_mapping.pixelAt(static_cast<double>(measurement->first)),
                                 clip.left() - kClampMargin, clip.right() + kClampMargin);
    const double x1 = std::clamp(m_mapping.pixelAt(static_cast<double>(measurement->second)),
                                 clip.left() - kClampMargin, clip.right() + kClampMargin);
    const QRectF band(QPointF(std::min(x0, x1), clip.top()), QPointF(std::max(x0, x1), clip.bottom() + 1));
    painter->fillRect(band, m_style.measureFill);
    QPen edge(m_style.measureEdge, 1);
    painter->setPen(edge);
    painter->drawLine(QPointF(std::round(band.left()), clip.top()), QPointF(std::round(band.left()), clip.bottom()));
    painter->drawLine(QPointF(std::round(band.right()), clip.top()), QPointF(std::round(band.right()), clip.bottom()));

    // The interval's length, centred on the band and kept inside the rect.
    const QString text = TimeFormat::duration(static_cast<double>(measurement->second - measurement->first), 4);
    QFont font = m_style.labelFont;
    font.setBold(true);
    const QFontMetrics metrics(font);
    const QSizeF size(metrics.horizontalAdvance(text) + 10, metrics.height() + 4);
    double left = band.center().x() - size.width() / 2;
    left = std::clamp(left, static_cast<double>(clip.left()) + 2, clip.right() - size.width() - 2);
    const QRectF label(QPointF(left, clip.top() + 2), size);
    painter->setAntialiasing(true);
    painter->setPen(QPen(m_style.measureEdge, 1));
    painter->setBrush(m_style.measureLabelBackground);
    painter->drawRoundedRect(label, 3, 3);
    painter->setAntialiasing(false);
    painter->setFont(font);
    painter->setPen(m_style.measureText);
    painter->drawText(label, Qt::AlignCenter, text);
}

std::optional<double> TimelinePlottable::playheadPixel() const
{
    const auto playhead = m_view ? m_view->playhead() : std::nullopt;
    if (!playhead)
        return std::nullopt;
    return m_mapping.pixelAt(static_cast<double>(*playhead));
}

void TimelinePlottable::drawPlayhead(QCPPainter* painter, const QRect& clip) const
{
    const auto x = playheadPixel();
    if (!x || *x < clip.left() - 1 || *x > clip.right() + 1)
        return;
    const double px = std::round(*x);
    // A halo in the background colour keeps the line readable over ops.
    painter->setPen(QPen(m_style.measureLabelBackground, 4));
    painter->drawLine(QPointF(px, clip.top()), QPointF(px, clip.bottom()));
    painter->setPen(QPen(m_style.playhead, 2));
    painter->drawLine(QPointF(px, clip.top()), QPointF(px, clip.bottom()));
}

void TimelinePlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    // A run in miniature: upload, kernel, download side by side.
    const double third = rect.width() / 3;
    const OpKind kinds[] = {OpKind::Upload, OpKind::Kernel, OpKind::Download};
    for (int i = 0; i < 3; ++i)
        painter->fillRect(QRectF(rect.left() + i * third, rect.top(), third, rect.height()), opColor(kinds[i]));
}

OpRef TimelinePlottable::opAt(const QPointF& pixel) const
{
    if (m_ghost)
        return {};
    const auto hit = laneOpAt(pixel);
    return hit ? OpRef{m_run, hit->first, hit->second} : OpRef{};
}

std::optional<std::pair<int, int>> TimelinePlottable::laneOpAt(const QPointF& pixel) const
{
    const RunTimeline* drawn = timeline();
    if (!drawn || !mKeyAxis || !mValueAxis)
        return {};
    if (!mKeyAxis->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    syncLaneRows();
    const RunTimeline& run = *drawn;
    const double rowCoord = mValueAxis->pixelToCoord(pixel.y());
    const int row = static_cast<int>(std::lround(rowCoord));
    const int lane = m_laneRows.laneAt(row); // -1 on a group header
    // Inside the row's band, with a little slack above and below the rects.
    if (lane < 0 || lane >= run.laneCount() || std::abs(rowCoord - row) > kRowFill / 2 + 0.08)
        return {};
    const TimeAxisMapping mapping = axisMapping();
    const std::int64_t t = TimeFrame(*m_document).toRun(m_run, mapping.nsAt(pixel.x()));
    const std::int64_t tolerance = saturatingCast<std::int64_t>(std::ceil(kHitTolerancePixels * mapping.nsPerPixel()));
    const int index = run.opIndexAt(lane, t, tolerance);
    if (index < 0)
        return {};
    return std::make_pair(lane, index);
}

RegionRef TimelinePlottable::regionAt(const QPointF& pixel) const
{
    const RunTimeline* drawn = timeline();
    if (m_ghost || !drawn || !mKeyAxis || !mValueAxis || !mKeyAxis->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    syncLaneRows();
    const double rowCoord = mValueAxis->pixelToCoord(pixel.y());
    const int track = m_laneRows.regionTrackAt(static_cast<int>(std::lround(rowCoord)));
    if (track < 0 || std::abs(rowCoord - track) > kRegionFill / 2 + 0.04)
        return {};
    const TimeAxisMapping mapping = axisMapping();
    const std::int64_t t = TimeFrame(*m_document).toRun(m_run, mapping.nsAt(pixel.x()));
    const std::int64_t tolerance = saturatingCast<std::int64_t>(std::ceil(kHitTolerancePixels * mapping.nsPerPixel()));
    const int index = drawn->regionTracks().regionAt(drawn->run(), track, t, tolerance);
    return index < 0 ? RegionRef{} : RegionRef{m_run, index};
}

double TimelinePlottable::selectTest(const QPointF& pos, bool onlySelectable, QVariant* details) const
{
    if (onlySelectable && !selectable())
        return -1;
    const OpRef op = opAt(pos);
    if (!op.isValid())
        return -1;
    if (details)
        details->setValue(QPoint(op.lane, op.index));
    return 0;
}

QCPRange TimelinePlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = false;
    const RunTimeline* drawn = timeline();
    if (!drawn)
        return {};
    const RunTimeline& run = *drawn;
    const auto end = std::max(run.endNs(), run.run().timedEndNs);
    const RunAxis axis = TimeFrame(*m_document).runAxis(m_run);
    foundRange = end > 0;
    return QCPRange(static_cast<double>(axis.toAxis(0)), static_cast<double>(axis.toAxis(end)));
}

QCPRange TimelinePlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = false;
    if (!timeline())
        return {};
    syncLaneRows();
    const int rows = m_laneRows.rowCount();
    foundRange = rows > 0;
    return QCPRange(-0.5, rows - 0.5);
}

} // namespace ovs::ui
