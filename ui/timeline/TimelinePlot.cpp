#include "timeline/TimelinePlot.h"

#include "style/OpStyle.h"
#include "timeline/OpTooltip.h"
#include "style/TimeFormat.h"
#include "timeline/TimeRulerTicker.h"
#include "timeline/TimelineLegendItem.h"
#include "timeline/TimelinePlottable.h"
#include "document/TraceDocument.h"

#include <QApplication>
#include <QBuffer>
#include <QFileInfo>
#include <QFontDatabase>
#include <QImageWriter>
#include <QNativeGestureEvent>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTemporaryFile>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ovs::ui {

namespace {

constexpr double kKeyZoomFactor = 1.25;
constexpr double kKeyPanFraction = 0.1;
constexpr double kWheelZoomPerNotch = 1.2;
constexpr int kRightMargin = 18;
constexpr int kTitleIndent = 8;
constexpr int kRectTopMargin = 2;
constexpr int kRectBottomMargin = 6;
constexpr int kFallbackExportWidth = 1600;
constexpr int kRefreshIntervalMs = 30;
const QString kBundledFamily = QStringLiteral("DejaVu Sans");

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                            static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                            static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor withAlpha(QColor color, int alpha)
{
    color.setAlpha(alpha);
    return color;
}

} // namespace

TimelinePlot::TimelinePlot(TraceDocument* document, ViewState* view, QWidget* parent)
    : QCustomPlot(parent), m_document(document), m_view(view)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setInteractions(QCP::Interactions());
    setAutoAddPlottableToLegend(false);
    setAttribute(Qt::WA_AcceptTouchEvents, false);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TimelinePlot::refresh);

    connect(m_document, &TraceDocument::reset, this, [this] {
        rebuild();
        m_view->setExtent(m_document->endNs());
        m_view->resetView();
    });
    connect(m_document, &TraceDocument::runAdded, this, [this] {
        rebuild();
        updateExtent();
    });
    // Live batches arrive many times a second: coalesce them.
    connect(m_document, &TraceDocument::runChanged, this, &TimelinePlot::scheduleRefresh);
    connect(m_view, &ViewState::visibleRangeChanged, this, &TimelinePlot::applyVisibleRange);
    connect(m_view, &ViewState::selectionChanged, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::measurementChanged, this, [this] { replot(rpQueuedReplot); });
    rebuild();
}

QFont TimelinePlot::baseFont() const
{
    // The bundled family, where registered, so exports do not depend on the
    // host's fonts; the size stays the widget's (presentation mode).
    QFont base = font();
    if (QFontDatabase::families().contains(kBundledFamily))
        base.setFamily(kBundledFamily);
    if (base.pointSizeF() > 0 && base.pointSizeF() < 9)
        base.setPointSizeF(9);
    return base;
}

int TimelinePlot::rowHeight() const
{
    return std::max(26, static_cast<int>(std::lround(QFontMetrics(baseFont()).height() * 1.75)));
}

int TimelinePlot::laneLabelWidth() const
{
    const QFontMetrics metrics(baseFont());
    int width = 0;
    for (int i = 0; i < m_document->runCount(); ++i)
        for (const Lane& lane : m_document->run(i).run().lanes)
            width = std::max(width, metrics.horizontalAdvance(QString::fromStdString(lane.name)));
    return width;
}

int TimelinePlot::plotLeftMargin() const
{
    // One margin for every run, so all time axes line up.
    return std::max(56, laneLabelWidth() + 18);
}

int TimelinePlot::rulerHeight() const
{
    // Tick marks, tick labels and the axis label, each with their padding.
    const QFontMetrics metrics(baseFont());
    return 5 + 5 + metrics.height() + 4 + metrics.height() + 6;
}

