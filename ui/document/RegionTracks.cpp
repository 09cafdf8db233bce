#include "document/RegionTracks.h"

#include "base/Saturating.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ovs::ui {

RegionTracks RegionTracks::of(const Run& run)
{
    // (lane, depth row) -> regions; kNoLane sorts last as a number, so the
    // key puts "no thread" first explicitly.
    std::map<std::pair<int, int>, std::vector<std::uint32_t>> rows;
    for (std::size_t i = 0; i < run.regions.size(); ++i) {
        const Region& region = run.regions[i];
        const bool known = region.lane != Region::kNoLane && region.lane < run.lanes.size();
        const int lane = known ? static_cast<int>(region.lane) : -1;
        const int depth = std::min<int>(region.depth, kMaxDepthRows - 1);
        rows[{lane, depth}].push_back(static_cast<std::uint32_t>(i));
    }
    RegionTracks out;
    out.tracks.reserve(rows.size());
    for (auto& [key, regions] : rows) {
        Track track;
        track.lane = key.first < 0 ? Region::kNoLane : static_cast<std::uint16_t>(key.first);
        track.depth = key.second;
        // Run::regions is sorted by (begin, depth), but a trace is not
        // trusted to be.
        std::stable_sort(regions.begin(), regions.end(), [&](std::uint32_t a, std::uint32_t b) {
            return run.regions[a].beginNs < run.regions[b].beginNs;
        });
        track.reachNs.reserve(regions.size());
        std::int64_t reach = std::numeric_limits<std::int64_t>::min();
        for (const std::uint32_t index : regions) {
            reach = std::max(reach, run.regions[index].endNs);
            track.reachNs.push_back(reach);
        }
        track.regions = std::move(regions);
        out.tracks.push_back(std::move(track));
    }
    return out;
}

std::pair<std::size_t, std::size_t> RegionTracks::visible(const Run& run, int track, std::int64_t t0,
                                                          std::int64_t t1) const
{
    if (track < 0 || track >= count() || t1 < t0)
        return {0, 0};
    const Track& t = tracks[static_cast<std::size_t>(track)];
    const auto first = std::lower_bound(t.reachNs.begin(), t.reachNs.end(), t0) - t.reachNs.begin();
    const auto last = std::upper_bound(t.regions.begin() + first, t.regions.end(), t1,
                                       [&](std::int64_t time, std::uint32_t index) {
                                           return time < run.regions[index].beginNs;
                                       })
                      - t.regions.begin();
    return {static_cast<std::size_t>(first), static_cast<std::size_t>(last)};
}

int RegionTracks::regionAt(const Run& run, int track, std::int64_t t, std::int64_t toleranceNs) const
{
    if (track < 0 || track >= count())
        return -1;
    toleranceNs = std::max<std::int64_t>(toleranceNs, 0);
    const auto [first, last] =
        visible(run, track, saturatingSub<std::int64_t>(t, toleranceNs), saturatingAdd<std::int64_t>(t, toleranceNs));
    const Track& tr = tracks[static_cast<std::size_t>(track)];
    int best = -1;
    std::int64_t bestDistance = saturatingAdd<std::int64_t>(toleranceNs, 1);
    std::int64_t bestLength = 0;
    for (std::size_t i = first; i < last; ++i) {
        const Region& region = run.regions[tr.regions[i]];
        const std::int64_t distance = t < region.beginNs ? saturatingSub<std::int64_t>(region.beginNs, t)
                                      : t > region.endNs ? saturatingSub<std::int64_t>(t, region.endNs)
                                                         : 0;
        const std::int64_t length = saturatingSub<std::int64_t>(region.endNs, region.beginNs);
        if (distance < bestDistance || (distance == bestDistance && best >= 0 && length < bestLength)) {
            best = static_cast<int>(tr.regions[i]);
            bestDistance = distance;
            bestLength = length;
        }
    }
    return best;
}

std::vector<std::pair<int, int>> RegionTracks::keys() const
{
    std::vector<std::pair<int, int>> out;
    out.reserve(tracks.size());
    for (const Track& track : tracks)
        out.emplace_back(track.lane == Region::kNoLane ? -1 : static_cast<int>(track.lane), track.depth);
    return out;
}

} // namespace ovs::ui
