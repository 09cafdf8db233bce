// pipeline: the pipelines run and their tables printed; the trace written
// only where -o asks for it.

#include "CancelledOutput.h"
#include "CliCommon.h"
#include "Commands.h"
#include "ExitStatus.h"
#include "JobRecording.h"

#include <cstdio>

namespace ovs::cli {

int commandPipeline(const CliArgs& args, CancelFlag& cancel)
{
    const std::string path = outputPath(args, false);
    JobList jobs;
    jobs.pipelines = pipelineConfigs(args); // usage errors before the device opens
    const DeviceSet devices = openDevices(args);
    Recording recording = record(args, devices, jobs, cancel);
    const bool keep = !path.empty() && cli::leavesOutputAsItWas(recording.trace, recording.outcome.cancelled, path);
    const int written = path.empty() || keep ? cli::kExitOk : writeTrace(recording.trace, path);
    makePrintable(recording.trace);
    report(recording.trace, whyNoEngineTiming(devices.at(0)));
    const int status = finish(recording.outcome, keep ? path : "");
    return status != cli::kExitOk ? status : written;
}

} // namespace ovs::cli
