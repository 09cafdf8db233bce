#include "panels/RanksPanel.h"

#include "document/TraceDocument.h"
#include "style/DisplayText.h"

#include "findings/Findings.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ovs::ui {

namespace {

QString msText(std::int64_t ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 3);
}

QString percentText(double percent)
{
    return QString::number(percent, 'f', 1) + '%';
}

QTableWidgetItem* cell(const QString& text, bool number)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString alignmentSentence(const RankAlignment& a)
{
    if (!a.sharedClock)
        return QObject::tr("Clocks: %1").arg(displayText(a.why));
    if (a.stepsCompared == 0) {
        const std::int64_t apart = a.offsetNs.empty() ? 0 : *std::max_element(a.offsetNs.begin(), a.offsetNs.end());
        return QObject::tr("Clocks: aligned on the ranks' shared clock (ranks start up to %1 ms apart); no profiler "
                           "step is in two ranks, so how well is not measured")
            .arg(msText(apart));
    }
    return QObject::tr("Clocks: aligned on the ranks' shared clock; step starts across ranks spread %1 ms (median over "
                       "%2 steps), at most %3 ms (ProfilerStep#%4)")
        .arg(msText(a.medianSpreadNs))
        .arg(a.stepsCompared)
        .arg(msText(a.worstSpreadNs))
        .arg(a.worstStep);
}

} // namespace

RanksPanel::RanksPanel(TraceDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_straggler(new QLabel), m_alignment(new QLabel),
      m_table(new QTableWidget(0, ColumnCount))
{
    for (QLabel* label : {m_straggler, m_alignment}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_table->setHorizontalHeaderLabels({tr("rank"), tr("steps"), tr("median step ms"), tr("slowest step ms"),
                                        tr("in collectives ms"), tr("GPU busy"), tr("overlap, of possible"), tr("top finding"),
                                        tr("its cost ms"), tr("bound"), tr("shown")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_straggler);
    layout->addWidget(m_alignment);
    layout->addWidget(m_table, 1);

    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { emit rankChosen(static_cast<std::size_t>(row)); });
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { emit rankChosen(static_cast<std::size_t>(row)); });
    connect(m_document, &TraceDocument::reset, this, &RanksPanel::refresh);
    connect(m_document, &TraceDocument::runAdded, this, &RanksPanel::refresh);
    refresh();
}

QString RanksPanel::stragglerText() const
{
    return m_straggler->text();
}

QString RanksPanel::alignmentText() const
{
    return m_alignment->text();
}

void RanksPanel::refresh()
{
    const RankJob* job = m_document->ranks();
    m_table->setRowCount(0);
    if (!job) {
        m_straggler->setText(tr("Open a folder of ranks (File > Open folder…) to compare them here."));
        m_alignment->clear();
        return;
    }
    const RankFolder& folder = job->folder;
    const RankStraggler& s = folder.straggler;
    m_straggler->setText(s.sentence.empty() ? tr("One rank: nothing to compare it with.")
                                            : displayText(s.sentence) + (s.fix.empty() ? QString() : tr("\nfix: %1").arg(displayText(s.fix))));
    m_alignment->setText(alignmentSentence(folder.alignment));
    m_table->setRowCount(static_cast<int>(folder.ranks.size()));
    for (std::size_t i = 0; i < folder.ranks.size(); ++i) {
        const RankSummary& r = folder.ranks[i];
        const bool straggler = s.row == i;
        const int row = static_cast<int>(i);
        const RankFinding* top = r.findings.empty() ? nullptr : &r.findings.front();
        QTableWidgetItem* label = cell(displayText(r.label) + (straggler ? tr("  \u25c0 straggler") : QString()), false);
        if (straggler) {
            QFont bold = label->font();
            bold.setBold(true);
            label->setFont(bold);
        }
        label->setToolTip(QString::fromStdString(folder.files[r.file].path));
        m_table->setItem(row, Rank, label);
        m_table->setItem(row, Steps, cell(r.hasSteps ? QString::number(r.stepsJudged) : QStringLiteral("-"), true));
        m_table->setItem(row, MedianStep, cell(msText(r.stepMedianNs), true));
        m_table->setItem(row, SlowestStep, cell(msText(r.stepSlowestNs), true));
        m_table->setItem(row, Collectives,
                         cell(r.collectiveMedianNs >= 0 ? msText(r.collectiveMedianNs) : QStringLiteral("-"), true));
        m_table->setItem(row, GpuBusy, cell(percentText(r.gpuBusyPercent), true));
        m_table->setItem(row, Overlap,
                         cell(tr("%1 of %2").arg(percentText(r.overlapPercent), percentText(r.overlapOfPossiblePercent)), true));
        m_table->setItem(row, TopFinding,
                         cell(top ? QString::fromStdString(findingWords(top->kind, top->alsoKinds)) : QStringLiteral("-"), false));
        m_table->setItem(row, Cost, cell(top ? msText(top->costNs) : QStringLiteral("-"), true));
        m_table->setItem(row, Bound, cell(displayText(r.bound), false));
        m_table->setItem(row, Shown, cell(job->isOpen(i) ? tr("shown") : tr("click to open"), false));
    }
    // Time in collectives only where some rank waits in them (DDP's ranks do).
    m_table->setColumnHidden(Collectives, std::none_of(folder.ranks.begin(), folder.ranks.end(), [](const RankSummary& r) {
                                 return r.collectiveMedianNs >= 0;
                             }));
    m_table->horizontalHeaderItem(Collectives)
        ->setToolTip(tr("Time inside collectives per judged step, the median: where the ranks meet every step, the "
                        "other ranks wait there for the straggler"));
    m_table->resizeColumnsToContents();
}

} // namespace ovs::ui
