#include "charts/LessonSweepChart.h"

#include "charts/PlotPalette.h"
#include "style/Theme.h"
#include "style/TimeFormat.h"

#include <QEvent>

#include <algorithm>

namespace ovs::ui {

namespace {

// Blue for what was measured, orange for the bound: a pair that stays apart
// under deuteranopia and protanopia; the bound is also dashed, so the two
// differ without colour. Lighter on a dark background.
QColor wallColour(bool dark)
{
    return dark ? QColor(0x6a, 0xa9, 0xff) : QColor(0x1f, 0x5f, 0xbf);
}

QColor boundColour(bool dark)
{
    return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb3, 0x59, 0x00);
}

QString valueText(SweptParameter parameter, std::uint64_t value)
{
    return parameter == SweptParameter::ChunkBytes ? TimeFormat::bytes(value) : QString::number(value);
}

double toMs(std::int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

} // namespace

LessonSweepChart::LessonSweepChart(QWidget* parent)
    : QCustomPlot(parent), m_title(new QCPTextElement(this)), m_emptyText(new QCPItemText(this)),
      m_best(new QCPItemTracer(this)), m_bestText(new QCPItemText(this))
{
    setObjectName(QStringLiteral("lessonSweepChart"));
    setMinimumSize(280, 220);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);

    xAxis->setScaleType(QCPAxis::stLogarithmic);

    // The legend under the plot: the curves of a sweep can fill any corner.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    // One entry a row: the panel is narrow, and the bound's name is long.
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    legend->setMargins(QMargins(6, 2, 6, 2));
    legend->setVisible(true);

    for (int i = 0; i < 2; ++i)
        addGraph();

    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setPositionAlignment(Qt::AlignCenter);
    m_emptyText->setClipToAxisRect(false);

    m_best->setStyle(QCPItemTracer::tsCircle);
    m_best->setSize(20);
    // Above the ring: the fastest run is the lowest wall time, with the bound
    // just under it, so above is where the plot is clear. Over the graphs
    // (a layer above theirs), on a background of its own.
    m_bestText->position->setParentAnchor(m_best->position);
    m_best->setLayer(QStringLiteral("axes"));
    m_bestText->setLayer(QStringLiteral("axes"));
    m_bestText->setClipToAxisRect(false);
    m_bestText->setPadding(QMargins(4, 2, 4, 2));

    applyFonts(); // and draws the (empty) series
    PlotPalette::follow(this);
    applyColours();
}

QString LessonSweepChart::title() const
{
    return m_title->text();
}

bool LessonSweepChart::isShowingEmptyState() const
{
    return m_emptyText->visible();
}

void LessonSweepChart::setSeries(SweepSeries series)
{
    m_series = std::move(series);
    rebuild();
}

void LessonSweepChart::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
    else if (event->type() == QEvent::PaletteChange)
        applyColours(); // PlotPalette, installed first, has set the axes and text
}

void LessonSweepChart::applyFonts()
{
    // QCustomPlot copies the widget's font into its parts once; presentation
    // mode changes the widget's font, so copy it again.
    const QFont base = font();
    for (QCPAxis* axis : axisRect()->axes()) {
        axis->setTickLabelFont(base);
        axis->setLabelFont(base);
    }
    legend->setFont(base);
    for (int i = 0; i < legend->itemCount(); ++i)
        legend->item(i)->setFont(base);
    m_emptyText->setFont(base);
    m_bestText->setFont(base);
    QFont title = base;
    title.setBold(true);
    m_title->setFont(title);
    // Marks and lines grow with the text (13 px: a desktop's usual font).
    m_scale = std::max(1.0, QFontInfo(base).pixelSize() / 13.0);
    m_best->setSize(20 * m_scale);
    applyColours();
    rebuild(); // the best label's offset is in pixels
}

void LessonSweepChart::applyColours()
{
    const bool dark = Theme::paletteIsDark(palette());
    const QColor wall = wallColour(dark);
    const QColor bound = boundColour(dark);
    const QColor background = palette().color(QPalette::Base);
    const double s = m_scale;
    wallGraph()->setPen(QPen(wall, 2.5 * s));
    wallGraph()->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, wall, wall, 9 * s));
    boundGraph()->setPen(QPen(bound, 2.5 * s, Qt::DashLine));
    // Hollow squares: the bound's points read apart from the measured discs.
    boundGraph()->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(bound, 2 * s), background, 9 * s));
    m_best->setPen(QPen(palette().color(QPalette::Text), 2.5 * s));
    m_best->setBrush(Qt::NoBrush);
    // Over the lines it may cross, on the background: it stays readable.
    m_bestText->setBrush(background);
    legend->setBorderPen(Qt::NoPen); // a row under the plot, not a box in it
    replot(rpQueuedReplot);
}

