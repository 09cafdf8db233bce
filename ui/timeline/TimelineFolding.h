#pragma once

#include "trace/Op.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ovs::ui {

// Turns one lane's visible ops into what the timeline draws at the current
// zoom. Ops at least `foldPixels` wide are drawn as themselves; consecutive
// narrower ops are merged into "folded" blocks, as Tracy does, so a million
// sub-pixel ops draw as a few hundred rectangles.
//
// Narrow ops are grouped by fixed bins of `foldPixels` in absolute time (not
// relative to the first visible op), so panning does not make folded blocks
// shimmer; adjacent folded blocks of one same kind that touch are merged.
// A block of several kinds takes the colour of the kind covering most time
// and remembers where each other kind first starts, so that a short kernel
// among long copies still gets its 1-pixel mark: every op stays visible.
class TimelineFolding {
public:
    static constexpr double kDefaultFoldPixels = 3.0;

    struct Item {
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        std::int64_t busyNs = 0;     // sum of the op durations (< span when folded over gaps)
        std::size_t firstIndex = 0;  // into the lane's ops
        std::uint32_t count = 0;     // ops it stands for
        OpKind kind = OpKind::Upload; // for a folded block: the kind covering most time
        std::uint32_t kinds = 0;      // bit per OpKind among its ops
        std::array<std::int64_t, kOpKindCount> firstStartNs{}; // per kind in `kinds`
        bool isFolded() const { return count > 1; }
        bool hasKind(OpKind k) const { return (kinds >> static_cast<unsigned>(k)) & 1u; }
        bool isMixed() const { return kinds != (1u << static_cast<unsigned>(kind)); }
    };

    // Fills `out` (cleared first; its capacity is reused between frames) with
    // the items for ops [first, last) of `laneOps`, sorted by start.
    static void fold(std::span<const Op> laneOps, std::size_t first, std::size_t last, double nsPerPixel,
                     std::vector<Item>& out, double foldPixels = kDefaultFoldPixels);
};

} // namespace ovs::ui
