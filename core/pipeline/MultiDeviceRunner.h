#pragma once

#include "device/DeviceSet.h"
#include "pipeline/PipelineConfig.h"
#include "base/CancelFlag.h"
#include "record/RecordSink.h"
#include "trace/Run.h"

namespace ovs {

// Runs one pipeline spread over several GPUs of one host and returns one
// merged run. The chunks are split into contiguous ranges, one per device
// (the remainder one each to the first devices); each device runs the
// unchanged pipeline body (runPipelineBody) over its range on a host thread
// of its own, with its own streams, slots, staging buffers and staging
// threads, all started together.
//
// The merged run: device 0 in Run::device, the others in Run::moreDevices;
// stream lanes named "GPU 1 · stream 2" with Lane::device set, device by
// device, then the host lanes ("host · GPU 1", "staging 2 · GPU 1") apart; chunk numbers global; every time on one time base
// (each part's zero aligned to the common start on the host clock, which
// CUDA devices share for real and simulated ones share virtually). Every
// element of every part is verified, and the message says so per device.
// Cancel and failures follow runPipeline: what finished is kept, the status
// and error say which device stopped and why.
//
// A set of one runs runPipeline, adding the set's note to the device detail.
Run runPipelineOnDevices(const DeviceSet& devices, const PipelineConfig& config, RecordSink& sink,
                         const CancelFlag& cancel);

// The chunks device `index` of `count` takes: [first, first + count).
struct ChunkRange {
    int first = 0;
    int count = 0;
};
ChunkRange chunkRangeOf(int chunks, int devices, int index);

} // namespace ovs
