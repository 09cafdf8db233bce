#include "replay/Contention.h"

#include "base/Median.h"
#include "base/MessageText.h"
#include "base/Saturating.h"
#include "base/SmLimits.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace ovs {

namespace {

using Segments = std::vector<std::pair<std::int64_t, std::int64_t>>; // sorted, disjoint

// Where at least `least` of the nodes' measured intervals overlap.
Segments coveredBy(const RunGraph& g, const std::vector<std::uint32_t>& nodes, int least)
{
    std::vector<std::pair<std::int64_t, int>> events;
    events.reserve(2 * nodes.size());
    for (std::uint32_t n : nodes) {
        events.emplace_back(g.nodes[n].measuredBeginNs, +1);
        events.emplace_back(g.nodes[n].measuredEndNs, -1);
    }
    std::sort(events.begin(), events.end()); // an end before a begin at the same instant
    Segments out;
    int now = 0;
    std::int64_t since = 0;
    for (const auto& [t, d] : events) {
        const int before = now;
        now += d;
        if (before < least && now >= least)
            since = t;
        else if (before >= least && now < least && t > since)
            out.emplace_back(since, t);
    }
    return out;
}

std::int64_t overlapWith(const Segments& s, std::int64_t begin, std::int64_t end)
{
    auto it = std::upper_bound(s.begin(), s.end(), begin,
                               [](std::int64_t t, const std::pair<std::int64_t, std::int64_t>& x) { return t < x.second; });
    std::int64_t sum = 0;
    for (; it != s.end() && it->first < end; ++it)
        sum += std::min(end, it->second) - std::max(begin, it->first);
    return sum;
}

struct Calibration {
    double factor = 1.0;
    int beside = 0; // ops that ran beside a rival and alone under the same key
    int keys = 0;
};

// The slowdown a rival causes, from ops that ran both alone and beside one
// under the same key (calibrateContention's rule).
template <typename Key>
Calibration calibrate(const RunGraph& g, const std::vector<std::uint32_t>& nodes, const std::vector<std::int64_t>& overlap,
                      const std::vector<Key>& keys)
{
    std::map<Key, std::vector<std::int64_t>> alone;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (g.state[nodes[i]].durationNs > 0 && overlap[i] <= thresholds::kClockToleranceNs)
            alone[keys[i]].push_back(g.state[nodes[i]].durationNs);
    std::vector<double> samples;
    std::map<Key, bool> used;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const double d = static_cast<double>(g.state[nodes[i]].durationNs);
        const auto found = alone.find(keys[i]);
        if (d <= 0 || 2 * static_cast<double>(overlap[i]) < d || found == alone.end())
            continue;
        // Lone time = the part alone + the part beside / s: solved for s.
        const double lone = static_cast<double>(upperMedian(found->second));
        const double beside = static_cast<double>(overlap[i]);
        const double rest = lone - (d - beside);
        samples.push_back(rest > 0 ? std::clamp(beside / rest, 1.0, 2.0) : 2.0);
        used[keys[i]] = true;
    }
    Calibration c;
    c.beside = static_cast<int>(samples.size());
    c.keys = static_cast<int>(used.size());
    if (c.beside >= thresholds::kMinRepeats)
        c.factor = upperMedian(samples);
    return c;
}

// Each node's lone time: the part it ran beside a rival divided by the slowdown.
void takeOut(RunGraph& g, const std::vector<std::uint32_t>& nodes, const std::vector<std::int64_t>& overlap, double slowdown)
{
    if (slowdown <= 1.0)
        return;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        NodeState& n = g.state[nodes[i]];
        const std::int64_t beside = std::min(overlap[i], n.durationNs);
        n.durationNs = n.durationNs - beside + std::llround(static_cast<double>(beside) / slowdown);
    }
}

std::string words(const char* pattern, double a, double b = 0, double c = 0, double d = 0)
{
    char text[256];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}