QString TimelinePlot::runTitle(int run) const
{
    const RunTimeline& timeline = m_document->run(run);
    const Run& r = timeline.run();
    QStringList parts;
    parts << (r.name.empty() ? QStringLiteral("run %1").arg(run + 1) : QString::fromStdString(r.name));
    parts << QString::fromStdString(r.device.label());
    if (r.params.chunks > 0) {
        QString params = QStringLiteral("%1 \u00d7 %2").arg(r.params.chunks).arg(TimeFormat::bytes(r.params.chunkBytes));
        if (r.params.slotCount > 1)
            params += QStringLiteral(", %1 slots").arg(r.params.slotCount);
        if (r.params.kernelRepeats > 1)
            params += QStringLiteral(", kernel \u00d7%1").arg(r.params.kernelRepeats);
        parts << params;
    }
    if (timeline.isLive()) {
        parts << QStringLiteral("recording\u2026");
        return parts.join(QStringLiteral("  \u2014  "));
    }
    if (r.wallNs() > 0)
        parts << QStringLiteral("wall %1").arg(TimeFormat::duration(static_cast<double>(r.wallNs()), 4));
    switch (r.status) {
    case RunStatus::Completed:
        if (!r.verification.checked)
            parts << QStringLiteral("not verified");
        else if (r.verification.passed)
            parts << QStringLiteral("verified");
        else
            parts << QStringLiteral("VERIFICATION FAILED (%1 mismatches)").arg(r.verification.mismatches);
        break;
    case RunStatus::Cancelled:
        parts << QStringLiteral("cancelled");
        break;
    case RunStatus::Failed:
        parts << (r.error.empty() ? QStringLiteral("failed")
                                  : QStringLiteral("failed: %1").arg(QString::fromStdString(r.error)));
        break;
    }
    return parts.join(QStringLiteral("  \u2014  "));
}

void TimelinePlot::rebuild()
{
    clearDrag();
    clearPlottables();
    plotLayout()->clear();
    m_rows.clear();
    m_legend = nullptr;
    m_emptyNote = nullptr;
    m_legendKinds = 0;
    plotLayout()->setRowSpacing(0);
    plotLayout()->setMargins(QMargins(0, 0, 0, 0));

    for (int i = 0; i < m_document->runCount(); ++i) {
        RunRow row;
        row.title = new QCPTextElement(this, QString());
        row.title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        row.rect = new QCPAxisRect(this, false);
        row.rect->addAxes(QCPAxis::atBottom | QCPAxis::atLeft);
        row.rect->setAutoMargins(QCP::msNone);
        row.rect->setSizeConstraintRect(QCPLayoutElement::scrInnerRect);
        QCPAxis* time = row.rect->axis(QCPAxis::atBottom);
        QCPAxis* lanes = row.rect->axis(QCPAxis::atLeft);
        time->setTicker(QSharedPointer<TimeRulerTicker>::create(time));
        lanes->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        lanes->setRangeReversed(true); // lane 0 (the host, as recorded) on top
        row.plottable = new TimelinePlottable(time, lanes, m_document, i, m_view);
        // A range set on an axis directly (QCustomPlot API, tests) reaches
        // the shared view, which may clamp it; the axes then follow the view.
        connect(time, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& range) {
            if (m_syncing)
                return;
            m_view->setVisibleRange(std::llround(range.lower), std::llround(range.upper));
            applyVisibleRange();
        });
        plotLayout()->addElement(2 * i, 0, row.title);
        plotLayout()->addElement(2 * i + 1, 0, row.rect);
        m_rows.push_back(row);
    }
    if (m_rows.empty()) {
        m_emptyNote = new QCPTextElement(this, QStringLiteral("No runs yet"));
        plotLayout()->addElement(0, 0, m_emptyNote);
    } else {
        // The legend keeps its natural width at the left; a spacer takes
        // the rest of the row (a grid cell is only as wide as its narrowest
        // maximum, so the legend alone would narrow the whole plot).
        auto* legendRow = new QCPLayoutGrid;
        plotLayout()->addElement(2 * static_cast<int>(m_rows.size()), 0, legendRow);
        legendRow->setColumnSpacing(0);
        m_legend = new QCPLegend;
        legendRow->addElement(0, 0, m_legend);
        legendRow->addElement(0, 1, new QCPLayoutElement(this));
        m_legend->setLayer(QStringLiteral("legend"));
        m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        m_legend->setBorderPen(Qt::NoPen);
        m_legend->setBrush(Qt::NoBrush);
        m_legend->setColumnSpacing(18);
        m_legend->setRowSpacing(3);
    }
    applyStyle();
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i)
        refreshRun(i);
    rebuildLegend();
    layoutRows();
    applyVisibleRange();
    updateGeometry();
}

