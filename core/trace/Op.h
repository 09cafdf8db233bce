#pragma once

#include "base/HostMemoryKind.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace ovs {

// What an op is. The order is part of nothing: formats use the names below.
enum class OpKind : std::uint8_t {
    Upload,   // host -> device copy (GPU lane)
    Kernel,   // increment kernel (GPU lane)
    Download, // device -> host copy (GPU lane)
    StageIn,  // host memcpy from the user's input into a staging buffer
    StageOut, // host memcpy from a staging/result buffer into the user's output
    HostWait, // host blocked waiting on an event or stream
    Alloc,    // device or pinned allocation
    Free,     // device or pinned free
    Sync,     // device/stream synchronization (joins, drains)
    Register, // cudaHostRegister / unregister of the user's memory
    // Format version 2: what profiled programs do beyond our pipelines.
    Memset,     // cudaMemset* on the device (GPU lane)
    DeviceCopy, // device -> device or peer copy (GPU lane)
    ApiCall,    // a CUDA runtime or driver call on a host thread, named by nameId
    // Format version 3: several GPUs on one host.
    PeerCopy, // device -> device copy between two GPUs (GPU lane of the issuing device; nameId says "GPU a -> GPU b")
    // Format version 5: CUPTI's unified-memory counters, on a device's
    // "unified memory" lane. One kind for all counters, named by nameId
    // ("HtoD migration", "GPU page faults", ...), so that the palette gains
    // one colour rather than six. `bytes` holds a migration's or thrashed
    // region's bytes, and a fault op's fault count (docs/trace-format.md).
    // Not a GPU op: the driver's work on behalf of kernels, not stream work,
    // so replay and the stream rules leave it alone.
    UnifiedMemory,
};
inline constexpr int kOpKindCount = 15;

enum class LaneKind : std::uint8_t { Stream, HostThread };

// One timed operation. Plain and compact (see the static_assert): a million of
// them is 56 MB. Times are integer ns from the run's start.
//
// startNs/endNs are what the recording method saw: for GPU ops, CUDA events,
// which mark when the *stream* reached a point (so they include time queued
// behind a busy engine). execStartNs/execEndNs, when known (>= 0), are when
// the engine actually ran the op (CUPTI activity records, or the simulator's
// engine model).
struct Op {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t execStartNs = -1;
    std::int64_t execEndNs = -1;
    std::uint64_t bytes = 0;
    std::int32_t chunk = -1; // -1: not tied to one chunk
    // Index into Run::names (kernel, API call); 0 is the empty name.
    std::uint32_t nameId = 0;
    // CUPTI correlation id joining an API call on a host lane to the GPU op
    // it enqueued; 0 = none.
    std::uint32_t correlation = 0;
    std::uint16_t lane = 0;  // index into Run::lanes
    OpKind kind = OpKind::Upload;
    HostMemoryKind memory = HostMemoryKind::None;

    std::int64_t durationNs() const { return endNs - startNs; }
    bool hasExec() const { return execStartNs >= 0 && execEndNs >= execStartNs; }
};
static_assert(sizeof(Op) == 56, "Op is kept compact; change the format docs if it grows");

const char* toString(OpKind kind);
std::optional<OpKind> opKindFromString(std::string_view name);
std::optional<HostMemoryKind> hostMemoryKindFromString(std::string_view name);
const char* toString(LaneKind kind);
std::optional<LaneKind> laneKindFromString(std::string_view name);
// GPU ops (copies, kernels, memsets) run on a stream; the rest are host-side.
bool isGpuOp(OpKind kind);
// What goes on a stream lane: GPU ops, and unified-memory ops on their lane.
bool isStreamLaneOp(OpKind kind);

} // namespace ovs