void LessonSweepChart::rebuild()
{
    const std::vector<SweepPoint>& points = m_series.points;
    const QString parameter = QString::fromStdString(sweptParameterName(m_series.parameter));
    QString title = parameter.isEmpty() ? tr("Wall time of each run") : tr("Wall time against %1").arg(parameter);
    if (m_series.simulated)
        title += tr("  [simulated]");
    m_title->setText(title);
    xAxis->setLabel(parameter.isEmpty() ? QString() : tr("%1 (log scale)").arg(parameter));

    QVector<double> x, wall, boundX, bound;
    double top = 0;
    double bottom = 0; // the least time drawn, > 0
    for (const SweepPoint& p : points) {
        x.append(static_cast<double>(p.value));
        wall.append(toMs(p.wallNs));
        top = std::max(top, toMs(p.wallNs));
        bottom = bottom > 0 ? std::min(bottom, toMs(p.wallNs)) : toMs(p.wallNs);
        if (p.boundNs > 0) {
            boundX.append(static_cast<double>(p.value));
            bound.append(toMs(p.boundNs));
            top = std::max(top, toMs(p.boundNs));
            bottom = bottom > 0 ? std::min(bottom, toMs(p.boundNs)) : toMs(p.boundNs);
        }
    }
    wallGraph()->setName(m_series.simulated ? tr("wall time (simulated)") : tr("wall time (measured)"));
    wallGraph()->setData(x, wall, true);
    boundGraph()->setData(boundX, bound, true);
    boundGraph()->setName(bound.isEmpty() ? tr("bound: unknown (no link rates for these runs)")
                                          : tr("bound: the least each run could take at its rates"));

    const bool empty = points.empty();
    m_emptyText->setVisible(empty);
    m_emptyText->setText(tr("No completed runs to draw yet."));
    legend->setVisible(!empty);

    // Ticks exactly at the swept values, labelled as the lesson names them.
    auto valueTicker = QSharedPointer<QCPAxisTickerText>::create();
    for (const SweepPoint& p : points)
        valueTicker->addTick(static_cast<double>(p.value), valueText(m_series.parameter, p.value));
    xAxis->setTicker(valueTicker);
    if (!empty)
        xAxis->setRange(static_cast<double>(points.front().value) / 1.6, static_cast<double>(points.back().value) * 1.6);
    else
        xAxis->setRange(1, 2);
    // A wide span reads on a log scale; a narrow one from zero, where the
    // heights compare as they are.
    const bool logTime = bottom > 0 && top / bottom > 4;
    if (logTime) {
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(2); // 0.5, 1, 2, 4 ... ms: a tick per doubling, not per decade
        ticker->setSubTickCount(0);
        yAxis->setTicker(ticker);
        yAxis->setNumberFormat(QStringLiteral("gb"));
        yAxis->setLabel(tr("wall time (ms, log scale)"));
        yAxis->setRange(bottom / 1.6, top * 1.5);
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        yAxis->setNumberFormat(QStringLiteral("gb"));
        yAxis->setLabel(tr("wall time (ms)"));
        yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    }

    const bool best = m_series.best >= 0 && m_series.best < static_cast<int>(points.size());
    m_best->setVisible(best);
    m_bestText->setVisible(best);
    if (best) {
        const SweepPoint& p = points[static_cast<std::size_t>(m_series.best)];
        m_best->position->setCoords(static_cast<double>(p.value), toMs(p.wallNs));
        m_bestText->setText(tr("fastest: %1, %2").arg(QString::fromStdString(p.label), TimeFormat::wallTime(p.wallNs)));
        // Towards the middle of the plot, so that it never runs off its edge.
        const bool rightHalf = 2 * m_series.best >= static_cast<int>(points.size());
        m_bestText->setPositionAlignment(Qt::AlignBottom | (rightHalf ? Qt::AlignRight : Qt::AlignLeft));
        m_bestText->position->setCoords((rightHalf ? 1 : -1) * 10 * m_scale, -12 * m_scale);
    }
    replot(rpQueuedReplot);
}

} // namespace ovs::ui
