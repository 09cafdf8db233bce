#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// The ways of moving the data through the GPU that a user can compare.
enum class PipelineKind : std::uint8_t {
    Serialized, // the seed's serialized path: pageable memory, a device buffer per chunk, synchronous copies
    Overlapped, // the seed's overlapped path: a ring of slots (stream + device buffer + pinned staging)
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

// The seed's defaults: 8 chunks x 32 MiB of f32, 3 slots, one increment.
struct PipelineConfig {
    PipelineKind kind = PipelineKind::Overlapped;
    int chunks = 8;
    std::uint64_t chunkBytes = 32ull << 20;
    int slotCount = 3; // not `slots`: Qt defines that word as a macro
    int kernelRepeats = 1;

    std::uint64_t chunkFloats() const { return chunkBytes / sizeof(float); }
    std::uint64_t totalBytes() const { return chunkBytes * static_cast<std::uint64_t>(chunks); }
};

// Empty when the parameters are possible; else a message saying which one is
// wrong and what the limits are.
std::string validate(const PipelineConfig& config);

} // namespace ovs
