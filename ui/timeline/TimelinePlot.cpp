#include "timeline/TimelinePlot.h"

#include "document/RunDevices.h"

#include "base/Saturating.h"
#include "document/RankJob.h"
#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"
#include "style/TimeFormat.h"
#include "timeline/CompareHeader.h"
#include "timeline/GhostTitle.h"
#include "document/TimeFrame.h"
#include "timeline/OpTooltip.h"
#include "timeline/RefreshThrottle.h"
#include "timeline/RegionTooltip.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelinePlottable.h"
#include "timeline/TimelineStyle.h"
#include "timeline/TimeRulerTicker.h"
#include "style/DisplayText.h"
#include "style/VerificationText.h"

#include <QApplication>
#include <QNativeGestureEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ovs::ui {

namespace {

constexpr int kRightMargin = 18;
constexpr int kTitleIndent = 8;
constexpr int kRectTopMargin = 2;
constexpr int kRectBottomMargin = 6;
constexpr int kFallbackWidth = 1600;
constexpr int kAxisRectMinimum = 50;

TimelineInteraction::Modifiers modifiersOf(Qt::KeyboardModifiers modifiers)
{
    return {(modifiers & Qt::ControlModifier) != 0, (modifiers & Qt::ShiftModifier) != 0};
}

} // namespace

TimelinePlot::TimelinePlot(TraceDocument* document, ViewState* view, QWidget* parent)
    : QCustomPlot(parent), m_document(document), m_view(view), m_cache(AnalysisCache::of(document)),
      m_refresh(new RefreshThrottle(this)), m_interaction(*view)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setInteractions(QCP::Interactions());
    setAutoAddPlottableToLegend(false);
    setAttribute(Qt::WA_AcceptTouchEvents, false);
    connect(m_refresh, &RefreshThrottle::due, this, &TimelinePlot::refresh);

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
    connect(m_document, &TraceDocument::runChanged, m_refresh, &RefreshThrottle::request);
    connect(m_view, &ViewState::visibleRangeChanged, this, &TimelinePlot::applyVisibleRange);
    connect(m_view, &ViewState::selectionChanged, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::regionSelected, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::highlightChanged, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::measurementChanged, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::playheadChanged, this, [this] { replot(rpQueuedReplot); });
    connect(m_view, &ViewState::whatIfChanged, this, &TimelinePlot::updateGhost);
    connect(m_view, &ViewState::collapsedChanged, this, &TimelinePlot::applyCollapsed);
    connect(m_cache, &AnalysisCache::whatIfReady, this, &TimelinePlot::updateGhost);
    rebuild();
}

TimelinePlot::~TimelinePlot() = default;

int TimelinePlot::rowHeight() const
{
    return std::max(26, static_cast<int>(std::lround(QFontMetrics(TimelineStyle::baseFont(font())).height() * 1.75)));
}

int TimelinePlot::totalLanes() const
{
    // Rows, in fact: a run on several GPUs adds a header row per group.
    int lanes = 0;
    // A run folded to its title has none.
    for (int i = 0; i < m_document->runCount(); ++i)
        lanes += m_view->isCollapsed(i) ? 0 : std::max(1, rowCount(i));
    if (m_ghost && !m_view->isCollapsed(m_ghostOf))
        lanes += std::max(1, m_ghost->plottable->laneRows().rowCount());
    return lanes;
}

const RunTimeline* TimelinePlot::ghostTimeline() const
{
    return m_ghost && m_ghostShown ? m_ghostShown->run.get() : nullptr;
}

QString TimelinePlot::headerText() const
{
    return m_header ? m_header->text() : QString();
}

QString TimelinePlot::timeAxisLabel() const
{
    if (const RankJob* ranks = m_document->ranks(); ranks && ranks->folder.alignment.sharedClock)
        return QStringLiteral("time since the earliest rank's start, on the job's shared clock");
    if (!m_document->alignTimedRegions())
        return QStringLiteral("time since run start");
    return m_document->comparison() ? QStringLiteral("time, runs aligned where their judged spans start")
                                    : QStringLiteral("time, runs aligned where their timed regions start");
}

QString TimelinePlot::ghostTitleText() const
{
    return m_ghost && m_ghostShown ? ghostTitle(m_ghostFixes, *m_ghostShown) : QString();
}

