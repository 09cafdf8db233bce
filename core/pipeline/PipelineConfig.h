#pragma once

#include "base/RunVariant.h"
#include "device/HostCopyPool.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// The ways of moving the data through the GPU that a user can compare.
enum class PipelineKind : std::uint8_t {
    Serialized, // the seed's serialized path: pageable memory, a device buffer per chunk, synchronous copies
    Overlapped, // the seed's overlapped path: a ring of slots (stream + device buffer + pinned staging)
    // Strategies without staging; copies go straight from and to the data.
    Registered,      // the user's buffers page-locked in place (cudaHostRegister), on rotating streams
    PinnedData,      // the data already lives in pinned memory, on rotating streams
    PageableAsync,   // cudaMemcpyAsync on the user's pageable buffers, on rotating streams
    PinnedOneStream, // as PinnedData, but every chunk on one stream
};

struct PipelineKindInfo {
    PipelineKind kind;
    const char* id;          // "serialized"
    const char* title;       // "serialized pageable"
    const char* description; // one sentence for --help and the GUI
};
const std::vector<PipelineKindInfo>& pipelineKinds();
const PipelineKindInfo& pipelineKindInfo(PipelineKind kind);
std::optional<PipelineKind> pipelineKindFromId(const std::string& id);
// The pipelines a list of ids names: "all" alone is every pipeline, in
// pipelineKinds() order. An unknown id leaves `error` saying which, with the
// known ones, and answers nothing.
std::optional<std::vector<PipelineKind>> pipelineKindsFromIds(const std::vector<std::string>& ids, std::string* error);

// The limits validate() holds a configuration to: every front end takes its
// ranges from here.
inline constexpr int kMaxChunks = 1'000'000;
inline constexpr std::uint64_t kMaxChunkBytes = 16ull << 30;
inline constexpr int kMaxSlots = 64;
inline constexpr int kMaxKernelRepeats = 100'000;
inline constexpr int kMaxStagingThreads = HostCopyPool::kMaxThreads;
// A run may take this share of the host memory available when it starts.
inline constexpr std::uint64_t kHostMemoryUsablePercent = 80;

// The seed's defaults: 8 chunks x 32 MiB of f32, 3 slots, one increment.
struct PipelineConfig {
    PipelineKind kind = PipelineKind::Overlapped;
    int chunks = 8;
    std::uint64_t chunkBytes = 32ull << 20;
    int slotCount = 3; // not `slots`: Qt defines that word as a macro
    int kernelRepeats = 1;
    // Host threads that share each staging copy of the overlapped path.
    int stagingThreads = 1;
    // Off: record only the wall time (no per-op events, engine records or
    // ops), to measure what recording costs (see Recorder).
    bool opTiming = true;

    // Variants of the rotating-stream strategies (registered, pinned-data,
    // pageable-async, pinned-one-stream) that the lessons compare; the
    // defaults are what those strategies always did. validate() refuses them
    // on the serialized and overlapped paths.
    IssueOrder issueOrder = IssueOrder::DepthFirst;
    StreamSync streamSync = StreamSync::NonBlocking;
    DefaultStreamOp defaultStreamOp = DefaultStreamOp::None;
    LoopAllocation loopAllocation = LoopAllocation::None;

    bool hasVariant() const
    {
        return issueOrder != IssueOrder::DepthFirst || streamSync != StreamSync::NonBlocking
               || defaultStreamOp != DefaultStreamOp::None || loopAllocation != LoopAllocation::None;
    }

    std::uint64_t chunkFloats() const { return chunkBytes / sizeof(float); }
    std::uint64_t totalBytes() const { return chunkBytes * static_cast<std::uint64_t>(chunks); }
};

// Empty when the parameters are possible; else a message saying which one is
// wrong and what the limits are.
std::string validate(const PipelineConfig& config);

// True for the strategies that rotate chunks over streams without staging,
// the ones the variants apply to.
bool takesVariants(PipelineKind kind);

// The run's name: the kind's title, plus the staging threads and the
// variants where they apply ("data already pinned, breadth-first").
std::string pipelineTitle(const PipelineConfig& config);
// Streams the run uses: one for the serialized path and pinned-one-stream,
// else one per slot.
int pipelineStreamCount(const PipelineConfig& config);

} // namespace ovs
