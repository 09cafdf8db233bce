#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// The variants of the rotating-stream strategies that the lessons compare
// (issue order, the legacy default stream, allocation in the loop). The
// pipeline configures them, the device layer honours the stream kinds, and
// the trace stores them with the run: all three speak of them, so they sit
// below all three. Each has a stable id, used in traces and on the command
// line, and the first value is what every run did before the variants
// existed (a trace without them reads as that).

// In which order the host enqueues a round of chunks, one per stream.
enum class IssueOrder : std::uint8_t {
    DepthFirst,   // per chunk: upload, kernel, download
    BreadthFirst, // every upload of the round, then every kernel, then every download
};

// What the pipeline's own streams are to the legacy default stream.
enum class StreamSync : std::uint8_t {
    NonBlocking, // cudaStreamNonBlocking: never synchronize with the legacy default stream
    Blocking,    // cudaStreamCreate's default: an op on the legacy default stream waits for them and they for it
};

// A tiny kernel the loop launches once per chunk on a default stream.
enum class DefaultStreamOp : std::uint8_t {
    None,
    Legacy,    // on the legacy default stream (cudaStreamLegacy, "stream 0")
    PerThread, // on the per-thread default stream (cudaStreamPerThread, --default-stream per-thread)
};

// Allocation the loop does per chunk, inside the timed region.
enum class LoopAllocation : std::uint8_t {
    None,       // device buffers allocated once, before the loop
    Malloc,     // cudaMalloc of each chunk's device buffer in the loop; all freed after it
    MallocFree, // as Malloc, and the stream's previous chunk buffer is cudaFree'd before each cudaMalloc
};

const char* toString(IssueOrder order);         // "depth-first", "breadth-first"
const char* toString(StreamSync sync);          // "non-blocking", "blocking"
const char* toString(DefaultStreamOp op);       // "none", "legacy", "per-thread"
const char* toString(LoopAllocation allocation); // "none", "malloc", "malloc-free"

std::optional<IssueOrder> issueOrderFromId(std::string_view id);
std::optional<StreamSync> streamSyncFromId(std::string_view id);
std::optional<DefaultStreamOp> defaultStreamOpFromId(std::string_view id);
std::optional<LoopAllocation> loopAllocationFromId(std::string_view id);

// The ids each takes, comma-separated, for messages and --help.
std::string issueOrderIds();
std::string streamSyncIds();
std::string defaultStreamOpIds();
std::string loopAllocationIds();

} // namespace ovs
