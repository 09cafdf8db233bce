#pragma once

#include "document/ReplayState.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QAction;
class QTimer;
class QWidget;

namespace ovs::ui {

class TraceDocument;
class ViewState;

// Replay in the window (View > Replay): drives a ReplayState with a timer
// and puts its playhead into the ViewState, which the timeline draws. Its
// keys (Space, Left/Right, +/-, Home) are window actions enabled only while
// the replay is on, so outside it those keys keep their timeline meaning.
class ReplayController : public QObject {
    Q_OBJECT

public:
    // Actions are added to `window`, so they work in full screen too.
    ReplayController(TraceDocument* document, ViewState* view, QWidget* window);

    QAction* toggleAction() const { return m_toggle; }
    bool isActive() const { return m_active; }
    const ReplayState& state() const { return m_state; }

    void setActive(bool active);
    void togglePlaying();
    void stepNext();
    void stepPrevious();
    void faster();
    void slower();
    void toStart();
    // Moves as `wallSeconds` of playback would (the timer's tick; tests).
    void advance(double wallSeconds);

    // "Replay ▶ 2x · 1.234 ms of 5.000 ms"
    QString statusText() const;

signals:
    void statusChanged(const QString& text);

private:
    void reloadLanes(bool restart);
    void publish();
    void tick();
    QAction* addKey(QWidget* window, const QString& text, const QKeySequence& key, void (ReplayController::*slot)());

    TraceDocument* m_document;
    ViewState* m_view;
    ReplayState m_state;
    QTimer* m_timer;
    QElapsedTimer m_clock;
    QAction* m_toggle;
    QList<QAction*> m_keys;
    bool m_active = false;
};

} // namespace ovs::ui
