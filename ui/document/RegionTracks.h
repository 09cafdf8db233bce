#pragma once

#include "trace/Run.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ovs::ui {

// A run's regions (Run::regions) as the timeline's regions band lays them
// out: a track (row) per thread and nesting depth, ranges shown where they
// were opened. Tracks of regions that name no thread come first, then by
// lane index; on each thread depth 0 (outermost) on top. Each track's
// regions are sorted by begin with a running maximum of their ends, so the
// visible range and the region under the cursor are binary searches, as a
// lane's ops are.
struct RegionTracks {
    // Deeper nesting shares the last row (a recursive range 200 deep would
    // otherwise push the lanes off the picture).
    static constexpr int kMaxDepthRows = 6;

    struct Track {
        std::uint16_t lane = Region::kNoLane; // kNoLane: regions that name no thread
        int depth = 0;                        // the last track of a thread also holds the deeper ones
        std::vector<std::uint32_t> regions;   // indices into Run::regions, by begin
        std::vector<std::int64_t> reachNs;    // reachNs[i]: the latest end among regions[0..i]
    };

    std::vector<Track> tracks;

    static RegionTracks of(const Run& run);

    int count() const { return static_cast<int>(tracks.size()); }
    bool isEmpty() const { return tracks.empty(); }
    // Indices [first, last) into tracks[track].regions of the regions that
    // may intersect [t0, t1] (all that do; on a shared last row, a few
    // nested ones that end before t0 as well).
    std::pair<std::size_t, std::size_t> visible(const Run& run, int track, std::int64_t t0, std::int64_t t1) const;
    // The region (index into Run::regions) of `track` under time t, or the
    // nearest within `toleranceNs`; the innermost where several hold t.
    // -1 where none.
    int regionAt(const Run& run, int track, std::int64_t t, std::int64_t toleranceNs) const;
    // (lane, depth) of each track, for comparing layouts.
    std::vector<std::pair<int, int>> keys() const;
};

} // namespace ovs::ui
