#include "panels/FindingsView.h"

#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"
#include "panels/BarCellDelegate.h"
#include "panels/SourceOpener.h"
#include "panels/TableColumns.h"
#include "style/DisplayText.h"
#include "style/TimeFormat.h"

#include "base/Saturating.h"
#include "base/Thresholds.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
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

std::int64_t judgedNs(const AnalysedRun& a)
{
    return spanNs(a.analysis.judged.span.beginNs, a.analysis.judged.span.endNs);
}

// What the fix saves in each step, by region group, as the details say it:
// "ProfilerStep#N: #1 8.66 ms, #2 8.70 ms, ... (holds in 5 of 5)".
QStringList stepLines(const AnalysedRun& a, const Finding& f)
{
    QStringList lines;
    const Run& run = *a.run;
    for (std::size_t g = 0; g < f.stepSavingsNs.size() && g < a.analysis.regions.size(); ++g) {
        const RegionJudgement& j = a.analysis.regions[g];
        QStringList steps;
        int holds = 0;
        for (std::size_t i = 0; i < f.stepSavingsNs[g].size() && i < j.group.regions.size(); ++i) {
            const QString name = displayText(run.regions[j.group.regions[i]].name);
            const auto& saving = f.stepSavingsNs[g][i];
            steps << (saving ? QStringLiteral("%1 %2").arg(name, TimeFormat::durationNs(*saving))
                             : QObject::tr("%1 (no GPU work)").arg(name));
            if (saving && i < j.spans.size()
                && static_cast<double>(*saving)
                       >= thresholds::kMinCostShare * static_cast<double>(spanNs(j.spans[i].beginNs, j.spans[i].endNs)))
                ++holds;
        }
        if (!steps.isEmpty())
            lines << QObject::tr("In each of %1 (holds in %2 of %3): %4")
                         .arg(displayText(j.group.name))
                         .arg(holds)
                         .arg(steps.size())
                         .arg(steps.join(QStringLiteral(", ")));
    }
    return lines;
}

} // namespace

