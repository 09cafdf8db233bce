#include "timeline/LessonCallouts.h"

#include "document/TraceDocument.h"
#include "timeline/TimelinePlot.h"
#include "timeline/TimelinePlottable.h"
#include "timeline/TimelineStyle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ovs::ui {

namespace {

// Magenta is far from every op colour (as the replay's playhead), so the
// lesson's marks never read as an op kind, in either theme.
QColor accentFor(bool dark)
{
    return dark ? QColor(0xff, 0x5c, 0xe1) : QColor(0xc0, 0x00, 0x9c);
}

double overlapArea(const QRectF& a, const QRectF& b)
{
    const QRectF i = a.intersected(b);
    return i.isValid() ? i.width() * i.height() : 0.0;
}

QPointF nearestPoint(const QRectF& r, const QPointF& p)
{
    return {std::clamp(p.x(), r.left(), r.right()), std::clamp(p.y(), r.top(), r.bottom())};
}

// What a box should not cover, besides bands and other boxes: the words of
// the plot (run titles, lane names, the ruler, the legend), which a box would
// make unreadable, and the ops in view; empty stretches of lanes are free.
struct Obstacles {
    std::vector<QRectF> text;
    std::vector<QRectF> ops;
    std::vector<QRect> runs; // each run's rows
};

// Ops in view as pixel rectangles, neighbours a few pixels apart merged (the
// cost is an area, not a count), at most `limit` of them.
void addOpRects(const TimelinePlot& plot, int run, std::vector<QRectF>& out, std::size_t limit)
{
    const TraceDocument* document = plot.document();
    const QCPAxisRect* rect = plot.runAxisRect(run);
    if (!document || !rect || run >= document->runCount())
        return;
    const QCPAxis* time = rect->axis(QCPAxis::atBottom);
    const QCPAxis* lanes = rect->axis(QCPAxis::atLeft);
    const std::int64_t offset = document->displayOffsetNs(run);
    const RunTimeline& timeline = document->run(run);
    const auto t0 = static_cast<std::int64_t>(time->range().lower) - offset;
    const auto t1 = static_cast<std::int64_t>(time->range().upper) - offset;
    for (int lane = 0; lane < timeline.laneCount() && out.size() < limit; ++lane) {
        const double row = plot.laneRow(run, lane); // grouped by device on several GPUs
        const double y0 = lanes->coordToPixel(row - TimelinePlottable::kRowFill / 2);
        const double y1 = lanes->coordToPixel(row + TimelinePlottable::kRowFill / 2);
        const auto [first, last] = timeline.visibleRange(lane, t0, t1);
        QRectF current;
        for (std::size_t i = first; i < last && out.size() < limit; ++i) {
            const Op& op = timeline.laneOps(lane)[i];
            const double x0 = std::max<double>(rect->rect().left(), time->coordToPixel(static_cast<double>(op.startNs + offset)));
            const double x1 = std::min<double>(rect->rect().right(), time->coordToPixel(static_cast<double>(op.endNs + offset)));
            const QRectF r(QPointF(x0, std::min(y0, y1)), QPointF(std::max(x1, x0 + 1), std::max(y0, y1)));
            if (!current.isNull() && r.left() <= current.right() + 3) {
                current.setRight(std::max(current.right(), r.right()));
                continue;
            }
            if (!current.isNull())
                out.push_back(current);
            current = r;
        }
        if (!current.isNull())
            out.push_back(current);
    }
}

Obstacles obstaclesOf(const TimelinePlot& plot)
{
    Obstacles o;
    const auto elements = plot.plotLayout()->elements(true);
    for (QCPLayoutElement* element : elements) {
        if (auto* title = qobject_cast<QCPTextElement*>(element)) {
            const QRect r = title->rect();
            const double width = QFontMetricsF(title->font()).horizontalAdvance(title->text());
            o.text.push_back(QRectF(r.left(), r.top(), width + 16, r.height()));
        } else if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            o.text.push_back(legend->outerRect());
        } else if (auto* rect = qobject_cast<QCPAxisRect*>(element)) {
            const QRect inner = rect->rect();
            const QRect outer = rect->outerRect();
            o.text.push_back(QRectF(QPointF(outer.left(), inner.top()), QPointF(inner.left(), inner.bottom())));
            if (rect->axis(QCPAxis::atBottom)->tickLabels())
                o.text.push_back(QRectF(QPointF(outer.left(), inner.bottom()), outer.bottomRight()));
        }
    }
    for (int run = 0; plot.runAxisRect(run); ++run) {
        o.runs.push_back(plot.runAxisRect(run)->rect());
        addOpRects(plot, run, o.ops, 4000);
    }
    return o;
}

} // namespace