// How many blocks of `shape` one SM holds at once: the least of what its
// threads (in whole warps), its block slots, its registers and its shared
// memory allow, and at least 1 (a launch that ran held one). Register and
// shared-memory allocation granularity is left out: the estimate may hold
// one block more than the hardware. Where the SM's limits are unknown (no
// compute capability, or one SmLimits lacks), 1: the conservative reading,
// under which a launch of as many blocks as SMs fills the GPU.
std::uint64_t blocksPerSm(const KernelShape& shape, const SmLimits& sm)
{
    if (!sm.known())
        return 1;
    const std::uint64_t threads = (shape.threadsPerBlock() + 31) / 32 * 32;
    std::uint64_t most = std::min<std::uint64_t>(static_cast<std::uint64_t>(sm.maxBlocks),
                                                 static_cast<std::uint64_t>(sm.maxThreads) / threads);
    if (shape.registersPerThread > 0 && sm.registers > 0)
        most = std::min<std::uint64_t>(most, static_cast<std::uint64_t>(sm.registers) / (shape.registersPerThread * threads));
    if (shape.sharedMemoryBytes > 0 && sm.sharedMemoryBytes > 0)
        most = std::min<std::uint64_t>(most, static_cast<std::uint64_t>(sm.sharedMemoryBytes) / shape.sharedMemoryBytes);
    return std::max<std::uint64_t>(1, most);
}

// Measured times under the launch-shape basis: wherever two or more
// compute nodes ran at once, each ran max(1, the sum of their shares)
// times slower; that is taken out of each.
void takeOutByShape(RunGraph& g, const std::vector<std::uint32_t>& nodes)
{
    std::vector<std::tuple<std::int64_t, int, std::uint32_t>> events; // time, -1 end / +1 begin, position
    events.reserve(2 * nodes.size());
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        events.emplace_back(g.nodes[nodes[i]].measuredBeginNs, +1, i);
        events.emplace_back(g.nodes[nodes[i]].measuredEndNs, -1, i);
    }
    std::sort(events.begin(), events.end()); // an end before a begin at the same instant
    std::vector<double> saved(nodes.size(), 0.0);
    std::vector<std::uint32_t> running;
    std::int64_t since = 0;
    for (const auto& [t, change, i] : events) {
        if (running.size() >= 2 && t > since) {
            double fill = 0;
            for (std::uint32_t r : running)
                fill += g.kernelFill[nodes[r]];
            if (fill > 1.0)
                for (std::uint32_t r : running)
                    saved[r] += static_cast<double>(t - since) * (1.0 - 1.0 / fill);
        }
        since = t;
        if (change > 0)
            running.push_back(i);
        else
            running.erase(std::find(running.begin(), running.end(), i));
    }
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        NodeState& n = g.state[nodes[i]];
        n.durationNs -= std::min<std::int64_t>(n.durationNs, std::llround(saved[i]));
    }
}

// The launch-shape basis (calibrateContention): each kernel's share of the
// GPU, its blocks against the SMs times the blocks an SM holds. False where
// no kernel of the graph has a shape on a device whose SMs are known.
bool kernelsByShape(RunGraph& g, const Run& run, const std::vector<std::uint32_t>& nodes, const std::string& why)
{
    std::vector<double> fill(g.nodes.size(), 0.0);
    int kernels = 0, shaped = 0, filling = 0;
    std::uint32_t widest = UINT32_MAX;
    std::uint64_t widestPerSm = 1;
    for (std::uint32_t n : nodes) {
        const GraphNode& node = g.nodes[n];
        if (node.kind != OpKind::Kernel)
            continue;
        ++kernels;
        const KernelShape* shape = run.shapeOf(node.op);
        const std::uint16_t lane = g.state[n].lane;
        const DeviceInfo& device = run.deviceAt(lane < g.lanes.size() ? g.lanes[lane].device : 0);
        if (!shape || device.smCount <= 0)
            continue;
        const std::uint64_t perSm = blocksPerSm(*shape, smLimitsOf(device.computeCapability));
        fill[n] = std::min(1.0, static_cast<double>(shape->blocks())
                                    / (static_cast<double>(device.smCount) * static_cast<double>(perSm)));
        ++shaped;
        filling += fill[n] >= 1.0;
        if (widest == UINT32_MAX || fill[n] > fill[widest]) {
            widest = n;
            widestPerSm = perSm;
        }
    }
    if (shaped == 0)
        return false;
    g.kernelSlowdown = 1.0;
    g.kernelFill.edit() = std::move(fill);
    takeOutByShape(g, nodes);

    const GraphNode& w = g.nodes[widest];
    const KernelShape& shape = *run.shapeOf(w.op);
    const std::uint16_t lane = g.state[widest].lane;
    const int sms = run.deviceAt(lane < g.lanes.size() ? g.lanes[lane].device : 0).smCount;
    const auto smsFilled = static_cast<std::uint64_t>(std::min<double>(
        sms, std::ceil(static_cast<double>(shape.blocks()) / static_cast<double>(widestPerSm))));
    std::string name = run.nameOf(run.ops[w.op]);
    name = name.empty() ? std::string("a kernel") : messageText(name, 40);
    g.contention = "kernels beside kernels: launch shape (" + why + "): " + name + " fills " + std::to_string(smsFilled)
                   + " of " + std::to_string(sms) + " SMs (" + std::to_string(shape.blocks()) + " blocks, "
                   + std::to_string(widestPerSm) + " per SM); " + std::to_string(filling) + " of "
                   + std::to_string(kernels) + " kernels fill the GPU, and beside one another take the sum of their "
                   "parts; kernels that leave room run side by side at lone speed while together they fill at most "
                   "the GPU, else slowed by the share they fill";
    if (shaped < kernels)
        g.contention += "; " + std::to_string(kernels - shaped) + " kernels without a shape count as filling none of it";
    return true;
}