FindingsView::FindingsView(TraceDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_cache(AnalysisCache::of(document)), m_scope(new QLabel),
      m_tree(new QTreeWidget), m_detail(new QTextBrowser)
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
    applyColumnHelp(m_tree, findingsPanelColumns());
    m_tree->headerItem()->setTextAlignment(CostColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->headerItem()->setTextAlignment(OpsColumn, Qt::AlignRight | Qt::AlignVCenter);
    m_tree->setItemDelegateForColumn(SavingColumn, new BarCellDelegate(m_tree));
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(10);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->setToolTip(tr("Choose a finding (or step with F8 / Shift+F8) to outline its ops on the timeline, frame "
                          "them and show its what-if under the run"));
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &FindingsView::onChosen);
    m_detail->setObjectName(QStringLiteral("findingDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setFrameShape(QFrame::StyledPanel);
    m_detail->setPlaceholderText(tr("Choose a finding: its whole cause, the fix and what it saves show here."));
    // A call site's link ("source:N", the chosen finding's Finding::sources[N])
    // outlines its calls and opens the file at its line; the details say
    // where that failed.
    connect(m_detail, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        bool ok = false;
        const int index = url.scheme() == QLatin1String("source") ? url.path().toInt(&ok) : -1;
        if (ok)
            chooseCallSite(index);
    });

    // The list gets the rows, the details the rest: read without scrolling
    // a two-line box.
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tree);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_scope);
    layout->addWidget(split, 1);

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
        const QString count = findings.empty()        ? tr("no findings")
                              : findings.size() == 1 ? tr("1 finding")
                                                     : tr("%1 findings").arg(findings.size());
        const std::int64_t span = judgedNs(*a);
        if (m_region.isValid())
            runItem->setText(RunColumn, tr("%1 in %2 \u00b7 %3 \u00b7 %4 judged alone")
                                            .arg(displayText(run.regions[static_cast<std::size_t>(m_region.index)].name),
                                                 displayText(run.name), count, TimeFormat::durationNs(span)));
        else
            runItem->setText(RunColumn, tr("%1 \u00b7 %2 \u00b7 over %3 (%4)")
                                            .arg(displayText(run.name), count,
                                                 QString::fromStdString(a->analysis.judged.label), TimeFormat::durationNs(span)));
        runItem->setData(RunColumn, Qt::UserRole, i);
        runItem->setData(RunColumn, Qt::UserRole + 1, -1);
        QFont bold = runItem->font(RunColumn);
        bold.setBold(true);
        runItem->setFont(RunColumn, bold);
        for (int f = 0; f < static_cast<int>(findings.size()); ++f) {
            const Finding& finding = findings[static_cast<std::size_t>(f)];
            const bool replayed = finding.costSource == CostSource::Replay;
            auto* item = new QTreeWidgetItem(runItem);
            // An estimate reads as one: "≈", italic, a hatched bar.
            item->setText(CostColumn, replayed ? costText(finding) : QStringLiteral("\u2248 ") + costText(finding));
            item->setData(CostColumn, CostNsRole, QVariant::fromValue<qint64>(finding.costNs));
            item->setData(CostColumn, ReplayedRole, replayed);
            // A cost at a pinned rate not measured on the device says whose it is.
            const QString rate =
                finding.costRate.empty() ? QString() : QStringLiteral("; ") + QString::fromStdString(finding.costRate);
            const QString costTip = (replayed ? tr("replayed: the run with \u201c%1\u201d against the run as it was")
                                                    .arg(QString::fromStdString(describeFixes(finding.fixes)))
                                              : tr("estimated: %1").arg(noGhostReason(*a, finding, false)))
                                    + rate;
            item->setToolTip(CostColumn, costTip);
            item->setTextAlignment(CostColumn, Qt::AlignRight | Qt::AlignVCenter);
            const double share = span > 0 ? static_cast<double>(finding.costNs) / static_cast<double>(span) : 0.0;
            item->setData(SavingColumn, BarCellDelegate::FractionRole, share);
            item->setData(SavingColumn, BarCellDelegate::EstimateRole, !replayed);
            item->setText(SavingColumn, QStringLiteral("%1%").arg(100.0 * share, 0, 'f', share < 0.1 ? 1 : 0));
            item->setToolTip(SavingColumn, tr("%1 of the %2 judged (%3)")
                                               .arg(costText(finding), TimeFormat::durationNs(span),
                                                    QString::fromStdString(a->analysis.judged.label)));
            item->setText(SourceColumn, replayed ? tr("replay") : tr("estimate"));
            item->setToolTip(SourceColumn, costTip);
            item->setText(KindColumn, QString::fromStdString(findingWords(finding)));
            item->setText(OpsColumn, QString::number(finding.opCount));
            item->setTextAlignment(OpsColumn, Qt::AlignRight | Qt::AlignVCenter);
            const QString cause = QString::fromStdString(finding.cause);
            item->setText(CauseColumn, cause.section(QLatin1Char('\n'), 0, 0));
            item->setToolTip(CauseColumn, cause);
            if (!replayed) {
                for (int column : {CostColumn, SourceColumn}) {
                    QFont italic = item->font(column);
                    italic.setItalic(true);
                    item->setFont(column, italic);
                }
            }
            item->setData(RunColumn, Qt::UserRole, i);
            item->setData(RunColumn, Qt::UserRole + 1, f);
        }
        runItem->setExpanded(true);
        runItem->setFirstColumnSpanned(true);
    }
    // The columns fit their contents once; the cause takes what is left.
    for (int column : {SavingColumn, SourceColumn, KindColumn, OpsColumn})
        m_tree->resizeColumnToContents(column);
    m_tree->setColumnWidth(SavingColumn, std::max(m_tree->columnWidth(SavingColumn), 200));
    // The cost column fits the costs, not the spanned run rows' names.
    int cost = m_tree->header()->sectionSizeHint(CostColumn);
    for (QTreeWidgetItem* item : findingItems())
        cost = std::max(cost, m_tree->fontMetrics().horizontalAdvance(item->text(CostColumn)) + 24);
    m_tree->setColumnWidth(CostColumn, cost + m_tree->indentation());
    m_detail->clear();
    m_chosenSite = -1;
    updateScope();
    // The outline of a finding that was just listed away goes with it; an
    // outline someone else drew (a lesson's focus) stays.
    if (std::exchange(m_outlining, false)) {
        emit findingSelected(-1, {});
        emit whatIfChosen(-1, 0);
    }
}

std::vector<QTreeWidgetItem*> FindingsView::findingItems() const
{
    std::vector<QTreeWidgetItem*> items;
    for (int r = 0; r < m_tree->topLevelItemCount(); ++r)
        for (int f = 0; f < m_tree->topLevelItem(r)->childCount(); ++f)
            items.push_back(m_tree->topLevelItem(r)->child(f));
    return items;
}

int FindingsView::findingCount() const
{
    return static_cast<int>(findingItems().size());
}

