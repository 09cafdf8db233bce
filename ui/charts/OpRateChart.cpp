#include "charts/OpRateChart.h"

#include "charts/PlotPalette.h"

#include "document/TraceDocument.h"

#include "style/OpStyle.h"
#include "style/TimeFormat.h"
#include "style/DisplayText.h"

#include <algorithm>

namespace ovs::ui {

namespace {

QCPScatterStyle::ScatterShape runShape(int run)
{
    static constexpr std::array<QCPScatterStyle::ScatterShape, 6> shapes = {
        QCPScatterStyle::ssDisc,    QCPScatterStyle::ssTriangle, QCPScatterStyle::ssSquare,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,    QCPScatterStyle::ssPlus,
    };
    return shapes[static_cast<std::size_t>(run) % shapes.size()];
}

} // namespace

OpRateChart::OpRateChart(TraceDocument* document, QWidget* parent)
    : QCustomPlot(parent), m_document(document), m_emptyText(new QCPItemText(this))
{
    setMinimumSize(320, 220);
    xAxis->setLabel(tr("op start (ms from its run's start)"));
    yAxis->setLabel(tr("achieved GB/s (engine time where recorded)"));
    legend->setVisible(false);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setPositionAlignment(Qt::AlignCenter);
    m_emptyText->setClipToAxisRect(false);
    m_emptyText->setText(tr("No copies or staging ops yet: run a pipeline or open a trace."));

    if (document) {
        connect(document, &TraceDocument::reset, this, &OpRateChart::rebuildAll);
        connect(document, &TraceDocument::runAdded, this, &OpRateChart::updateRun);
        connect(document, &TraceDocument::runChanged, this, &OpRateChart::updateRun);
    }
    rebuildAll();
    PlotPalette::follow(this); // light, dark and presentation follow the palette
}

double OpRateChart::opRate(const Op& op)
{
    const std::int64_t ns = op.hasExec() ? op.execEndNs - op.execStartNs : op.durationNs();
    return TimeFormat::gbps(op.bytes, ns);
}

QCPGraph* OpRateChart::series(int run, OpKind kind) const
{
    if (run < 0 || run >= static_cast<int>(m_series.size()))
        return nullptr;
    const auto it = std::find(kKinds.begin(), kKinds.end(), kind);
    return it == kKinds.end() ? nullptr : m_series[static_cast<std::size_t>(run)][static_cast<std::size_t>(it - kKinds.begin())];
}

int OpRateChart::pointCount() const
{
    int points = 0;
    for (int i = 0; i < graphCount(); ++i)
        points += graph(i)->dataCount();
    return points;
}

bool OpRateChart::isShowingEmptyState() const
{
    return m_emptyText->visible();
}

void OpRateChart::rebuildAll()
{
    xAxis->setLabel(m_document && m_document->comparison() ? tr("op start (ms from its run's timed region start)")
                                                           : tr("op start (ms from its run's start)"));
    clearGraphs();
    m_series.clear();
    const int runs = m_document ? m_document->runCount() : 0;
    for (int run = 0; run < runs; ++run)
        updateRun(run);
    updateAxes();
}

void OpRateChart::updateRun(int run)
{
    if (!m_document || run < 0 || run >= m_document->runCount())
        return;
    const RunTimeline& timeline = m_document->run(run);
    while (static_cast<int>(m_series.size()) <= run) {
        const int index = static_cast<int>(m_series.size());
        const QString runName = displayText(m_document->run(index).run().name);
        std::array<QCPGraph*, kKinds.size()> graphs{};
        for (std::size_t k = 0; k < kKinds.size(); ++k) {
            QCPGraph* graph = addGraph();
            const QColor colour = opColor(kKinds[k]);
            graph->setName(tr("%1. %2: %3").arg(index + 1).arg(runName, opKindLabel(kKinds[k])));
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setPen(QPen(colour));
            graph->setScatterStyle(QCPScatterStyle(runShape(index), colour, colour, 6));
            graph->removeFromLegend();
            graphs[k] = graph;
        }
        m_series.push_back(graphs);
    }

    // A comparison's runs overlay from where they are aligned on the timeline.
    const std::int64_t origin = m_document->comparison() ? m_document->alignmentAnchorNs(run).value_or(0) : 0;
    std::array<QVector<QCPGraphData>, kKinds.size()> data;
    for (int lane = 0; lane < timeline.laneCount(); ++lane) {
        for (const Op& op : timeline.laneOps(lane)) {
            const auto it = std::find(kKinds.begin(), kKinds.end(), op.kind);
            const double rate = opRate(op);
            if (it == kKinds.end() || rate <= 0)
                continue;
            data[static_cast<std::size_t>(it - kKinds.begin())].append(
                QCPGraphData(static_cast<double>(op.startNs - origin) / 1e6, rate));
        }
    }
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
        QCPGraph* graph = m_series[static_cast<std::size_t>(run)][k];
        graph->data()->set(data[k]);
        // The legend lists only what is drawn.
        if (data[k].isEmpty())
            graph->removeFromLegend();
        else
            graph->addToLegend();
    }
    updateAxes();
}

void OpRateChart::updateAxes()
{
    double minX = 0; // below 0: a comparison's ops before the timed region
    double maxX = 0;
    double maxY = 0;
    for (int i = 0; i < graphCount(); ++i) {
        for (const QCPGraphData& point : *graph(i)->data()) {
            minX = std::min(minX, point.key);
            maxX = std::max(maxX, point.key);
            maxY = std::max(maxY, point.value);
        }
    }
    const bool empty = pointCount() == 0;
    m_emptyText->setVisible(empty);
    legend->setVisible(!empty);
    xAxis->setRange(minX, maxX > 0 ? maxX * 1.05 : 1);
    yAxis->setRange(0, maxY > 0 ? maxY * 1.15 : 1);
    replot(rpQueuedReplot);
}

} // namespace ovs::ui
