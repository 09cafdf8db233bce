#include "panels/FindingsView.h"

#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"
#include "style/DisplayText.h"
#include "style/TimeFormat.h"

#include "base/Saturating.h"

#include <QHeaderView>
#include <QLabel>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <utility>

namespace ovs::ui {

namespace {

QString costText(const Finding& f)
{
    return TimeFormat::duration(static_cast<double>(f.costNs));
}

// Whether the replay can show this finding's fix: its cost is what the
// replay with the fix saves (a fix the replay could not apply leaves the
// cost an estimate, and a ghost that would only repeat the run). A region's
// own findings have none: the ghost replays the run's judged span, and
// would not show what the region's costs say.
bool hasGhost(const AnalysedRun& a, const Finding& f, bool region)
{
    return !region && f.fixes != 0 && a.analysis.findings.whatIf.replayed && f.costSource == CostSource::Replay;
}

// Why a finding has no ghost, in the words of its cost.
QString noGhostReason(const AnalysedRun& a, const Finding& f, bool region)
{
    if (region && f.fixes != 0 && a.analysis.findings.whatIf.replayed && f.costSource == CostSource::Replay)
        return QObject::tr("the ghost replays the judged span: back to it to see the fix drawn");
    if (f.fixes == 0)
        return QObject::tr("no replayable fix: cost is an estimate");
    if (!a.analysis.findings.whatIf.replayed)
        return QObject::tr("the run could not be replayed (%1): cost is an estimate")
            .arg(QString::fromStdString(a.analysis.findings.whatIf.why));
    return QObject::tr("the replay could not apply its fix: cost is an estimate");
}

} // namespace

FindingsView::FindingsView(TraceDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_cache(AnalysisCache::of(document)), m_scope(new QLabel),
      m_tree(new QTreeWidget), m_detail(new QLabel)
{
    m_scope->setObjectName(QStringLiteral("findingsScope"));
    m_scope->setWordWrap(true);
    m_scope->setTextFormat(Qt::RichText);
    m_scope->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_scope->hide();
    connect(m_scope, &QLabel::linkActivated, this, [this] {
        // Through the view where there is one, so the band puts its pick down too.
        if (m_view)
            m_view->setSelectedRegion({});
        else
            showRegion(-1, -1);
    });
    m_tree->setObjectName(QStringLiteral("findings"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Finding"), tr("Cost"), tr("Ops"), tr("Cause"), tr("Fix")});
    m_tree->headerItem()->setToolTip(CostColumn, tr("How much shorter the timed region would be without it: "
                                                    "replayed with its fix where the run could be replayed, "
                                                    "else estimated (hover a cost)"));
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->setToolTip(tr("Select a finding to highlight its ops on the timeline, zoom to them and show its "
                          "what-if under the run"));
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &FindingsView::onChosen);
    m_detail->setObjectName(QStringLiteral("findingDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::RichText);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scope);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_detail);

    if (m_cache) {
        connect(m_cache, &AnalysisCache::invalidated, this, [this] {
            m_region = {}; // of the document or the rates that were replaced
            m_listed = false;
            refresh();
        });
        connect(m_cache, &AnalysisCache::regionAnalysed, this, [this](int run, int region) {
            if (RegionRef{run, region} == m_region)
                refresh();
        });
        connect(m_cache, &AnalysisCache::analysed, this, &FindingsView::refresh);
        connect(m_cache, &AnalysisCache::whatIfReady, this, &FindingsView::updateDetail);
        connect(document, &TraceDocument::runAdded, this, &FindingsView::refresh);
        connect(document, &TraceDocument::runChanged, this, &FindingsView::refresh);
    }
    refresh();
}

void FindingsView::refresh()
{
    std::vector<std::shared_ptr<const AnalysedRun>> shown;
    const int runs = m_document ? m_document->runCount() : 0;
    if (m_region.isValid() && m_region.run >= runs)
        m_region = {};
    for (int i = 0; i < runs; ++i) {
        if (!m_region.isValid())
            shown.push_back(m_cache->analysis(i));
        else
            shown.push_back(i == m_region.run ? m_cache->regionAnalysis(i, m_region.index) : nullptr);
    }
    if (m_listed && shown == m_shown) {
        updateScope(); // a run's analysis in changes what the line says
        return;
    }
    m_shown = std::move(shown);
    m_listed = true;
    rebuild();
}

void FindingsView::rebuild()
{
    const QSignalBlocker quiet(m_tree);
    m_tree->clear();
    for (int i = 0; i < static_cast<int>(m_shown.size()); ++i) {
        const AnalysedRun* a = m_shown[static_cast<std::size_t>(i)].get();
        if (!a)
            continue;
        const std::vector<Finding>& findings = a->analysis.findings.findings;
        auto* runItem = new QTreeWidgetItem(m_tree);
        const Run& run = m_document->run(i).run();
        if (m_region.isValid())
            runItem->setText(KindColumn, tr("%1 in %2").arg(
                displayText(run.regions[static_cast<std::size_t>(m_region.index)].name), displayText(run.name)));
        else
            runItem->setText(KindColumn, displayText(run.name));
        runItem->setData(KindColumn, Qt::UserRole, i);
        runItem->setData(KindColumn, Qt::UserRole + 1, -1);
        runItem->setText(CauseColumn, findings.empty()        ? tr("no findings")
                                      : findings.size() == 1 ? tr("1 finding")
                                                             : tr("%1 findings").arg(findings.size()));
        QFont bold = runItem->font(KindColumn);
        bold.setBold(true);
        runItem->setFont(KindColumn, bold);
        for (int f = 0; f < static_cast<int>(findings.size()); ++f) {
            const Finding& finding = findings[static_cast<std::size_t>(f)];
            auto* item = new QTreeWidgetItem(runItem);
            item->setText(KindColumn, QString::fromLatin1(toString(finding.kind)));
            item->setText(CostColumn, costText(finding));
            // A cost at a pinned rate not measured on the device says whose it is.
            const QString rate =
                finding.costRate.empty() ? QString() : QStringLiteral("; ") + QString::fromStdString(finding.costRate);
            item->setToolTip(CostColumn, (finding.costSource == CostSource::Replay
                                              ? tr("replayed: the run with \u201c%1\u201d against the run as it was")
                                                    .arg(QString::fromStdString(describeFixes(finding.fixes)))
                                              : tr("estimated: %1").arg(noGhostReason(*a, finding, false)))
                                             + rate);
            item->setTextAlignment(CostColumn, Qt::AlignRight | Qt::AlignVCenter);
            item->setText(OpsColumn, QString::number(finding.opCount));
            item->setTextAlignment(OpsColumn, Qt::AlignRight | Qt::AlignVCenter);
            const QString cause = QString::fromStdString(finding.cause);
            const QString fix = QString::fromStdString(finding.fix);
            item->setText(CauseColumn, cause);
            item->setText(FixColumn, fix);
            item->setToolTip(CauseColumn, cause);
            item->setToolTip(FixColumn, fix);
            item->setData(KindColumn, Qt::UserRole, i);
            item->setData(KindColumn, Qt::UserRole + 1, f);
        }
        runItem->setExpanded(true);
    }
    m_tree->resizeColumnToContents(KindColumn);
    m_tree->resizeColumnToContents(CostColumn);
    m_tree->resizeColumnToContents(OpsColumn);
    m_tree->setColumnWidth(CauseColumn, 520);
    m_tree->setVisible(m_tree->topLevelItemCount() > 0);
    m_detail->hide();
    updateScope();
    // The outline of a finding that was just listed away goes with it; an
    // outline someone else drew (a lesson's focus) stays.
    if (std::exchange(m_outlining, false)) {
        emit findingSelected(-1, {});
        emit whatIfChosen(-1, 0);
    }
}

void FindingsView::onChosen()
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    const int run = item ? item->data(KindColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(KindColumn, Qt::UserRole + 1).toInt() : -1;
    const AnalysedRun* a = run >= 0 && run < static_cast<int>(m_shown.size())
                               ? m_shown[static_cast<std::size_t>(run)].get() : nullptr;
    if (!m_document || run >= m_document->runCount() || !a || index < 0
        || index >= static_cast<int>(a->analysis.findings.findings.size())) {
        m_detail->hide();
        m_outlining = false;
        emit findingSelected(-1, {});
        emit whatIfChosen(-1, 0);
        return;
    }
    const Finding& finding = a->analysis.findings.findings[static_cast<std::size_t>(index)];
    const RunTimeline& timeline = m_document->run(run);
    std::vector<OpRef> refs;
    refs.reserve(finding.ops.size());
    // The finding's indices are into the analysed copy of the run; each op
    // is found again in the timeline's lanes by binary search.
    for (const std::uint32_t i : finding.ops)
        if (i < a->run->ops.size())
            if (const int at = timeline.indexOf(a->run->ops[i]); at >= 0)
                refs.push_back(OpRef{run, a->run->ops[i].lane, at});
    m_outlining = true;
    updateDetail();
    emit findingSelected(run, refs);
    if (hasGhost(*a, finding, m_region.isValid())) {
        m_cache->requestWhatIf(run, finding.fixes);
        emit whatIfChosen(run, finding.fixes);
    } else {
        emit whatIfChosen(-1, 0);
    }
}

void FindingsView::updateDetail()
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    const int run = item ? item->data(KindColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(KindColumn, Qt::UserRole + 1).toInt() : -1;
    const AnalysedRun* a = run >= 0 && run < static_cast<int>(m_shown.size())
                               ? m_shown[static_cast<std::size_t>(run)].get() : nullptr;
    if (!a || index < 0 || index >= static_cast<int>(a->analysis.findings.findings.size()))
        return;
    const Finding& finding = a->analysis.findings.findings[static_cast<std::size_t>(index)];
    const std::size_t listed = finding.ops.size();
    QString detail = tr("<b>%1</b> (costs %2; %3 ops")
                         .arg(QString::fromLatin1(toString(finding.kind)).toHtmlEscaped(), costText(finding))
                         .arg(finding.opCount);
    if (finding.opCount > listed)
        detail += tr(", the first %1 highlighted").arg(listed);
    detail += tr("): %1<br><b>Fix:</b> %2")
                  .arg(QString::fromStdString(finding.cause).toHtmlEscaped(),
                       QString::fromStdString(finding.fix).toHtmlEscaped());
    QString whatIf;
    if (!hasGhost(*a, finding, m_region.isValid())) {
        whatIf = tr("none: %1").arg(noGhostReason(*a, finding, m_region.isValid()));
    } else if (const auto ghost = m_cache->whatIf(run, finding.fixes)) {
        whatIf = ghost->run ? tr("%1, drawn under the run").arg(QString::fromStdString(describeFixes(finding.fixes)))
                            : tr("none: %1").arg(QString::fromStdString(ghost->why));
    } else {
        whatIf = tr("%1, replaying\u2026").arg(QString::fromStdString(describeFixes(finding.fixes)));
    }
    detail += tr("<br><b>What if:</b> %1").arg(whatIf.toHtmlEscaped());
    m_detail->setText(detail);
    m_detail->show();
}

QString FindingsView::detailText() const
{
    if (m_detail->isHidden())
        return {};
    QTextDocument text;
    text.setHtml(m_detail->text());
    return text.toPlainText();
}

QStringList FindingsView::textLines() const
{
    QStringList lines;
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        if (!m_shown[i] || m_shown[i]->analysis.findings.findings.empty())
            continue;
        const Run& run = m_document->run(static_cast<int>(i)).run();
        lines << (m_region.isValid()
                      ? tr("Findings of %1 in %2:")
                            .arg(displayText(run.regions[static_cast<std::size_t>(m_region.index)].name),
                                 displayText(run.name))
                      : tr("Findings of %1:").arg(displayText(run.name)));
        for (const Finding& f : m_shown[i]->analysis.findings.findings)
            lines << QStringLiteral("  %1\t%2\t%3 ops\t%4\tFix: %5")
                         .arg(QString::fromLatin1(toString(f.kind)), costText(f))
                         .arg(f.opCount)
                         .arg(QString::fromStdString(f.cause), QString::fromStdString(f.fix));
    }
    return lines;
}

void FindingsView::showRegion(int run, int region)
{
    RegionRef wanted{run, region};
    if (!m_document || run < 0 || run >= m_document->runCount() || region < 0
        || static_cast<std::size_t>(region) >= m_document->run(run).run().regions.size()
        || m_document->run(run).isLive())
        wanted = {};
    if (wanted == m_region)
        return;
    m_region = wanted;
    m_listed = false;
    refresh();
}

void FindingsView::followRegions(ViewState* view)
{
    m_view = view;
    if (view) {
        connect(view, &ViewState::regionSelected, this, &FindingsView::showRegion);
        showRegion(view->selectedRegion().run, view->selectedRegion().index);
    }
}

bool FindingsView::regionPending() const
{
    return m_region.isValid()
           && (static_cast<std::size_t>(m_region.run) >= m_shown.size() || !m_shown[static_cast<std::size_t>(m_region.run)]);
}

void FindingsView::updateScope()
{
    const QString back = tr("<a href=\"judged\">back to the judged span</a>");
    if (m_region.isValid()) {
        const Run& run = m_document->run(m_region.run).run();
        const QString name = displayText(run.regions[static_cast<std::size_t>(m_region.index)].name).toHtmlEscaped();
        const AnalysedRun* a = m_shown[static_cast<std::size_t>(m_region.run)].get();
        const QString what =
            a ? TimeFormat::duration(static_cast<double>(spanNs(a->analysis.judged.span.beginNs, a->analysis.judged.span.endNs)))
              : tr("analysing\u2026");
        m_scope->setText(tr("Findings of <b>%1</b> alone (%2, %3) \u2014 %4 (or Esc on the timeline)")
                             .arg(name, displayText(run.name).toHtmlEscaped(), what, back));
        m_scope->show();
        return;
    }
    // Only where something narrower than the run was judged: our pipelines'
    // runs are judged whole, and the line would say nothing.
    bool narrowed = false;
    for (const auto& a : m_shown)
        narrowed = narrowed || (a && (!a->analysis.judged.wholeRun() || !a->analysis.regions.empty()));
    m_scope->setText(tr("Findings over each run's judged span (the summary's \u201cJudged\u201d line says which); "
                        "click a region in the band above the lanes for its findings alone"));
    m_scope->setVisible(narrowed);
}

QString FindingsView::scopeText() const
{
    if (m_scope->isHidden())
        return {};
    QTextDocument text;
    text.setHtml(m_scope->text());
    return text.toPlainText();
}

} // namespace ovs::ui