void TimelinePlot::applyStyle()
{
    const QPalette pal = palette();
    const QColor background = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const bool dark = background.lightness() < 128;
    const QFont base = baseFont();
    QFont titleFont = base;
    titleFont.setBold(true);
    QFont labelFont = base;
    labelFont.setPointSizeF(std::max(7.0, base.pointSizeF() - 1));

    setBackground(background);
    const QColor axisColor = mix(background, text, 0.45);
    const QColor gridColor = mix(background, text, dark ? 0.18 : 0.11);
    const QColor subTickColor = mix(background, text, 0.3);

    TimelinePlottable::Style style;
    style.stripe = withAlpha(text, dark ? 14 : 9);
    style.timedRegion = dark ? QColor(90, 150, 255, 26) : QColor(40, 110, 220, 16);
    style.timedEdge = dark ? QColor(120, 170, 255, 170) : QColor(40, 100, 200, 150);
    style.highlight = text;
    style.measureFill = QColor(255, 190, 20, dark ? 60 : 70);
    style.measureEdge = QColor(220, 150, 0);
    style.measureText = text;
    style.measureLabelBackground = background;
    style.labelFont = labelFont;

    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const RunRow& row = m_rows[i];
        const bool bottom = i + 1 == m_rows.size();
        row.title->setFont(titleFont);
        row.title->setTextColor(text);
        row.rect->setBackground(Qt::NoBrush);
        QCPAxis* time = row.rect->axis(QCPAxis::atBottom);
        QCPAxis* lanes = row.rect->axis(QCPAxis::atLeft);
        for (QCPAxis* axis : {time, lanes}) {
            axis->setBasePen(QPen(axisColor, 1));
            axis->setTickPen(QPen(axisColor, 1));
            axis->setSubTickPen(QPen(subTickColor, 1));
            axis->setTickLabelFont(base);
            axis->setTickLabelColor(text);
            axis->setLabelFont(base);
            axis->setLabelColor(mix(background, text, 0.7));
        }
        time->setTickLengthIn(0);
        time->setTickLengthOut(5);
        time->setSubTickLengthIn(0);
        time->setSubTickLengthOut(bottom ? 3 : 0);
        time->setTickLabels(bottom);
        time->setLabel(bottom ? (m_document->alignTimedRegions()
                                     ? QStringLiteral("time, runs aligned where their timed regions start")
                                     : QStringLiteral("time since run start"))
                              : QString());
        time->grid()->setPen(QPen(gridColor, 1, Qt::SolidLine));
        time->grid()->setZeroLinePen(Qt::NoPen);
        time->grid()->setSubGridVisible(false);
        lanes->setTickLength(0, 0);
        lanes->setSubTicks(false);
        lanes->setTickLabelPadding(8);
        lanes->grid()->setVisible(false);
        row.plottable->setStyle(style);
    }
    if (m_legend) {
        m_legend->setFont(base);
        m_legend->setTextColor(text);
        m_legend->setIconTextPadding(6);
        for (TimelineLegendItem* item : legendItems()) {
            item->setFont(base);
            item->setTextColor(text);
        }
    }
    if (m_emptyNote) {
        m_emptyNote->setFont(base);
        m_emptyNote->setTextColor(mix(background, text, 0.6));
    }
}

void TimelinePlot::layoutRows()
{
    const int left = plotLeftMargin();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const RunRow& row = m_rows[i];
        const bool bottom = i + 1 == m_rows.size();
        const int laneCount = std::max(1, m_document->run(static_cast<int>(i)).laneCount());
        const QMargins margins(left, kRectTopMargin, kRightMargin, bottom ? rulerHeight() : kRectBottomMargin);
        row.rect->setMargins(margins);
        row.rect->setMinimumMargins(margins);
        // Squeezed windows still show every lane, at a smaller row height.
        row.rect->setMinimumSize(0, laneCount * 12);
        row.title->setMargins(QMargins(kTitleIndent, i == 0 ? 8 : 14, kRightMargin, 2));
        // Stretch by the preferred outer height: at preferredHeight() every
        // run gets exactly rowHeight() per lane, and extra space is shared
        // in the same proportion.
        plotLayout()->setRowStretchFactor(static_cast<int>(2 * i), 0.001);
        plotLayout()->setRowStretchFactor(static_cast<int>(2 * i + 1),
                                          laneCount * rowHeight() + margins.top() + margins.bottom());
    }
    if (m_legend) {
        m_legend->setMargins(QMargins(kTitleIndent, 4, kRightMargin, 8));
        plotLayout()->setRowStretchFactor(2 * static_cast<int>(m_rows.size()), 0.001);
    }
    layoutLegend(width());
}

