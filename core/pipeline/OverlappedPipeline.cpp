#include "pipeline/PipelineBody.h"

#include <vector>

namespace ovs {

namespace {
// One slot of the ring: a stream with its own device buffer, pinned staging
// buffer and the token of the last download, which protects host-side reuse.
struct Slot {
    Stream stream;
    DeviceBuffer<float> device;
    PinnedHostBuffer<float> staging;
    CopyToken upload;
    CopyToken download;
    int chunk = -1; // chunk whose result the slot holds, -1 if none
};
} // namespace

// The seed's overlapped path, with its staging copies optionally shared by
// several host threads. Device and staging buffers are allocated before the
// timer starts (recorded, but outside the timed region); host staging copies,
// event waits and result copies are inside it.
void runOverlappedPipeline(const PipelineContext& ctx)
{
    Recorder& rec = ctx.recorder;
    Device& device = rec.device();
    const std::size_t n = ctx.config.chunkFloats();
    const std::size_t bytes = n * sizeof(float);

    const int threads = ctx.config.stagingThreads;
    // One thread stages on the host lane, as the seed does; several each get
    // a lane of their own, placed before the streams.
    auto stage = [&](OpKind kind, void* dst, const void* src, int chunk) {
        if (threads > 1)
            rec.hostCopyParallel(kind, dst, src, bytes, threads, HostMemoryKind::Pinned, chunk);
        else
            rec.hostCopy(kind, dst, src, bytes, HostMemoryKind::Pinned, chunk);
    };
    if (threads > 1)
        rec.ensureStagingLanes(threads);

    std::vector<Slot> slots;
    slots.reserve(static_cast<std::size_t>(ctx.config.slotCount));
    for (int s = 0; s < ctx.config.slotCount; ++s) {
        Stream stream(device);
        rec.addStreamLane(stream, "stream " + std::to_string(s));
        auto deviceBuffer = rec.allocateDevice<float>(n, -1);
        auto staging = rec.allocatePinned<float>(n, -1);
        slots.push_back({std::move(stream), std::move(deviceBuffer), std::move(staging), {}, {}, -1});
    }

    // Before reusing a slot (or at the end), wait for its download and copy
    // the result out of staging.
    auto drainSlot = [&](Slot& slot) {
        if (slot.chunk < 0)
            return;
        rec.wait(slot.download, slot.chunk);
        slot.upload.wait(); // already complete: the download came after it on the same stream
        stage(OpKind::StageOut, ctx.outputChunk(slot.chunk).data(), slot.staging.span().data(), slot.chunk);
        slot.chunk = -1;
    };

    rec.markTimedBegin();
    for (int c = 0; c < ctx.config.chunks; ++c) {
        ctx.beginChunk(c);
        Slot& slot = slots[static_cast<std::size_t>(c % ctx.config.slotCount)];
        drainSlot(slot);
        stage(OpKind::StageIn, slot.staging.span().data(), ctx.inputChunk(c).data(), c);
        slot.upload = rec.upload(slot.stream, slot.device, slot.staging, c);
        rec.kernel(slot.stream, slot.device, ctx.config.kernelRepeats, c);
        slot.download = rec.download(slot.stream, slot.staging, slot.device, c);
        slot.chunk = c;
    }
    ctx.endChunks();
    // Results in chunk order: the slot holding the oldest chunk first.
    for (int k = 0; k < ctx.config.slotCount; ++k) {
        const int c = ctx.config.chunks + k;
        drainSlot(slots[static_cast<std::size_t>(c % ctx.config.slotCount)]);
    }
    for (auto& slot : slots)
        rec.synchronize(slot.stream);
    rec.markTimedEnd();
}

} // namespace ovs
