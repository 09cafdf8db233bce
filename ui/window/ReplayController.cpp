#include "window/ReplayController.h"

#include "document/TimeFrame.h"
#include "document/TraceDocument.h"
#include "document/ViewState.h"
#include "style/TimeFormat.h"

#include <QAction>
#include <QKeySequence>
#include <QTimer>
#include <QWidget>

namespace ovs::ui {

namespace {

// About 30 frames a second: smooth enough for a class, light on the CPU.
constexpr int kTickMs = 33;

} // namespace

ReplayController::ReplayController(TraceDocument* document, ViewState* view, QWidget* window)
    : QObject(window), m_document(document), m_view(view), m_timer(new QTimer(this))
{
    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, &ReplayController::tick);

    m_toggle = new QAction(tr("&Replay"), this);
    m_toggle->setObjectName("replayAction");
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::Key_F6));
    m_toggle->setToolTip(tr("Play the runs back with a playhead: Space play/pause, Left/Right step between ops, "
                            "+/- speed, Home to start"));
    connect(m_toggle, &QAction::toggled, this, &ReplayController::setActive);
    window->addAction(m_toggle);

    m_keys << addKey(window, tr("Play / pause"), QKeySequence(Qt::Key_Space), &ReplayController::togglePlaying)
           << addKey(window, tr("Next op"), QKeySequence(Qt::Key_Right), &ReplayController::stepNext)
           << addKey(window, tr("Previous op"), QKeySequence(Qt::Key_Left), &ReplayController::stepPrevious)
           << addKey(window, tr("Faster"), QKeySequence(Qt::Key_Plus), &ReplayController::faster)
           << addKey(window, tr("Faster"), QKeySequence(Qt::Key_Equal), &ReplayController::faster)
           << addKey(window, tr("Slower"), QKeySequence(Qt::Key_Minus), &ReplayController::slower)
           << addKey(window, tr("To start"), QKeySequence(Qt::Key_Home), &ReplayController::toStart);

    const auto reload = [this] {
        if (m_active)
            reloadLanes(false);
    };
    connect(m_document, &TraceDocument::reset, this, reload);
    connect(m_document, &TraceDocument::runAdded, this, reload);
    connect(m_document, &TraceDocument::runChanged, this, reload);
}

QAction* ReplayController::addKey(QWidget* window, const QString& text, const QKeySequence& key,
                                  void (ReplayController::*slot)())
{
    auto* action = new QAction(text, this);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    action->setEnabled(false);
    connect(action, &QAction::triggered, this, slot);
    window->addAction(action);
    return action;
}

void ReplayController::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    if (m_toggle->isChecked() != active)
        m_toggle->setChecked(active);
    for (QAction* key : m_keys)
        key->setEnabled(active);
    if (active) {
        reloadLanes(true);
        m_state.play();
        m_clock.start();
        m_timer->start();
    } else {
        m_timer->stop();
        m_state.pause();
        m_view->clearPlayhead();
    }
    publish();
}

void ReplayController::reloadLanes(bool restart)
{
    // One vector of start times per lane, on the shared axis (with each
    // run's display offset): ReplayState steps across them by binary search.
    std::vector<std::vector<std::int64_t>> lanes;
    for (int r = 0; r < m_document->runCount(); ++r) {
        const RunTimeline& run = m_document->run(r);
        const RunAxis axis = TimeFrame(*m_document).runAxis(r);
        for (int l = 0; l < run.laneCount(); ++l) {
            const std::span<const Op> ops = run.laneOps(l);
            std::vector<std::int64_t> starts;
            starts.reserve(ops.size());
            for (const Op& op : ops)
                starts.push_back(axis.toAxis(op.startNs));
            lanes.push_back(std::move(starts));
        }
    }
    if (restart)
        m_state.setLanes(std::move(lanes), m_document->endNs());
    else
        m_state.updateLanes(std::move(lanes), m_document->endNs());
}

void ReplayController::publish()
{
    if (m_active)
        m_view->setPlayhead(m_state.playheadNs());
    emit statusChanged(statusText());
}

void ReplayController::tick()
{
    const double seconds = static_cast<double>(m_clock.restart()) / 1000.0;
    if (m_state.isPlaying())
        advance(seconds);
}

void ReplayController::advance(double wallSeconds)
{
    const bool wasPlaying = m_state.isPlaying();
    if (m_state.advance(wallSeconds) || wasPlaying != m_state.isPlaying())
        publish();
}

void ReplayController::togglePlaying()
{
    m_state.togglePlaying();
    m_clock.restart();
    publish();
}

void ReplayController::stepNext()
{
    m_state.stepNext();
    publish();
}

void ReplayController::stepPrevious()
{
    m_state.stepPrevious();
    publish();
}

void ReplayController::faster()
{
    m_state.faster();
    publish();
}

void ReplayController::slower()
{
    m_state.slower();
    publish();
}

void ReplayController::toStart()
{
    m_state.toStart();
    publish();
}

QString ReplayController::statusText() const
{
    if (!m_active)
        return QString();
    return tr("Replay %1 %2x · %3 of %4 · Space play/pause, ←/→ step, +/− speed, Home start, F6 leave")
        .arg(m_state.isPlaying() ? QStringLiteral("▶") : QStringLiteral("❚❚"))
        .arg(m_state.speed())
        .arg(TimeFormat::duration(static_cast<double>(m_state.playheadNs()), 4),
             TimeFormat::duration(static_cast<double>(m_state.extentNs()), 4));
}

} // namespace ovs::ui
