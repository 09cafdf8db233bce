#include "timeline/TimelineFolding.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ovs::ui {

namespace {

TimelineFolding::Item single(const Op& op, std::size_t index)
{
    TimelineFolding::Item item{op.startNs, op.endNs, op.durationNs(), index, 1, op.kind};
    item.kinds = 1u << static_cast<unsigned>(op.kind);
    item.firstStartNs[static_cast<std::size_t>(op.kind)] = op.startNs;
    return item;
}

// A folded block being built: the time each kind covers decides its colour.
struct Group {
    TimelineFolding::Item item;
    std::array<std::int64_t, kOpKindCount> kindNs{};
    std::int64_t bin = 0;

    bool isOpen() const { return item.count > 0; }

    void start(const Op& op, std::size_t index, std::int64_t opBin)
    {
        item = single(op, index);
        kindNs.fill(0);
        kindNs[static_cast<std::size_t>(op.kind)] = std::max<std::int64_t>(op.durationNs(), 1);
        bin = opBin;
    }

    void add(const Op& op)
    {
        item.endNs = std::max(item.endNs, op.endNs);
        item.busyNs += op.durationNs();
        ++item.count;
        if (!item.hasKind(op.kind)) {
            item.kinds |= 1u << static_cast<unsigned>(op.kind);
            item.firstStartNs[static_cast<std::size_t>(op.kind)] = op.startNs;
        }
        // Zero-length ops still count, so a bin of instants gets a colour.
        kindNs[static_cast<std::size_t>(op.kind)] += std::max<std::int64_t>(op.durationNs(), 1);
    }

    OpKind dominantKind() const
    {
        // Ties go to the earlier kind in enum order: deterministic.
        const auto best = std::max_element(kindNs.begin(), kindNs.end());
        return static_cast<OpKind>(best - kindNs.begin());
    }
};

} // namespace

void TimelineFolding::fold(std::span<const Op> laneOps, std::size_t first, std::size_t last, double nsPerPixel,
                           std::vector<Item>& out, double foldPixels)
{
    out.clear();
    last = std::min(last, laneOps.size());
    if (first >= last)
        return;
    const double foldNs = std::max(nsPerPixel * foldPixels, 0.0);
    // Adjacent folded blocks merge when the gap between them is under a pixel.
    const double touchNs = std::max(nsPerPixel, 0.0);

    Group group;
    auto flush = [&] {
        if (!group.isOpen())
            return;
        Item item = group.item;
        if (item.isFolded())
            item.kind = group.dominantKind();
        // Mixed blocks stay one per bin: merged, they would keep only the
        // first mark of each minority kind.
        if (!out.empty() && item.isFolded() && out.back().isFolded() && out.back().kind == item.kind
            && !item.isMixed() && !out.back().isMixed()
            && static_cast<double>(item.startNs - out.back().endNs) < touchNs) {
            Item& previous = out.back();
            previous.endNs = std::max(previous.endNs, item.endNs);
            previous.busyNs += item.busyNs;
            previous.count += item.count;
        } else {
            out.push_back(item);
        }
        group.item.count = 0;
    };

    for (std::size_t i = first; i < last; ++i) {
        const Op& op = laneOps[i];
        if (foldNs <= 0.0 || static_cast<double>(op.durationNs()) >= foldNs) {
            flush();
            out.push_back(single(op, i));
            continue;
        }
        const auto bin = static_cast<std::int64_t>(std::floor(static_cast<double>(op.startNs) / foldNs));
        if (group.isOpen() && group.bin == bin) {
            group.add(op);
            continue;
        }
        flush();
        group.start(op, i, bin);
    }
    flush();
}

} // namespace ovs::ui