std::uint32_t TimelinePlot::kindsPresent() const
{
    std::uint32_t kinds = 0;
    constexpr std::uint32_t all = (1u << kOpKindCount) - 1;
    for (int r = 0; r < m_document->runCount() && kinds != all; ++r) {
        const RunTimeline& run = m_document->run(r);
        for (int lane = 0; lane < run.laneCount() && kinds != all; ++lane)
            for (const Op& op : run.laneOps(lane))
                kinds |= 1u << static_cast<unsigned>(op.kind);
    }
    return kinds;
}

void TimelinePlot::rebuildLegend()
{
    if (!m_legend)
        return;
    const std::uint32_t kinds = kindsPresent();
    if (kinds == m_legendKinds && !legendItems().empty())
        return;
    m_legendKinds = kinds;
    m_legend->clearItems();
    for (OpKind kind : legendOrder()) {
        if (kinds & (1u << static_cast<unsigned>(kind)))
            m_legend->addItem(new TimelineLegendItem(m_legend, kind));
    }
    applyStyle();
    layoutLegend(width());
}

std::vector<TimelineLegendItem*> TimelinePlot::legendItems() const
{
    // A wrapped legend grid has empty cells: itemCount() counts cells.
    std::vector<TimelineLegendItem*> items;
    for (int i = 0; m_legend && i < m_legend->elementCount(); ++i)
        if (auto* item = qobject_cast<TimelineLegendItem*>(m_legend->elementAt(i)))
            items.push_back(item);
    return items;
}

int TimelinePlot::legendColumns(int width) const
{
    // The most columns that fit: each column is as wide as its widest item.
    const std::vector<TimelineLegendItem*> items = legendItems();
    if (items.empty())
        return 1;
    const QMargins margins = m_legend->margins();
    const int available = width - margins.left() - margins.right();
    for (int columns = static_cast<int>(items.size()); columns > 1; --columns) {
        int total = (columns - 1) * m_legend->columnSpacing();
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

int TimelinePlot::legendHeight(int width) const
{
    if (!m_legend || m_legend->itemCount() == 0)
        return 0;
    int itemHeight = 0;
    int items = 0;
    for (const TimelineLegendItem* item : legendItems()) {
        itemHeight = std::max(itemHeight, item->minimumOuterSizeHint().height());
        ++items;
    }
    const int columns = legendColumns(width);
    const int rows = (items + columns - 1) / columns;
    const QMargins margins = m_legend->margins();
    return rows * itemHeight + (rows - 1) * m_legend->rowSpacing() + margins.top() + margins.bottom();
}

void TimelinePlot::layoutLegend(int width)
{
    if (!m_legend || m_legend->itemCount() == 0)
        return;
    const int columns = legendColumns(width);
    if (m_legend->wrap() != columns) {
        m_legend->setWrap(columns);
        m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

int TimelinePlot::preferredHeight(int width) const
{
    if (width <= 0)
        width = isVisible() && this->width() > 0 ? this->width() : kFallbackExportWidth;
    if (m_rows.empty())
        return 120;
    int height = 0;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const RunRow& row = m_rows[i];
        const QMargins margins = row.rect->margins();
        const int laneCount = std::max(1, m_document->run(static_cast<int>(i)).laneCount());
        height += static_cast<const QCPLayoutElement*>(row.title)->minimumOuterSizeHint().height();
        height += laneCount * rowHeight() + margins.top() + margins.bottom();
    }
    return height + legendHeight(width);
}

QSize TimelinePlot::sizeHint() const
{
    return {1000, preferredHeight(1000)};
}

QSize TimelinePlot::minimumSizeHint() const
{
    return {320, 120};
}

void TimelinePlot::refreshRun(int run)
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()) || run >= m_document->runCount())
        return;
    const RunRow& row = m_rows[static_cast<std::size_t>(run)];
    const RunTimeline& timeline = m_document->run(run);
    row.title->setText(runTitle(run));
    QCPAxis* lanes = row.rect->axis(QCPAxis::atLeft);
    auto ticker = lanes->ticker().dynamicCast<QCPAxisTickerText>();
    const int laneCount = timeline.laneCount();
    if (ticker && ticker->ticks().size() != laneCount) {
        ticker->clear();
        for (int lane = 0; lane < laneCount; ++lane)
            ticker->addTick(lane, QString::fromStdString(timeline.run().lanes[static_cast<std::size_t>(lane)].name));
    }
    lanes->setRange(-0.5, std::max(1, laneCount) - 0.5);
}