std::shared_ptr<const WhatIfGhost> TimelinePlot::wantedGhost() const
{
    const WhatIfChoice choice = m_view->whatIf();
    if (!choice.isValid() || !m_cache || choice.run >= m_document->runCount())
        return nullptr;
    auto ghost = m_cache->whatIf(choice.run, choice.fixes);
    return ghost && ghost->run ? ghost : nullptr;
}

void TimelinePlot::updateGhost()
{
    const WhatIfChoice choice = m_view->whatIf();
    const auto wanted = wantedGhost();
    if (wanted == m_ghostShown && (!wanted || (choice.run == m_ghostOf && choice.fixes == m_ghostFixes)))
        return;
    rebuild();
    replot(rpQueuedReplot);
    emit ghostChanged();
}

std::vector<const TimelinePlot::RunRow*> TimelinePlot::layoutOrder() const
{
    std::vector<const RunRow*> order;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        order.push_back(&m_rows[i]);
        if (m_ghost && static_cast<int>(i) == m_ghostOf)
            order.push_back(&*m_ghost);
    }
    return order;
}

int TimelinePlot::laneRow(int run, int lane) const
{
    const LaneRows* rows = laneRows(run);
    return rows ? rows->rowOf(lane) : lane;
}

const LaneRows* TimelinePlot::laneRows(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()))
        return nullptr;
    return &m_rows[static_cast<std::size_t>(run)].plottable->laneRows();
}

int TimelinePlot::rowCount(int run) const
{
    if (run >= 0 && run < static_cast<int>(m_rows.size()))
        return m_rows[static_cast<std::size_t>(run)].plottable->laneRows().rowCount();
    return m_document->run(run).laneCount();
}

int TimelinePlot::laneLabelWidth() const
{
    const QFontMetrics metrics(TimelineStyle::baseFont(font()));
    int width = 0;
    for (int i = 0; i < m_document->runCount(); ++i) {
        for (const Lane& lane : m_document->run(i).run().lanes)
            width = std::max(width, metrics.horizontalAdvance(displayText(lane.name, kLaneLabelChars)));
        // The regions band's labels ("regions · THREAD") are the longest.
        const RunTimeline& run = m_document->run(i);
        for (const auto& [row, label] : rowLabels(LaneRows::of(run.run(), run.regionTracks()), run))
            if (row < run.regionTracks().count())
                width = std::max(width, metrics.horizontalAdvance(label));
    }
    if (const RunTimeline* ghost = ghostTimeline())
        for (const Lane& lane : ghost->run().lanes)
            width = std::max(width, metrics.horizontalAdvance(displayText(lane.name, kLaneLabelChars)));
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
    const QFontMetrics metrics(TimelineStyle::baseFont(font()));
    return 5 + 5 + metrics.height() + 4 + metrics.height() + 6;
}

QString TimelinePlot::runTitle(int run) const
{
    const RunTimeline& timeline = m_document->run(run);
    const Run& r = timeline.run();
    QStringList parts;
    QString name = r.name.empty() ? QStringLiteral("run %1").arg(run + 1) : displayText(r.name, kTitleNameChars);
    // A rank of a folder is named by its rank first ("rank 3 · python3 (pid 50)").
    if (const RankJob* ranks = m_document->ranks(); ranks && static_cast<std::size_t>(run) < ranks->rowOfRun.size())
        name = displayText(ranks->folder.ranks[ranks->rowOfRun[static_cast<std::size_t>(run)]].label, kTitleNameChars)
               + QStringLiteral(" \u00b7 ") + name;
    // Several runs fold to their titles: the marker says which way a click goes.
    if (m_document->runCount() > 1)
        name = (m_view->isCollapsed(run) ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ")) + name;
    parts << name;
    parts << displayText(runDevicesLabel(r).toStdString());
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
        // Only our pipelines verify: a profiled or imported run's title
        // says nothing about it (the summary's dash explains why).
        if (!verificationApplies(r))
            break;
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
                                  : QStringLiteral("failed: %1").arg(displayText(r.error)));
        break;
    }
    return parts.join(QStringLiteral("  \u2014  "));
}

