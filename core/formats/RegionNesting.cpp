#include "formats/RegionNesting.h"

#include <algorithm>
#include <tuple>

namespace ovs {

void nestRegions(std::vector<Region>& regions)
{
    // By lane, then outer before inner: an earlier begin, or the same begin
    // and a later end.
    std::sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
        return std::make_tuple(a.lane, a.beginNs, b.endNs) < std::make_tuple(b.lane, b.beginNs, a.endNs);
    });
    std::vector<std::int64_t> openEnds; // the ends of the regions still open on this lane
    for (std::size_t i = 0; i < regions.size(); ++i) {
        if (i == 0 || regions[i].lane != regions[i - 1].lane)
            openEnds.clear();
        Region& region = regions[i];
        while (!openEnds.empty() && openEnds.back() <= region.beginNs)
            openEnds.pop_back();
        region.depth = static_cast<std::uint16_t>(std::min<std::size_t>(openEnds.size(), 0xFFFF));
        openEnds.push_back(region.endNs);
    }
    std::stable_sort(regions.begin(), regions.end(), [](const Region& a, const Region& b) {
        return std::tie(a.beginNs, a.depth) < std::tie(b.beginNs, b.depth);
    });
}

} // namespace ovs