LessonCallouts::LessonCallouts(TimelinePlot* plot) : QCPAbstractItem(plot), m_plot(plot)
{
    // The box may sit outside its run's rows (above or below them), so the
    // item clips to the whole plot and clips the band itself.
    setClipToAxisRect(false);
    setSelectable(false);
}

void LessonCallouts::setCallouts(std::vector<Callout> callouts)
{
    m_callouts = std::move(callouts);
    m_boxes.assign(m_callouts.size(), QRectF());
    m_bands.assign(m_callouts.size(), QRectF());
}

LessonCallouts* LessonCallouts::of(const TimelinePlot& plot)
{
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* callouts = qobject_cast<LessonCallouts*>(plot.item(i)))
            return callouts;
    return nullptr;
}

double LessonCallouts::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1; // never takes a click from the timeline
}

void LessonCallouts::draw(QCPPainter* painter)
{
    m_boxes.assign(m_callouts.size(), QRectF());
    m_bands.assign(m_callouts.size(), QRectF());
    const TraceDocument* document = m_plot->document();
    if (!document)
        return;
    const TimelineStyle style = TimelineStyle::from(m_plot->palette(), m_plot->font());
    const bool dark = style.background.lightness() < 128;
    const QColor accent = accentFor(dark);

    // Bands first, all of them, so that no box is placed over any band.
    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        const Callout& c = m_callouts[i];
        const QCPAxisRect* rect = m_plot->runAxisRect(c.run);
        if (!rect || c.run >= document->runCount())
            continue;
        const QCPAxis* time = rect->axis(QCPAxis::atBottom);
        const double offset = static_cast<double>(document->displayOffsetNs(c.run));
        const QRect r = rect->rect();
        double x0 = time->coordToPixel(static_cast<double>(c.startNs) + offset);
        double x1 = time->coordToPixel(static_cast<double>(c.endNs) + offset);
        if (x1 < r.left() || x0 > r.right() + 1)
            continue; // out of view
        x0 = std::max<double>(x0, r.left());
        x1 = std::min<double>(x1, r.right() + 1);
        if (x1 - x0 < 4) { // a focus narrower than a few pixels still shows
            const double mid = (x0 + x1) / 2;
            x0 = mid - 2;
            x1 = mid + 2;
        }
        m_bands[i] = QRectF(QPointF(x0, r.top()), QPointF(x1, r.bottom() + 1));
    }

    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        const QRectF& band = m_bands[i];
        if (band.isNull())
            continue;
        QColor fill = accent;
        fill.setAlpha(dark ? 52 : 38);
        painter->fillRect(band, fill);
        QColor edge = accent;
        edge.setAlpha(200);
        painter->setPen(QPen(edge, 1.5));
        painter->drawLine(QPointF(band.left(), band.top()), QPointF(band.left(), band.bottom()));
        painter->drawLine(QPointF(band.right(), band.top()), QPointF(band.right(), band.bottom()));

        // The ops: an outline in the accent over a halo of the background,
        // so each stands out however many share a pixel.
        const Callout& c = m_callouts[i];
        const QCPAxisRect* rect = m_plot->runAxisRect(c.run);
        const QCPAxis* time = rect->axis(QCPAxis::atBottom);
        const QCPAxis* lanes = rect->axis(QCPAxis::atLeft);
        const double offset = static_cast<double>(document->displayOffsetNs(c.run));
        const QRectF clip = QRectF(rect->rect()).adjusted(-2, -2, 2, 2);
        const double width = std::max(2.0, QFontMetricsF(style.base).height() / 8);
        QPen halo(style.background, width + 2.5);
        halo.setJoinStyle(Qt::MiterJoin);
        QPen pen(accent, width);
        pen.setJoinStyle(Qt::MiterJoin);
        painter->setBrush(Qt::NoBrush);
        for (const Op& op : c.ops) {
            const double lane = m_plot->laneRow(c.run, op.lane); // its row: grouped by device on several GPUs
            const double yTop = lanes->coordToPixel(lane - TimelinePlottable::kRowFill / 2);
            const double yBottom = lanes->coordToPixel(lane + TimelinePlottable::kRowFill / 2);
            double ox0 = time->coordToPixel(static_cast<double>(op.startNs) + offset);
            double ox1 = time->coordToPixel(static_cast<double>(op.endNs) + offset);
            if (ox1 - ox0 < 3) {
                const double mid = (ox0 + ox1) / 2;
                ox0 = mid - 1.5;
                ox1 = mid + 1.5;
            }
            QRectF box(QPointF(ox0, std::min(yTop, yBottom)), QPointF(ox1, std::max(yTop, yBottom)));
            box = box.adjusted(-1, -1, 1, 1).intersected(clip);
            if (!box.isValid())
                continue;
            painter->setPen(halo);
            painter->drawRect(box);
            painter->setPen(pen);
            painter->drawRect(box);
        }
    }

    // The boxes: beside the band in its run's rows if there is room, else
    // above or below the run; never over a band or another box, always
    // inside the plot. Narrower (taller) boxes are tried before giving up.
    QFont font = style.base;
    font.setPointSizeF(font.pointSizeF() * 1.1);
    const QFontMetricsF metrics(font);
    const double pad = std::round(metrics.height() * 0.45);
    const double gap = std::round(metrics.height() * 0.8);
    const QRectF view = QRectF(m_plot->viewport()).adjusted(4, 4, -4, -4);
    std::vector<QRectF> placed;
    const Obstacles obstacles = obstaclesOf(*m_plot);
    painter->setFont(font);
    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        const QRectF& band = m_bands[i];
        const Callout& c = m_callouts[i];
        if (band.isNull() || c.text.isEmpty())
            continue;
        const QRectF runRect = band; // spans the run's rows
        QRectF best;
        double bestCost = std::numeric_limits<double>::max();
        double bestCovered = 0;
        for (const double share : {0.42, 0.32, 0.24, 0.18}) {
            const double maxText = std::max(metrics.averageCharWidth() * 16, view.width() * share - 2 * pad);
            const QRectF text = metrics.boundingRect(QRectF(0, 0, maxText, 1e6), Qt::TextWordWrap, c.text);
            const QSizeF size(std::ceil(text.width()) + 2 * pad, std::ceil(text.height()) + 2 * pad);
            const double centredY = std::clamp(runRect.center().y() - size.height() / 2, view.top(),
                                               std::max(view.top(), view.bottom() - size.height()));
            const double centredX = std::clamp(band.center().x() - size.width() / 2, view.left(),
                                               std::max(view.left(), view.right() - size.width()));
            // Beside the band (centred on the run, or level with its top or
            // bottom), above or below the run, at the plot's edges, or in
            // any run's rows; the cheapest place wins.
            std::vector<double> xs{band.right() + gap, band.left() - gap - size.width(), centredX, view.left(),
                                   view.right() - size.width()};
            std::vector<double> ys{centredY, runRect.top(), runRect.bottom() - size.height(),
                                   runRect.top() - gap - size.height(), runRect.bottom() + gap, view.top(),
                                   view.bottom() - size.height()};
            for (const QRect& r : obstacles.runs) {
                xs.push_back(r.left() + pad);
                xs.push_back(r.right() - pad - size.width());
                ys.push_back(r.top() + pad / 2);
                ys.push_back(r.center().y() - size.height() / 2);
                ys.push_back(r.bottom() - pad / 2 - size.height());
            }
            for (const double x : xs)
                for (const double y : ys) {
                    const QRectF box(QPointF(x, y), size);
                    // Outside the plot is never chosen; covering a band or a
                    // box costs most (the least bad place wins when none is
                    // free), then words, then ops; then nearer is better.
                    double covered = 0;
                    for (const QRectF& other : m_bands)
                        covered += other.isNull() ? 0.0 : overlapArea(box, other.adjusted(-2, 0, 2, 0));
                    for (const QRectF& other : placed)
                        covered += overlapArea(box, other.adjusted(-pad, -pad, pad, pad));
                    double words = 0;
                    for (const QRectF& other : obstacles.text)
                        words += overlapArea(box, other);
                    double ops = 0;
                    for (const QRectF& other : obstacles.ops)
                        ops += overlapArea(box, other);
                    const QPointF d = box.center() - band.center();
                    const double cost = (view.contains(box) ? 0.0 : 1e15) + covered * 1e4 + words * 20 + ops * 10
                                        + std::hypot(d.x(), d.y());
                    if (cost < bestCost) {
                        bestCost = cost;
                        best = box;
                        bestCovered = covered;
                    }
                }
            if (bestCovered == 0.0 && view.contains(best) && bestCost < 1e4)
                break; // free of bands and nearly of everything else: no narrower box needed
        }
        // Nothing fits inside the plot (a tiny widget): keep it in view anyway.
        if (!view.contains(best)) {
            best.moveLeft(std::clamp(best.left(), view.left(), std::max(view.left(), view.right() - best.width())));
            best.moveTop(std::clamp(best.top(), view.top(), std::max(view.top(), view.bottom() - best.height())));
        }
        placed.push_back(best);
        m_boxes[i] = best;

        const QPointF to = nearestPoint(band, best.center());
        const QPointF from = nearestPoint(best, to);
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setPen(QPen(accent, std::max(2.0, metrics.height() / 10)));
        painter->drawLine(from, to);
        QColor back = style.background;
        back.setAlpha(242);
        painter->setBrush(back);
        painter->drawRoundedRect(best, pad / 2, pad / 2);
        painter->setPen(style.text);
        painter->drawText(best.adjusted(pad, pad, -pad, -pad), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                          c.text);
    }
}