void TimelinePlot::rebuild()
{
    endDrag();
    clearPlottables();
    plotLayout()->clear();
    m_rows.clear();
    m_legend = nullptr;
    m_emptyNote = nullptr;
    m_header = nullptr;
    plotLayout()->setRowSpacing(0);
    plotLayout()->setMargins(QMargins(0, 0, 0, 0));

    m_ghost.reset();
    m_ghostShown = wantedGhost();
    m_ghostOf = m_view->whatIf().run;
    m_ghostFixes = m_view->whatIf().fixes;
    int layoutRow = 0;
    if (const Comparison* comparison = m_document->comparison(); comparison && m_document->runCount() > 0) {
        m_header = new QCPTextElement(this, compareHeaderText(*comparison).trimmed());
        m_header->setTextFlags(Qt::AlignLeft | Qt::AlignTop);
        m_header->setMargins(QMargins(kTitleIndent, 8, kRightMargin, 4));
        plotLayout()->addElement(layoutRow++, 0, m_header);
    }
    auto place = [&](RunRow row, int run) {
        row.layoutRow = layoutRow;
        row.run = run;
        plotLayout()->addElement(layoutRow, 0, row.title);
        plotLayout()->addElement(layoutRow + 1, 0, row.rect);
        layoutRow += 2;
        return row;
    };
    for (int i = 0; i < m_document->runCount(); ++i) {
        m_rows.push_back(place(makeRow(i), i));
        if (m_ghostShown && i == m_ghostOf) {
            m_ghost = place(makeRow(i), i);
            m_ghost->plottable->setGhost(m_ghostShown->run);
        }
    }
    if (m_rows.empty()) {
        m_emptyNote = new QCPTextElement(this, QStringLiteral("No runs yet"));
        plotLayout()->addElement(0, 0, m_emptyNote);
    } else {
        // The legend keeps its natural width at the left; a spacer takes
        // the rest of the row (a grid cell is only as wide as its narrowest
        // maximum, so the legend alone would narrow the whole plot).
        auto* legendRow = new QCPLayoutGrid;
        plotLayout()->addElement(layoutRow, 0, legendRow);
        legendRow->setColumnSpacing(0);
        m_legend = new TimelineLegend;
        legendRow->addElement(0, 0, m_legend);
        legendRow->addElement(0, 1, new QCPLayoutElement(this));
        m_legend->setLayer(QStringLiteral("legend"));
    }
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i)
        refreshRun(i);
    if (m_ghost)
        tickLanes(*m_ghost, *m_ghostShown->run);
    rebuildLegend();
    applyStyle();
    layoutRows();
    applyVisibleRange();
    updateGeometry();
}

TimelinePlot::RunRow TimelinePlot::makeRow(int run)
{
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
    row.plottable = new TimelinePlottable(time, lanes, m_document, run, m_view);
    // A range set on an axis directly (QCustomPlot API, tests) reaches
    // the shared view, which may clamp it; the axes then follow the view.
    connect(time, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& range) {
        if (m_syncing)
            return;
        m_view->setVisibleRange(saturatingCast<std::int64_t>(std::round(range.lower)),
                                saturatingCast<std::int64_t>(std::round(range.upper)));
        applyVisibleRange();
    });
    return row;
}

