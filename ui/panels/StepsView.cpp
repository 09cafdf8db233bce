#include "panels/StepsView.h"

#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"
#include "panels/BarCellDelegate.h"
#include "panels/TableColumns.h"
#include "style/DisplayText.h"
#include "style/TimeFormat.h"

#include "base/Saturating.h"
#include "base/Thresholds.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ovs::ui {

namespace {

struct Held {
    QString words;
    std::int64_t savingNs = 0;
};

// The whole span's findings that hold in step `step` of group `group`, with
// what their fix saves there, largest first; `all` gets every finding with
// a saving in the step, held or not (the cell's tooltip).
std::vector<Held> heldIn(const RunFindings& findings, std::size_t group, std::size_t step, std::int64_t stepNs,
                         std::vector<Held>* all)
{
    std::vector<Held> held;
    for (const Finding& f : findings.findings) {
        if (group >= f.stepSavingsNs.size() || step >= f.stepSavingsNs[group].size())
            continue;
        const auto& saving = f.stepSavingsNs[group][step];
        if (!saving)
            continue;
        Held h{QString::fromStdString(findingWords(f)), *saving};
        all->push_back(h);
        if (static_cast<double>(*saving) >= thresholds::kMinCostShare * static_cast<double>(stepNs))
            held.push_back(std::move(h));
    }
    const auto bySaving = [](const Held& a, const Held& b) { return a.savingNs > b.savingNs; };
    std::stable_sort(held.begin(), held.end(), bySaving);
    std::stable_sort(all->begin(), all->end(), bySaving);
    return held;
}

} // namespace

StepsView::StepsView(TraceDocument* document, ViewState* view, QWidget* parent)
    : QWidget(parent), m_document(document), m_view(view), m_cache(AnalysisCache::of(document)),
      m_header(new QLabel), m_tree(new QTreeWidget)
{
    m_header->setObjectName(QStringLiteral("stepsHeader"));
    m_header->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("steps"));
    applyColumnHelp(m_tree, stepsPanelColumns());
    m_tree->headerItem()->setTextAlignment(DurationColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->setItemDelegateForColumn(BarColumn, new BarCellDelegate(m_tree));
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(10);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Choose a step to frame the timeline on it and list its own findings"));
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &StepsView::onChosen);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_header);
    layout->addWidget(m_tree, 1);

    connect(m_cache, &AnalysisCache::invalidated, this, [this] {
        m_listed = false;
        refresh();
    });
    connect(m_cache, &AnalysisCache::analysed, this, &StepsView::refresh);
    connect(document, &TraceDocument::runAdded, this, &StepsView::refresh);
    connect(document, &TraceDocument::runChanged, this, &StepsView::refresh);
    if (m_view)
        connect(m_view, &ViewState::regionSelected, this, &StepsView::followPick);
    refresh();
}

void StepsView::refresh()
{
    std::vector<std::shared_ptr<const AnalysedRun>> shown;
    const int runs = m_document ? m_document->runCount() : 0;
    for (int i = 0; i < runs; ++i)
        shown.push_back(m_document->run(i).isLive() ? nullptr : m_cache->analysis(i));
    if (m_listed && shown == m_shown)
        return;
    m_shown = std::move(shown);
    m_listed = true;
    rebuild();
}

