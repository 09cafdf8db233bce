#include "pipeline/PipelineBody.h"

#include <memory>

namespace ovs {

void PipelineContext::beginChunk(int chunk) const
{
    cancel.throwIfCancelled();
    sink.progress(static_cast<double>(chunk) / config.chunks,
                  "chunk " + std::to_string(chunk + 1) + " of " + std::to_string(config.chunks));
    recorder.beginChunk(chunk);
}

// The seed's serialized path, step for step: nothing overlaps, every copy is
// synchronous and from pageable memory, and each chunk pays its own device
// allocation and free.
void runSerializedPipeline(const PipelineContext& ctx)
{
    Recorder& rec = ctx.recorder;
    Stream stream(rec.device());
    rec.addStreamLane(stream, "stream 0");
    const std::size_t n = ctx.config.chunkFloats();

    rec.markTimedBegin();
    for (int c = 0; c < ctx.config.chunks; ++c) {
        ctx.beginChunk(c);
        auto buffer = rec.allocateDevice<float>(n, c);

        CopyToken up = rec.upload(stream, buffer, ctx.inputChunk(c), HostMemoryKind::Pageable, c);
        rec.wait(up, c);
        rec.kernel(stream, buffer, ctx.config.kernelRepeats, c);

        // A fresh, uninitialized host vector, as the seed copies into a new Vec:
        // its pages are first touched by the copy.
        std::unique_ptr<float[]> back(new float[n]);
        rec.device().noteFreshHostMemory(back.get(), n * sizeof(float));
        CopyToken down = rec.download(stream, std::span<float>(back.get(), n), buffer, HostMemoryKind::Pageable, c);
        rec.wait(down, c);
        rec.hostCopy(OpKind::StageOut, ctx.outputChunk(c).data(), back.get(), n * sizeof(float),
                     HostMemoryKind::Pageable, c);
        rec.release(buffer, c, HostMemoryKind::None);
    }
    ctx.endChunks();
    rec.markTimedEnd();
}

} // namespace ovs