void TimelinePlot::applyStyle()
{
    const TimelineStyle style = TimelineStyle::from(palette(), font());
    setBackground(style.background);
    const std::vector<const RunRow*> order = layoutOrder();
    for (const RunRow* ordered : order) {
        const RunRow& row = *ordered;
        const bool bottom = ordered == order.back();
        if (row.plottable->isGhost()) {
            // Its title reads as a note on the run above, not as a run.
            QFont title = style.title;
            title.setItalic(true);
            row.title->setFont(title);
            row.title->setTextColor(style.axisLabel);
        } else {
            row.title->setFont(style.title);
            row.title->setTextColor(style.text);
        }
        row.rect->setBackground(Qt::NoBrush);
        QCPAxis* time = row.rect->axis(QCPAxis::atBottom);
        QCPAxis* lanes = row.rect->axis(QCPAxis::atLeft);
        for (QCPAxis* axis : {time, lanes}) {
            axis->setBasePen(QPen(style.axis, 1));
            axis->setTickPen(QPen(style.axis, 1));
            axis->setSubTickPen(QPen(style.subTick, 1));
            axis->setTickLabelFont(style.base);
            axis->setTickLabelColor(style.text);
            axis->setLabelFont(style.base);
            axis->setLabelColor(style.axisLabel);
        }
        time->setTickLengthIn(0);
        time->setTickLengthOut(5);
        time->setSubTickLengthIn(0);
        time->setSubTickLengthOut(bottom ? 3 : 0);
        time->setTickLabels(bottom);
        time->setLabel(bottom ? timeAxisLabel() : QString());
        time->grid()->setPen(QPen(style.grid, 1, Qt::SolidLine));
        time->grid()->setZeroLinePen(Qt::NoPen);
        time->grid()->setSubGridVisible(false);
        lanes->setTickLength(0, 0);
        lanes->setSubTicks(false);
        lanes->setTickLabelPadding(8);
        lanes->setTickLabels(m_laneLabels);
        lanes->grid()->setVisible(false);
        row.plottable->setStyle(style.plottable);
    }
    if (m_legend)
        m_legend->applyStyle(style);
    if (m_header) {
        m_header->setFont(style.base);
        m_header->setTextColor(style.text);
    }
    if (m_emptyNote) {
        m_emptyNote->setFont(style.base);
        m_emptyNote->setTextColor(style.emptyNote);
    }
}

void TimelinePlot::layoutRows()
{
    const int left = plotLeftMargin();
    const std::vector<const RunRow*> order = layoutOrder();
    for (const RunRow* ordered : order) {
        // The rows are this plot's own: layoutOrder hands them out read-only
        // for the const callers.
        RunRow& row = const_cast<RunRow&>(*ordered);
        const bool bottom = ordered == order.back();
        const bool first = ordered == order.front();
        row.laidOutRows = row.plottable->laneRows().rowCount();
        // A folded run keeps its title and an axis rect of no height (the
        // ruler under it when it is the last): nothing else moves, and the
        // time range, shared by every rect, stays as it was.
        const bool folded = m_view->isCollapsed(row.run);
        const int laneCount = folded ? 0 : std::max(1, row.laidOutRows);
        const QMargins margins(left, folded ? 0 : kRectTopMargin, kRightMargin,
                               bottom ? rulerHeight() : folded ? 0 : kRectBottomMargin);
        row.rect->setMaximumSize(QWIDGETSIZE_MAX, folded ? 0 : QWIDGETSIZE_MAX);
        row.rect->setMinimumSize(kAxisRectMinimum, folded ? 0 : kAxisRectMinimum); // QCPAxisRect's own minimum, unfolded
        row.plottable->setVisible(!folded);
        row.rect->axis(QCPAxis::atLeft)->setVisible(!folded);
        m_drawnArea = {}; // the rows moved: what was drawn is not what is in view
        row.rect->setMargins(margins);
        row.rect->setMinimumMargins(margins);
        // A ghost's title sits close under its run: it belongs to it.
        row.title->setMargins(QMargins(kTitleIndent, first ? 8 : row.plottable->isGhost() ? 2 : 14, kRightMargin, 2));
        // Stretch by the preferred outer height: at preferredHeight() every
        // run gets exactly rowHeight() per lane; more or less space is shared
        // in the same proportion (lanes squeeze past kMaxWidgetHeight and in
        // exports given a --height).
        plotLayout()->setRowStretchFactor(row.layoutRow, 0.001);
        // (A folded run's rect, of no height, still takes a positive factor.)
        plotLayout()->setRowStretchFactor(row.layoutRow + 1,
                                          std::max(0.001, laneCount * rowHeight() + margins.top() + margins.bottom() + 0.0));
    }
    if (m_legend && !order.empty())
        plotLayout()->setRowStretchFactor(order.back()->layoutRow + 2, 0.001);
    if (m_header)
        plotLayout()->setRowStretchFactor(0, 0.001);
    fitTo(width(), height());
}

