#include "lessons/LessonRunner.h"

#include "devicefactory/DeviceFactory.h"
#include "lessons/LessonKit.h"
#include "record/TraceCollector.h"

#include <algorithm>
#include <memory>

namespace ovs {

namespace {

void merge(JobOutcome& into, const JobOutcome& part)
{
    into.runsRequested += part.runsRequested;
    into.runsCompleted += part.runsCompleted;
    into.runsVerified += part.runsVerified;
    into.runsUnverified += part.runsUnverified;
    into.runsFailed += part.runsFailed;
    into.sweepRequested = into.sweepRequested || part.sweepRequested;
    if (part.sweepCells >= 0)
        into.sweepCells = std::max(into.sweepCells, 0) + part.sweepCells;
    into.sweepFailed = into.sweepFailed || part.sweepFailed;
    into.cancelled = into.cancelled || part.cancelled;
    into.problems.insert(into.problems.end(), part.problems.begin(), part.problems.end());
}

// Runs the steps in order, each on its own device, one job at a time so
// each result is known to belong to its step. Stops at a cancel.
struct StepRunner {
    Device& device;
    RecordSink& sink;
    const CancelFlag& cancel;
    const LessonJobStarted& started;
    int total = 0;
    int index = 0;
    JobOutcome outcome;
    std::map<std::string, std::unique_ptr<Device>> others;

    Device* deviceFor(const LessonStep& step)
    {
        if (step.deviceSpec.empty())
            return &device;
        auto& made = others[step.deviceSpec];
        if (!made) {
            try {
                made = createDevice(step.deviceSpec);
            } catch (const DeviceError& e) {
                outcome.problems.push_back(step.caption + ": cannot make device " + step.deviceSpec + ": " + e.what());
                return nullptr;
            }
        }
        return made.get();
    }

