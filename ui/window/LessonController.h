#pragma once

#include "document/ViewState.h"
#include "workers/CoreMetaTypes.h"
#include "workers/LessonRun.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;


namespace ovs::ui {

class LessonPanel;
class LessonSession;
class PresentationMode;
class ReplayController;
class RunController;
class TimelinePlot;
class TraceDocument;

// Lessons in the window: the Lessons menu (the ten lessons in course order,
// and the panel's show/hide), the Lessons dock (LessonPanel over a
// LessonSession), the lesson's run through RunController (its runs become
// the document, on one time axis, captioned), and what to look at on the
// timeline: each focus drawn (LessonCallouts: a band over its time range on
// its run's lanes and its callout), its ops outlined and zoomed to; at the
// results every focus at once. In presentation mode,
// with the panel shown, Space / Right / Down / Page Down step the lesson on
// and Left / Up / Page Up step it back (the replay's keys win while it plays).
class LessonController : public QObject {
    Q_OBJECT

public:
    LessonController(TraceDocument* document, ViewState* view, RunController* runs, TimelinePlot* timeline,
                     QMainWindow* window);

    QMenu* menu() const { return m_menu; }
    QDockWidget* dock() const { return m_dock; }
    LessonSession* session() const { return m_session; }
    LessonPanel* panel() const { return m_panel; }

    // The presentation mode and replay the step keys give way to.
    void setTeachingModes(PresentationMode* presentation, ReplayController* replay);

    // Opens a lesson at its Intro and shows the panel; false for an unknown
    // id or while a lesson runs.
    bool openLesson(const QString& id);
    // Starts the open lesson's run: clears the document (the window has
    // asked to save it) and runs through RunController. False (and a note
    // in the panel) when it cannot start.
    bool start();

    // Where lessons run and how big (tests use a named simulator and small chunks).
    void setDeviceSpec(const std::string& spec);
    void setOptions(const LessonOptions& options) { m_request.options = options; }

    // The focus entries drawn on the timeline now (index into the result's
    // focus), for tests: the current one at a Focus step, all at Results.
    const std::vector<int>& shownFocus() const { return m_shownFocus; }
    // Whether the document holds the last result's runs (document run i =
    // measured.runs[i]); false once it is cleared or replaced.
    bool documentHoldsResult() const { return m_holdsResult; }

public slots:
    void setDevices(const QList<ovs::DeviceListing>& devices);

signals:
    // The class pressed Run: the window checks it is free, offers to save
    // unsaved runs, then calls start().
    void runWanted();
    // Outline and zoom to these ops of `run` (as a finding's).
    void focusChosen(int run, const std::vector<ovs::ui::OpRef>& ops);

private:
    void onLessonFinished(const std::shared_ptr<const LessonResult>& result);
    void showStage();
    void showTimedRegions();
    std::vector<OpRef> refsOf(int focusIndex) const;
    void updateStepKeys();
    QAction* addStepKey(const QKeySequence& key, bool forward);

    QPointer<TraceDocument> m_document;
    QPointer<ViewState> m_view;
    QPointer<RunController> m_runs;
    QPointer<TimelinePlot> m_timeline;
    QMainWindow* m_window;
    LessonSession* m_session;
    LessonPanel* m_panel;
    QDockWidget* m_dock;
    QMenu* m_menu;
    QList<QAction*> m_stepKeys;
    QPointer<PresentationMode> m_presentation;
    QPointer<ReplayController> m_replay;
    LessonRequest m_request;
    QList<DeviceListing> m_devices; // as last listed
    bool m_lessonRunning = false; // RunController is running our lesson
    bool m_holdsResult = false;
    std::vector<int> m_shownFocus;
};

} // namespace ovs::ui