void TimelinePlot::scheduleRefresh()
{
    if (!m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void TimelinePlot::refresh()
{
    // Lanes appear during a live run: margins and row heights follow them.
    bool lanesChanged = false;
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
        const auto ticker = m_rows[static_cast<std::size_t>(i)].rect->axis(QCPAxis::atLeft)->ticker()
                                .dynamicCast<QCPAxisTickerText>();
        lanesChanged = lanesChanged || (ticker && ticker->ticks().size() != m_document->run(i).laneCount());
        refreshRun(i);
    }
    rebuildLegend();
    if (lanesChanged) {
        layoutRows();
        updateGeometry();
    }
    updateExtent();
    replot(rpQueuedReplot);
}

void TimelinePlot::updateExtent()
{
    // While the view shows everything (the usual case during a live run),
    // it keeps showing everything as the run grows.
    const bool showingAll = m_view->visibleStartNs() <= 0 && m_view->visibleEndNs() >= m_view->extentNs();
    m_view->setExtent(m_document->endNs());
    if (showingAll)
        m_view->resetView();
}

void TimelinePlot::applyVisibleRange()
{
    m_syncing = true;
    const QCPRange range(static_cast<double>(m_view->visibleStartNs()), static_cast<double>(m_view->visibleEndNs()));
    for (const RunRow& row : m_rows)
        row.rect->axis(QCPAxis::atBottom)->setRange(range);
    m_syncing = false;
    replot(rpQueuedReplot);
}

QCPAxisRect* TimelinePlot::runAxisRect(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()))
        return nullptr;
    return m_rows[static_cast<std::size_t>(run)].rect;
}

double TimelinePlot::timeAtPixel(double x) const
{
    return m_rows.empty() ? 0.0 : m_rows.front().rect->axis(QCPAxis::atBottom)->pixelToCoord(x);
}

double TimelinePlot::pixelAtTime(double ns) const
{
    return m_rows.empty() ? 0.0 : m_rows.front().rect->axis(QCPAxis::atBottom)->coordToPixel(ns);
}

OpRef TimelinePlot::opAt(const QPoint& pos) const
{
    for (const RunRow& row : m_rows) {
        const OpRef op = row.plottable->opAt(pos);
        if (op.isValid())
            return op;
    }
    return {};
}

QString TimelinePlot::toolTipTextAt(const QPoint& pos) const
{
    const OpRef op = opAt(pos);
    if (!op.isValid())
        return {};
    const RunTimeline& run = m_document->run(op.run);
    return opTooltipText(run, op.lane, run.laneOps(op.lane)[static_cast<std::size_t>(op.index)]);
}

bool TimelinePlot::inPlotColumn(const QPoint& pos) const
{
    if (m_rows.empty())
        return false;
    const QRect first = m_rows.front().rect->rect();
    const QRect last = m_rows.back().rect->rect();
    return pos.x() >= first.left() && pos.x() <= first.right() && pos.y() >= 0 && pos.y() <= last.bottom();
}

double TimelinePlot::zoomCenter() const
{
    if (m_mouseInside && inPlotColumn(m_lastMousePos))
        return timeAtPixel(m_lastMousePos.x());
    return (static_cast<double>(m_view->visibleStartNs()) + static_cast<double>(m_view->visibleEndNs())) / 2;
}

void TimelinePlot::clearDrag()
{
    if (m_drag == Drag::Pan)
        unsetCursor();
    const bool hadBand = m_drag == Drag::ZoomBand;
    m_drag = Drag::None;
    if (hadBand)
        update();
}

void TimelinePlot::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    m_bandEnd = m_pressPos;
    m_pressStartNs = m_view->visibleStartNs();
    m_pressEndNs = m_view->visibleEndNs();
    const QCPAxisRect* rect = runAxisRect(0);
    m_pressNsPerPixel = rect ? static_cast<double>(m_pressEndNs - m_pressStartNs) / std::max(1, rect->width()) : 0;
    m_drag = Drag::None;
    if (!inPlotColumn(m_pressPos)) {
        event->ignore();
        return;
    }
    QToolTip::hideText();
    const bool left = event->button() == Qt::LeftButton;
    if (left && (event->modifiers() & Qt::ControlModifier)) {
        m_drag = Drag::Measure;
        m_measureAnchorNs = std::llround(timeAtPixel(m_pressPos.x()));
    } else if ((left && (event->modifiers() & Qt::ShiftModifier)) || event->button() == Qt::RightButton) {
        m_drag = Drag::ZoomBand;
    } else if (left) {
        m_drag = Drag::Pending;
    }
    event->accept();
}