std::uint32_t TimelinePlot::kindsPresent() const
{
    std::uint32_t kinds = 0;
    constexpr std::uint32_t all = (1u << kOpKindCount) - 1;
    const auto add = [&](const RunTimeline& run) {
        for (int lane = 0; lane < run.laneCount() && kinds != all; ++lane)
            for (const Op& op : run.laneOps(lane))
                kinds |= 1u << static_cast<unsigned>(op.kind);
    };
    for (int r = 0; r < m_document->runCount() && kinds != all; ++r)
        add(m_document->run(r));
    // The ghost's too: its fix may add ops the measured runs have none of
    // (a prefetch's copies, pinned staging).
    if (const RunTimeline* ghost = ghostTimeline())
        add(*ghost);
    return kinds;
}

bool TimelinePlot::anyTimedRegion() const
{
    for (int r = 0; r < m_document->runCount(); ++r)
        if (m_document->run(r).run().timedEndNs > m_document->run(r).run().timedBeginNs)
            return true;
    return false;
}

void TimelinePlot::rebuildLegend()
{
    if (m_legend && m_legend->setEntries(kindsPresent(), anyTimedRegion())) {
        m_legend->applyStyle(TimelineStyle::from(palette(), font()));
        m_legend->layoutFor(width() > 0 ? width() : kFallbackWidth);
    }
}

int TimelinePlot::fixedHeight(int width) const
{
    // Everything but the lane rows: titles, rect margins, ruler, legend.
    int height = m_legend ? m_legend->heightFor(width) : 0;
    if (m_header)
        height += static_cast<const QCPLayoutElement*>(m_header)->minimumOuterSizeHint().height();
    for (const RunRow* row : layoutOrder()) {
        const QMargins margins = row->rect->margins();
        height += static_cast<const QCPLayoutElement*>(row->title)->minimumOuterSizeHint().height();
        height += margins.top() + margins.bottom();
    }
    return height;
}

int TimelinePlot::preferredHeight(int width) const
{
    if (width <= 0)
        width = isVisible() && this->width() > 0 ? this->width() : kFallbackWidth;
    if (m_rows.empty())
        return 120;
    // In 64 bits: 65,535 lanes of 26 px pass no int limit, but a larger
    // font and more runs could; callers compare it with the caps.
    const long long height = static_cast<long long>(fixedHeight(width)) + static_cast<long long>(totalLanes()) * rowHeight();
    return static_cast<int>(std::min<long long>(height, std::numeric_limits<int>::max()));
}

int TimelinePlot::minimumFitHeight(int width) const
{
    if (width <= 0)
        width = isVisible() && this->width() > 0 ? this->width() : kFallbackWidth;
    if (m_rows.empty())
        return 120;
    const long long height =
        static_cast<long long>(fixedHeight(width)) + (totalLanes() + kLanesPerPixel - 1) / kLanesPerPixel;
    return static_cast<int>(std::min<long long>(height, std::numeric_limits<int>::max()));
}

void TimelinePlot::fitTo(int width, int height)
{
    if (width <= 0)
        width = kFallbackWidth;
    if (m_legend)
        m_legend->layoutFor(width);
    // The ghost's title wraps rather than run past the right edge: what the
    // fix saves is at its end.
    if (m_ghost && m_ghostShown)
        m_ghost->title->setText(
            wrapTitle(ghostTitleText(), QFontMetrics(m_ghost->title->font()), width - kTitleIndent - kRightMargin));
    // Lane names stay only where rows are tall enough to read them; squeezed
    // rows (thousands of lanes) keep their colours and drop the text.
    bool labels = true;
    if (height > 0 && !m_rows.empty()) {
        const double rowPixels = static_cast<double>(height - fixedHeight(width)) / std::max(1, totalLanes());
        labels = rowPixels >= QFontMetrics(TimelineStyle::baseFont(font())).height();
    }
    if (labels != m_laneLabels) {
        m_laneLabels = labels;
        for (const RunRow* row : layoutOrder())
            row->rect->axis(QCPAxis::atLeft)->setTickLabels(labels);
    }
}

QSize TimelinePlot::sizeHint() const
{
    return {1000, std::min(preferredHeight(1000), kMaxWidgetHeight)};
}

QSize TimelinePlot::minimumSizeHint() const
{
    return {320, 120};
}

void TimelinePlot::refreshRun(int run)
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()) || run >= m_document->runCount())
        return;
    RunRow& row = m_rows[static_cast<std::size_t>(run)];
    row.title->setText(runTitle(run));
    tickLanes(row, m_document->run(run));
}

