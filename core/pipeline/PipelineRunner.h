#pragma once

#include "device/Device.h"
#include "pipeline/PageAlignedAllocator.h"
#include "pipeline/PipelineConfig.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"
#include "trace/Run.h"

#include <span>
#include <string>
#include <vector>

namespace ovs {

// Runs one pipeline on a device and returns its recorded run: generates the
// seed's input ((i % 257) * 0.25, so + 1.0 stays exact), runs the body with
// every op recorded, then verifies every output element exactly.
//
// Never throws for run-time trouble: impossible parameters, allocation
// failures, device errors and cancellation come back as a run whose status
// and error say what happened (with whatever ops were recorded before it).
// The sink sees runStarted, ops as they complete, and runFinished.
Run runPipeline(Device& device, const PipelineConfig& config, RecordSink& sink, const CancelFlag& cancel);

// ---- the parts runPipeline is made of, shared with runPipelineOnDevices ----
using PipelineData = std::vector<float, PageAlignedAllocator<float>>;
// The run's header (name, device, params) before anything ran.
Run pipelineHeader(const Device& device, const PipelineConfig& config);
// The header as a failed run that never started.
Run failedRun(Run header, std::string error);
// The seed's input ((i % 257) * 0.25) and a NaN-filled output for `config`;
// false when the host cannot hold them.
bool makePipelineData(const PipelineConfig& config, PipelineData& input, PipelineData& output);
// The body of `config` on `device`, over `input` and `output` (config.chunks
// chunks), recorded through `sink` (runStarted, lanes, ops; not
// runFinished). Verifies when `verify`. Never throws for run-time trouble.
Run runPipelineBody(Device& device, const PipelineConfig& config, RecordSink& sink, const CancelFlag& cancel,
                    std::span<const float> input, std::span<float> output, bool verify);

// Exact check of output == input + repeats; fills `verification`.
Verification verifyIncrement(std::span<const float> input, std::span<const float> output, int repeats);

} // namespace ovs