void TimelinePlot::mouseMoveEvent(QMouseEvent* event)
{
    m_lastMousePos = event->pos();
    m_mouseInside = true;
    const bool moved = (event->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
    switch (m_drag) {
    case Drag::Pending:
        if (!moved)
            break;
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
        [[fallthrough]];
    case Drag::Pan: {
        const auto shift = std::llround(-(event->pos().x() - m_pressPos.x()) * m_pressNsPerPixel);
        m_view->setVisibleRange(m_pressStartNs + shift, m_pressEndNs + shift);
        break;
    }
    case Drag::ZoomBand:
        m_bandEnd = event->pos();
        update();
        break;
    case Drag::Measure:
        if (moved)
            m_view->setMeasurement(m_measureAnchorNs, std::llround(timeAtPixel(event->pos().x())));
        break;
    case Drag::None: {
        const QString text = toolTipTextAt(event->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
        break;
    }
    }
    event->accept();
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent* event)
{
    const bool moved = (event->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
    switch (m_drag) {
    case Drag::Pending:
        m_view->setSelection(opAt(event->pos()));
        break;
    case Drag::ZoomBand:
        if (std::abs(event->pos().x() - m_pressPos.x()) >= 4)
            m_view->setVisibleRange(std::llround(timeAtPixel(std::min(m_pressPos.x(), event->pos().x()))),
                                    std::llround(timeAtPixel(std::max(m_pressPos.x(), event->pos().x()))));
        break;
    case Drag::Measure:
        if (moved)
            m_view->setMeasurement(m_measureAnchorNs, std::llround(timeAtPixel(event->pos().x())));
        else
            m_view->clearMeasurement();
        break;
    case Drag::Pan:
    case Drag::None:
        break;
    }
    clearDrag();
    event->accept();
}

void TimelinePlot::mouseDoubleClickEvent(QMouseEvent* event)
{
    const OpRef ref = opAt(event->pos());
    if (!ref.isValid() || event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    const Op& op = m_document->run(ref.run).laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];
    const std::int64_t margin = std::max<std::int64_t>(op.durationNs() / 4, ViewState::kMinimumSpanNs);
    m_view->setSelection(ref);
    const std::int64_t offset = m_document->displayOffsetNs(ref.run);
    m_view->setVisibleRange(op.startNs + offset - margin, op.endNs + offset + margin);
    event->accept();
}

void TimelinePlot::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const QPoint pos = event->position().toPoint();
    if (event->modifiers() & Qt::ControlModifier) {
        if (delta.y() == 0) {
            event->ignore();
            return;
        }
        const double center = inPlotColumn(pos) ? timeAtPixel(pos.x()) : zoomCenter();
        m_view->zoom(std::pow(kWheelZoomPerNotch, delta.y() / 120.0), std::llround(center));
        event->accept();
        return;
    }
    int horizontal = delta.x();
    if (horizontal == 0 && (event->modifiers() & Qt::ShiftModifier))
        horizontal = delta.y();
    if (horizontal != 0) {
        m_view->pan(-horizontal / 120.0 * kKeyPanFraction);
        event->accept();
        return;
    }
    // A plain wheel scrolls whatever holds the timeline (many runs).
    event->ignore();
}

void TimelinePlot::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_view->zoom(kKeyZoomFactor, std::llround(zoomCenter()));
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        m_view->zoom(1.0 / kKeyZoomFactor, std::llround(zoomCenter()));
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        m_view->pan(-kKeyPanFraction);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        m_view->pan(kKeyPanFraction);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        m_view->resetView();
        break;
    case Qt::Key_Escape:
        if (m_view->measurement())
            m_view->clearMeasurement();
        else if (m_view->selection().isValid())
            m_view->setSelection({});
        else
            QCustomPlot::keyPressEvent(event);
        return;
    default:
        QCustomPlot::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelinePlot::leaveEvent(QEvent* event)
{
    m_mouseInside = false;
    QToolTip::hideText();
    QCustomPlot::leaveEvent(event);
}

bool TimelinePlot::event(QEvent* event)
{
    if (event->type() == QEvent::NativeGesture) {
        const auto* gesture = static_cast<QNativeGestureEvent*>(event);
        if (gesture->gestureType() == Qt::ZoomNativeGesture) {
            const QPoint pos = gesture->position().toPoint();
            const double center = inPlotColumn(pos) ? timeAtPixel(pos.x()) : zoomCenter();
            m_view->zoom(1.0 + gesture->value(), std::llround(center));
            return true;
        }
    }
    return QCustomPlot::event(event);
}

void TimelinePlot::paintEvent(QPaintEvent* event)
{
    QCustomPlot::paintEvent(event);
    if (m_drag != Drag::ZoomBand || m_rows.empty())
        return;
    // The rubber band is interaction feedback, not part of the picture, so it
    // is painted over the widget rather than into the plot (and exports).
    const QRect first = m_rows.front().rect->rect();
    const QRect last = m_rows.back().rect->rect();
    const int x0 = std::clamp(std::min(m_pressPos.x(), m_bandEnd.x()), first.left(), first.right());
    const int x1 = std::clamp(std::max(m_pressPos.x(), m_bandEnd.x()), first.left(), first.right());
    const QRect band(QPoint(x0, first.top()), QPoint(x1, last.bottom()));
    QPainter painter(this);
    const QColor accent = palette().color(QPalette::Highlight);
    painter.fillRect(band, withAlpha(accent, 50));
    painter.setPen(QPen(accent, 1));
    painter.drawRect(band.adjusted(0, 0, -1, -1));
    const QString text = TimeFormat::duration(timeAtPixel(x1) - timeAtPixel(x0), 3);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(band.adjusted(4, 4, -4, -4), Qt::AlignHCenter | Qt::AlignTop, text);
}

void TimelinePlot::resizeEvent(QResizeEvent* event)
{
    layoutLegend(event->size().width());
    QCustomPlot::resizeEvent(event);
}

void TimelinePlot::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyStyle();
        layoutRows();
        updateGeometry();
        replot(rpQueuedReplot);
    }
}

