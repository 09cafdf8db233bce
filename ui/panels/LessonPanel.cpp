#include "panels/LessonPanel.h"

#include "charts/LessonSweepChart.h"
#include "document/LessonSession.h"
#include "style/TimeFormat.h"

#include "lessons/Lesson.h"
#include "lessons/SweepPoints.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QStringList>
#include <QTextDocument>
#include <QVBoxLayout>

namespace ovs::ui {

namespace {

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString stageName(LessonStage stage)
{
    switch (stage) {
    case LessonStage::None:
        return QString();
    case LessonStage::Intro:
        return LessonPanel::tr("Intro");
    case LessonStage::Predict:
        return LessonPanel::tr("Predict");
    case LessonStage::Running:
        return LessonPanel::tr("Run");
    case LessonStage::Focus:
        return LessonPanel::tr("What to look at");
    case LessonStage::Results:
        return LessonPanel::tr("Results");
    }
    return QString();
}

// How much larger than the panel's text the lesson title is; relative, so
// presentation mode scales both.
constexpr double kTitleScale = 1.35;

} // namespace

LessonPanel::LessonPanel(LessonSession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    buildPicker();
    buildTexts();
    buildPrediction();
    buildFocus();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_picker);
    layout->addWidget(buildScroll(), 1);
    layout->addLayout(buildButtons());

    if (m_session) {
        connect(m_session, &LessonSession::stageChanged, this, [this] {
            m_note->clear();
            refresh();
        });
        connect(m_session, &LessonSession::choiceChanged, this, &LessonPanel::refresh);
    }
    applyFonts();
    refresh();
}

void LessonPanel::buildPicker()
{
    m_picker = new QComboBox;
    m_picker->setObjectName("lessonPicker");
    // Narrow enough for a side panel; the list itself shows whole titles.
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(16);
    m_picker->addItem(tr("Pick a lesson…"), QString());
    for (const Lesson& lesson : lessons())
        m_picker->addItem(QStringLiteral("%1. %2").arg(lesson.number).arg(QString::fromStdString(lesson.title)),
                          QString::fromStdString(lesson.id));
    connect(m_picker, &QComboBox::activated, this, [this](int index) {
        const QString id = m_picker->itemData(index).toString();
        if (!id.isEmpty())
            emit lessonPicked(id);
    });
}

void LessonPanel::buildTexts()
{
    m_title = new QLabel;
    m_title->setTextFormat(Qt::PlainText); // lesson and device words, never markup
    m_title->setObjectName("lessonTitle");
    m_title->setWordWrap(true);
    m_step = new QLabel;
    m_step->setTextFormat(Qt::PlainText);
    m_step->setObjectName("lessonStep");
    m_device = new QLabel;
    m_device->setTextFormat(Qt::PlainText);
    m_device->setObjectName("lessonDevice");
    m_device->setWordWrap(true);

    m_body = new QLabel;
    m_body->setObjectName("lessonBody");
    m_body->setWordWrap(true);
    m_body->setTextFormat(Qt::RichText);
    m_body->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_progress = new QLabel;
    m_progress->setTextFormat(Qt::PlainText);
    m_progress->setObjectName("lessonProgress");
    m_progress->setWordWrap(true);
    m_note = new QLabel;
    m_note->setTextFormat(Qt::PlainText);
    m_note->setObjectName("lessonNote");
    m_note->setWordWrap(true);
}

void LessonPanel::buildPrediction()
{
    m_choices = new QWidget;
    m_choicesLayout = new QVBoxLayout(m_choices);
    m_choicesLayout->setContentsMargins(0, 0, 0, 0);
    m_choiceGroup = new QButtonGroup(this);
    connect(m_choiceGroup, &QButtonGroup::idClicked, this, [this](int id) {
        if (!m_session || !m_session->lesson())
            return;
        const auto& choices = m_session->lesson()->question.choices;
        if (id >= 0 && id < static_cast<int>(choices.size()))
            m_session->choose(choices[static_cast<std::size_t>(id)].id);
    });
    m_skip = new QPushButton(tr("Skip prediction"));
    m_skip->setObjectName("lessonSkip");
    m_skip->setToolTip(tr("Run without predicting (the class can still say its answer aloud)"));
    connect(m_skip, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->skipPrediction();
    });
}

void LessonPanel::buildFocus()
{
    m_focusList = new QListWidget;
    m_focusList->setObjectName("lessonFocusList");
    m_focusList->setWordWrap(true);
    m_focusList->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_focusList->setToolTip(tr("What to look at: click one to zoom the timeline to it"));
    connect(m_focusList, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        emit focusPicked(m_focusList->row(item));
    });

    // Tall enough to read in a side panel; it scales with the panel's font.
    m_sweepChart = new LessonSweepChart;
    m_sweepChart->setMinimumHeight(300);
    m_sweepChart->setVisible(false);
}