void calibrateKernels(RunGraph& g, const Run& run)
{
    std::vector<std::uint32_t> nodes;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].gpu && g.nodes[n].engine == EngineClass::Compute)
            nodes.push_back(n);
    if (g.kernelSlots < 2) {
        g.kernelSlowdown = 1.0;
        g.contention = "kernels beside kernels: none (the run ran one kernel at a time, and so does the replay)";
        return;
    }
    const Segments two = coveredBy(g, nodes, 2);
    std::vector<std::int64_t> overlap(nodes.size());
    // Memsets count as rivals, not as evidence: only kernels have names to match.
    std::vector<std::uint32_t> kernels;
    std::vector<std::int64_t> kernelOverlap;
    std::vector<std::uint32_t> names;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const GraphNode& n = g.nodes[nodes[i]];
        overlap[i] = overlapWith(two, n.measuredBeginNs, n.measuredEndNs);
        if (n.kind == OpKind::Kernel) {
            kernels.push_back(nodes[i]);
            kernelOverlap.push_back(overlap[i]);
            names.push_back(run.ops[n.op].nameId);
        }
    }
    const Calibration c = calibrate(g, kernels, kernelOverlap, names);
    g.kernelSlowdown = c.factor;
    // The run's own evidence wins; without enough of it, the launch shapes.
    if (c.beside < thresholds::kMinRepeats
        && kernelsByShape(g, run, nodes,
                          c.beside > 0 ? words("%.0f kernels of the run ran both alone and beside another, too few to "
                                               "calibrate from", c.beside)
                                       : "no kernel of the run ran both alone and beside another"))
        return;
    if (c.factor > 1.0) {
        g.contention = words("kernels beside kernels: slowdown %.2fx, calibrated from %.0f kernels of the run that ran "
                             "beside another (%.0f names that also ran alone)",
                             c.factor, c.beside, c.keys);
        takeOut(g, nodes, overlap, c.factor);
    } else if (c.beside > 0) {
        g.contention = words("kernels beside kernels: lone speed (%.0f kernels of the run ran beside another and alone, "
                             "too few to calibrate from, or no slower)",
                             c.beside);
    } else {
        g.contention = "kernels beside kernels: lone speed assumed (no kernel of the run ran both alone and beside "
                       "another, and none has a launch shape on a device whose SMs are known)";
    }
}

