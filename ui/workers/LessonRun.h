#pragma once

#include "lessons/LessonRunner.h"
#include "base/CancelFlag.h"

#include <QString>

#include <memory>
#include <string>

namespace ovs::ui {

class LiveRunSink;

// What the Lessons panel asks RunController to run.
struct LessonRequest {
    std::string lessonId;
    // "auto": the CUDA GPU when one answers, else the simulated H200
    // (labelled so). Tests name a simulator.
    std::string deviceSpec = "auto";
    LessonOptions options;
};

// A lesson as it came back to the window: the result (never null; a lesson
// that could not start says why in notJudged) and the line for the user.
struct LessonRunOutcome {
    std::shared_ptr<const LessonResult> result;
    bool ok = false;
    QString message;
};

// Runs a lesson on the calling (worker) thread through core's runLesson,
// feeding `sink` live. The runs reach the sink captioned with their step
// ("data already pinned, 3 streams") so the timeline titles say what each
// run is; the calibration run that sizes the kernels is not forwarded, so
// the window's document holds exactly the lesson's runs, in LessonResult
// order (document run i = result.measured.runs[i]). Never throws.
LessonRunOutcome runLessonLive(const LessonRequest& request, LiveRunSink& sink, const CancelFlag& cancel);

} // namespace ovs::ui