void TimelinePlot::tickLanes(RunRow& row, const RunTimeline& timeline)
{
    QCPAxis* lanes = row.rect->axis(QCPAxis::atLeft);
    auto ticker = lanes->ticker().dynamicCast<QCPAxisTickerText>();
    // Lanes arrive during a live run, and with them (several GPUs) groups.
    // The finished run may reorder them (by device) and name its devices.
    LaneRows rows = LaneRows::of(timeline.run(), timeline.regionTracks());
    const std::vector<std::pair<int, QString>> labels = rowLabels(rows, timeline);
    if (!(rows == row.ticked) || (ticker && ticker->ticks().size() != static_cast<int>(labels.size()))) {
        row.plottable->setLaneRows(rows);
        if (ticker) {
            ticker->clear();
            for (const auto& [r, label] : labels)
                ticker->addTick(r, label);
        }
        row.ticked = std::move(rows);
    }
    lanes->setRange(-0.5, std::max(1, row.plottable->laneRows().rowCount()) - 0.5);
}

std::vector<std::pair<int, QString>> TimelinePlot::rowLabels(const LaneRows& rows, const RunTimeline& timeline)
{
    std::vector<std::pair<int, QString>> labels;
    const Run& run = timeline.run();
    // The regions band: its first row per thread says whose ranges these
    // are; deeper rows of the same thread need no second label.
    const RegionTracks& tracks = timeline.regionTracks();
    for (int r = 0; r < std::min(rows.regionRows, tracks.count()); ++r) {
        const RegionTracks::Track& track = tracks.tracks[static_cast<std::size_t>(r)];
        if (r > 0 && tracks.tracks[static_cast<std::size_t>(r - 1)].lane == track.lane)
            continue;
        const std::string label =
            track.lane < run.lanes.size() ? "regions \u00b7 " + run.lanes[track.lane].name : std::string("regions");
        labels.emplace_back(r, displayText(label, kLaneLabelChars));
    }
    // Header rows get no tick label: the plottable draws their text.
    for (int r = rows.regionRows; r < rows.rowCount(); ++r)
        if (const int lane = rows.laneAt(r); lane >= 0)
            labels.emplace_back(r, displayText(run.lanes[static_cast<std::size_t>(lane)].name, kLaneLabelChars));
    return labels;
}

void TimelinePlot::refresh()
{
    // The ghost's run changed (it is of the run as it was): it goes.
    if (m_ghost && wantedGhost() != m_ghostShown) {
        updateGhost();
        updateExtent();
        return;
    }
    // Lanes appear during a live run: margins and row heights follow them.
    bool lanesChanged = false;
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
        refreshRun(i);
        lanesChanged = lanesChanged || rowCount(i) != m_rows[static_cast<std::size_t>(i)].laidOutRows;
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
    for (const RunRow* row : layoutOrder())
        row->rect->axis(QCPAxis::atBottom)->setRange(range);
    m_syncing = false;
    replot(rpQueuedReplot);
}

QCPAxisRect* TimelinePlot::runAxisRect(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()))
        return nullptr;
    return m_rows[static_cast<std::size_t>(run)].rect;
}

TimeAxisMapping TimelinePlot::mapping() const
{
    TimeAxisMapping mapping;
    mapping.startNs = m_view->visibleStartNs();
    mapping.endNs = m_view->visibleEndNs();
    if (!m_rows.empty()) {
        const QRect rect = m_rows.front().rect->rect();
        mapping.left = rect.left();
        mapping.width = rect.width();
    }
    return mapping;
}

RegionRef TimelinePlot::regionAt(const QPoint& pos) const
{
    for (const RunRow& row : m_rows)
        if (m_view->isCollapsed(row.run))
            continue;
        else if (const RegionRef region = row.plottable->regionAt(pos); region.isValid())
            return region;
    return {};
}

OpRef TimelinePlot::opAt(const QPoint& pos) const
{
    for (const RunRow& row : m_rows) {
        if (m_view->isCollapsed(row.run))
            continue;
        const OpRef op = row.plottable->opAt(pos);
        if (op.isValid())
            return op;
    }
    return {};
}