void setLessonFocus(TimelinePlot& plot, const std::vector<ResolvedFocus>& focus, const LessonMeasurements& measured)
{
    std::vector<LessonCallouts::Callout> callouts;
    for (const ResolvedFocus& f : focus) {
        if (f.runIndex < 0 || static_cast<std::size_t>(f.runIndex) >= measured.runs.size() || f.ops.empty())
            continue;
        const Run& run = measured.runs[static_cast<std::size_t>(f.runIndex)].run;
        LessonCallouts::Callout c;
        c.run = f.runIndex;
        c.startNs = f.startNs;
        c.endNs = f.endNs;
        c.text = QString::fromStdString(f.callout);
        for (const std::size_t index : f.ops)
            if (index < run.ops.size())
                c.ops.push_back(run.ops[index]);
        callouts.push_back(std::move(c));
    }
    LessonCallouts* item = LessonCallouts::of(plot);
    if (!item)
        item = new LessonCallouts(&plot); // owned by the plot
    item->setCallouts(std::move(callouts));
    plot.replot(QCustomPlot::rpQueuedReplot);
}

void clearLessonFocus(TimelinePlot& plot)
{
    if (LessonCallouts* item = LessonCallouts::of(plot)) {
        plot.removeItem(item);
        plot.replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace ovs::ui
