#include "panels/OpDetailsPanel.h"

#include "document/TraceDocument.h"
#include "style/OpStyle.h"
#include "style/TimeFormat.h"
#include "style/DisplayText.h"

#include <QLabel>
#include <QStringList>
#include <QVBoxLayout>

namespace ovs::ui {

namespace {

QString hint()
{
    return QObject::tr("Click an op in the timeline to see its details.");
}

} // namespace

OpDetailsPanel::OpDetailsPanel(TraceDocument* document, ViewState* view, QWidget* parent)
    : QWidget(parent), m_document(document), m_view(view), m_label(new QLabel)
{
    m_label->setWordWrap(true);
    m_label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_label);
    layout->addStretch(1);

    if (view)
        connect(view, &ViewState::selectionChanged, this, &OpDetailsPanel::refresh);
    if (document) {
        connect(document, &TraceDocument::reset, this, &OpDetailsPanel::refresh);
        connect(document, &TraceDocument::runChanged, this, [this](int run) {
            if (m_view && m_view->selection().run == run)
                refresh();
        });
    }
    refresh();
}

QString OpDetailsPanel::detailsText() const
{
    return m_text;
}

std::vector<std::pair<QString, QString>> OpDetailsPanel::rows() const
{
    if (!m_document || !m_view)
        return {};
    const OpRef ref = m_view->selection();
    // The selection can outlive what it named (a new document, a live run
    // still filling in): check it against the document as it is now.
    if (!ref.isValid() || ref.run >= m_document->runCount())
        return {};
    const RunTimeline& timeline = m_document->run(ref.run);
    if (ref.lane >= timeline.laneCount() || ref.index >= static_cast<int>(timeline.laneOps(ref.lane).size()))
        return {};
    const Run& run = timeline.run();
    const Op& op = timeline.laneOps(ref.lane)[static_cast<std::size_t>(ref.index)];

    std::vector<std::pair<QString, QString>> rows;
    rows.emplace_back(tr("Kind"), opKindLabel(op.kind));
    rows.emplace_back(tr("Run"), displayText(run.name));
    const auto laneIndex = static_cast<std::size_t>(ref.lane);
    rows.emplace_back(tr("Lane"), laneIndex < run.lanes.size() ? displayText(run.lanes[laneIndex].name)
                                                               : QString::number(ref.lane));
    rows.emplace_back(tr("Chunk"), op.chunk >= 0 ? QString::number(op.chunk) : tr("none (not tied to a chunk)"));
    rows.emplace_back(tr("Start"), TimeFormat::duration(op.startNs, 4));
    rows.emplace_back(tr("End"), TimeFormat::duration(op.endNs, 4));
    rows.emplace_back(tr("Duration"), TimeFormat::duration(op.durationNs()));
    // The exact figures, for comparing with other tools.
    rows.emplace_back(tr("Interval (ns)"), QStringLiteral("%1 .. %2").arg(op.startNs).arg(op.endNs));
    if (op.bytes > 0) {
        rows.emplace_back(tr("Bytes"), QStringLiteral("%1 (%2 B)").arg(TimeFormat::bytes(op.bytes)).arg(op.bytes));
        if (op.durationNs() > 0)
            rows.emplace_back(tr("Rate"), TimeFormat::bandwidth(op.bytes, op.durationNs()));
    }
    if (op.memory != HostMemoryKind::None)
        rows.emplace_back(tr("Host memory"), QString::fromLatin1(toString(op.memory)));
    if (op.hasExec()) {
        const std::int64_t execNs = op.execEndNs - op.execStartNs;
        rows.emplace_back(tr("Engine ran"), tr("%1 to %2 (%3)")
                                                .arg(TimeFormat::duration(op.execStartNs, 4), TimeFormat::duration(op.execEndNs, 4),
                                                     TimeFormat::duration(execNs)));
        rows.emplace_back(tr("Queued"), TimeFormat::duration(std::max<std::int64_t>(0, op.execStartNs - op.startNs)));
        if (op.bytes > 0 && execNs > 0)
            rows.emplace_back(tr("Engine rate"), TimeFormat::bandwidth(op.bytes, execNs));
    }
    rows.emplace_back(tr("Device"), displayText(run.device.label()));
    return rows;
}

void OpDetailsPanel::refresh()
{
    const auto details = rows();
    if (details.empty()) {
        m_text = hint();
        m_label->setTextFormat(Qt::PlainText);
        m_label->setText(m_text);
        return;
    }
    QStringList plain;
    QString html = QStringLiteral("<table cellspacing='2'>");
    for (const auto& [name, value] : details) {
        plain << name + QStringLiteral(": ") + value;
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_text = plain.join(QLatin1Char('\n'));
    m_label->setTextFormat(Qt::RichText);
    m_label->setText(html);
}

} // namespace ovs::ui
