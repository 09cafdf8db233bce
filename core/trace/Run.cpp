#include "trace/Run.h"

#include "base/SortedRuns.h"

#include <algorithm>
#include <tuple>

namespace ovs {

const char* toString(RunStatus status)
{
    switch (status) {
    case RunStatus::Completed: return "completed";
    case RunStatus::Cancelled: return "cancelled";
    case RunStatus::Failed: return "failed";
    }
    return "unknown";
}

const char* toString(StreamKind kind)
{
    switch (kind) {
    case StreamKind::Unknown: return "unknown";
    case StreamKind::Blocking: return "blocking";
    case StreamKind::NonBlocking: return "non-blocking";
    case StreamKind::LegacyDefault: return "legacy-default";
    case StreamKind::PerThreadDefault: return "per-thread-default";
    }
    return "unknown";
}

std::optional<StreamKind> streamKindFromString(std::string_view name)
{
    for (StreamKind k : {StreamKind::Unknown, StreamKind::Blocking, StreamKind::NonBlocking, StreamKind::LegacyDefault,
                         StreamKind::PerThreadDefault})
        if (name == toString(k))
            return k;
    return std::nullopt;
}

const char* toString(RegionSource source)
{
    switch (source) {
    case RegionSource::Nvtx: return "nvtx";
    case RegionSource::ProfilerRange: return "profiler-range";
    case RegionSource::Annotation: return "annotation";
    case RegionSource::GpuAnnotation: return "gpu-annotation";
    case RegionSource::ProfilerStep: return "profiler-step";
    case RegionSource::Pipeline: return "pipeline";
    }
    return "nvtx";
}

std::optional<RegionSource> regionSourceFromString(std::string_view name)
{
    for (RegionSource s : {RegionSource::Nvtx, RegionSource::ProfilerRange, RegionSource::Annotation,
                           RegionSource::GpuAnnotation, RegionSource::ProfilerStep, RegionSource::Pipeline})
        if (name == toString(s))
            return s;
    return std::nullopt;
}

const std::string& Run::nameOf(const Op& op) const
{
    static const std::string kNone;
    return op.nameId < names.size() ? names[op.nameId] : kNone;
}

bool Run::usesSeveralDevices() const
{
    if (!moreDevices.empty())
        return true;
    for (const auto& lane : lanes)
        if (lane.device != 0)
            return true;
    return std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::PeerCopy; });
}

bool Run::usesUnifiedMemory() const
{
    return std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::UnifiedMemory; });
}

bool Run::countsFaults(std::size_t opIndex) const
{
    const UnifiedMemoryOp* counter = unifiedMemoryOf(opIndex);
    return counter && counter->countsFaults();
}

void Run::setUnifiedMemory(std::size_t opIndex, UnifiedMemoryOp counter)
{
    if (opIndex >= ops.size())
        return;
    if (opUnifiedMemory.size() < ops.size())
        opUnifiedMemory.resize(ops.size());
    opUnifiedMemory[opIndex] = counter;
}

void Run::setShape(std::size_t opIndex, std::uint32_t shapeId)
{
    if (opIndex >= ops.size())
        return;
    if (opShapes.size() < ops.size())
        opShapes.resize(ops.size(), 0);
    opShapes[opIndex] = shapeId;
}

bool Run::usesKernelShapes() const
{
    return !kernelShapes.empty() && std::any_of(opShapes.begin(), opShapes.end(), [](std::uint32_t id) { return id > 0; });
}

void Run::setSource(std::size_t opIndex, const OpSource& source)
{
    if (opIndex >= ops.size())
        return;
    if (opSources.size() < ops.size())
        opSources.resize(ops.size());
    opSources[opIndex] = source;
}

bool Run::usesSources() const
{
    return stacksRecorded || std::any_of(opSources.begin(), opSources.end(), [](const OpSource& s) { return !s.empty(); });
}