QString TimelinePlot::toolTipTextAt(const QPoint& pos) const
{
    const OpRef op = opAt(pos);
    if (op.isValid()) {
        const RunTimeline& run = m_document->run(op.run);
        return opTooltipText(run, op.lane, run.laneOps(op.lane)[static_cast<std::size_t>(op.index)]);
    }
    if (const RegionRef region = regionAt(pos); region.isValid()) {
        const Run& run = m_document->run(region.run).run();
        const bool dark = palette().color(QPalette::Base).lightness() < 128;
        return regionTooltipText(run, run.regions[static_cast<std::size_t>(region.index)], dark);
    }
    const RunTimeline* ghost = ghostTimeline();
    const auto hit = ghost && !m_view->isCollapsed(m_ghostOf) ? m_ghost->plottable->laneOpAt(pos) : std::nullopt;
    if (!hit)
        return {};
    return tr("What if (replayed, not measured):\n")
           + opTooltipText(*ghost, hit->first, ghost->laneOps(hit->first)[static_cast<std::size_t>(hit->second)]);
}

bool TimelinePlot::inPlotColumn(const QPoint& pos) const
{
    if (m_rows.empty())
        return false;
    const QRect first = m_rows.front().rect->rect();
    const QRect last = layoutOrder().back()->rect->rect();
    return pos.x() >= first.left() && pos.x() <= first.right() && pos.y() >= 0 && pos.y() <= last.bottom();
}

std::optional<double> TimelinePlot::cursorX() const
{
    if (m_mouseInside && inPlotColumn(m_lastMousePos))
        return m_lastMousePos.x();
    return std::nullopt;
}

TimelineInteraction& TimelinePlot::interaction()
{
    m_interaction.setMapping(mapping());
    return m_interaction;
}

void TimelinePlot::endDrag()
{
    if (m_interaction.drag() == TimelineInteraction::Drag::Pan)
        unsetCursor();
    const bool hadBand = m_interaction.drag() == TimelineInteraction::Drag::ZoomBand;
    m_interaction.cancel();
    if (hadBand)
        update();
}

void TimelinePlot::applyCollapsed()
{
    endDrag();
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i)
        m_rows[static_cast<std::size_t>(i)].title->setText(runTitle(i));
    layoutRows();
    updateGeometry();
    replot(rpQueuedReplot);
    emit rowsFolded();
}

int TimelinePlot::runTitleAt(const QPoint& pos) const
{
    for (const RunRow& row : m_rows)
        if (row.title->outerRect().contains(pos))
            return row.run;
    return -1;
}

QRect TimelinePlot::runTitleRect(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()))
        return {};
    return m_rows[static_cast<std::size_t>(run)].title->outerRect();
}

QRect TimelinePlot::ghostTitleRect() const
{
    return m_ghost ? m_ghost->title->outerRect() : QRect();
}

QString TimelinePlot::ghostTitleShown() const
{
    return m_ghost ? m_ghost->title->text() : QString();
}

QString TimelinePlot::runTitleText(int run) const
{
    if (run < 0 || run >= static_cast<int>(m_rows.size()))
        return {};
    return m_rows[static_cast<std::size_t>(run)].title->text();
}

void TimelinePlot::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    m_interaction.cancel();
    // A run's title folds or unfolds it (with several runs, as its marker says).
    if (const int run = runTitleAt(m_pressPos); run >= 0 && event->button() == Qt::LeftButton
                                                 && m_document->runCount() > 1) {
        m_view->setCollapsed(run, !m_view->isCollapsed(run));
        event->accept();
        return;
    }
    if (!inPlotColumn(m_pressPos)) {
        event->ignore();
        return;
    }
    QToolTip::hideText();
    const auto button = event->button() == Qt::LeftButton    ? TimelineInteraction::Button::Left
                        : event->button() == Qt::RightButton ? TimelineInteraction::Button::Right
                                                             : TimelineInteraction::Button::Other;
    interaction().press(m_pressPos.x(), button, modifiersOf(event->modifiers()));
    event->accept();
}

