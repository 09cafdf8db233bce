#pragma once

#include "pipeline/PipelineConfig.h"
#include "base/CancelFlag.h"
#include "record/Recorder.h"

#include <span>

namespace ovs {

// What every pipeline body gets: the recorder (which owns the device and the
// clock), its parameters, the user's input and output, and the cancel flag.
// A body adds its lanes, records every op through the recorder, marks the
// timed region, and leaves the device drained when it returns or throws.
struct PipelineContext {
    Recorder& recorder;
    const PipelineConfig& config;
    std::span<const float> input;
    std::span<float> output;
    const CancelFlag& cancel;
    RecordSink& sink;

    std::span<const float> inputChunk(int chunk) const { return input.subspan(offset(chunk), config.chunkFloats()); }
    std::span<float> outputChunk(int chunk) const { return output.subspan(offset(chunk), config.chunkFloats()); }
    // Checks the cancel flag, reports progress and opens the chunk's region
    // (Recorder::beginChunk) before each chunk.
    void beginChunk(int chunk) const;
    // After the loop has issued its last chunk, before it drains.
    void endChunks() const { recorder.endChunks(); }

private:
    std::size_t offset(int chunk) const { return static_cast<std::size_t>(chunk) * config.chunkFloats(); }
};

void runSerializedPipeline(const PipelineContext& context);
void runOverlappedPipeline(const PipelineContext& context);
// The strategies without staging (DirectPipelines.cpp).
void runRegisteredPipeline(const PipelineContext& context);
void runPinnedDataPipeline(const PipelineContext& context);
void runPageableAsyncPipeline(const PipelineContext& context);
void runPinnedOneStreamPipeline(const PipelineContext& context);

} // namespace ovs