std::vector<OpRange> opRangesIn(const Run& run, std::int64_t beginNs, std::int64_t endNs)
{
    std::vector<OpRange> ranges;
    const auto base = run.ops.begin();
    auto lane = base;
    while (lane != run.ops.end()) {
        const std::uint16_t id = lane->lane;
        const auto next = std::partition_point(lane, run.ops.end(), [&](const Op& op) { return op.lane == id; });
        const auto from = std::partition_point(lane, next, [&](const Op& op) { return op.startNs < beginNs; });
        const auto to = std::partition_point(from, next, [&](const Op& op) { return op.startNs < endNs; });
        ranges.push_back({static_cast<std::uint32_t>(from - base), static_cast<std::uint32_t>(to - base)});
        lane = next;
    }
    return ranges;
}

void Run::sortOps()
{
    const auto before = [](const Op& a, const Op& b) {
        return std::tie(a.lane, a.startNs, a.endNs) < std::tie(b.lane, b.startNs, b.endNs);
    };
    // Traces we wrote are sorted already; stable_sort would still copy them
    // through a buffer as large as the ops.
    if (std::is_sorted(ops.begin(), ops.end(), before))
        return;
    if (opShapes.empty() && opSources.empty() && opUnifiedMemory.empty()) {
        std::stable_sort(ops.begin(), ops.end(), before);
        return;
    }
    // The shapes, sources and counters move with their ops: sorted as one permutation.
    if (!opShapes.empty())
        opShapes.resize(ops.size(), 0);
    if (!opSources.empty())
        opSources.resize(ops.size());
    if (!opUnifiedMemory.empty())
        opUnifiedMemory.resize(ops.size());
    std::vector<std::uint32_t> order(ops.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return before(ops[a], ops[b]); });
    std::vector<Op> sorted(ops.size());
    std::vector<std::uint32_t> shapes(opShapes.size());
    std::vector<OpSource> sources(opSources.size());
    std::vector<UnifiedMemoryOp> counters(opUnifiedMemory.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        sorted[i] = ops[order[i]];
        if (!shapes.empty())
            shapes[i] = opShapes[order[i]];
        if (!sources.empty())
            sources[i] = opSources[order[i]];
        if (!counters.empty())
            counters[i] = opUnifiedMemory[order[i]];
    }
    ops = std::move(sorted);
    opShapes = std::move(shapes);
    opSources = std::move(sources);
    opUnifiedMemory = std::move(counters);
}

void Run::removeOps(const std::vector<bool>& drop)
{
    // Side tables shorter than the ops are grown first, so that what moves
    // down is always the entry of the op that moves.
    if (!opShapes.empty())
        opShapes.resize(ops.size(), 0);
    if (!opSources.empty())
        opSources.resize(ops.size());
    if (!opUnifiedMemory.empty())
        opUnifiedMemory.resize(ops.size());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (i < drop.size() && drop[i])
            continue;
        if (!opShapes.empty())
            opShapes[kept] = opShapes[i];
        if (!opSources.empty())
            opSources[kept] = opSources[i];
        if (!opUnifiedMemory.empty())
            opUnifiedMemory[kept] = opUnifiedMemory[i];
        ops[kept++] = ops[i];
    }
    ops.resize(kept);
    if (!opShapes.empty())
        opShapes.resize(kept);
    if (!opSources.empty())
        opSources.resize(kept);
    if (!opUnifiedMemory.empty())
        opUnifiedMemory.resize(kept);
}

void Run::sortRegions()
{
    const auto before = [](const Region& a, const Region& b) {
        return std::tie(a.beginNs, a.depth, b.endNs) < std::tie(b.beginNs, b.depth, a.endNs);
    };
    if (!std::is_sorted(regions.begin(), regions.end(), before))
        std::stable_sort(regions.begin(), regions.end(), before);
}

std::vector<std::uint32_t> opsInLaneOrder(const Run& run)
{
    const auto before = [&run](std::uint32_t a, std::uint32_t b) {
        const Op& x = run.ops[a];
        const Op& y = run.ops[b];
        return std::tie(x.lane, x.startNs, x.endNs, a) < std::tie(y.lane, y.startNs, y.endNs, b);
    };
    std::vector<std::uint32_t> order;
    order.reserve(run.ops.size());
    for (std::size_t i = 0; i < run.ops.size(); ++i)
        if (run.ops[i].kind != OpKind::UnifiedMemory)
            order.push_back(static_cast<std::uint32_t>(i));
    // A run as the readers leave it (Run::sortOps) is in this order already:
    // only the others pay for a sort.
    sortSortedRuns(order, before);
    return order;
}

} // namespace ovs
