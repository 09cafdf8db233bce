#include "panels/SummaryPanel.h"

#include "document/RunDevices.h"
#include "document/TraceDocument.h"
#include "models/AnalysisCache.h"
#include "panels/TableColumns.h"
#include "style/DisplayText.h"
#include "style/VerificationText.h"
#include "style/TimeFormat.h"

#include "words/ColumnHelp.h"
#include "judgement/HostShare.h"
#include "words/JudgementWords.h"
#include "analysis/RunAnalysis.h"

#include <QHeaderView>
#include <QLabel>
#include <QStringList>
#include <QTreeWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <utility>

namespace ovs::ui {

namespace {

const QString kNone = QStringLiteral("\u2013");

QString speedupText(const TraceDocument& document, const RunTimeline& timeline, QString* why)
{
    if (timeline.isLive()) {
        *why = QObject::tr("only completed runs are compared");
        return kNone;
    }
    const std::vector<const Run*> headers = document.finishedRunHeaders();
    const Run& run = timeline.run();
    const Speedup speedup = speedupOver(findSerializedBaseline(headers, run), run);
    *why = QString::fromStdString(speedup.why);
    return speedup.value ? QStringLiteral("%1x").arg(*speedup.value, 0, 'f', 2) : kNone;
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
    : QWidget(parent), m_document(document), m_cache(AnalysisCache::of(document)), m_deviceLine(new QLabel),
      m_table(new QTreeWidget), m_diagnoses(new QLabel)
{
    m_deviceLine->setWordWrap(true);
    m_deviceLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Headers and tooltips from core's one table (the CLI's legend says the
    // same), in the order of Column.
    Q_ASSERT(summaryPanelColumns().size() == ColumnCount);
    applyColumnHelp(m_table, summaryPanelColumns());
    for (int column : {WallColumn, SpeedupColumn, OverlapColumn, BoundColumn, HostShareColumn, OpsColumn})
        m_table->headerItem()->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
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

    // The diagnoses can run long (a sentence per run); they scroll in their
    // own area so the table keeps its rows visible.
    m_diagnosesArea = new QScrollArea;
    m_diagnosesArea->setWidget(m_diagnoses);
    m_diagnosesArea->setWidgetResizable(true);
    m_diagnosesArea->setFrameShape(QFrame::NoFrame);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_diagnosesArea);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_deviceLine);
    layout->addWidget(split, 1);