    // Runs the step, adding what it recorded to `runs`, `sweeps` or
    // `plainRuns` (those given). False when it did not go to plan: a device
    // that cannot be made, a cancel, a failed or unverified job.
    bool run(const LessonStep& step, std::vector<LessonRunResult>* runs, std::vector<LessonSweepResult>* sweeps,
             std::vector<Run>* plainRuns)
    {
        if (cancel.isCancelled()) {
            outcome.cancelled = true;
            return false;
        }
        Device* on = deviceFor(step);
        if (!on)
            return false;
        JobList jobs;
        if (step.pipeline)
            jobs.pipelines.push_back(*step.pipeline);
        if (step.sweep)
            jobs.sweep = step.sweep;
        TraceCollector collector(&sink);
        const int at = index;
        const JobOutcome part = runJobs(*on, jobs, collector, cancel, [&](int i, const std::string& title) {
            if (started)
                started(at + i, total, step.caption.empty() ? title : step.caption);
        });
        index += jobs.count();
        merge(outcome, part);
        for (const Run& r : collector.trace().runs) {
            if (plainRuns)
                plainRuns->push_back(r);
            if (runs)
                runs->push_back({step.id, step.caption, r, {}});
        }
        for (const BandwidthSweep& s : collector.trace().sweeps)
            if (sweeps)
                sweeps->push_back({step.id, step.caption, s});
        return part.ok();
    }
};

int jobCount(const std::vector<LessonStep>& steps)
{
    int count = 0;
    for (const auto& step : steps)
        count += (step.pipeline ? 1 : 0) + (step.sweep ? 1 : 0);
    return count;
}

} // namespace

int LessonResult::checksHeld() const
{
    return static_cast<int>(std::count_if(verdict.checks.begin(), verdict.checks.end(),
                                          [](const LessonCheck& c) { return c.held; }));
}

LessonResult runLesson(const Lesson& lesson, Device& device, RecordSink& sink, const CancelFlag& cancel,
                       const LessonJobStarted& started, const LessonOptions& options)
{
    LessonResult result;
    result.lessonId = lesson.id;
    result.device = device.info();
    // The planned steps are known only after calibration; until then the
    // total counts the calibration and a plan made from no calibration.
    const std::vector<Run> none;
    StepRunner runner{device, sink, cancel, started, 0, 0, {}, {}};
    std::vector<LessonStep> calibration;
    if (lesson.calibrate)
        calibration.push_back(lessonkit::calibrationStep(options.chunkBytes));
    runner.total = jobCount(calibration) + jobCount(lesson.plan(none, options));

    bool ok = true;
    for (const auto& step : calibration)
        ok = runner.run(step, nullptr, nullptr, &result.calibration) && ok;
    if (ok && !runner.outcome.cancelled) {
        const auto steps = lesson.plan(result.calibration, options);
        runner.total = runner.index + jobCount(steps);
        for (const auto& step : steps) {
            if (!runner.run(step, &result.measured.runs, &result.measured.sweeps, nullptr) && runner.outcome.cancelled)
                break;
        }
    }
    result.outcome = runner.outcome;
    judgeLesson(lesson, result);
    return result;
}

namespace {

// "{line_<step>}" for each run: the line of the pipeline that its costliest
// finding's calls came from (Recorder::at records it), as " (the call at
// core/pipeline/DirectPipelines.cpp:57, in runPageableAsync)"; empty where
// no finding names one (a trace recorded before call sites), so that a
// takeaway reads whole either way.
void addCallLines(const LessonMeasurements& measured, std::map<std::string, std::string>& values)
{
    for (const LessonRunResult& r : measured.runs) {
        const Finding* top = nullptr;
        for (const Finding& f : r.analysis.findings.findings)
            if (f.kind != FindingKind::Bound && !f.sources.empty() && (!top || f.costNs > top->costNs))
                top = &f;
        std::string& value = values["line_" + r.stepId];
        if (top) {
            const FindingSource& site = top->sources.front();
            value = " (the call at " + site.file + ":" + std::to_string(site.line) + ", in " + site.function + ")";
        }
    }
}

} // namespace

void judgeLesson(const Lesson& lesson, LessonResult& result)
{
    // Analysis per run, with the sweeps of the lesson (rates of the same
    // device come from there) and the serialized baseline where it ran one.
    std::vector<BandwidthSweep> sweeps;
    for (const auto& s : result.measured.sweeps)
        sweeps.push_back(s.sweep);
    std::vector<Run> runs;
    for (const auto& r : result.measured.runs)
        runs.push_back(r.run);
    for (auto& r : result.measured.runs)
        r.analysis = analyzeRun(r.run, sweeps, findSerializedBaseline(runs, r.run));

    result.judged = false;
    if (result.outcome.cancelled) {
        result.notJudged = "not judged: the lesson was cancelled";
    } else if (!result.outcome.problems.empty()) {
        result.notJudged = "not judged: " + result.outcome.problems.front();
    } else if (result.measured.runs.empty() && result.measured.sweeps.empty()) {
        result.notJudged = "not judged: nothing ran";
    } else {
        result.verdict = lesson.judge(result.measured);
        addCallLines(result.measured, result.verdict.values);
        result.takeaway = fillTakeaway(lesson.takeaway, result.verdict.values);
        result.judged = true;
    }
    result.focus = resolveFocus(lesson.focus, result.measured);
}

namespace {

std::string planned(const PipelineConfig& c)
{
    return std::to_string(c.chunks) + " x " + lessonkit::mib(c.chunkBytes);
}

} // namespace

std::optional<LessonResult> lessonFromTrace(const Lesson& lesson, const Trace& trace, const LessonOptions& options,
                                            std::string* error)
{
    auto fail = [&](const std::string& why) -> std::optional<LessonResult> {
        if (error)
            *error = "the trace does not hold lesson " + lesson.id + "'s runs: " + why;
        return std::nullopt;
    };
    LessonResult result;
    result.lessonId = lesson.id;
    std::size_t nextRun = 0, nextSweep = 0;
    std::string problem;
    auto takeRun = [&](const PipelineConfig& config, const std::string& caption) -> const Run* {
        if (nextRun >= trace.runs.size()) {
            problem = "it ends before " + caption;
            return nullptr;
        }
        const Run& run = trace.runs[nextRun++];
        // The run the plan made, not another: its chunks as planned.
        if (run.params.chunks != config.chunks || run.params.chunkBytes != config.chunkBytes) {
            problem = "run " + std::to_string(nextRun) + " has " + std::to_string(run.params.chunks) + " x " +
                      lessonkit::mib(run.params.chunkBytes) + " where the lesson plans " + planned(config) + " (" +
                      caption + "); was it recorded with another --chunk-mib?";
            return nullptr;
        }
        return &run;
    };
    if (lesson.calibrate) {
        const LessonStep step = lessonkit::calibrationStep(options.chunkBytes);
        const Run* run = takeRun(*step.pipeline, step.caption);
        if (!run)
            return fail(problem);
        result.calibration.push_back(*run);
        result.device = run->device;
    }
    for (const LessonStep& step : lesson.plan(result.calibration, options)) {
        if (step.pipeline) {
            const Run* run = takeRun(*step.pipeline, step.caption);
            if (!run)
                return fail(problem);
            result.measured.runs.push_back({step.id, step.caption, *run, {}});
            if (step.deviceSpec.empty() && result.device.name.empty())
                result.device = run->device;
        }
        if (step.sweep) {
            if (nextSweep >= trace.sweeps.size())
                return fail("no sweep for " + step.caption);
            result.measured.sweeps.push_back({step.id, step.caption, trace.sweeps[nextSweep++]});
            if (step.deviceSpec.empty() && result.device.name.empty())
                result.device = trace.sweeps[nextSweep - 1].device;
        }
    }
    if (nextRun != trace.runs.size() || nextSweep != trace.sweeps.size())
        return fail("it holds more runs or sweeps than the lesson makes");
    // Each run as it ended; the job runner's bookkeeping, rebuilt.
    for (const auto& r : result.measured.runs) {
        ++result.outcome.runsRequested;
        if (r.run.status == RunStatus::Completed) {
            ++result.outcome.runsCompleted;
            if (r.run.verification.checked && !r.run.verification.passed)
                ++result.outcome.runsUnverified;
            else if (r.run.verification.passed)
                ++result.outcome.runsVerified;
        } else if (r.run.status == RunStatus::Cancelled) {
            result.outcome.cancelled = true;
        } else {
            ++result.outcome.runsFailed;
            result.outcome.problems.push_back(r.caption + ": " + (r.run.error.empty() ? "failed" : r.run.error));
        }
    }
    if (result.outcome.runsUnverified > 0 && result.outcome.problems.empty())
        result.outcome.problems.push_back("a run's output did not verify");
    judgeLesson(lesson, result);
    return result;
}

} // namespace ovs
