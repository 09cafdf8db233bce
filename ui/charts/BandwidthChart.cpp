#include "charts/BandwidthChart.h"

#include "charts/PlotPalette.h"

#include "document/TraceDocument.h"
#include "style/OpStyle.h"
#include "style/TimeFormat.h"
#include "style/DisplayText.h"

#include <algorithm>
#include <array>

namespace ovs::ui {

namespace {

// The five cells the benchmark measures per size. Direction keeps the op
// colours of the timeline (HtoD as uploads, DtoH as downloads); memory kind
// is the line style, so pageable and pinned of one direction read as a pair.
struct Series {
    HostMemoryKind memory;
    const char* direction;
    const char* name;
};

constexpr std::array<Series, 5> kSeries = {{
    {HostMemoryKind::Pageable, "HtoD", "pageable HtoD"},
    {HostMemoryKind::Pinned, "HtoD", "pinned HtoD"},
    {HostMemoryKind::Pageable, "DtoH", "pageable DtoH"},
    {HostMemoryKind::Pinned, "DtoH", "pinned DtoH"},
    {HostMemoryKind::Pinned, "bidir", "pinned bidirectional"},
}};

QPen seriesPen(const Series& series)
{
    const std::string direction = series.direction;
    QColor colour = direction == "HtoD"   ? opColor(OpKind::Upload)
                    : direction == "DtoH" ? opColor(OpKind::Download)
                                          : QColor(0x4a, 0x2c, 0x8a);
    QPen pen(colour, 2);
    if (series.memory == HostMemoryKind::Pageable)
        pen.setStyle(Qt::DashLine);
    return pen;
}

QCPScatterStyle seriesScatter(const Series& series, const QPen& pen)
{
    // Marks point the way the data goes (up: HtoD, down: DtoH), so curves
    // that coincide (pinned copies run at the same rate both ways) both show;
    // filled for pinned, hollow for pageable, so they differ without colour too.
    const std::string direction = series.direction;
    const auto shape = direction == "HtoD"   ? QCPScatterStyle::ssTriangle
                       : direction == "DtoH" ? QCPScatterStyle::ssTriangleInverted
                                             : QCPScatterStyle::ssDiamond;
    const bool pinned = series.memory == HostMemoryKind::Pinned;
    QPen outline = pen;
    outline.setStyle(Qt::SolidLine);
    outline.setWidthF(1.5);
    return QCPScatterStyle(shape, outline, pinned ? QBrush(pen.color()) : QBrush(Qt::white), 8);
}

} // namespace

BandwidthChart::BandwidthChart(TraceDocument* document, QWidget* parent)
    : QCustomPlot(parent), m_document(document), m_title(new QCPTextElement(this)),
      m_emptyText(new QCPItemText(this))
{
    setMinimumSize(320, 220);
    plotLayout()->insertRow(0);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    plotLayout()->addElement(0, 0, m_title);

    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setLabel(tr("transfer size"));
    yAxis->setLabel(tr("bandwidth (GB/s, decimal; median of samples)"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft); // small sizes run slow: that corner stays empty

    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setPositionAlignment(Qt::AlignCenter);
    m_emptyText->setClipToAxisRect(false);

    if (document) {
        connect(document, &TraceDocument::sweepsChanged, this, &BandwidthChart::rebuild);
        connect(document, &TraceDocument::reset, this, &BandwidthChart::rebuild);
    }
    rebuild();
    PlotPalette::follow(this); // light, dark and presentation follow the palette
}

QString BandwidthChart::title() const
{
    return m_title->text();
}

void BandwidthChart::setSizeTicks(const std::set<std::uint64_t>& sizes)
{
    // Ticks exactly at the measured sizes, labelled as they were asked for.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::uint64_t size : sizes)
        ticker->addTick(static_cast<double>(size), TimeFormat::bytes(size));
    xAxis->setTicker(ticker);
    xAxis->setRange(static_cast<double>(*sizes.begin()) / 1.5, static_cast<double>(*sizes.rbegin()) * 1.5);
}

bool BandwidthChart::isShowingEmptyState() const
{
    return m_emptyText->visible();
}

void BandwidthChart::rebuild()
{
    clearGraphs();
    const auto* sweeps = m_document ? &m_document->sweeps() : nullptr;
    m_shown = sweeps && !sweeps->empty() ? static_cast<int>(sweeps->size()) - 1 : -1;
    m_comparedWith = -1;
    if (m_shown < 0) {
        m_title->setText(tr("Transfer bandwidth"));
        m_emptyText->setText(tr("No bandwidth sweep yet.\nTick \u201cbandwidth sweep\u201d and press Run, "
                                "or open a trace that has one."));
        m_emptyText->setVisible(true);
        legend->setVisible(false);
        // The seed's sizes, so the empty axes already read as they will.
        setSizeTicks({1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20});
        yAxis->setRange(0, 60);
        replot(rpQueuedReplot);
        return;
    }

    const BandwidthSweep& sweep = (*sweeps)[static_cast<std::size_t>(m_shown)];
    // A comparison whose two traces both have a sweep: the before's (the
    // last of its own) drawn faded under the after's.
    const Comparison* comparison = m_document->comparison();
    m_comparedWith = comparison && comparison->afterSweepsBegin > 0
                             && comparison->afterSweepsBegin < sweeps->size()
                         ? static_cast<int>(comparison->afterSweepsBegin) - 1
                         : -1;
    QString title = tr("Transfer bandwidth: %1").arg(displayText(sweep.device.label()));
    if (sweep.samples > 0)
        title += tr("  (median of %1 %2 samples)")
                     .arg(sweep.samples)
                     .arg(sweep.timing == "simulated" ? tr("simulated") : tr("event-timed"));
    if (m_comparedWith >= 0)
        title += tr("  [before, faded, and after]");
    else if (sweeps->size() > 1)
        title += tr("  [sweep %1 of %2]").arg(m_shown + 1).arg(sweeps->size());
    m_title->setText(title);

    std::set<std::uint64_t> sizes;
    double maxGBps = 0;
    const auto draw = [&](const BandwidthSweep& drawn, const QString& prefix, bool faded) {
        for (const Series& series : kSeries) {
            QVector<double> x;
            QVector<double> y;
            for (const BandwidthPoint& point : drawn.points) {
                if (point.memory != series.memory || point.direction != series.direction)
                    continue;
                x.append(static_cast<double>(point.bytes));
                y.append(point.gbps);
            }
            if (x.isEmpty())
                continue;
            QCPGraph* graph = addGraph();
            graph->setName(prefix + QString::fromLatin1(series.name));
            QPen pen = seriesPen(series);
            if (faded) {
                QColor colour = pen.color();
                colour.setAlpha(110);
                pen.setColor(colour);
            }
            graph->setPen(pen);
            graph->setScatterStyle(seriesScatter(series, pen));
            graph->setData(x, y); // sorts by size
            for (int i = 0; i < x.size(); ++i) {
                sizes.insert(static_cast<std::uint64_t>(x[i]));
                maxGBps = std::max(maxGBps, y[i]);
            }
        }
    };
    if (m_comparedWith >= 0) {
        draw((*sweeps)[static_cast<std::size_t>(m_comparedWith)], tr("before: "), true);
        draw(sweep, tr("after: "), false);
    } else {
        draw(sweep, QString(), false);
    }

    const bool empty = graphCount() == 0;
    m_emptyText->setVisible(empty);
    if (empty)
        m_emptyText->setText(tr("The sweep has no measured cells yet."));
    legend->setVisible(!empty);

    if (!sizes.empty())
        setSizeTicks(sizes);
    yAxis->setRange(0, maxGBps > 0 ? maxGBps * 1.15 : 1);
    replot(rpQueuedReplot);
}

} // namespace ovs::ui
