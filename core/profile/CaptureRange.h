#pragma once

#include "trace/Run.h"

#include <cstdint>
#include <string>

namespace ovs::profile {

// `profile --capture-range cudaProfilerApi`: what the program did between
// cudaProfilerStart and cudaProfilerStop (the run's ProfilerRange regions),
// and nothing else. The program is traced throughout (the injection library
// cannot know in advance whether a range will come), so this costs what a
// whole profile costs; what lies outside is dropped from the run:
//  - a host op (API call) is kept when it starts inside a range;
//  - a GPU op is kept when the call that enqueued it (same correlation id)
//    was kept, so work launched in the range and run after its stop stays,
//    and work launched before it goes; a GPU op without a correlation id is
//    kept when it starts inside a range;
//  - a region is kept when it overlaps a range.
// The timed region becomes the first range's begin to the last one's end.
// A run without a profiler range keeps nothing: the program never called
// cudaProfilerStart. Returns what was done, for the run's message.
struct CaptureOutcome {
    std::uint64_t ranges = 0;
    std::uint64_t keptOps = 0;
    std::uint64_t droppedOps = 0;
    std::string note; // "capture range cudaProfilerApi: 2 ranges, 1200 ops kept, 300 outside dropped"
};
CaptureOutcome keepProfilerRanges(Run& run);

} // namespace ovs::profile
