#include "window/LessonController.h"

#include "document/LessonSession.h"
#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "panels/LessonPanel.h"
#include "timeline/LessonCallouts.h"
#include "timeline/TimelinePlot.h"
#include "window/PresentationMode.h"
#include "window/ReplayController.h"
#include "workers/RunController.h"

#include "devicefactory/DeviceFactory.h"

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QTimer>

namespace ovs::ui {

namespace {

// As many ops as a finding outlines: enough for any lesson's focus, and a
// bound on the work per step.
constexpr std::size_t kMaxOutlined = 1000;

} // namespace

LessonController::LessonController(TraceDocument* document, ViewState* view, RunController* runs,
                                   TimelinePlot* timeline, QMainWindow* window)
    : QObject(window), m_document(document), m_view(view), m_runs(runs), m_timeline(timeline), m_window(window),
      m_session(new LessonSession(this))
{
    m_panel = new LessonPanel(m_session);
    m_dock = new QDockWidget(tr("Lessons"), window);
    m_dock->setObjectName("lessons");
    m_dock->setWidget(m_panel);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                        QDockWidget::DockWidgetClosable);
    // Presentation mode keeps it: the lesson is what the class reads.
    m_dock->setProperty(PresentationMode::kKeepDockProperty, true);
    m_dock->hide(); // until a lesson is picked; the window is for exploring first

    m_menu = new QMenu(tr("&Lessons"), window);
    m_menu->setObjectName("lessonsMenu");
    for (const Lesson& lesson : lessons()) {
        QAction* open = m_menu->addAction(
            QStringLiteral("&%1. %2").arg(lesson.number % 10).arg(QString::fromStdString(lesson.title)),
            this, [this, id = QString::fromStdString(lesson.id)] { openLesson(id); });
        open->setObjectName(QStringLiteral("lesson_%1").arg(QString::fromStdString(lesson.id)));
    }
    m_menu->addSeparator();
    QAction* show = m_dock->toggleViewAction();
    show->setText(tr("Show the Lessons &panel"));
    m_menu->addAction(show);

    m_stepKeys << addStepKey(QKeySequence(Qt::Key_Space), true) << addStepKey(QKeySequence(Qt::Key_Right), true)
               << addStepKey(QKeySequence(Qt::Key_Down), true) << addStepKey(QKeySequence(Qt::Key_PageDown), true)
               << addStepKey(QKeySequence(Qt::Key_Left), false) << addStepKey(QKeySequence(Qt::Key_Up), false)
               << addStepKey(QKeySequence(Qt::Key_PageUp), false);
    connect(m_dock, &QDockWidget::visibilityChanged, this, &LessonController::updateStepKeys);

    connect(m_panel, &LessonPanel::lessonPicked, this, [this](const QString& id) { openLesson(id); });
    connect(m_panel, &LessonPanel::cancelRequested, this, [this] {
        if (m_lessonRunning && m_runs)
            m_runs->cancel();
    });
    connect(m_panel, &LessonPanel::focusPicked, m_session, &LessonSession::showFocus);
    connect(m_session, &LessonSession::runRequested, this, &LessonController::runWanted);
    connect(m_session, &LessonSession::stageChanged, this, &LessonController::showStage);
    connect(m_session, &LessonSession::stageChanged, this, &LessonController::updateStepKeys);

    if (m_runs) {
        connect(m_runs, &RunController::lessonFinished, this, &LessonController::onLessonFinished);
        connect(m_runs, &RunController::progress, this, [this](double fraction, const QString& what) {
            if (m_lessonRunning)
                m_panel->setProgressText(tr("%1% · %2").arg(static_cast<int>(fraction * 100 + 0.5)).arg(what));
        });
        connect(m_runs, &RunController::refused, this, [this](const QString& why) {
            if (m_session->stage() != LessonStage::Running)
                m_panel->setNote(why);
        });
    }
    if (m_document) {
        // The lesson's runs are gone (a new document, a trace opened): its
        // focus no longer points at anything.
        connect(m_document, &TraceDocument::reset, this, [this] {
            m_holdsResult = false;
            m_shownFocus.clear();
            if (m_timeline)
                clearLessonFocus(*m_timeline);
        });
    }
    setDevices({});
}

