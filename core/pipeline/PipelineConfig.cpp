#include "pipeline/PipelineConfig.h"

#include "base/Printable.h"

#include "base/HostMemory.h"

namespace ovs {

const std::vector<PipelineKindInfo>& pipelineKinds()
{
    static const std::vector<PipelineKindInfo> kinds = {
        {PipelineKind::Serialized, "serialized", "serialized pageable",
         "the seed's serialized path: per chunk, allocate a device buffer, copy from pageable memory, run the "
         "kernel, copy back into a new host vector, copy into the output, free"},
        {PipelineKind::Overlapped, "overlapped", "overlapped pinned",
         "the seed's overlapped path: slots of stream + device buffer + pinned staging buffer; the host stages "
         "each chunk into pinned memory (with one or more staging threads) and waits on a slot's event before "
         "reusing it"},
        {PipelineKind::Registered, "registered", "registered host memory",
         "no staging: the user's input and output are page-locked in place with cudaHostRegister (its cost timed "
         "and shown), then every chunk is copied straight from and to them on rotating streams"},
        {PipelineKind::PinnedData, "pinned-data", "data already pinned",
         "no staging: the input and output already live in pinned memory (put there before the timer starts), "
         "and every chunk is copied straight from and to them on rotating streams"},
        {PipelineKind::PageableAsync, "pageable-async", "pageable async",
         "no staging by the program: cudaMemcpyAsync straight from and to the user's pageable memory on rotating "
         "streams, which the driver stages with the calling thread, so each copy blocks the host"},
        {PipelineKind::PinnedOneStream, "pinned-one-stream", "pinned, one stream",
         "as data already pinned, but every chunk on one stream, so no copy or kernel of one chunk overlaps "
         "another's"},
    };
    return kinds;
}

const PipelineKindInfo& pipelineKindInfo(PipelineKind kind)
{
    for (const auto& info : pipelineKinds())
        if (info.kind == kind)
            return info;
    return pipelineKinds().front();
}

std::optional<PipelineKind> pipelineKindFromId(const std::string& id)
{
    for (const auto& info : pipelineKinds())
        if (id == info.id)
            return info.kind;
    return std::nullopt;
}

std::optional<std::vector<PipelineKind>> pipelineKindsFromIds(const std::vector<std::string>& ids, std::string* error)
{
    std::vector<PipelineKind> kinds;
    if (ids == std::vector<std::string>{"all"}) {
        for (const auto& info : pipelineKinds())
            kinds.push_back(info.kind);
        return kinds;
    }
    for (const auto& id : ids) {
        const auto kind = pipelineKindFromId(id);
        if (!kind) {
            if (error) {
                std::string known;
                for (const auto& info : pipelineKinds())
                    known += std::string(known.empty() ? "" : ", ") + info.id;
                *error = "unknown pipeline '" + echoed(id) + "' (known: " + known + ", or all)";
            }
            return std::nullopt;
        }
        kinds.push_back(*kind);
    }
    return kinds;
}

std::string validate(const PipelineConfig& c)
{
    if (c.chunks < 1 || c.chunks > kMaxChunks)
        return "chunk count must be between 1 and " + std::to_string(kMaxChunks) + " (got " + std::to_string(c.chunks)
               + ")";
    if (c.chunkBytes < sizeof(float) || c.chunkBytes % sizeof(float) != 0)
        return "chunk size must be a positive multiple of 4 bytes (one f32), got " + std::to_string(c.chunkBytes);
    if (c.chunkBytes > kMaxChunkBytes)
        return "chunk size must be at most " + std::to_string(kMaxChunkBytes >> 30) + " GiB (got "
               + std::to_string(c.chunkBytes) + " bytes)";
    if (c.slotCount < 1 || c.slotCount > kMaxSlots)
        return "slot count must be between 1 and " + std::to_string(kMaxSlots) + " (got " + std::to_string(c.slotCount)
               + ")";
    if (c.kernelRepeats < 1 || c.kernelRepeats > kMaxKernelRepeats)
        return "kernel repeats must be between 1 and " + std::to_string(kMaxKernelRepeats) + " (got "
               + std::to_string(c.kernelRepeats) + ")";
    if (c.stagingThreads < 1 || c.stagingThreads > kMaxStagingThreads)
        return "staging threads must be between 1 and " + std::to_string(kMaxStagingThreads) + " (got "
               + std::to_string(c.stagingThreads) + ")";
    if (c.totalBytes() / c.chunkBytes != static_cast<std::uint64_t>(c.chunks))
        return "chunk count x chunk size overflows";
    if (c.hasVariant() && !takesVariants(c.kind))
        return std::string("issue order, blocking streams, a default-stream op and allocation in the loop apply to "
                           "the registered, pinned-data, pageable-async and pinned-one-stream strategies, not to ")
               + pipelineKindInfo(c.kind).id;
    // Input and output live in host memory; refuse what cannot fit rather than
    // let the kernel's OOM killer end the program mid-run. What counts is
    // what is available now, not what the machine has; the headroom leaves
    // room for the staging and device buffers (host memory too, on the
    // simulator) and for everything else running.
    // Data already pinned keeps a pinned copy of both beside the user's vectors.
    const bool pinnedCopies = c.kind == PipelineKind::PinnedData || c.kind == PipelineKind::PinnedOneStream;
    const std::uint64_t hostBytes = (pinnedCopies ? 4 : 2) * c.totalBytes();
    const std::uint64_t available = availableHostMemoryBytes();
    if (available > 0 && hostBytes > available / 100 * kHostMemoryUsablePercent)
        return std::string(pinnedCopies ? "input and output, with their pinned copies, need " : "input and output need ")
               + std::to_string(hostBytes >> 20) + " MiB of host memory, more than "
               + std::to_string(kHostMemoryUsablePercent) + "% of the " + std::to_string(available >> 20)
               + " MiB available now; use fewer or smaller chunks";
    return {};
}

bool takesVariants(PipelineKind kind)
{
    return kind == PipelineKind::Registered || kind == PipelineKind::PinnedData || kind == PipelineKind::PageableAsync
           || kind == PipelineKind::PinnedOneStream;
}

std::string pipelineTitle(const PipelineConfig& config)
{
    std::string title = pipelineKindInfo(config.kind).title;
    if (config.kind == PipelineKind::Overlapped && config.stagingThreads > 1)
        title += ", " + std::to_string(config.stagingThreads) + " staging threads";
    if (config.issueOrder == IssueOrder::BreadthFirst)
        title += ", breadth-first";
    if (config.streamSync == StreamSync::Blocking)
        title += ", blocking streams";
    switch (config.defaultStreamOp) {
    case DefaultStreamOp::None: break;
    case DefaultStreamOp::Legacy: title += ", kernel on legacy default stream"; break;
    case DefaultStreamOp::PerThread: title += ", kernel on per-thread default stream"; break;
    }
    switch (config.loopAllocation) {
    case LoopAllocation::None: break;
    case LoopAllocation::Malloc: title += ", cudaMalloc in loop"; break;
    case LoopAllocation::MallocFree: title += ", cudaMalloc+cudaFree in loop"; break;
    }
    return title;
}

int pipelineStreamCount(const PipelineConfig& config)
{
    switch (config.kind) {
    case PipelineKind::Serialized:
    case PipelineKind::PinnedOneStream: return 1;
    case PipelineKind::Overlapped:
    case PipelineKind::Registered:
    case PipelineKind::PinnedData:
    case PipelineKind::PageableAsync: return config.slotCount;
    }
    return config.slotCount;
}

} // namespace ovs