void TimelinePlot::mouseMoveEvent(QMouseEvent* event)
{
    m_lastMousePos = event->pos();
    m_mouseInside = true;
    const bool moved = (event->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
    const auto before = m_interaction.drag();
    if (before == TimelineInteraction::Drag::None) {
        const QString text = toolTipTextAt(event->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
    } else if (interaction().move(event->pos().x(), moved)) {
        update(); // the zoom band
    }
    if (before != TimelineInteraction::Drag::Pan && m_interaction.drag() == TimelineInteraction::Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent* event)
{
    const bool moved = (event->pos() - m_pressPos).manhattanLength() >= QApplication::startDragDistance();
    const auto drag = m_interaction.drag();
    const bool click = drag == TimelineInteraction::Drag::Pending;
    const OpRef hit = click ? opAt(event->pos()) : OpRef{};
    const RegionRef region = click && !hit.isValid() ? regionAt(event->pos()) : RegionRef{};
    if (region.isValid()) {
        const Region& r = m_document->run(region.run).run().regions[static_cast<std::size_t>(region.index)];
        interaction().release(event->pos().x(), moved, region, TimeFrame(*m_document).region(region.run, r));
    } else {
        interaction().release(event->pos().x(), moved, hit);
    }
    if (drag == TimelineInteraction::Drag::Pan)
        unsetCursor();
    if (drag == TimelineInteraction::Drag::ZoomBand)
        update();
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
    interaction().zoomToOp(ref, TimeFrame(*m_document).toAxis(ref.run, op.startNs, op.endNs));
    event->accept();
}

void TimelinePlot::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const QPoint pos = event->position().toPoint();
    const std::optional<double> at = inPlotColumn(pos) ? std::optional<double>(pos.x()) : cursorX();
    if (interaction().wheel(delta.x() / 120.0, delta.y() / 120.0, modifiersOf(event->modifiers()), at))
        event->accept();
    else
        event->ignore(); // a plain wheel scrolls whatever holds the timeline (many runs)
}

void TimelinePlot::keyPressEvent(QKeyEvent* event)
{
    const auto command = TimelineInteraction::commandForKey(event->key());
    if (command && interaction().command(*command, cursorX())) {
        event->accept();
        return;
    }
    QCustomPlot::keyPressEvent(event);
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
            interaction().pinch(gesture->value(), inPlotColumn(pos) ? std::optional<double>(pos.x()) : cursorX());
            return true;
        }
    }
    return QCustomPlot::event(event);
}

void TimelinePlot::updateLayout()
{
    QCustomPlot::updateLayout();
    drawOnlyRunsInView();
}

void TimelinePlot::drawOnlyRunsInView()
{
    const QRect shown = isVisible() ? visibleRegion().boundingRect() : QRect();
    m_drawnArea = shown.isEmpty() ? rect() : shown;
    for (const RunRow* row : layoutOrder()) {
        const bool drawn = !m_view->isCollapsed(row->run) && row->rect->outerRect().intersects(m_drawnArea);
        row->plottable->setVisible(drawn);
        row->rect->axis(QCPAxis::atLeft)->setVisible(drawn);
    }
}

void TimelinePlot::paintEvent(QPaintEvent* event)
{
    // Scrolled, or the area grew: rows not drawn come into view.
    if (isVisible() && !m_drawnArea.contains(visibleRegion().boundingRect()))
        replot(rpQueuedReplot);
    QCustomPlot::paintEvent(event);
    if (m_interaction.drag() != TimelineInteraction::Drag::ZoomBand || m_rows.empty())
        return;
    // The rubber band is interaction feedback, not part of the picture, so it
    // is painted over the widget rather than into the plot (and exports).
    const auto [x0, x1] = interaction().band();
    const QRect first = m_rows.front().rect->rect();
    const QRect last = layoutOrder().back()->rect->rect();
    const QRect band(QPoint(static_cast<int>(x0), first.top()), QPoint(static_cast<int>(x1), last.bottom()));
    QPainter painter(this);
    QColor accent = palette().color(QPalette::Highlight);
    QColor fill = accent;
    fill.setAlpha(50);
    painter.fillRect(band, fill);
    painter.setPen(QPen(accent, 1));
    painter.drawRect(band.adjusted(0, 0, -1, -1));
    const QString text = TimeFormat::duration(timeAtPixel(x1) - timeAtPixel(x0), 3);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(band.adjusted(4, 4, -4, -4), Qt::AlignHCenter | Qt::AlignTop, text);
}

void TimelinePlot::resizeEvent(QResizeEvent* event)
{
    fitTo(event->size().width(), event->size().height());
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

} // namespace ovs::ui