void calibrateCopies(RunGraph& g, const ContentionRates& rates)
{
    std::string& out = g.contention;
    out += "; ";
    if (g.copyEngines == 1) {
        g.copySlowdown = 1.0;
        out += "uploads beside downloads: never (one copy engine for both directions)";
        return;
    }
    std::vector<std::uint32_t> up, down, nodes;
    for (std::uint32_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].gpu && usesLink(g.nodes[n], g.state[n]))
            (g.nodes[n].engine == EngineClass::CopyH2D ? up : down).push_back(n);
    const Segments upSet = coveredBy(g, up, 1), downSet = coveredBy(g, down, 1);
    std::vector<std::int64_t> overlap;
    using Key = std::tuple<int, int, std::uint64_t>;
    std::vector<Key> keys;
    for (const auto& [list, rivals] : {std::pair{&up, &downSet}, std::pair{&down, &upSet}})
        for (std::uint32_t n : *list) {
            const GraphNode& node = g.nodes[n];
            nodes.push_back(n);
            overlap.push_back(overlapWith(*rivals, node.measuredBeginNs, node.measuredEndNs));
            keys.emplace_back(static_cast<int>(node.engine), static_cast<int>(g.state[n].memory), node.bytes);
        }
    if (rates.bidirectionalGBps > 0 && rates.pinnedH2DGBps > 0 && rates.pinnedD2HGBps > 0) {
        // Both directions at once share the link in proportion to their
        // lone rates: each slows by the same factor.
        g.copySlowdown = std::clamp((rates.pinnedH2DGBps + rates.pinnedD2HGBps) / rates.bidirectionalGBps, 1.0, 2.0);
        out += words("uploads beside downloads: slowdown %.2fx, from the bidirectional rate (%.1f GB/s together, "
                     "%.1f + %.1f GB/s one way",
                     g.copySlowdown, rates.bidirectionalGBps, rates.pinnedH2DGBps, rates.pinnedD2HGBps)
               + (rates.bidirectionalBasis.empty() ? "" : "; " + rates.bidirectionalBasis) + ")";
    } else {
        const Calibration c = calibrate(g, nodes, overlap, keys);
        g.copySlowdown = c.factor;
        if (c.factor > 1.0)
            out += words("uploads beside downloads: slowdown %.2fx, calibrated from %.0f copies of the run that ran "
                         "beside one of the other direction (no bidirectional rate known)",
                         c.factor, c.beside);
        else
            out += "uploads beside downloads: lone speed assumed (no bidirectional rate known, and too few copies "
                   "of the run ran both alone and beside one of the other direction)";
    }
    takeOut(g, nodes, overlap, g.copySlowdown);
}

} // namespace

void calibrateContention(RunGraph& g, const Run& run, const ContentionRates& rates)
{
    calibrateKernels(g, run);
    calibrateCopies(g, rates);
}

std::int64_t floorNs(const RunGraph& g, const ContentionRates& rates, std::string* binds)
{
    double up = 0, down = 0, dtod = 0, compute = 0, filledWork = 0, link = 0, pageableBytes = 0;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const GraphNode& n = g.nodes[i];
        const NodeState& s = g.state[i];
        if (!n.gpu || s.removed)
            continue;
        const auto work = static_cast<double>(std::max<std::int64_t>(0, s.durationNs));
        switch (n.engine) {
        case EngineClass::CopyH2D: up += work; break;
        case EngineClass::CopyD2H: (g.copyEngines == 1 ? up : down) += work; break;
        case EngineClass::CopyDtoD: dtod += work; break;
        case EngineClass::Compute:
            compute += work;
            filledWork += i < g.kernelFill.size() ? g.kernelFill[i] * work : 0.0;
            break;
        case EngineClass::None: break;
        }
        if (usesLink(n, s))
            link += work;
        if ((n.kind == OpKind::Upload || n.kind == OpKind::Download) && s.memory == HostMemoryKind::Pageable)
            pageableBytes += static_cast<double>(n.bytes);
    }
    // At most `slots` at once, each `slowdown` times slower beside another:
    // never more than max(1, slots / slowdown) ops' worth of work per ns.
    const auto contended = [](double work, int slots, double slowdown) {
        return work / std::max(1.0, static_cast<double>(std::max(1, slots)) / std::max(1.0, slowdown));
    };
    const std::pair<double, const char*> terms[] = {
        {up, g.copyEngines == 1 ? "the copy engine" : "the host-to-device copy engine"},
        {down, "the device-to-host copy engine"},
        {dtod, "the device-to-device copy engine"},
        // By launch shape, the running kernels' shares times their rates never
        // pass 1, so their share-weighted work is a floor too.
        {std::max(contended(compute, g.kernelSlots, g.kernelSlowdown), filledWork), "the kernels"},
        {g.copyEngines == 1 ? 0.0 : contended(link, 2, g.copySlowdown), "the link, both directions"},
        {rates.hostMemoryGBps > 0 ? pageableBytes / rates.hostMemoryGBps : 0.0, "host memory, staging pageable copies"},
    };
    const auto busiest = std::max_element(std::begin(terms), std::end(terms),
                                          [](const auto& a, const auto& b) { return a.first < b.first; });
    if (binds)
        *binds = busiest->first > 0 ? busiest->second : "";
    return saturatingCast<std::int64_t>(std::ceil(busiest->first));
}

} // namespace ovs