void StepsView::rebuild()
{
    const QSignalBlocker quiet(m_tree);
    m_tree->clear();
    for (int r = 0; r < static_cast<int>(m_shown.size()); ++r) {
        const AnalysedRun* a = m_shown[static_cast<std::size_t>(r)].get();
        if (!a)
            continue;
        const Run& run = *a->run;
        for (std::size_t g = 0; g < a->analysis.regions.size(); ++g) {
            const RegionJudgement& j = a->analysis.regions[g];
            if (j.spans.empty() || j.slowestNs <= 0)
                continue;
            auto* groupItem = new QTreeWidgetItem(m_tree);
            QString title = tr("%1 in %2 \u00b7 %3 judged").arg(displayText(j.group.name), displayText(run.name))
                                .arg(j.spans.size());
            if (j.instancesFound > j.spans.size())
                title += tr(" of %1").arg(j.instancesFound);
            title += tr(" \u00b7 median %1 \u00b7 slowest %2 %3")
                         .arg(TimeFormat::durationNs(j.medianNs), displayText(run.regions[j.slowestRegion].name), TimeFormat::durationNs(j.slowestNs));
            if (j.boundInstances > 0)
                title += tr(" \u00b7 %1 in %2 of %3")
                             .arg(QString::fromLatin1(toString(j.bound)))
                             .arg(j.boundInstances)
                             .arg(j.spans.size());
            groupItem->setText(StepColumn, title);
            QFont bold = groupItem->font(StepColumn);
            bold.setBold(true);
            groupItem->setFont(StepColumn, bold);
            groupItem->setData(StepColumn, RunRole, r);
            groupItem->setData(StepColumn, RegionRole, -1);
            for (std::size_t i = 0; i < j.spans.size() && i < j.group.regions.size(); ++i) {
                const std::uint32_t region = j.group.regions[i];
                const std::int64_t duration = spanNs(j.spans[i].beginNs, j.spans[i].endNs);
                auto* item = new QTreeWidgetItem(groupItem);
                item->setText(StepColumn, displayText(run.regions[region].name));
                item->setData(StepColumn, RunRole, r);
                item->setData(StepColumn, RegionRole, static_cast<int>(region));
                item->setData(StepColumn, DurationNsRole, QVariant::fromValue<qint64>(duration));
                item->setText(DurationColumn, TimeFormat::durationNs(duration));
                item->setTextAlignment(DurationColumn, Qt::AlignRight | Qt::AlignVCenter);
                const bool slowest = region == j.slowestRegion;
                const bool median = region == j.medianRegion;
                item->setData(BarColumn, BarCellDelegate::FractionRole,
                              static_cast<double>(duration) / static_cast<double>(j.slowestNs));
                item->setData(BarColumn, BarCellDelegate::MarkRole,
                              static_cast<double>(j.medianNs) / static_cast<double>(j.slowestNs));
                item->setData(BarColumn, BarCellDelegate::EmphasisRole, slowest);
                const double vsMedian = j.medianNs > 0 ? 100.0 * static_cast<double>(duration - j.medianNs)
                                                             / static_cast<double>(j.medianNs)
                                                       : 0.0;
                // Against the median, signed: "+0.4%", "-1.2%".
                const QString against = QStringLiteral("%1%2%")
                                            .arg(vsMedian >= 0 ? QStringLiteral("+") : QString())
                                            .arg(vsMedian, 0, 'f', 1);
                item->setText(BarColumn, slowest && median ? tr("slowest, median")
                                         : slowest         ? tr("slowest %1").arg(against)
                                         : median          ? tr("median")
                                                           : against);
                item->setToolTip(BarColumn, tr("%1 against the median %2 and the slowest %3")
                                                .arg(TimeFormat::durationNs(duration), TimeFormat::durationNs(j.medianNs), TimeFormat::durationNs(j.slowestNs)));
                if (slowest || median) {
                    QFont font = item->font(StepColumn);
                    font.setBold(true);
                    item->setFont(StepColumn, font);
                }
                std::vector<Held> all;
                const std::vector<Held> held = heldIn(a->analysis.findings, g, i, duration, &all);
                QStringList cell;
                for (const Held& h : held)
                    cell << tr("%1 %2").arg(h.words, TimeFormat::durationNs(h.savingNs));
                item->setText(FindingsColumn, held.empty() ? tr("\u2013") : cell.join(QStringLiteral(" \u00b7 ")));
                QStringList tip;
                for (const Held& h : all)
                    tip << tr("%1: its fix saves %2 in this step").arg(h.words, TimeFormat::durationNs(h.savingNs));
                item->setToolTip(FindingsColumn,
                                 tip.isEmpty() ? tr("no finding of the judged span has a replayed saving here")
                                               : tip.join(QLatin1Char('\n')));
            }
            groupItem->setExpanded(true);
            groupItem->setFirstColumnSpanned(true);
        }
    }
    m_tree->resizeColumnToContents(DurationColumn);
    m_tree->setColumnWidth(StepColumn, std::max(140, m_tree->fontMetrics().horizontalAdvance(QStringLiteral("ProfilerStep#000")) + 40));
    m_tree->setColumnWidth(BarColumn, 250);
    const int groups = groupCount();
    m_header->setText(groups > 0 ? tr("Choose a step: the timeline frames it and Findings lists its own findings.")
                                 : tr("No repeated regions in these runs: steps show here for traces with profiler "
                                      "steps, repeated NVTX ranges, or a --region."));
    if (m_view)
        followPick(m_view->selectedRegion().run, m_view->selectedRegion().index);
    emit stepsChanged();
}

int StepsView::groupCount() const
{
    return m_tree->topLevelItemCount();
}

QString StepsView::headerText() const
{
    return m_header->text();
}

void StepsView::onChosen()
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    if (!item || !m_view || !m_document)
        return;
    const int run = item->data(StepColumn, RunRole).toInt();
    const int region = item->data(StepColumn, RegionRole).toInt();
    if (region < 0 || run >= m_document->runCount()
        || static_cast<std::size_t>(region) >= m_document->run(run).run().regions.size())
        return;
    // As a click on the band: the pick (the findings panel follows it) and the frame.
    m_view->setSelectedRegion({run, region});
    const AxisSpan framed =
        TimeFrame(*m_document).region(run, m_document->run(run).run().regions[static_cast<std::size_t>(region)]);
    if (!framed.isEmpty())
        m_view->setVisibleRange(framed.startNs, framed.endNs);
}

void StepsView::followPick(int run, int region)
{
    // The band's pick shows here too; a pick of no step leaves no row chosen.
    const QSignalBlocker quiet(m_tree);
    for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = m_tree->topLevelItem(g);
        for (int s = 0; s < group->childCount(); ++s) {
            QTreeWidgetItem* step = group->child(s);
            if (step->data(StepColumn, RunRole).toInt() == run && step->data(StepColumn, RegionRole).toInt() == region) {
                m_tree->setCurrentItem(step);
                return;
            }
        }
    }
    m_tree->setCurrentItem(nullptr);
    m_tree->clearSelection();
}

} // namespace ovs::ui
