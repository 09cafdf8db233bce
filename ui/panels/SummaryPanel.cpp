#include "panels/SummaryPanel.h"

#include "document/TraceDocument.h"
#include "style/TimeFormat.h"

#include "analysis/HostShare.h"
#include "analysis/RunAnalysis.h"
#include "document/RunDevices.h"
#include "style/DisplayText.h"

#include <memory>

#include <QHeaderView>
#include <QLabel>
#include <QStringList>
#include <QTreeWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ovs::ui {

namespace {

const QString kNone = QStringLiteral("\u2013");

// The finished runs' headers (wall times, workloads; no ops), for the core's
// choice of a serialized baseline. A run still recording is no baseline.
std::vector<const Run*> finishedHeaders(const TraceDocument& document)
{
    std::vector<const Run*> headers;
    for (int i = 0; i < document.runCount(); ++i)
        if (!document.run(i).isLive())
            headers.push_back(&document.run(i).run());
    return headers;
}

QString speedupText(const TraceDocument& document, const RunTimeline& timeline, QString* why)
{
    if (timeline.isLive()) {
        *why = QObject::tr("only completed runs are compared");
        return kNone;
    }
    const std::vector<const Run*> headers = finishedHeaders(document);
    const Run& run = timeline.run();
    const Speedup speedup = speedupOver(findSerializedBaseline(headers, run), run);
    *why = QString::fromStdString(speedup.why);
    return speedup.value ? QStringLiteral("%1x").arg(*speedup.value, 0, 'f', 2) : kNone;
}

// Where a finding's op (an index into the analysed Run::ops) sits in the
// document's timeline: its lane and times, found again by binary search.
OpRef locate(const RunTimeline& timeline, int run, const Op& op)
{
    const int index = timeline.indexOf(op);
    return index < 0 ? OpRef{} : OpRef{run, op.lane, index};
}

QString statusText(const RunTimeline& timeline)
{
    if (timeline.isLive())
        return QObject::tr("running");
    const Run& run = timeline.run();
    QString text = QString::fromLatin1(toString(run.status));
    if (!run.error.empty())
        text += QStringLiteral(": ") + displayText(run.error);
    return text;
}

// What a run's timing string means for the reader of its times.
QString timingText(const std::string& timing)
{
    if (timing == "cuda-events+cupti")
        return QObject::tr("CUDA events + CUPTI engine-true intervals");
    if (timing == "cuda-events")
        return QObject::tr("CUDA event times only (no engine-true intervals: CUPTI was not available)");
    if (timing == "simulated")
        return QObject::tr("simulated (engine intervals from the model)");
    return QString::fromStdString(timing);
}

QString deviceLine(const TraceDocument& document)
{
    // One entry per device, in order of first appearance, so a document that
    // compares a GPU with its simulation says both.
    QStringList seen;
    QStringList lines;
    auto add = [&](const DeviceInfo& device, const std::string& timing) {
        const QString label = displayText(device.label());
        if (seen.contains(label))
            return;
        seen << label;
        QStringList parts{label};
        if (!device.detail.empty())
            parts << displayText(device.detail);
        if (device.asyncEngineCount > 0)
            parts << (device.asyncEngineCount == 1 ? QObject::tr("1 copy engine")
                                                   : QObject::tr("%1 copy engines").arg(device.asyncEngineCount));
        if (!timing.empty())
            parts << QObject::tr("timing: %1").arg(timingText(timing));
        lines << QObject::tr("Device: %1").arg(parts.join(QStringLiteral(" \u00b7 ")));
    };
    for (int i = 0; i < document.runCount(); ++i) {
        const Run& run = document.run(i).run();
        // Each GPU of a run on several (alike GPUs share one line).
        for (int d = 0; d < run.deviceCount(); ++d)
            add(run.deviceAt(d), run.timing);
    }
    for (const auto& sweep : document.sweeps())
        add(sweep.device, sweep.timing);
    if (lines.isEmpty())
        return QObject::tr("No runs yet: choose a device and press Run, or open a trace.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace

SummaryPanel::SummaryPanel(TraceDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_deviceLine(new QLabel), m_table(new QTreeWidget),
      m_findings(new QTreeWidget), m_findingDetail(new QLabel), m_diagnoses(new QLabel)
{
    m_deviceLine->setWordWrap(true);
    m_deviceLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({tr("Run"), tr("Device"), tr("Status"), tr("Wall time"), tr("Speedup"), tr("Overlap"),
                              tr("Bound"), tr("GPUs together"), tr("Verification"), tr("Ops")});
    m_table->headerItem()->setToolTip(
        HostShareColumn, tr("Runs on several GPUs of one host: the uploads of every GPU together against the sum of "
                            "what each reaches alone, and what bounds them (each GPU's link, or the host memory "
                            "they share). Hover a cell for the rate per device."));
    m_table->headerItem()->setToolTip(OverlapColumn, tr("Share of copy time during which a kernel ran"));
    m_table->headerItem()->setToolTip(BoundColumn,
                                      tr("Wall time over the fastest this pipeline could go at the measured rates"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(VerificationColumn, QHeaderView::Stretch);

    m_diagnoses->setObjectName(QStringLiteral("diagnoses"));
    m_diagnoses->setWordWrap(true);
    m_diagnoses->setTextFormat(Qt::RichText);
    m_diagnoses->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnoses->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    m_findings->setObjectName(QStringLiteral("findings"));
    m_findings->setColumnCount(FindingColumnCount);
    m_findings->setHeaderLabels({tr("Finding"), tr("Cost"), tr("Ops"), tr("Cause"), tr("Fix")});
    m_findings->headerItem()->setToolTip(FindingCostColumn,
                                         tr("How much shorter the timed region would be without it (estimate)"));
    m_findings->setUniformRowHeights(true);
    m_findings->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findings->header()->setStretchLastSection(true);
    m_findings->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_findings->setToolTip(tr("Select a finding to highlight its ops on the timeline and zoom to them"));
    connect(m_findings, &QTreeWidget::currentItemChanged, this, &SummaryPanel::onFindingChosen);
    m_findingDetail->setObjectName(QStringLiteral("findingDetail"));
    m_findingDetail->setWordWrap(true);
    m_findingDetail->setTextFormat(Qt::RichText);
    m_findingDetail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_findingDetail->hide();

    // The diagnoses can run long (a sentence per run); they scroll in their
    // own area so the table keeps its rows visible.
    m_diagnosesArea = new QScrollArea;
    m_diagnosesArea->setWidget(m_diagnoses);
    m_diagnosesArea->setWidgetResizable(true);
    m_diagnosesArea->setFrameShape(QFrame::NoFrame);
    auto* findings = new QWidget;
    auto* findingsLayout = new QVBoxLayout(findings);
    findingsLayout->setContentsMargins(0, 0, 0, 0);
    findingsLayout->addWidget(m_findings, 1);
    findingsLayout->addWidget(m_findingDetail);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(findings);
    split->addWidget(m_diagnosesArea);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_deviceLine);
    layout->addWidget(split, 1);

    if (document) {
        // Rates come from the sweeps, so new sweeps change every analysis.
        auto invalidate = [this] {
            m_analyses.clear();
            ++m_generation; // analyses in flight are of what was there before
            m_findingsKey = QStringLiteral("reset"); // no list has this key: rebuilt even when the shape is the same
            refresh();
        };
        connect(document, &TraceDocument::reset, this, invalidate);
        connect(document, &TraceDocument::runAdded, this, &SummaryPanel::refresh);
        connect(document, &TraceDocument::runChanged, this, &SummaryPanel::refresh);
        connect(document, &TraceDocument::sweepsChanged, this, invalidate);
    }
    refresh();
}

void SummaryPanel::refresh()
{
    const int runs = m_document ? m_document->runCount() : 0;
    m_deviceLine->setText(m_document ? deviceLine(*m_document) : QString());

    // Items are updated in place, so a live run does not reset the user's
    // selection or scroll position every batch.
    while (m_table->topLevelItemCount() > runs)
        delete m_table->takeTopLevelItem(m_table->topLevelItemCount() - 1);
    while (m_table->topLevelItemCount() < runs) {
        auto* item = new QTreeWidgetItem(m_table);
        for (int column : {WallColumn, SpeedupColumn, OverlapColumn, BoundColumn, HostShareColumn, OpsColumn})
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
    }

    m_analyses.resize(static_cast<std::size_t>(runs));
    m_diagnosisLines.clear();
    QStringList diagnosisHtml;
    bool severalDevices = false;
    for (int i = 0; i < runs; ++i) {
        const RunTimeline& timeline = m_document->run(i);
        const Run& run = timeline.run();
        QTreeWidgetItem* item = m_table->topLevelItem(i);
        item->setText(RunColumn, displayText(run.name));
        item->setText(DeviceColumn, displayText(runDevicesLabel(run).toStdString()));
        item->setText(StatusColumn, statusText(timeline));
        item->setToolTip(StatusColumn, statusText(timeline));
        item->setText(WallColumn, !timeline.isLive() && run.wallNs() > 0 ? TimeFormat::wallTime(run.wallNs()) : kNone);
        QString why;
        item->setText(SpeedupColumn, speedupText(*m_document, timeline, &why));
        item->setToolTip(SpeedupColumn, why);
        // The cell says it in a word so the columns fit the window; the
        // core's whole sentence is the tooltip (and in summaryText).
        const QString verification =
            timeline.isLive() ? kNone : displayText(run.verification.message);
        QString verdict = kNone;
        if (!timeline.isLive())
            verdict = !run.verification.checked ? tr("not verified")
                      : run.verification.passed ? tr("verified")
                                                : tr("FAILED (%1 mismatches)").arg(run.verification.mismatches);
        item->setText(VerificationColumn, verdict);
        item->setToolTip(VerificationColumn, verification);
        item->setText(OpsColumn, QString::number(timeline.opCount()));
        const Analysis& analysis = analysisOf(i);
        item->setText(OverlapColumn, analysis.overlap);
        item->setToolTip(OverlapColumn, analysis.overlapTip);
        item->setText(BoundColumn, analysis.bound);
        item->setToolTip(BoundColumn, analysis.boundTip);
        item->setText(HostShareColumn, analysis.hostShare);
        item->setToolTip(HostShareColumn, analysis.hostShareTip);
        severalDevices = severalDevices || run.deviceCount() > 1;
        if (!analysis.diagnosis.isEmpty()) {
            const QString name = displayText(run.name);
            m_diagnosisLines << name + QStringLiteral(": ") + analysis.diagnosis;
            diagnosisHtml << QStringLiteral("<b>%1</b>: %2").arg(name.toHtmlEscaped(), analysis.diagnosis.toHtmlEscaped());
        }
        if (!analysis.hostShareDiagnosis.isEmpty()) {
            const QString name = displayText(run.name);
            m_diagnosisLines << name + tr(" (several GPUs): ") + analysis.hostShareDiagnosis;
            diagnosisHtml << tr("<b>%1</b> (several GPUs): %2")
                                 .arg(name.toHtmlEscaped(), analysis.hostShareDiagnosis.toHtmlEscaped());
            for (const QString& line : analysis.hostShareTip.split(QLatin1Char('\n'))) {
                m_diagnosisLines << QStringLiteral("  ") + line;
                diagnosisHtml << QStringLiteral("&nbsp;&nbsp;") + line.toHtmlEscaped();
            }
        }
        const bool bad = !timeline.isLive()
                         && (run.status != RunStatus::Completed || !run.verification.passed);
        for (int column : {StatusColumn, VerificationColumn}) {
            if (bad)
                item->setForeground(column, QColor(0xc0, 0x39, 0x2b));
            else
                item->setData(column, Qt::ForegroundRole, QVariant()); // the palette's, light or dark
        }
    }
    // The device line above names a device all runs share: no column for it then.
    bool oneDevice = true;
    for (int i = 1; i < runs && oneDevice; ++i)
        oneDevice = m_document->run(i).run().device.label() == m_document->run(0).run().device.label();
    m_table->setColumnHidden(DeviceColumn, oneDevice);
    m_table->setColumnHidden(HostShareColumn, !severalDevices);
    m_diagnoses->setText(diagnosisHtml.join(QStringLiteral("<br>")));
    m_diagnosesArea->setVisible(!diagnosisHtml.isEmpty());
    refreshFindings();
}

void SummaryPanel::refreshFindings()
{
    // Rebuilt only when a run's analysis changed, so that live batches of
    // another run keep the user's selection.
    QString key;
    const int runs = static_cast<int>(m_analyses.size());
    for (int i = 0; i < runs; ++i) {
        const Analysis& a = m_analyses[static_cast<std::size_t>(i)];
        key += QStringLiteral("%1:%2:%3:%4;").arg(a.valid).arg(a.opCount).arg(a.status).arg(a.findings.size());
    }
    if (key == m_findingsKey)
        return;
    m_findingsKey = key;
    const QSignalBlocker quiet(m_findings);
    m_findings->clear();
    for (int i = 0; i < runs; ++i) {
        const Analysis& a = m_analyses[static_cast<std::size_t>(i)];
        if (!a.valid)
            continue;
        auto* runItem = new QTreeWidgetItem(m_findings);
        runItem->setText(FindingKindColumn, displayText(m_document->run(i).run().name));
        runItem->setData(FindingKindColumn, Qt::UserRole, i);
        runItem->setData(FindingKindColumn, Qt::UserRole + 1, -1);
        runItem->setText(FindingCauseColumn, a.findings.empty()        ? tr("no findings")
                                             : a.findings.size() == 1 ? tr("1 finding")
                                                                      : tr("%1 findings").arg(a.findings.size()));
        QFont bold = runItem->font(FindingKindColumn);
        bold.setBold(true);
        runItem->setFont(FindingKindColumn, bold);
        for (int f = 0; f < static_cast<int>(a.findings.size()); ++f) {
            const AnalysedFinding& finding = a.findings[static_cast<std::size_t>(f)];
            auto* item = new QTreeWidgetItem(runItem);
            item->setText(FindingKindColumn, finding.kind);
            item->setText(FindingCostColumn, TimeFormat::duration(static_cast<double>(finding.costNs)));
            item->setTextAlignment(FindingCostColumn, Qt::AlignRight | Qt::AlignVCenter);
            item->setText(FindingOpsColumn, QString::number(finding.opCount));
            item->setTextAlignment(FindingOpsColumn, Qt::AlignRight | Qt::AlignVCenter);
            item->setText(FindingCauseColumn, finding.cause);
            item->setText(FindingFixColumn, finding.fix);
            item->setToolTip(FindingCauseColumn, finding.cause);
            item->setToolTip(FindingFixColumn, finding.fix);
            item->setData(FindingKindColumn, Qt::UserRole, i);
            item->setData(FindingKindColumn, Qt::UserRole + 1, f);
        }
        runItem->setExpanded(true);
    }
    m_findings->resizeColumnToContents(FindingKindColumn);
    m_findings->resizeColumnToContents(FindingCostColumn);
    m_findings->resizeColumnToContents(FindingOpsColumn);
    m_findings->setColumnWidth(FindingCauseColumn, 520);
    m_findings->setVisible(m_findings->topLevelItemCount() > 0);
    m_findingDetail->hide();
    // The outline of a finding that was just listed away goes with it; an
    // outline someone else drew (a lesson's focus) stays.
    if (std::exchange(m_outlining, false))
        emit findingSelected(-1, {});
}

void SummaryPanel::onFindingChosen()
{
    const QTreeWidgetItem* item = m_findings->currentItem();
    const int run = item ? item->data(FindingKindColumn, Qt::UserRole).toInt() : -1;
    const int index = item ? item->data(FindingKindColumn, Qt::UserRole + 1).toInt() : -1;
    if (!m_document || run < 0 || run >= m_document->runCount() || index < 0
        || run >= static_cast<int>(m_analyses.size())
        || index >= static_cast<int>(m_analyses[static_cast<std::size_t>(run)].findings.size())) {
        m_findingDetail->hide();
        m_outlining = false;
        emit findingSelected(-1, {});
        return;
    }
    const AnalysedFinding& finding = m_analyses[static_cast<std::size_t>(run)].findings[static_cast<std::size_t>(index)];
    const RunTimeline& timeline = m_document->run(run);
    std::vector<OpRef> refs;
    refs.reserve(finding.ops.size());
    for (const Op& op : finding.ops)
        if (const OpRef ref = locate(timeline, run, op); ref.isValid())
            refs.push_back(ref);
    QString detail = tr("<b>%1</b> (costs %2; %3 ops").arg(finding.kind.toHtmlEscaped(),
                                                          TimeFormat::duration(static_cast<double>(finding.costNs)))
                         .arg(finding.opCount);
    if (finding.opCount > refs.size())
        detail += tr(", the first %1 highlighted").arg(refs.size());
    detail += tr("): %1<br><b>Fix:</b> %2").arg(finding.cause.toHtmlEscaped(), finding.fix.toHtmlEscaped());
    m_findingDetail->setText(detail);
    m_findingDetail->show();
    m_outlining = true;
    emit findingSelected(run, refs);
}

const SummaryPanel::Analysis& SummaryPanel::analysisOf(int index)
{
    const RunTimeline& timeline = m_document->run(index);
    const Run& header = timeline.run();
    Analysis& cached = m_analyses[static_cast<std::size_t>(index)];
    if (timeline.isLive()) {
        // A run in flight has no wall time yet: nothing to judge.
        cached = Analysis{};
        cached.overlap = cached.bound = cached.hostShare = kNone;
        return cached;
    }
    const bool same = cached.opCount == timeline.opCount() && cached.status == static_cast<int>(header.status);
    if ((cached.valid || cached.pending) && same)
        return cached;

    // The analysis is linear-logarithmic in the ops: a run of a million takes
    // long enough to freeze the window, so it runs on the panel's worker, on
    // copies, and the cells say so until it is back.
    cached = Analysis{};
    cached.pending = true;
    cached.opCount = timeline.opCount();
    cached.status = static_cast<int>(header.status);
    cached.overlap = cached.bound = cached.hostShare = QStringLiteral("\u2026");
    cached.overlapTip = cached.boundTip = tr("analysing\u2026");
    auto run = std::make_shared<const Run>(timeline.toRun());
    auto sweeps = std::make_shared<const std::vector<BandwidthSweep>>(m_document->sweeps());
    std::shared_ptr<const Run> baseline;
    if (const Run* b = findSerializedBaseline(finishedHeaders(*m_document), header))
        baseline = std::make_shared<const Run>(*b); // a header: the document keeps ops per lane
    const int generation = m_generation;
    ++m_analysing;
    m_analyzer.post([this, index, generation, run, sweeps, baseline]() -> BackgroundWorker::Delivery {
        auto result = std::make_shared<Analysis>(analyse(*run, *sweeps, baseline.get()));
        return [this, index, generation, result] {
            --m_analysing;
            const auto slot = static_cast<std::size_t>(index);
            if (generation == m_generation && slot < m_analyses.size() && m_analyses[slot].pending
                && m_analyses[slot].opCount == result->opCount && m_analyses[slot].status == result->status)
                m_analyses[slot] = std::move(*result);
            // else superseded: the run changed, or the document did
            refresh();
            if (m_analysing == 0)
                emit analysed();
        };
    });
    return cached;
}

namespace {

QString gbps(double rate)
{
    return QString::number(rate, 'f', 1);
}

} // namespace

void SummaryPanel::hostShareOf(const Run& run, const std::vector<BandwidthSweep>& sweeps, Analysis& out)
{
    out.hostShare = kNone;
    if (run.deviceCount() < 2) {
        out.hostShareTip = tr("only runs on several GPUs of one host");
        return;
    }
    const HostShare share = analyseHostShare(run, sweeps);
    if (!share.applies) {
        out.hostShareTip = run.status == RunStatus::Completed ? tr("no uploads on several GPUs to compare")
                                                               : tr("only completed runs are compared");
        return;
    }
    // The cell: what bounds it, and the aggregate against the sum alone.
    const QString bound = QString::fromLatin1(toString(share.bound));
    if (share.sumAloneGBps > 0)
        out.hostShare = tr("%1: %2 of %3 GB/s")
                            .arg(share.bound == SharedBound::Unknown ? tr("together") : bound + tr(" bound"),
                                 gbps(share.aggregateGBps), gbps(share.sumAloneGBps));
    else
        out.hostShare = tr("%1 GB/s together").arg(gbps(share.aggregateGBps));
    QStringList lines;
    for (const DeviceUploads& d : share.devices) {
        QString line = tr("GPU %1 (%2): %3 uploaded, busy %4: %5 GB/s together")
                           .arg(d.device)
                           .arg(displayText(d.label), TimeFormat::bytes(d.bytes),
                                TimeFormat::duration(static_cast<double>(d.busyNs)), gbps(d.gbps));
        if (d.aloneGBps > 0)
            line += tr(", %1 GB/s alone (%2)").arg(gbps(d.aloneGBps), displayText(d.aloneSource));
        else
            line += tr(", alone unknown");
        lines << line;
    }
    QString host = tr("Host: %1 GB/s together").arg(gbps(share.aggregateGBps));
    if (share.sumAloneGBps > 0)
        host += tr(" against %1 GB/s summed alone (%2%)")
                    .arg(gbps(share.sumAloneGBps))
                    .arg(100.0 * share.aggregateGBps / share.sumAloneGBps, 0, 'f', 0);
    host += tr("; bound: %1").arg(bound);
    lines << host;
    out.hostShareTip = lines.join(QLatin1Char('\n'));
    out.hostShareDiagnosis = QString::fromStdString(share.diagnosis);
}

SummaryPanel::Analysis SummaryPanel::analyse(const Run& run, const std::vector<BandwidthSweep>& sweeps,
                                             const Run* baseline)
{
    const RunAnalysis a = analyzeRun(run, sweeps, baseline);
    Analysis cached;
    cached.valid = true;
    cached.opCount = run.ops.size();
    cached.status = static_cast<int>(run.status);
    const RunStatus status = run.status;
    const RunMetrics& m = a.metrics;
    if (m.copies.busyNs > 0 && status == RunStatus::Completed) {
        cached.overlap = QStringLiteral("%1%").arg(m.overlapPercent, 0, 'f', 0);
        cached.overlapTip = tr("Copies ran while a kernel ran %1% of copy time; uploads with downloads %2%.\n"
                               "Busy: H2D %3, D2H %4, kernels %5 (%6)")
                                .arg(m.overlapPercent, 0, 'f', 1)
                                .arg(m.h2dWithD2hPercent, 0, 'f', 1)
                                .arg(TimeFormat::duration(static_cast<double>(m.h2d.busyNs)),
                                     TimeFormat::duration(static_cast<double>(m.d2h.busyNs)),
                                     TimeFormat::duration(static_cast<double>(m.compute.busyNs)),
                                     QString::fromStdString(m.engineTimes));
    } else {
        cached.overlap = kNone;
        cached.overlapTip = tr("only completed runs with copies have an overlap");
    }
    const Bounds& b = a.bounds;
    if (b.distance > 0) {
        cached.bound = tr("%1x of bound").arg(b.distance, 0, 'f', 2);
        cached.boundTip = tr("Binding: %1 bound, %2 (transfer %3, host staging %4, compute %5).\nCopy rates: %6")
                              .arg(QString::fromLatin1(toString(b.binding)),
                                   TimeFormat::duration(static_cast<double>(b.boundNs)),
                                   TimeFormat::duration(static_cast<double>(b.transferNs)),
                                   b.stagingNs > 0 ? TimeFormat::duration(static_cast<double>(b.stagingNs)) : kNone,
                                   TimeFormat::duration(static_cast<double>(b.computeNs)),
                                   QString::fromStdString(a.rates.source));
    } else {
        cached.bound = kNone;
        cached.boundTip = tr("only completed runs with GPU work have a bound");
    }
    cached.diagnosis = QString::fromStdString(a.diagnosis.sentence);
    hostShareOf(run, sweeps, cached);
    for (const Finding& f : a.findings.findings) {
        AnalysedFinding finding;
        finding.kind = QString::fromLatin1(toString(f.kind));
        finding.cause = QString::fromStdString(f.cause);
        finding.fix = QString::fromStdString(f.fix);
        finding.costNs = f.costNs;
        finding.opCount = f.opCount;
        // Kept as the ops themselves: the indices are into this sorted copy
        // of the run, which is not kept.
        for (const std::uint32_t index : f.ops)
            if (index < run.ops.size())
                finding.ops.push_back(run.ops[index]);
        cached.findings.push_back(std::move(finding));
    }
    return cached;
}

QString SummaryPanel::summaryText() const
{
    QStringList lines{m_deviceLine->text()};
    QStringList header;
    for (int column = 0; column < ColumnCount; ++column)
        header << m_table->headerItem()->text(column);
    lines << header.join(QLatin1Char('\t'));
    for (int i = 0; i < m_table->topLevelItemCount(); ++i) {
        QStringList cells;
        for (int column = 0; column < ColumnCount; ++column)
            cells << (column == VerificationColumn ? m_table->topLevelItem(i)->toolTip(column)
                                                   : m_table->topLevelItem(i)->text(column));
        lines << cells.join(QLatin1Char('\t'));
    }
    lines << m_diagnosisLines;
    for (std::size_t i = 0; i < m_analyses.size(); ++i) {
        if (m_analyses[i].findings.empty())
            continue;
        lines << tr("Findings of %1:").arg(displayText(m_document->run(static_cast<int>(i)).run().name));
        for (const AnalysedFinding& f : m_analyses[i].findings)
            lines << QStringLiteral("  %1\t%2\t%3 ops\t%4\tFix: %5")
                         .arg(f.kind, TimeFormat::duration(static_cast<double>(f.costNs)))
                         .arg(f.opCount)
                         .arg(f.cause, f.fix);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace ovs::ui
