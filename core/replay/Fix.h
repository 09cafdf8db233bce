#pragma once

// The fixes the replay knows, each a transform of a run's graph
// (FixTransforms.h): what a finding's fix means when the run is replayed
// without its pitfall. A set of them is a bit mask, so "all fixes" and a
// combined finding ("one stream + host sync") are one value.

#include <cstdint>
#include <string>

namespace ovs {

enum class Fix : std::uint32_t {
    PinHostMemory = 1u << 0,      // pageable copies at the pinned rate; their async calls return at once
    AsyncCopies = 1u << 1,        // synchronous cudaMemcpy -> cudaMemcpyAsync on the stream of the work around it
    RemoveHostSync = 1u << 2,     // a host wait per chunk moved back to wait on an older chunk
    NonBlockingStreams = 1u << 3, // legacy default stream -> a non-blocking stream: no implicit barriers
    StreamPerChunk = 1u << 4,     // one stream -> N streams, chunk k on stream k mod N
    HoistAllocations = 1u << 5,   // allocations and frees in the loop done once, before it
    PrefetchManaged = 1u << 6,    // managed memory a kernel faulted in is prefetched in bulk before it, on its stream
};
inline constexpr int kFixCount = 7;
using FixSet = std::uint32_t;

constexpr FixSet fixBit(Fix f)
{
    return static_cast<FixSet>(f);
}
constexpr bool has(FixSet set, Fix f)
{
    return (set & fixBit(f)) != 0;
}
// Every fix, lowest bit first.
Fix fixAt(int index);
// Short words: "pin host memory", "async copies", ...
const char* toString(Fix fix);
// "pin host memory + async copies"; "no fix" for an empty set.
std::string describeFixes(FixSet set);

} // namespace ovs
