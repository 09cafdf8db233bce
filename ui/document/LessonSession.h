#pragma once

#include "lessons/LessonRunner.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace ovs::ui {

// Where a class is in a lesson. The order a teacher walks through:
// Intro (title and explanation) -> Predict (the question, a choice picked
// or skipped) -> Running -> Focus (each thing to look at, one step each)
// -> Results (the verdict, the checks and the takeaway).
enum class LessonStage { None, Intro, Predict, Running, Focus, Results };

// The Lessons panel's state, without a window: which lesson, which step,
// which choice the class picked, and the result once the run is back.
// The window starts the run when runRequested() asks (it may refuse, e.g.
// while another run is going) and reports it with beginRun() and
// finishRun(); this class never runs anything itself.
class LessonSession : public QObject {
    Q_OBJECT

public:
    explicit LessonSession(QObject* parent = nullptr);

    // Opens `lesson` at its Intro, forgetting the last one's choice and
    // result. Refused (false) while a run is going, and for nullptr.
    bool open(const Lesson* lesson);
    const Lesson* lesson() const { return m_lesson; }
    LessonStage stage() const { return m_stage; }

    // The prediction. A choice can be picked (or the prediction skipped)
    // until the run starts; from then on it is what the class predicted.
    bool choose(const std::string& choiceId);
    bool skipPrediction();
    const std::string& choice() const { return m_choice; }
    bool predictionSkipped() const { return m_skipped; }
    bool predictionLocked() const { return m_stage == LessonStage::Running || m_result != nullptr; }
    // A lesson is open, not running, and a choice was picked or skipped.
    bool canRun() const;
    // The Run button: asks for the run (runRequested()) when one can start.
    bool requestRun();

    // The window started the run (stage Running) / it is back, judged or
    // not (cancelled, failed): the first focus step, or Results when there
    // is nothing to look at or nothing was judged.
    bool beginRun();
    void finishRun(std::shared_ptr<const LessonResult> result);
    const LessonResult* result() const { return m_result.get(); }
    std::shared_ptr<const LessonResult> sharedResult() const { return m_result; }

    // The focus entries of the result that picked ops (those stepped
    // through and drawn), as indices into result()->focus.
    const std::vector<int>& focusSteps() const { return m_focusSteps; }
    // At stage Focus: which of focusSteps() (0-based); else -1.
    int focusStep() const { return m_stage == LessonStage::Focus ? m_focusStep : -1; }
    // Index into result()->focus of the focus shown now; -1 when none.
    int currentFocus() const;

    // One step on. At Predict: with a result already there, on to what it
    // showed; else, when a run can start, asks for it (runRequested()) and
    // stays until beginRun(). Returns whether the stage or focus moved.
    bool next();
    // One step back: Results -> last focus -> Predict -> Intro. Nothing
    // moves while running.
    bool previous();
    // Jumps to a focus step (a click in the panel's list).
    bool showFocus(int step);

    // The steps as a teacher counts them ("step 3 of 6"): Intro, Predict,
    // Run, one per focus step, Results; and which one is shown (1-based).
    int stepCount() const;
    int stepNumber() const;

    // "You predicted b) ...; the answer is c) ...": empty until judged.
    QString verdictLine() const;
    // The choice picked was the answer (false when skipped or not judged).
    bool predictedRight() const;
    // "c) 2x or more", or the id itself when the lesson has no such choice.
    QString choiceText(const std::string& id) const;

signals:
    void stageChanged();
    void choiceChanged();
    void runRequested();

private:
    void setStage(LessonStage stage, int focusStep = 0);
    // To the first focus step, else Results.
    bool afterRun();

    const Lesson* m_lesson = nullptr;
    LessonStage m_stage = LessonStage::None;
    std::string m_choice;
    bool m_skipped = false;
    std::shared_ptr<const LessonResult> m_result;
    std::vector<int> m_focusSteps;
    int m_focusStep = 0;
};

} // namespace ovs::ui
