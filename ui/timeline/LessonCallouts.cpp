#include "timeline/LessonCallouts.h"

#include "document/TimeFrame.h"
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
    const QCPAxis* lanes = rect->axis(QCPAxis::atLeft);
    const TimeAxisMapping mapping = plot.mapping();
    const RunAxis axis = TimeFrame(*document).runAxis(run);
    const RunTimeline& timeline = document->run(run);
    const std::int64_t t0 = axis.toRun(mapping.startNs);
    const std::int64_t t1 = axis.toRun(mapping.endNs);
    for (int lane = 0; lane < timeline.laneCount() && out.size() < limit; ++lane) {
        const double row = plot.laneRow(run, lane); // grouped by device on several GPUs
        const double y0 = lanes->coordToPixel(row - TimelinePlottable::kRowFill / 2);
        const double y1 = lanes->coordToPixel(row + TimelinePlottable::kRowFill / 2);
        const auto [first, last] = timeline.visibleRange(lane, t0, t1);
        QRectF current;
        for (std::size_t i = first; i < last && out.size() < limit; ++i) {
            const Op& op = timeline.laneOps(lane)[i];
            const double x0 = std::max<double>(rect->rect().left(), mapping.pixelAt(static_cast<double>(axis.toAxis(op.startNs))));
            const double x1 = std::min<double>(rect->rect().right(), mapping.pixelAt(static_cast<double>(axis.toAxis(op.endNs))));
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

// The callout boxes' font and spacing, from the plot's.
struct BoxMetrics {
    QFont font;
    QFontMetricsF metrics;
    double pad;
    double gap;

    explicit BoxMetrics(const QFont& base) : font(scaled(base)), metrics(font)
    {
        pad = std::round(metrics.height() * 0.45);
        gap = std::round(metrics.height() * 0.8);
    }
    static QFont scaled(QFont font)
    {
        font.setPointSizeF(font.pointSizeF() * 1.1);
        return font;
    }
};

// Where a box for `text` goes near `band`: beside the band in its run's
// rows if there is room, else above or below the run; never over a band or
// another box, always inside the plot. Narrower (taller) boxes are tried
// before giving up. The cheapest place wins.
QRectF placeBox(const QString& text, const QRectF& band, const QRectF& view, const BoxMetrics& m,
                const std::vector<QRectF>& bands, const std::vector<QRectF>& placed, const Obstacles& obstacles)
{
    const double pad = m.pad;
    const double gap = m.gap;
    const QRectF runRect = band; // spans the run's rows
    QRectF best;
    double bestCost = std::numeric_limits<double>::max();
    double bestCovered = 0;
    for (const double share : {0.42, 0.32, 0.24, 0.18}) {
        const double maxText = std::max(m.metrics.averageCharWidth() * 16, view.width() * share - 2 * pad);
        const QRectF bounds = m.metrics.boundingRect(QRectF(0, 0, maxText, 1e6), Qt::TextWordWrap, text);
        const QSizeF size(std::ceil(bounds.width()) + 2 * pad, std::ceil(bounds.height()) + 2 * pad);
        const double centredY = std::clamp(runRect.center().y() - size.height() / 2, view.top(),
                                           std::max(view.top(), view.bottom() - size.height()));
        const double centredX = std::clamp(band.center().x() - size.width() / 2, view.left(),
                                           std::max(view.left(), view.right() - size.width()));
        // Beside the band (centred on the run, or level with its top or
        // bottom), above or below the run, at the plot's edges, or in
        // any run's rows.
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
                for (const QRectF& other : bands)
                    covered += other.isNull() ? 0.0 : overlapArea(box, other.adjusted(-2, 0, 2, 0));
                for (const QRectF& other : placed)
                    covered += other.isNull() ? 0.0 : overlapArea(box, other.adjusted(-pad, -pad, pad, pad));
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
    return best;
}

} // namespace

LessonCallouts::LessonCallouts(TimelinePlot* plot) : QCPAbstractItem(plot), m_plot(plot)
{
    // The box may sit outside its run's rows (above or below them), so the
    // item clips to the whole plot and clips the band itself.
    setClipToAxisRect(false);
    setSelectable(false);
    // After the plot's layout and before anything is drawn: the rects are
    // where this replot puts them.
    connect(plot, &QCustomPlot::afterLayout, this, &LessonCallouts::layoutIfChanged);
}

void LessonCallouts::setCallouts(std::vector<Callout> callouts)
{
    m_callouts = std::move(callouts);
    ++m_revision;
    m_layout = {};
    m_layout.bands.assign(m_callouts.size(), QRectF());
    m_layout.boxes.assign(m_callouts.size(), QRectF());
    m_layout.outlines.assign(m_callouts.size(), {});
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

LessonCallouts::LayoutKey LessonCallouts::currentKey() const
{
    LayoutKey key;
    const TimeAxisMapping mapping = m_plot->mapping();
    key.startNs = mapping.startNs;
    key.endNs = mapping.endNs;
    key.viewport = m_plot->viewport();
    for (int run = 0; m_plot->runAxisRect(run); ++run)
        key.runs.push_back(m_plot->runAxisRect(run)->rect());
    key.fontPoints = m_plot->font().pointSizeF();
    key.background = m_plot->palette().color(QPalette::Base).rgba();
    key.revision = m_revision;
    return key;
}

void LessonCallouts::layoutIfChanged()
{
    LayoutKey key = currentKey();
    if (key == m_laidOutFor && m_layoutCount > 0)
        return;
    m_laidOutFor = std::move(key);
    layOut();
}

void LessonCallouts::layOut()
{
    ++m_layoutCount;
    m_layout.bands.assign(m_callouts.size(), QRectF());
    m_layout.outlines.assign(m_callouts.size(), {});
    m_layout.boxes.assign(m_callouts.size(), QRectF());
    if (!m_plot->document())
        return;
    // Bands first, all of them, so that no box is placed over any band.
    layOutBands();
    layOutOutlines();
    placeBoxes();
}

void LessonCallouts::layOutBands()
{
    const TraceDocument* document = m_plot->document();
    const TimeAxisMapping mapping = m_plot->mapping();
    const TimeFrame frame(*document);
    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        const Callout& c = m_callouts[i];
        const QCPAxisRect* rect = m_plot->runAxisRect(c.run);
        if (!rect || c.run >= document->runCount())
            continue;
        const QRect r = rect->rect();
        const AxisSpan span = frame.toAxis(c.run, c.startNs, c.endNs);
        double x0 = mapping.pixelAt(static_cast<double>(span.startNs));
        double x1 = mapping.pixelAt(static_cast<double>(span.endNs));
        if (x1 < r.left() || x0 > r.right() + 1)
            continue; // out of view
        x0 = std::max<double>(x0, r.left());
        x1 = std::min<double>(x1, r.right() + 1);
        if (x1 - x0 < 4) { // a focus narrower than a few pixels still shows
            const double mid = (x0 + x1) / 2;
            x0 = mid - 2;
            x1 = mid + 2;
        }
        m_layout.bands[i] = QRectF(QPointF(x0, r.top()), QPointF(x1, r.bottom() + 1));
    }
}

void LessonCallouts::layOutOutlines()
{
    const TraceDocument* document = m_plot->document();
    const TimeAxisMapping mapping = m_plot->mapping();
    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        if (m_layout.bands[i].isNull())
            continue;
        const Callout& c = m_callouts[i];
        const QCPAxisRect* rect = m_plot->runAxisRect(c.run);
        const QCPAxis* lanes = rect->axis(QCPAxis::atLeft);
        const RunAxis axis = TimeFrame(*document).runAxis(c.run);
        const QRectF clip = QRectF(rect->rect()).adjusted(-2, -2, 2, 2);
        for (const Op& op : c.ops) {
            const double lane = m_plot->laneRow(c.run, op.lane); // its row: grouped by device on several GPUs
            const double yTop = lanes->coordToPixel(lane - TimelinePlottable::kRowFill / 2);
            const double yBottom = lanes->coordToPixel(lane + TimelinePlottable::kRowFill / 2);
            double ox0 = mapping.pixelAt(static_cast<double>(axis.toAxis(op.startNs)));
            double ox1 = mapping.pixelAt(static_cast<double>(axis.toAxis(op.endNs)));
            if (ox1 - ox0 < 3) {
                const double mid = (ox0 + ox1) / 2;
                ox0 = mid - 1.5;
                ox1 = mid + 1.5;
            }
            QRectF box(QPointF(ox0, std::min(yTop, yBottom)), QPointF(ox1, std::max(yTop, yBottom)));
            box = box.adjusted(-1, -1, 1, 1).intersected(clip);
            if (box.isValid())
                m_layout.outlines[i].push_back(box);
        }
    }
}

void LessonCallouts::placeBoxes()
{
    const BoxMetrics metrics(TimelineStyle::from(m_plot->palette(), m_plot->font()).base);
    const QRectF view = QRectF(m_plot->viewport()).adjusted(4, 4, -4, -4);
    const Obstacles obstacles = obstaclesOf(*m_plot);
    for (std::size_t i = 0; i < m_callouts.size(); ++i) {
        const QRectF& band = m_layout.bands[i];
        if (band.isNull() || m_callouts[i].text.isEmpty())
            continue;
        m_layout.boxes[i] = placeBox(m_callouts[i].text, band, view, metrics, m_layout.bands, m_layout.boxes, obstacles);
    }
}

void LessonCallouts::draw(QCPPainter* painter)
{
    const TimelineStyle style = TimelineStyle::from(m_plot->palette(), m_plot->font());
    const bool dark = style.background.lightness() < 128;
    const QColor accent = accentFor(dark);
    for (std::size_t i = 0; i < m_layout.bands.size(); ++i) {
        const QRectF& band = m_layout.bands[i];
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
        const double width = std::max(2.0, QFontMetricsF(style.base).height() / 8);
        QPen halo(style.background, width + 2.5);
        halo.setJoinStyle(Qt::MiterJoin);
        QPen pen(accent, width);
        pen.setJoinStyle(Qt::MiterJoin);
        painter->setBrush(Qt::NoBrush);
        for (const QRectF& box : m_layout.outlines[i]) {
            painter->setPen(halo);
            painter->drawRect(box);
            painter->setPen(pen);
            painter->drawRect(box);
        }
    }

    const BoxMetrics metrics(style.base);
    painter->setFont(metrics.font);
    for (std::size_t i = 0; i < m_layout.boxes.size(); ++i) {
        const QRectF& box = m_layout.boxes[i];
        if (box.isNull() || i >= m_callouts.size())
            continue;
        const QPointF to = nearestPoint(m_layout.bands[i], box.center());
        const QPointF from = nearestPoint(box, to);
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setPen(QPen(accent, std::max(2.0, metrics.metrics.height() / 10)));
        painter->drawLine(from, to);
        QColor back = style.background;
        back.setAlpha(242);
        painter->setBrush(back);
        painter->drawRoundedRect(box, metrics.pad / 2, metrics.pad / 2);
        painter->setPen(style.text);
        painter->drawText(box.adjusted(metrics.pad, metrics.pad, -metrics.pad, -metrics.pad),
                          Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, m_callouts[i].text);
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