QScrollArea* LessonPanel::buildScroll()
{
    auto* content = new QWidget;
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 4, 0);
    contentLayout->addWidget(m_title);
    contentLayout->addWidget(m_step);
    contentLayout->addWidget(m_device);
    contentLayout->addWidget(m_body);
    contentLayout->addWidget(m_sweepChart);
    contentLayout->addWidget(m_choices);
    contentLayout->addWidget(m_skip, 0, Qt::AlignLeft);
    contentLayout->addWidget(m_progress);
    contentLayout->addWidget(m_focusList);
    contentLayout->addWidget(m_note);
    contentLayout->addStretch();
    m_scroll = new QScrollArea;
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return m_scroll;
}

QHBoxLayout* LessonPanel::buildButtons()
{
    m_back = new QPushButton(tr("◀ Back"));
    m_back->setObjectName("lessonBack");
    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName("lessonRun");
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("lessonCancel");
    m_next = new QPushButton(tr("Next ▶"));
    m_next->setObjectName("lessonNext");
    connect(m_back, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->previous();
    });
    connect(m_next, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->next();
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->requestRun();
    });
    connect(m_cancel, &QPushButton::clicked, this, &LessonPanel::cancelRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addStretch();
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_run);
    buttons->addWidget(m_next);
    return buttons;
}

void LessonPanel::setDeviceText(const QString& text)
{
    m_deviceText = text;
    refresh();
}

void LessonPanel::setProgressText(const QString& text)
{
    m_progress->setText(text);
}

