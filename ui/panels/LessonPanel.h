#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>

#include <memory>

class QButtonGroup;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace ovs {
struct Lesson;
struct LessonResult;
}

namespace ovs::ui {

class LessonSession;
class LessonSweepChart;
enum class LessonStage;

// The Lessons panel: a lesson picker, then the open lesson one step at a
// time, as LessonSession says: the explanation, the question with its
// choices (radio buttons) and Run, the progress while it runs, what to look
// at (a list: a click zooms to it), the chart of a lesson that sweeps a
// parameter (wall time and bound against it), and the verdict with its checks and
// the takeaway. Its text follows the window's font, so presentation mode
// scales it with everything else. It only shows the session and forwards
// clicks; running and drawing on the timeline are the window's.
class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(LessonSession* session, QWidget* parent = nullptr);

    // Where the lesson runs, in words ("NVIDIA H200", or the simulator
    // and why); shown under the title until a result names its device.
    void setDeviceText(const QString& text);
    // What the running lesson is doing ("job 2 of 5: ...").
    void setProgressText(const QString& text);
    // A problem to show in the panel (a refused run, focus that could not
    // be placed); cleared when the lesson or its stage changes.
    void setNote(const QString& text);

    // The text shown now, as plain text (tests, and what a screen reader reads).
    QString bodyText() const;
    QString titleText() const;
    // The sweep chart (hidden unless the lesson sweeps a parameter and its
    // runs are back).
    LessonSweepChart* sweepChart() const { return m_sweepChart; }

signals:
    void lessonPicked(const QString& id);
    void cancelRequested();
    // The user picked a focus in the list (index into focusSteps()).
    void focusPicked(int step);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The constructor's parts: the widgets of each part of the panel, and
    // how they are laid out.
    void buildPicker();
    void buildTexts();
    void buildPrediction();
    void buildFocus();
    QScrollArea* buildScroll();
    QHBoxLayout* buildButtons();
    // Shows the session's lesson and stage; its parts, in order.
    void refresh();
    void refreshPicker(const Lesson* lesson, LessonStage stage);
    void refreshTexts(const Lesson* lesson, LessonStage stage, const LessonResult* result);
    QString deviceLine(const LessonResult* result) const;
    void refreshPrediction(const Lesson* lesson, LessonStage stage);
    void refreshFocusList(LessonStage stage, const LessonResult* result);
    void refreshSweepChart(const Lesson* lesson, LessonStage stage, const LessonResult* result);
    void refreshButtons(const Lesson* lesson, LessonStage stage, const LessonResult* result);
    void rebuildChoices();
    void applyFonts();
    QString bodyHtml() const;
    QString resultsHtml() const;
    QString focusHtml(int focusIndex) const;

    QPointer<LessonSession> m_session;
    QComboBox* m_picker;
    QLabel* m_title;
    QLabel* m_step;
    QLabel* m_device;
    QLabel* m_body;
    QScrollArea* m_scroll;
    QWidget* m_choices;
    QVBoxLayout* m_choicesLayout;
    QButtonGroup* m_choiceGroup;
    QPushButton* m_skip;
    QListWidget* m_focusList;
    LessonSweepChart* m_sweepChart;
    // What m_sweepChart draws; held, so that a new result never passes for it.
    std::shared_ptr<const LessonResult> m_chartedResult;
    QLabel* m_progress;
    QLabel* m_note;
    QPushButton* m_back;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_next;
    QString m_deviceText;
};

} // namespace ovs::ui