void LessonController::setTeachingModes(PresentationMode* presentation, ReplayController* replay)
{
    m_presentation = presentation;
    m_replay = replay;
    if (presentation) {
        connect(presentation, &PresentationMode::activeChanged, this, &LessonController::updateStepKeys);
        // Presenting, the timeline gets most of the screen: the lesson a
        // third of it at most (its text wraps), once the window is full screen.
        connect(presentation, &PresentationMode::activeChanged, this, [this](bool active) {
            if (active && m_dock->isVisible() && !m_dock->isFloating())
                QTimer::singleShot(0, this, [this] {
                    m_window->resizeDocks({m_dock}, {m_window->width() / 3}, Qt::Horizontal);
                });
        });
    }
    if (replay)
        connect(replay->toggleAction(), &QAction::toggled, this, &LessonController::updateStepKeys);
    updateStepKeys();
}

QAction* LessonController::addStepKey(const QKeySequence& key, bool forward)
{
    auto* action = new QAction(forward ? tr("Next lesson step") : tr("Previous lesson step"), this);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    action->setEnabled(false);
    connect(action, &QAction::triggered, this, [this, forward] {
        if (forward)
            m_session->next();
        else
            m_session->previous();
    });
    m_window->addAction(action);
    return action;
}

void LessonController::updateStepKeys()
{
    // Only while presenting a lesson, and never against the replay's own
    // Space and arrows: two enabled actions on one key would both go dead.
    const bool on = m_presentation && m_presentation->isActive() && m_dock->isVisible() && m_session->lesson() &&
                    !(m_replay && m_replay->isActive());
    for (QAction* key : m_stepKeys)
        key->setEnabled(on);
}

void LessonController::setDeviceSpec(const std::string& spec)
{
    m_request.deviceSpec = spec;
    setDevices(m_devices);
}

void LessonController::setDevices(const QList<DeviceListing>& devices)
{
    m_devices = devices;
    if (m_request.deviceSpec != "auto") {
        const QString spec = QString::fromStdString(m_request.deviceSpec);
        m_panel->setDeviceText(spec.startsWith("sim")
                                   ? tr("Runs on the simulator (%1) [simulated]: the numbers will come from its "
                                        "model of a GPU, not from a measurement.")
                                         .arg(spec)
                                   : tr("Runs on %1.").arg(spec));
        return;
    }
    if (devices.isEmpty()) {
        m_panel->setDeviceText(tr("Runs on the CUDA GPU if one answers, else on the simulated H200 (labelled "
                                  "[simulated])."));
        return;
    }
    QString why;
    for (const DeviceListing& device : devices) {
        if (device.spec.rfind("cuda", 0) != 0)
            continue;
        if (device.available) {
            m_panel->setDeviceText(tr("Runs on %1 (measured).").arg(QString::fromStdString(device.label)));
            return;
        }
        why = QString::fromStdString(device.note);
    }
    QString text = tr("Runs on the simulated H200 [simulated]: the numbers will come from the simulator's model "
                      "of a GPU, not from a measurement.");
    if (!why.isEmpty())
        text += tr(" (No CUDA GPU: %1.)").arg(why);
    m_panel->setDeviceText(text);
}

bool LessonController::openLesson(const QString& id)
{
    const Lesson* lesson = findLesson(id.toStdString());
    if (!lesson)
        return false;
    if (!m_session->open(lesson)) {
        m_panel->setNote(tr("A lesson is running: cancel it before opening another."));
        m_dock->show();
        return false;
    }
    m_dock->show();
    m_dock->raise();
    updateStepKeys();
    return true;
}

bool LessonController::start()
{
    const Lesson* lesson = m_session->lesson();
    if (!lesson || !m_session->canRun() || !m_runs || !m_document)
        return false;
    // The lesson's runs are the document, alone, in step order: focus i
    // then names document run i.
    m_document->clear();
    // Each run's setup (pinned allocations) takes its own time before its
    // timer starts, hundreds of ms on a GPU: aligned at their timed regions,
    // the runs' loops sit one above the other and compare at a glance.
    m_document->setAlignTimedRegions(true);
    m_request.lessonId = lesson->id;
    if (!m_runs->startLesson(m_request))
        return false; // refused() put the reason in the panel
    m_lessonRunning = true;
    m_session->beginRun();
    return true;
}