void LessonPanel::setNote(const QString& text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

QString LessonPanel::titleText() const
{
    return m_title->text();
}

QString LessonPanel::bodyText() const
{
    QTextDocument doc;
    doc.setHtml(m_body->text());
    return doc.toPlainText();
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
}

void LessonPanel::applyFonts()
{
    // Relative to the panel's font, which presentation mode scales.
    QFont title = font();
    if (title.pointSizeF() > 0)
        title.setPointSizeF(title.pointSizeF() * kTitleScale);
    else if (title.pixelSize() > 0)
        title.setPixelSize(static_cast<int>(title.pixelSize() * kTitleScale + 0.5));
    title.setBold(true);
    m_title->setFont(title);
}

void LessonPanel::rebuildChoices()
{
    for (QAbstractButton* button : m_choiceGroup->buttons())
        m_choiceGroup->removeButton(button);
    while (QLayoutItem* item = m_choicesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!m_session || !m_session->lesson())
        return;
    // A radio button cannot wrap its text, and a choice can be a sentence:
    // the button carries the letter, a wrapping label beside it the words
    // (a click on them picks the choice too).
    const auto& choices = m_session->lesson()->question.choices;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        auto* row = new QWidget;
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto* radio = new QRadioButton(QString::fromStdString(choices[i].id + ")"));
        radio->setObjectName(QStringLiteral("lessonChoice_%1").arg(QString::fromStdString(choices[i].id)));
        auto* words = new QLabel(QString::fromStdString(choices[i].text));
        words->setTextFormat(Qt::PlainText);
        words->setWordWrap(true);
        words->setProperty("choice", static_cast<int>(i));
        words->installEventFilter(this);
        radio->setToolTip(words->text());
        rowLayout->addWidget(radio, 0, Qt::AlignTop);
        rowLayout->addWidget(words, 1);
        m_choiceGroup->addButton(radio, static_cast<int>(i));
        m_choicesLayout->addWidget(row);
    }
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease && watched->property("choice").isValid()) {
        if (QAbstractButton* radio = m_choiceGroup->button(watched->property("choice").toInt());
            radio && radio->isEnabled())
            radio->click();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LessonPanel::refresh()
{
    const Lesson* lesson = m_session ? m_session->lesson() : nullptr;
    const LessonStage stage = m_session ? m_session->stage() : LessonStage::None;
    refreshPicker(lesson, stage);
    const LessonResult* result = m_session ? m_session->result() : nullptr;
    refreshTexts(lesson, stage, result);
    refreshPrediction(lesson, stage);
    refreshFocusList(stage, result);
    m_note->setVisible(!m_note->text().isEmpty());
    refreshSweepChart(lesson, stage, result);
    refreshButtons(lesson, stage, result);
}

void LessonPanel::refreshPicker(const Lesson* lesson, LessonStage stage)
{
    // Choices follow the lesson; rebuilt only when it changes.
    const QString lessonId = lesson ? QString::fromStdString(lesson->id) : QString();
    if (m_choices->property("lessonId").toString() != lessonId) {
        m_choices->setProperty("lessonId", lessonId);
        rebuildChoices();
        m_focusList->clear();
    }
    const int pickerIndex = lesson ? m_picker->findData(lessonId) : 0;
    if (pickerIndex >= 0 && m_picker->currentIndex() != pickerIndex)
        m_picker->setCurrentIndex(pickerIndex);
    m_picker->setEnabled(stage != LessonStage::Running);
}

void LessonPanel::refreshTexts(const Lesson* lesson, LessonStage stage, const LessonResult* result)
{
    if (!lesson) {
        m_title->setText(tr("Lessons"));
        m_step->clear();
        m_device->setText(m_deviceText);
        m_body->setText(tr("<p>Ten short lessons on how copies and kernels overlap, in course order. Pick one: "
                           "it explains the idea, asks the class to predict, runs, shows on the timeline what to "
                           "look at, and fills in the takeaway with the numbers measured.</p>"));
        return;
    }
    m_title->setText(tr("Lesson %1 of %2: %3")
                         .arg(lesson->number)
                         .arg(lessons().size())
                         .arg(QString::fromStdString(lesson->title)));
    m_step->setText(tr("Step %1 of %2 · %3")
                        .arg(m_session->stepNumber())
                        .arg(m_session->stepCount())
                        .arg(stageName(stage)));
    m_device->setText(deviceLine(result));
    m_body->setText(bodyHtml());
}

QString LessonPanel::deviceLine(const LessonResult* result) const
{
    if (!result)
        return m_deviceText;
    const QString device = QString::fromStdString(result->device.label());
    if (result->device.simulated)
        return tr("Ran on %1: no CUDA GPU here, so these numbers come from the simulator's model of a GPU, "
                  "not from a measurement.")
            .arg(device);
    QString line = tr("Ran on %1 (measured).").arg(device);
    // A step may name a simulated GPU (the one-copy-engine card of the
    // issue-order lesson): say which runs are not measurements.
    QStringList simulated;
    for (const LessonRunResult& r : result->measured.runs)
        if (r.run.device.simulated)
            simulated << QString::fromStdString(r.caption);
    if (!simulated.isEmpty())
        line += tr(" Simulated, not measured: %1.").arg(simulated.join(QStringLiteral("; ")));
    return line;
}

void LessonPanel::refreshPrediction(const Lesson* lesson, LessonStage stage)
{
    const bool running = stage == LessonStage::Running;
    const bool predicting = lesson && (stage == LessonStage::Predict || running);
    m_choices->setVisible(predicting);
    m_skip->setVisible(lesson && stage == LessonStage::Predict);
    m_skip->setEnabled(m_session && !m_session->predictionLocked());
    for (QAbstractButton* button : m_choiceGroup->buttons())
        button->setEnabled(m_session && !m_session->predictionLocked());
    if (lesson) {
        const auto& choices = lesson->question.choices;
        m_choiceGroup->setExclusive(false); // so "none checked" can be shown
        for (std::size_t i = 0; i < choices.size(); ++i)
            if (QAbstractButton* b = m_choiceGroup->button(static_cast<int>(i)))
                b->setChecked(choices[i].id == m_session->choice());
        m_choiceGroup->setExclusive(true);
    }
    m_progress->setVisible(running);
    if (!running)
        m_progress->clear();
}

void LessonPanel::refreshFocusList(LessonStage stage, const LessonResult* result)
{
    // What to look at: listed once there is a result, a row per focus step.
    const bool showFocus = result && (stage == LessonStage::Focus || stage == LessonStage::Results) &&
                           !m_session->focusSteps().empty();
    if (showFocus && m_focusList->count() != static_cast<int>(m_session->focusSteps().size())) {
        m_focusList->clear();
        for (int f : m_session->focusSteps()) {
            const ResolvedFocus& focus = result->focus[static_cast<std::size_t>(f)];
            m_focusList->addItem(QString::fromStdString(focus.callout));
        }
    }
    if (!showFocus)
        m_focusList->clear();
    m_focusList->setVisible(showFocus);
    if (showFocus) {
        // As tall as its rows, so the panel's text keeps the room.
        int height = 2 * m_focusList->frameWidth() + 2;
        for (int i = 0; i < m_focusList->count(); ++i)
            height += m_focusList->sizeHintForRow(i);
        m_focusList->setFixedHeight(height);
    }
    if (showFocus && m_session->focusStep() >= 0)
        m_focusList->setCurrentRow(m_session->focusStep());
    else
        m_focusList->clearSelection();
}

void LessonPanel::refreshSweepChart(const Lesson* lesson, LessonStage stage, const LessonResult* result)
{
    // The sweep's chart, for a lesson that declares one, once its runs are
    // back: on the steps that show the result (the runs it draws are what
    // the focus steps point into).
    const bool showChart = lesson && result && lesson->swept != SweptParameter::None &&
                           (stage == LessonStage::Focus || stage == LessonStage::Results);
    if (showChart && m_chartedResult.get() != result) {
        m_sweepChart->setSeries(sweepSeries(*lesson, result->measured));
        m_chartedResult = m_session->sharedResult();
    }
    if (!showChart && m_chartedResult) {
        m_sweepChart->setSeries({});
        m_chartedResult.reset();
    }
    m_sweepChart->setVisible(showChart && !m_sweepChart->series().points.empty());
}

void LessonPanel::refreshButtons(const Lesson* lesson, LessonStage stage, const LessonResult* result)
{
    const bool running = stage == LessonStage::Running;
    m_back->setEnabled(lesson && !running && stage != LessonStage::Intro);
    m_next->setEnabled(lesson && !running && stage != LessonStage::Results &&
                       (stage != LessonStage::Predict || m_session->canRun()));
    m_run->setVisible(lesson && (stage == LessonStage::Predict || stage == LessonStage::Results));
    m_run->setEnabled(m_session && m_session->canRun());
    m_run->setText(result ? tr("Run again") : tr("Run"));
    m_cancel->setVisible(running);
}

QString LessonPanel::bodyHtml() const
{
    const Lesson& lesson = *m_session->lesson();
    switch (m_session->stage()) {
    case LessonStage::None:
        return QString();
    case LessonStage::Intro:
        return QStringLiteral("<p>%1</p>").arg(esc(lesson.explanation)) +
               (lesson.calibrate ? tr("<p><i>A short calibration run first sizes the kernels for this device "
                                      "(it is not shown).</i></p>")
                                 : QString());
    case LessonStage::Predict:
    {
        QString hint;
        if (m_session->result())
            hint = tr("<p><i>Already run: Next shows what it showed; Run again runs it anew.</i></p>");
        else if (m_session->predictionSkipped())
            hint = tr("<p><i>No prediction: Run when ready.</i></p>");
        else if (!m_session->canRun())
            hint = tr("<p><i>Pick an answer, or skip the prediction, to run.</i></p>");
        return tr("<p><b>Predict:</b> %1</p>").arg(esc(lesson.question.text)) + hint;
    }
    case LessonStage::Running: {
        QString html = tr("<p><b>Predict:</b> %1</p>").arg(esc(lesson.question.text));
        html += m_session->choice().empty()
                    ? tr("<p>Running… (no prediction)</p>")
                    : tr("<p>Running… you predicted %1.</p>").arg(m_session->choiceText(m_session->choice()).toHtmlEscaped());
        return html;
    }
    case LessonStage::Focus:
        return focusHtml(m_session->currentFocus());
    case LessonStage::Results:
        return resultsHtml();
    }
    return QString();
}

QString LessonPanel::focusHtml(int focusIndex) const
{
    const LessonResult* result = m_session->result();
    if (!result || focusIndex < 0 || focusIndex >= static_cast<int>(result->focus.size()))
        return QString();
    const ResolvedFocus& focus = result->focus[static_cast<std::size_t>(focusIndex)];
    QString caption;
    if (focus.runIndex >= 0 && focus.runIndex < static_cast<int>(result->measured.runs.size()))
        caption = esc(result->measured.runs[static_cast<std::size_t>(focus.runIndex)].caption);
    return tr("<p><b>Look at</b> (%1 of %2) the run <i>%3</i>, from %4 to %5:</p><p style='font-size:large'>%6</p>")
        .arg(m_session->focusStep() + 1)
        .arg(m_session->focusSteps().size())
        .arg(caption, TimeFormat::duration(static_cast<double>(focus.startNs), 3),
             TimeFormat::duration(static_cast<double>(focus.endNs), 3), esc(focus.callout));
}

QString LessonPanel::resultsHtml() const
{
    const LessonResult* result = m_session->result();
    if (!result)
        return QString();
    if (!result->judged) {
        QString html = tr("<p><b>No verdict:</b> %1.</p>").arg(esc(result->notJudged));
        if (result->outcome.cancelled)
            html += tr("<p>The runs that finished are kept on the timeline (%1 of them); Run again to finish the "
                       "lesson.</p>")
                        .arg(result->measured.runs.size());
        return html;
    }
    QString html = QStringLiteral("<p style='font-size:large'><b>%1</b></p>").arg(m_session->verdictLine().toHtmlEscaped());
    html += tr("<p>Why: %1.</p>").arg(esc(result->verdict.why));
    html += tr("<p><b>Checks</b> (%1 of %2 held):</p><ul>").arg(result->checksHeld()).arg(result->verdict.checks.size());
    for (const LessonCheck& check : result->verdict.checks)
        html += QStringLiteral("<li>%1 %2: %3</li>")
                    .arg(check.held ? tr("held:") : tr("<b>NOT HELD:</b>"), esc(check.expectation), esc(check.measured));
    html += QStringLiteral("</ul>");
    html += tr("<p><b>Takeaway:</b> %1</p>").arg(esc(result->takeaway));
    return html;
}

} // namespace ovs::ui
