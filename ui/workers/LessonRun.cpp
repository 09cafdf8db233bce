#include "workers/LessonRun.h"

#include "workers/LiveRunSink.h"

#include "devicefactory/DeviceFactory.h"

#include <QObject>

#include <memory>
#include <utility>

namespace ovs::ui {

namespace {

int jobCount(const std::vector<LessonStep>& steps)
{
    int count = 0;
    for (const auto& step : steps)
        count += (step.pipeline ? 1 : 0) + (step.sweep ? 1 : 0);
    return count;
}

// Between runLesson and the live sink: drops the calibration jobs' runs
// and names each lesson run after its step's caption. Called on the worker
// thread only, in order, so it needs no lock.
class LessonSink : public RecordSink {
public:
    LessonSink(LiveRunSink& out, int plannedJobs) : m_out(out), m_plannedJobs(plannedJobs) {}

    // runLesson's `started`: the job's index over the whole lesson, the
    // lesson's total so far and the step's caption.
    void jobStarted(int index, int total, const std::string& caption)
    {
        // Until the calibration has run, runLesson's total is the
        // calibration's jobs plus the plan made without it: the difference
        // is how many jobs calibrate.
        if (m_calibrationJobs < 0)
            m_calibrationJobs = std::max(0, total - m_plannedJobs);
        m_forward = index >= m_calibrationJobs;
        m_caption = caption;
        m_out.setJobCount(total);
        m_out.beginJob(index, m_forward ? QString::fromStdString(caption) : QObject::tr("calibrating the kernels"));
    }

    void runStarted(const Run& header) override
    {
        if (m_forward)
            m_out.runStarted(captioned(header));
    }
    void laneAdded(const Lane& lane, int laneIndex) override
    {
        if (m_forward)
            m_out.laneAdded(lane, laneIndex);
    }
    void opsCompleted(std::span<const Op> ops) override
    {
        if (m_forward)
            m_out.opsCompleted(ops);
    }
    void runFinished(const Run& run) override
    {
        if (m_forward)
            m_out.runFinished(captioned(run));
    }
    void sweepStarted(const BandwidthSweep& header) override
    {
        if (m_forward)
            m_out.sweepStarted(header);
    }
    void bandwidthMeasured(const BandwidthPoint& point) override
    {
        if (m_forward)
            m_out.bandwidthMeasured(point);
    }
    void sweepFinished(const BandwidthSweep& sweep) override
    {
        if (m_forward)
            m_out.sweepFinished(sweep);
    }
    void progress(double fraction, const std::string& what) override { m_out.progress(fraction, what); }

private:
    Run captioned(const Run& run) const
    {
        Run named = run;
        if (!m_caption.empty())
            named.name = m_caption;
        return named;
    }

    LiveRunSink& m_out;
    int m_plannedJobs;
    int m_calibrationJobs = -1;
    bool m_forward = true;
    std::string m_caption;
};

QString outcomeMessage(const Lesson& lesson, const LessonResult& result)
{
    const QString device = QString::fromStdString(result.device.label());
    if (result.judged)
        return QObject::tr("Lesson %1 ran on %2: %3 of %4 checks held")
            .arg(lesson.number)
            .arg(device)
            .arg(result.checksHeld())
            .arg(result.verdict.checks.size());
    if (result.outcome.cancelled)
        return QObject::tr("Lesson %1 cancelled; kept the %2 runs that finished")
            .arg(lesson.number)
            .arg(result.measured.runs.size());
    return QObject::tr("Lesson %1 on %2: %3").arg(lesson.number).arg(device, QString::fromStdString(result.notJudged));
}

} // namespace

LessonRunOutcome runLessonLive(const LessonRequest& request, LiveRunSink& sink, const CancelFlag& cancel)
{
    LessonRunOutcome out;
    auto result = std::make_shared<LessonResult>();
    result->lessonId = request.lessonId;
    const Lesson* lesson = findLesson(request.lessonId);
    try {
        if (!lesson) {
            result->notJudged = "no lesson named " + request.lessonId;
            out.message = QString::fromStdString(result->notJudged);
        } else {
            std::unique_ptr<Device> device;
            try {
                sink.beginJob(0, QObject::tr("opening the device"));
                device = createDevice(request.deviceSpec);
            } catch (const DeviceError& e) {
                result->notJudged = std::string("not run: ") + e.what();
                out.message = QString::fromStdString(result->notJudged);
            }
            if (device) {
                LessonSink forward(sink, jobCount(lesson->plan({}, request.options)));
                *result = runLesson(
                    *lesson, *device, forward, cancel,
                    [&forward](int index, int total, const std::string& title) { forward.jobStarted(index, total, title); },
                    request.options);
                out.ok = result->judged && result->outcome.ok();
                out.message = outcomeMessage(*lesson, *result);
            }
        }
    } catch (const std::bad_alloc&) {
        result->judged = false;
        result->notJudged = "out of host memory";
        out.message = QObject::tr("the lesson stopped: out of host memory");
    } catch (const std::exception& e) {
        result->judged = false;
        result->notJudged = std::string("stopped on an unexpected error: ") + e.what();
        out.message = QString::fromStdString(result->notJudged);
    }
    out.result = std::move(result);
    return out;
}

} // namespace ovs::ui