    if (document) {
        // The cache drops everything on a new document or new sweeps (it
        // heard of them first), and says when each analysis is in.
        connect(m_cache, &AnalysisCache::invalidated, this, &SummaryPanel::refresh);
        connect(m_cache, &AnalysisCache::analysed, this, &SummaryPanel::refresh);
        connect(m_cache, &AnalysisCache::idle, this, &SummaryPanel::analysed);
        connect(document, &TraceDocument::runAdded, this, &SummaryPanel::refresh);
        connect(document, &TraceDocument::runChanged, this, &SummaryPanel::refresh);
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
        // whole sentence is the tooltip (and in summaryText). A profiled or
        // imported run has nothing of ours to verify: a dash, and why.
        const VerificationText verification = verificationText(run);
        item->setText(VerificationColumn, timeline.isLive() ? kNone : verification.word);
        item->setToolTip(VerificationColumn, timeline.isLive() ? kNone : verification.tooltip);
        item->setText(OpsColumn, QString::number(timeline.opCount()));
        const Analysis& analysis = analysisOf(i);
        item->setText(OverlapColumn, analysis.overlap);
        item->setToolTip(OverlapColumn, analysis.overlapTip);
        item->setText(BoundColumn, analysis.bound);
        item->setToolTip(BoundColumn, analysis.boundTip);
        item->setText(HostShareColumn, analysis.hostShare);
        item->setToolTip(HostShareColumn, analysis.hostShareTip);
        severalDevices = severalDevices || run.deviceCount() > 1;
        if (!analysis.diagnosis.isEmpty() || !analysis.judged.isEmpty()) {
            const QString name = displayText(run.name);
            m_diagnosisLines << name + QStringLiteral(": ") + analysis.diagnosis;
            diagnosisHtml << QStringLiteral("<b>%1</b>: %2").arg(name.toHtmlEscaped(), analysis.diagnosis.toHtmlEscaped());
        }
        for (const QString& line : analysis.judged) {
            // Under the run's diagnosis, as `analyze` indents it.
            m_diagnosisLines << QStringLiteral("  ") + line;
            const qsizetype indent = line.size() - line.trimmed().size();
            diagnosisHtml << QStringLiteral("&nbsp;").repeated(2 + 2 * indent) + line.trimmed().toHtmlEscaped();
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
        const bool bad = !timeline.isLive() && (run.status != RunStatus::Completed || verification.bad);
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
}

bool SummaryPanel::isAnalysing() const
{
    return m_cache && m_cache->isAnalysing();
}

const SummaryPanel::Analysis& SummaryPanel::analysisOf(int index)
{
    Analysis& shown = m_analyses[static_cast<std::size_t>(index)];
    if (m_document->run(index).isLive()) {
        // A run in flight has no wall time yet: nothing to judge.
        shown = Analysis{};
        shown.overlap = shown.bound = shown.hostShare = kNone;
        return shown;
    }
    std::shared_ptr<const AnalysedRun> analysed = m_cache->analysis(index);
    if (!analysed || analysed != shown.source)
        shown = format(analysed);
    return shown;
}

namespace {

QString gbps(double rate)
{
    return QString::number(rate, 'f', 1);
}

} // namespace

void SummaryPanel::formatHostShare(const AnalysedRun& analysed, Analysis& out)
{
    out.hostShare = kNone;
    if (!analysed.hostShare) {
        out.hostShareTip = tr("only runs on several GPUs of one host");
        return;
    }
    const Run& run = *analysed.run;
    const HostShare& share = *analysed.hostShare;
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

SummaryPanel::Analysis SummaryPanel::format(const std::shared_ptr<const AnalysedRun>& analysed)
{
    Analysis cached;
    if (!analysed) {
        // On the cache's worker: the cells say so until it is back.
        cached.overlap = cached.bound = cached.hostShare = QStringLiteral("\u2026");
        cached.overlapTip = cached.boundTip = tr("analysing\u2026");
        return cached;
    }
    cached.source = analysed;
    const Run& run = *analysed->run;
    const RunAnalysis& a = analysed->analysis;
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
    // The pipeline model's bound: the column is our pipelines'.
    const Verdict& v = a.findings.verdict;
    if (v.pipeline && v.distance > 0) {
        const PipelineModel& b = *v.pipeline;
        cached.bound = tr("%1x of bound").arg(v.distance, 0, 'f', 2);
        cached.boundTip = tr("Binding: %1 bound, %2 (transfer %3, host staging %4, compute %5).\nCopy rates: %6")
                              .arg(QString::fromLatin1(toString(b.binding)),
                                   TimeFormat::duration(static_cast<double>(v.boundNs)),
                                   TimeFormat::duration(static_cast<double>(b.transferNs)),
                                   b.stagingNs > 0 ? TimeFormat::duration(static_cast<double>(b.stagingNs)) : kNone,
                                   TimeFormat::duration(static_cast<double>(b.computeNs)),
                                   QString::fromStdString(a.rates.source));
    } else {
        cached.bound = kNone;
        cached.boundTip = tr("only completed runs with GPU work have a bound");
    }
    cached.diagnosis = QString::fromStdString(v.words);
    if (const std::string judged = judgedSentence(run, a); !judged.empty())
        cached.judged << QString::fromStdString(judged);
    for (const RegionJudgement& r : a.regions)
        for (const WordsLine& line : regionJudgementWords(run, r))
            cached.judged << QString(3 * line.depth, QLatin1Char(' ')) + QString::fromStdString(line.text);
    formatHostShare(*analysed, cached);
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
    return lines.join(QLatin1Char('\n'));
}

} // namespace ovs::ui
