#pragma once

#include "device/Device.h"
#include "jobs/JobOutcome.h"
#include "jobs/JobRunner.h"
#include "lessons/Lesson.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"

#include "trace/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace ovs {

// A lesson as it ran on one device.
struct LessonResult {
    std::string lessonId;
    DeviceInfo device;            // the lesson's device; its label says "[simulated]" where it is
    std::vector<Run> calibration; // the runs that sized the lesson's runs
    LessonMeasurements measured;  // the lesson's runs and sweeps, in step order
    JobOutcome outcome;           // every job together, calibration included
    // Judged only when every run completed and verified; else `notJudged` says why.
    bool judged = false;
    std::string notJudged;
    LessonVerdict verdict;
    std::string takeaway; // the template with the measured numbers in it
    std::vector<ResolvedFocus> focus;

    int checksHeld() const;
};

// Runs a lesson: the calibration runs, then the lesson's runs, each on the
// lesson's `device` or, for a step that names one, on a simulated device made
// for it; then judges what they showed.
//
// Through the job runner, so its cancel contract holds: raising `cancel`
// keeps every run that finished (in the result and the sink), ends the one
// in flight as cancelled, and starts nothing more; the lesson is then not
// judged. Never throws for run-time trouble: a failed or unverified run, or
// a step's device that cannot be made, is in `outcome.problems` and leaves
// the lesson unjudged. `started` sees each job with its index over the whole
// lesson and the lesson's total.
using LessonJobStarted = std::function<void(int index, int total, const std::string& title)>;
LessonResult runLesson(const Lesson& lesson, Device& device, RecordSink& sink, const CancelFlag& cancel,
                       const LessonJobStarted& started = {}, const LessonOptions& options = {});

// The analysis and the verdict of a lesson's measured runs (what runLesson
// does once they ran): judged unless the outcome says a run was cancelled,
// failed or did not verify; the focus placed on the runs.
void judgeLesson(const Lesson& lesson, LessonResult& result);

// A lesson recorded earlier (`overlapscope-cli lesson NAME -o TRACE`, e.g. on
// a GPU server with no Qt), judged again from its trace: the calibration and
// the planned runs taken in order, each checked against the plan (chunks and
// chunk size, so `options` must be those it was recorded with). Nullopt, with
// the reason in `error`, when the trace is not that lesson's recording.
std::optional<LessonResult> lessonFromTrace(const Lesson& lesson, const Trace& trace, const LessonOptions& options,
                                            std::string* error);

} // namespace ovs
