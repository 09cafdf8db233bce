// bench: the transfer bandwidth sweep on each device (and the peer matrix
// of several), printed.

#include "CliCommon.h"
#include "Commands.h"
#include "ConsoleReport.h"
#include "JobRecording.h"

#include "base/Printable.h"

#include <cstdio>

namespace ovs::cli {

int commandBench(const CliArgs& args, CancelFlag& cancel)
{
    JobList jobs;
    jobs.sweep = benchConfig(args);
    const DeviceSet devices = openDevices(args);
    for (int d = 0; d < devices.size(); ++d) {
        DeviceInfo info = devices.at(d).info();
        info.name = printable(info.name);
        info.detail = printable(info.detail);
        cli::printDeviceLine(stdout, info, info.simulated ? "simulated" : "cuda-events");
    }
    Recording recording = record(args, devices, jobs, cancel);
    makePrintable(recording.trace);
    for (const auto& sweep : recording.trace.sweeps)
        cli::printBandwidthTable(stdout, sweep);
    peerMatrix(args, devices, *jobs.sweep, cancel, recording.trace, recording.outcome);
    return finish(recording.outcome);
}

} // namespace ovs::cli