void FindingsView::stepFinding(int delta)
{
    const std::vector<QTreeWidgetItem*> items = findingItems();
    if (items.empty())
        return;
    const auto at = std::find(items.begin(), items.end(), m_tree->currentItem());
    std::ptrdiff_t next = 0;
    if (at != items.end())
        next = std::clamp<std::ptrdiff_t>((at - items.begin()) + delta, 0, static_cast<std::ptrdiff_t>(items.size()) - 1);
    m_tree->setCurrentItem(items[static_cast<std::size_t>(next)]);
    m_tree->scrollToItem(items[static_cast<std::size_t>(next)]);
}

void FindingsView::onChosen()
{
    m_sourceProblem.clear();
    m_chosenSite = -1;
    const QTreeWidgetItem* item = m_tree->currentItem();
    const int run = item ? item->data(RunColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(RunColumn, Qt::UserRole + 1).toInt() : -1;
    const AnalysedRun* a = run >= 0 && run < static_cast<int>(m_shown.size())
                               ? m_shown[static_cast<std::size_t>(run)].get() : nullptr;
    if (!m_document || run >= m_document->runCount() || !a || index < 0
        || index >= static_cast<int>(a->analysis.findings.findings.size())) {
        m_detail->clear();
        m_outlining = false;
        emit findingSelected(-1, {});
        emit whatIfChosen(-1, 0);
        return;
    }
    const Finding& finding = a->analysis.findings.findings[static_cast<std::size_t>(index)];
    const std::vector<OpRef> refs = refsOf(run, *a, finding.ops);
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
    const int run = item ? item->data(RunColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(RunColumn, Qt::UserRole + 1).toInt() : -1;
    const AnalysedRun* a = run >= 0 && run < static_cast<int>(m_shown.size())
                               ? m_shown[static_cast<std::size_t>(run)].get() : nullptr;
    if (!a || index < 0 || index >= static_cast<int>(a->analysis.findings.findings.size()))
        return;
    const Finding& finding = a->analysis.findings.findings[static_cast<std::size_t>(index)];
    const std::size_t listed = finding.ops.size();
    const bool replayed = finding.costSource == CostSource::Replay;
    QString detail = tr("<b>%1</b> costs %2 (%3), %4 ops")
                         .arg(QString::fromStdString(findingWords(finding)).toHtmlEscaped(), costText(finding),
                              replayed ? tr("replayed") : tr("estimated"))
                         .arg(finding.opCount);
    if (finding.opCount > listed)
        detail += tr(", the first %1 outlined").arg(listed);
    detail += tr(".<br><b>Cause:</b> %1<br><b>Fix:</b> %2")
                  .arg(QString::fromStdString(finding.cause).toHtmlEscaped().replace('\n', QStringLiteral("<br>")),
                       QString::fromStdString(finding.fix).toHtmlEscaped().replace('\n', QStringLiteral("<br>")));
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
    for (const QString& line : stepLines(*a, finding))
        detail += QStringLiteral("<br>") + line.toHtmlEscaped();
    detail += sourcesHtml(finding);
    m_detail->setHtml(detail);
}

FindingsView::Chosen FindingsView::chosen() const
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    const int run = item ? item->data(RunColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(RunColumn, Qt::UserRole + 1).toInt() : -1;
    const AnalysedRun* a = run >= 0 && run < static_cast<int>(m_shown.size())
                               ? m_shown[static_cast<std::size_t>(run)].get() : nullptr;
    if (!m_document || run >= m_document->runCount() || !a || index < 0
        || index >= static_cast<int>(a->analysis.findings.findings.size()))
        return {};
    return {run, a, &a->analysis.findings.findings[static_cast<std::size_t>(index)]};
}

std::vector<OpRef> FindingsView::refsOf(int run, const AnalysedRun& a, const std::vector<std::uint32_t>& ops) const
{
    const RunTimeline& timeline = m_document->run(run);
    std::vector<OpRef> refs;
    refs.reserve(ops.size());
    // The indices are into the run analysed: the timeline's own (its index
    // is the lane's), or a region's slice, whose ops are found again in the
    // timeline's lanes by binary search.
    const bool own = a.run == timeline.sharedRun();
    for (const std::uint32_t i : ops) {
        if (i >= a.run->ops.size())
            continue;
        if (own) {
            if (const auto [lane, at] = timeline.laneIndexOf(i); at >= 0)
                refs.push_back(OpRef{run, lane, at});
        } else if (const int at = timeline.indexOf(a.run->ops[i]); at >= 0) {
            refs.push_back(OpRef{run, a.run->ops[i].lane, at});
        }
    }
    return refs;
}

void FindingsView::chooseCallSite(int index)
{
    const Chosen c = chosen();
    if (!c.finding || index < -1 || index >= static_cast<int>(c.finding->sources.size()))
        return;
    m_sourceProblem.clear();
    m_chosenSite = index;
    if (index < 0) {
        emit findingSelected(c.run, refsOf(c.run, *c.analysed, c.finding->ops));
        updateDetail();
        return;
    }
    const FindingSource& source = c.finding->sources[static_cast<std::size_t>(index)];
    // Its calls in the finding's place on the timeline (a few binary
    // searches: FindingSource::ops is worked out with the analysis, off
    // this thread).
    m_outlining = true;
    emit callSiteChosen(c.run, refsOf(c.run, *c.analysed, source.ops));
    // A line of a file here opens; a module (no line) or a file of another
    // machine is only outlined.
    const QString file = QString::fromStdString(source.file);
    if (source.line > 0 && QFileInfo(file).isFile()) {
        QString why;
        m_sourceProblem = openSource(file, static_cast<int>(source.line), &why) ? QString() : why;
    }
    updateDetail();
}

// The lines the finding's calls came from, each a link that outlines its
// calls (and opens the file where it is on this machine); the PyTorch calls
// behind them; the note where the trace cannot say.
QString FindingsView::sourcesHtml(const Finding& finding) const
{
    QString html;
    if (!finding.sources.empty())
        html += tr("<br><b>Called from:</b> <i>(choose one: its calls outlined on the timeline)</i>");
    for (std::size_t i = 0; i < finding.sources.size(); ++i) {
        const FindingSource& s = finding.sources[i];
        const QString file = QString::fromStdString(s.file);
        const QString function = QString::fromStdString(s.function).toHtmlEscaped();
        // A frame without a line (an Nsight call chain's) names its
        // function and the module that holds it: no "line 0".
        QString place;
        if (s.line == 0) {
            place = QStringLiteral("<a href=\"source:%1\">%2</a>").arg(i).arg(function) + tr(" in the module ")
                    + file.toHtmlEscaped();
        } else {
            place = QStringLiteral("<a href=\"source:%1\">%2:%3</a>").arg(i).arg(file.toHtmlEscaped()).arg(s.line)
                    + (QFileInfo(file).isFile() ? QString() : tr(" (not on this machine)"))
                    + (s.lineIs == SiteLine::Call ? QString() : tr(" (where the profiler met the function)"))
                    + tr(" in %1").arg(function);
        }
        const bool outlined = static_cast<int>(i) == m_chosenSite;
        html += QStringLiteral("<br>&nbsp;&nbsp;") + (outlined ? QStringLiteral("<b>") : QString()) + place
                + tr(" (%1 calls)").arg(s.calls)
                + (s.cause.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(s.cause).toHtmlEscaped())
                + (outlined ? tr(" \u2014 outlined on the timeline</b>") : QString());
    }
    for (const FindingTorchOp& t : finding.torchOps) {
        const QString op = QString::fromStdString(t.op).toHtmlEscaped();
        html += t.cause.empty()
                    ? tr("<br><b>In PyTorch:</b> %1 (%2 calls)").arg(op).arg(t.calls)
                    : tr("<br><b>In PyTorch:</b> %1%2 (%3 calls); fix: %4")
                          .arg(QString::fromStdString(t.cause).toHtmlEscaped(), op.isEmpty() ? QString() : tr(", from ") + op)
                          .arg(t.calls)
                          .arg(QString::fromStdString(t.fix).toHtmlEscaped());
    }
    if (!finding.sourcesNote.empty())
        html += tr("<br><b>Call sites:</b> %1").arg(QString::fromStdString(finding.sourcesNote).toHtmlEscaped());
    if (!m_sourceProblem.isEmpty())
        html += tr("<br><b>Could not open it:</b> %1").arg(m_sourceProblem.toHtmlEscaped());
    return html;
}

QString FindingsView::detailText() const
{
    return m_detail->toPlainText();
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
        const QString what = a ? TimeFormat::durationNs(judgedNs(*a)) : tr("analysing\u2026");
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
    m_scope->setText(tr("Findings over each run's judged span (the Summary's \u201cJudged\u201d line says which); "
                        "choose a step in the Steps view, or a region in the band above the lanes, for its "
                        "findings alone"));
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
