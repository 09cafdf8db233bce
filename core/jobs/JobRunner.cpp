#include "jobs/JobRunner.h"

#include "pipeline/MultiDeviceRunner.h"
#include "pipeline/PipelineRunner.h"

#include <exception>

namespace ovs {
namespace {

void countRun(JobOutcome& outcome, const Run& run)
{
    switch (run.status) {
    case RunStatus::Completed:
        ++outcome.runsCompleted;
        if (run.verification.passed) {
            ++outcome.runsVerified;
        } else {
            ++outcome.runsUnverified;
            outcome.problems.push_back(run.name + " did not verify: " + run.verification.message);
        }
        break;
    case RunStatus::Cancelled: outcome.cancelled = true; break;
    case RunStatus::Failed:
        ++outcome.runsFailed;
        outcome.problems.push_back(run.name + " failed: " + run.error);
        break;
    }
}

void countSweep(JobOutcome& outcome, const BandwidthSweep& sweep)
{
    outcome.sweepCells = static_cast<int>(sweep.points.size());
    switch (sweep.status) {
    case RunStatus::Completed: break;
    case RunStatus::Cancelled: outcome.cancelled = true; break;
    case RunStatus::Failed:
        outcome.sweepFailed = true;
        outcome.problems.push_back("bandwidth sweep failed: " + sweep.error);
        break;
    }
}

template <typename RunOne, typename SweepAll>
JobOutcome runJobsWith(const JobList& jobs, const CancelFlag& cancel, const JobStarted& started, RunOne runOne,
                       SweepAll sweepAll)
{
    JobOutcome outcome;
    outcome.runsRequested = static_cast<int>(jobs.pipelines.size());
    outcome.sweepRequested = jobs.sweep.has_value();
    int index = 0;
    std::string title;
    try {
        for (const auto& config : jobs.pipelines) {
            if (cancel.isCancelled()) {
                outcome.cancelled = true;
                return outcome;
            }
            title = pipelineTitle(config);
            if (started)
                started(index, title);
            ++index;
            countRun(outcome, runOne(config));
        }
        if (jobs.sweep) {
            if (cancel.isCancelled()) {
                outcome.cancelled = true;
                return outcome;
            }
            title = "bandwidth sweep";
            if (started)
                started(index, title);
            for (const auto& sweep : sweepAll(*jobs.sweep))
                countSweep(outcome, sweep);
        }
    } catch (const std::bad_alloc&) {
        outcome.problems.push_back(title + " stopped: out of host memory");
    } catch (const std::exception& e) {
        outcome.problems.push_back(title + " stopped on an unexpected error: " + e.what());
    }
    return outcome;
}

} // namespace

JobOutcome runJobs(Device& device, const JobList& jobs, RecordSink& sink, const CancelFlag& cancel,
                   const JobStarted& started)
{
    return runJobsWith(
        jobs, cancel, started, [&](const PipelineConfig& config) { return runPipeline(device, config, sink, cancel); },
        [&](const BenchConfig& config) { return std::vector{runBandwidthSweep(device, config, sink, cancel)}; });
}

JobOutcome runJobs(const DeviceSet& devices, const JobList& jobs, RecordSink& sink, const CancelFlag& cancel,
                   const JobStarted& started)
{
    return runJobsWith(
        jobs, cancel, started,
        [&](const PipelineConfig& config) { return runPipelineOnDevices(devices, config, sink, cancel); },
        [&](const BenchConfig& config) {
            // Each device alone, one after the other.
            std::vector<BandwidthSweep> sweeps;
            for (int d = 0; d < devices.size(); ++d) {
                sweeps.push_back(runBandwidthSweep(devices.at(d), config, sink, cancel));
                if (sweeps.back().status != RunStatus::Completed)
                    break;
            }
            return sweeps;
        });
}

} // namespace ovs
