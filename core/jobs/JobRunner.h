#pragma once

#include "device/Device.h"
#include "device/DeviceSet.h"
#include "jobs/JobList.h"
#include "jobs/JobOutcome.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"

#include <functional>
#include <string>

namespace ovs {

// Called on the working thread as each job starts: its index in the list
// (pipelines first, the sweep last) and its title ("overlapped pinned",
// "bandwidth sweep").
using JobStarted = std::function<void(int index, const std::string& title)>;

// Runs a request's jobs on `device`: every pipeline in order, then the sweep.
//
// The one cancel contract of the core: raising `cancel` at any point keeps
// every job that finished before it, in the sink, and ends the job in flight
// as a run or sweep marked Cancelled that holds what it recorded (it reaches
// the sink through runFinished / sweepFinished like any other); the jobs
// after it never start. Nothing the sink was given is taken back.
//
// Never throws for run-time trouble: a failed job (device error, bad
// parameters, no host memory) is recorded as failed and the next job still
// runs. Should anything else escape a job (the sink itself running out of
// memory), the jobs stop there and the outcome says so; what reached the
// sink before stays.
JobOutcome runJobs(Device& device, const JobList& jobs, RecordSink& sink, const CancelFlag& cancel,
                   const JobStarted& started = {});
// The same on several GPUs of one host: each pipeline spread over them
// (runPipelineOnDevices), the sweep on each device alone, one after the
// other. A set of one is runJobs on its device, with the set's note.
JobOutcome runJobs(const DeviceSet& devices, const JobList& jobs, RecordSink& sink, const CancelFlag& cancel,
                   const JobStarted& started = {});

} // namespace ovs
