#pragma once

// What bench, pipeline and record share: their jobs read from the options,
// run on the devices with progress on stderr, the tables they print and the
// peer-to-peer matrix of several GPUs. One file per command holds each.

#include "CliArgs.h"

#include "base/CancelFlag.h"
#include "bench/BandwidthBench.h"
#include "device/DeviceSet.h"
#include "jobs/JobList.h"
#include "jobs/JobOutcome.h"
#include "pipeline/PipelineConfig.h"
#include "trace/Trace.h"

#include <string>
#include <vector>

namespace ovs::cli {

// The pipelines --pipelines names, each with the options' chunks, slots and
// variants; a UsageError where they do not read or do not fit.
std::vector<PipelineConfig> pipelineConfigs(const CliArgs& args);
// The sweep --sizes, --warmups and --samples ask for.
BenchConfig benchConfig(const CliArgs& args);

// What a recording came to: the trace (every run and sweep recorded, the
// cancelled or failed ones included) and how the jobs went.
struct Recording {
    Trace trace;
    JobOutcome outcome;
};
// Runs `jobs` on `devices`, each job's title on stderr unless --quiet.
Recording record(const CliArgs& args, const DeviceSet& devices, const JobList& jobs, CancelFlag& cancel);

// Why `device` gives event times only; empty when it reports engine intervals.
std::string whyNoEngineTiming(const Device& device);
// The device line, the pipeline, op count and analysis tables, the sweeps.
void report(const Trace& trace, const std::string& whyNoEngine = {});

// With a multi-device spec, the peer-to-peer matrix after the sweeps (at
// the sweep's largest size), printed and added to the trace as a run of
// peer copies; a set of one says why there is none.
void peerMatrix(const CliArgs& args, const DeviceSet& devices, const BenchConfig& config, CancelFlag& cancel,
                Trace& trace, JobOutcome& outcome);

} // namespace ovs::cli