void LessonController::onLessonFinished(const std::shared_ptr<const LessonResult>& result)
{
    if (!m_lessonRunning)
        return;
    m_lessonRunning = false;
    // The document must hold the result's runs in its order, captioned;
    // otherwise (a run refused before it began, say) drawing a focus would
    // mark the wrong ops, so none is drawn and the panel says why.
    bool same = m_document && result && m_document->runCount() == static_cast<int>(result->measured.runs.size());
    for (int i = 0; same && i < m_document->runCount(); ++i)
        same = m_document->run(i).run().name == result->measured.runs[static_cast<std::size_t>(i)].caption;
    m_holdsResult = same;
    m_session->finishRun(result);
    if (!same && result && !result->measured.runs.empty())
        m_panel->setNote(tr("The timeline does not hold this lesson's runs as they were measured, so what to look at "
                            "is listed but not drawn."));
}

std::vector<OpRef> LessonController::refsOf(int focusIndex) const
{
    std::vector<OpRef> refs;
    const LessonResult* result = m_session->result();
    if (!result || !m_holdsResult || focusIndex < 0 || focusIndex >= static_cast<int>(result->focus.size()))
        return refs;
    const ResolvedFocus& focus = result->focus[static_cast<std::size_t>(focusIndex)];
    if (focus.runIndex < 0 || focus.runIndex >= m_document->runCount())
        return refs;
    const Run& run = result->measured.runs[static_cast<std::size_t>(focus.runIndex)].run;
    const RunTimeline& timeline = m_document->run(focus.runIndex);
    for (std::size_t k : focus.ops) {
        if (refs.size() >= kMaxOutlined)
            break;
        if (k >= run.ops.size())
            continue;
        const Op& op = run.ops[k];
        if (const int index = timeline.indexOf(op); index >= 0)
            refs.push_back({focus.runIndex, static_cast<int>(op.lane), index});
    }
    return refs;
}

void LessonController::showTimedRegions()
{
    // The lesson is in the runs' timed regions (framed as the slides frame them).
    const AxisSpan overview = TimeFrame(*m_document).lessonOverview();
    if (overview.isEmpty())
        m_view->resetView();
    else
        m_view->setVisibleRange(overview.startNs, overview.endNs);
}

void LessonController::showStage()
{
    const LessonStage stage = m_session->stage();
    const LessonResult* result = m_session->result();
    m_shownFocus.clear();
    if (!m_holdsResult || !m_view || !result) {
        if (m_timeline)
            clearLessonFocus(*m_timeline);
        if (result && !m_holdsResult && (stage == LessonStage::Focus || stage == LessonStage::Results))
            m_panel->setNote(tr("The timeline no longer shows this lesson's runs: Run again to see them."));
        if (m_view && stage != LessonStage::Running)
            m_view->setHighlight({});
        return;
    }
    if (stage == LessonStage::Focus) {
        const int focus = m_session->currentFocus();
        m_shownFocus.push_back(focus);
        if (m_timeline)
            setLessonFocus(*m_timeline, {result->focus[static_cast<std::size_t>(focus)]}, result->measured);
        const std::vector<OpRef> refs = refsOf(focus);
        emit focusChosen(refs.empty() ? -1 : refs.front().run, refs);
        // The focus in context, as its slide frames it.
        const AxisSpan framed = TimeFrame(*m_document).lessonFocus(result->focus[static_cast<std::size_t>(focus)]);
        m_view->setVisibleRange(framed.startNs, framed.endNs);
    } else if (stage == LessonStage::Results) {
        // Everything to look at, over the whole lesson.
        std::vector<OpRef> all;
        std::vector<ResolvedFocus> drawn;
        for (int f : m_session->focusSteps()) {
            m_shownFocus.push_back(f);
            drawn.push_back(result->focus[static_cast<std::size_t>(f)]);
            const std::vector<OpRef> refs = refsOf(f);
            all.insert(all.end(), refs.begin(), refs.end());
        }
        if (m_timeline)
            setLessonFocus(*m_timeline, drawn, result->measured);
        m_view->setHighlight(std::move(all));
        m_view->setExtent(m_document->endNs());
        showTimedRegions();
    } else {
        // Back at the question: the class looks at the runs afresh.
        if (m_timeline)
            clearLessonFocus(*m_timeline);
        m_view->setHighlight({});
    }
}

} // namespace ovs::ui
