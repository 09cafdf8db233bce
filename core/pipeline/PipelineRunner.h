#pragma once

#include "device/Device.h"
#include "pipeline/PipelineConfig.h"
#include "record/CancelFlag.h"
#include "record/RecordSink.h"
#include "trace/Run.h"

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

// Exact check of output == input + repeats; fills `verification`.
Verification verifyIncrement(std::span<const float> input, std::span<const float> output, int repeats);

} // namespace ovs