bool TimelinePlot::exportImage(const QString& path, const QString& format, int width, int height, double scale,
                               QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const QString kind = format.toLower();
    if (kind != QLatin1String("png") && kind != QLatin1String("svg") && kind != QLatin1String("pdf"))
        return fail(QStringLiteral("Unknown image format \"%1\" (use png, svg or pdf)").arg(format));
    if (width <= 0)
        width = isVisible() && this->width() > 0 ? this->width() : kFallbackExportWidth;
    if (height <= 0)
        height = preferredHeight(width);
    if (!(scale > 0))
        scale = 1.0;

    layoutLegend(width);
    QByteArray data;
    QString renderError;
    if (kind == QLatin1String("png")) {
        QImage image = toPixmap(width, height, scale).toImage();
        // The same layout at a higher density: say so for printing.
        const int dotsPerMeter = static_cast<int>(std::lround(96.0 * scale / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        QImageWriter writer(&buffer, "png");
        if (image.isNull() || !writer.write(image))
            renderError = image.isNull() ? QStringLiteral("the image could not be rendered") : writer.errorString();
    } else if (kind == QLatin1String("svg")) {
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(QStringLiteral("OverlapScope timeline"));
        QCPPainter painter;
        if (painter.begin(&generator)) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            toPainter(&painter, width, height);
            painter.end();
        } else {
            renderError = QStringLiteral("the SVG could not be started");
        }
    } else {
        // savePdf writes to a file name only; render through a temporary
        // file so that the destination is written once, atomically.
        QTemporaryFile temporary(QDir::tempPath() + QStringLiteral("/overlapscope-XXXXXX.pdf"));
        if (!temporary.open()) {
            renderError = temporary.errorString();
        } else {
            temporary.close();
            if (savePdf(temporary.fileName(), width, height, QCP::epAllowCosmetic, QStringLiteral("OverlapScope"),
                        QStringLiteral("OverlapScope timeline"))) {
                QFile rendered(temporary.fileName());
                if (rendered.open(QIODevice::ReadOnly))
                    data = rendered.readAll();
            }
            if (data.isEmpty())
                renderError = QStringLiteral("the PDF could not be rendered");
        }
    }
    layoutLegend(this->width());
    replot(rpQueuedReplot);
    if (!renderError.isEmpty())
        return fail(QStringLiteral("Cannot export %1: %2").arg(QDir::toNativeSeparators(path), renderError));

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    file.write(data);
    if (!file.commit())
        return fail(QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return true;
}

} // namespace ovs::ui
