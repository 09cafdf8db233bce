// record: the pipelines and the sweep run, the trace written, the tables
// printed.

#include "CancelledOutput.h"
#include "CliCommon.h"
#include "Commands.h"
#include "ExitStatus.h"
#include "JobRecording.h"

#include <cstdio>

namespace ovs::cli {

int commandRecord(const CliArgs& args, CancelFlag& cancel)
{
    const std::string path = outputPath(args, true);
    JobList jobs;
    jobs.pipelines = pipelineConfigs(args);
    if (!args.has("--no-bench"))
        jobs.sweep = benchConfig(args);
    const DeviceSet devices = openDevices(args);
    Recording recording = record(args, devices, jobs, cancel);
    if (jobs.sweep)
        peerMatrix(args, devices, *jobs.sweep, cancel, recording.trace, recording.outcome);
    const bool keep = cli::leavesOutputAsItWas(recording.trace, recording.outcome.cancelled, path);
    const int written = keep ? cli::kExitOk : writeTrace(recording.trace, path);
    makePrintable(recording.trace);
    report(recording.trace, whyNoEngineTiming(devices.at(0)));
    const int status = finish(recording.outcome, keep ? path : "");
    return status != cli::kExitOk ? status : written;
}

} // namespace ovs::cli
