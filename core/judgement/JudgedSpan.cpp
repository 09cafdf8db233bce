#include "judgement/JudgedSpan.h"

#include "base/DurationText.h"
#include "base/Median.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>

namespace ovs {

namespace {

// Whether a GPU op enqueued from `lane` belongs to a region opened on
// `regionLane`: a region of a thread owns that thread's launches; one of no
// thread (or a GPU annotation) owns every launch in its time.
bool ownedBy(const Region& region, std::uint16_t launchLane, const Run& run)
{
    if (region.lane == Region::kNoLane || launchLane == Region::kNoLane || region.lane >= run.lanes.size()
        || run.lanes[region.lane].kind != LaneKind::HostThread)
        return true;
    return region.lane == launchLane;
}

struct RegionWork {
    std::int64_t endNs = 0; // the later of the region's end and its GPU work's
    std::size_t gpuOps = 0;
};

RegionWork workOf(const Run& run, const std::vector<Launch>& launches, const Region& region)
{
    RegionWork w{region.endNs, 0};
    auto it = std::lower_bound(launches.begin(), launches.end(), region.beginNs,
                               [](const Launch& l, std::int64_t t) { return l.enqueuedNs < t; });
    for (; it != launches.end() && it->enqueuedNs < region.endNs; ++it)
        if (ownedBy(region, it->lane, run)) {
            w.endNs = std::max(w.endNs, it->gpuEndNs);
            ++w.gpuOps;
        }
    return w;
}

// "ProfilerStep#12" -> "ProfilerStep#N"; a name without a trailing number
// is its own group.
std::string groupName(const std::string& name)
{
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    return end == name.size() || end == 0 ? name : name.substr(0, end) + "N";
}

// "setup: 610 ms before the judged span, of which cudaHostAlloc 585 ms (12
// calls)": the host calls that took the most of it, by name.
std::string setupWords(const Run& run, Interval setup, const char* what)
{
    const std::int64_t total = spanNs(setup.beginNs, setup.endNs);
    if (total <= 0)
        return {};
    std::map<std::string, std::pair<std::int64_t, int>> byName;
    for (const Op& op : run.ops) {
        if (isStreamLaneOp(op.kind) || op.startNs < setup.beginNs || op.startNs >= setup.endNs)
            continue;
        const std::string& name = run.nameOf(op);
        auto& [ns, calls] = byName[name.empty() ? std::string(toString(op.kind)) : name];
        ns = saturatingAdd(ns, spanNs(op.startNs, std::min(op.endNs, setup.endNs)));
        ++calls;
    }
    std::string text = std::string(what) + ": " + msSignificant(total, 3) + " before the judged span";
    const auto top = std::max_element(byName.begin(), byName.end(),
                                      [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
    if (top != byName.end() && top->second.first * thresholds::kSetupCallParts >= total)
        text += ", of which " + top->first + " " + msSignificant(top->second.first, 3) + " ("
                + std::to_string(top->second.second) + (top->second.second == 1 ? " call)" : " calls)");
    return text;
}

JudgedSpan whole(const Run& run, std::string why = {})
{
    JudgedSpan j;
    j.span = timedRegion(run);
    j.label = "timed region";
    j.whyWhole = std::move(why);
    return j;
}

// The token a GPU op repeats as: its kind, name and size.
struct Token {
    OpKind kind;
    std::uint32_t name;
    std::uint64_t bytes;
    bool operator<(const Token& o) const
    {
        return std::tie(kind, name, bytes) < std::tie(o.kind, o.name, o.bytes);
    }
};

JudgedSpan steadyState(const Run& run, const std::vector<Launch>& launches)
{
    const Interval timed = timedRegion(run);
    std::map<Token, int> counts;
    auto tokenOf = [&](const Op& op) { return Token{op.kind, op.nameId, op.kind == OpKind::Kernel ? 0 : op.bytes}; };
    for (const Launch& l : launches)
        ++counts[tokenOf(run.ops[l.op])];
    int most = 0;
    for (const auto& [token, count] : counts)
        most = std::max(most, count);
    if (most < thresholds::kSteadyStateMinRepeats)
        return whole(run, "no GPU op recurs " + std::to_string(thresholds::kSteadyStateMinRepeats)
                              + " times or more: no loop to tell from its setup");
    // The loop's ops recur about as often as its most frequent op; setup's
    // (a memset of each buffer, a warm-up kernel) once or twice.
    Interval loop{INT64_MAX, INT64_MIN};
    for (const Launch& l : launches) {
        const int count = counts[tokenOf(run.ops[l.op])];
        if (count < thresholds::kSteadyStateMinOpRepeats || count * thresholds::kSteadyStateShareOfMost < most)
            continue;
        loop.beginNs = std::min(loop.beginNs, l.enqueuedNs);
        loop.endNs = std::max(loop.endNs, l.gpuEndNs);
    }
    loop.beginNs = std::max(loop.beginNs, timed.beginNs);
    loop.endNs = std::min(loop.endNs, timed.endNs);
    const std::int64_t timedNs = spanNs(timed.beginNs, timed.endNs);
    const std::int64_t loopNs = spanNs(loop.beginNs, loop.endNs);
    if (loopNs <= 0 || static_cast<double>(loopNs) >= thresholds::kSteadyStateWholeShare * static_cast<double>(timedNs))
        return whole(run, "the repeated GPU work fills it: no setup to leave out");
    JudgedSpan j;
    j.span = loop;
    j.basis = JudgedSpan::Basis::SteadyState;
    j.label = "steady state (the repeated GPU work)";
    j.setup = {timed.beginNs, loop.beginNs};
    j.setupText = setupWords(run, j.setup, "setup");
    return j;
}

// The group the default rule judges: the steps, else the outermost range
// group enclosing most GPU work; nullptr for none.
const RegionGroup* defaultGroup(const Run& run, const std::vector<RegionGroup>& groups,
                                const std::vector<Launch>& launches)
{
    for (const RegionGroup& g : groups)
        if (run.regions[g.regions.front()].source == RegionSource::ProfilerStep)
            return &g;
    const RegionGroup* best = nullptr;
    std::size_t bestOps = 0;
    for (const RegionGroup& g : groups) {
        if (run.regions[g.regions.front()].depth != 0
            || run.regions[g.regions.front()].source == RegionSource::GpuAnnotation)
            continue;
        std::size_t ops = 0;
        for (std::uint32_t r : g.regions)
            ops += workOf(run, launches, run.regions[r]).gpuOps;
        if (ops > bestOps) {
            best = &g;
            bestOps = ops;
        }
    }
    if (best && static_cast<double>(bestOps) >= thresholds::kRegionShareOfGpuOps * static_cast<double>(launches.size()))
        return best;
    return nullptr;
}

} // namespace

bool isPipelineRun(const Run& run)
{
    return run.params.chunks > 0;
}

const char* toString(JudgedSpan::Basis basis)
{
    switch (basis) {
    case JudgedSpan::Basis::TimedRegion: return "timed region";
    case JudgedSpan::Basis::Regions: return "regions";
    case JudgedSpan::Basis::SteadyState: return "steady state";
    }
    return "timed region";
}

Interval timedRegion(const Run& run)
{
    return {run.timedBeginNs, run.timedEndNs};
}

Interval regionSpan(const Run& run, std::uint32_t region)
{
    return regionSpans(run, {region}).front();
}

std::vector<Interval> regionSpans(const Run& run, const std::vector<std::uint32_t>& regions)
{
    return regionSpans(run, regions, launchesOf(run));
}

std::vector<Interval> regionSpans(const Run& run, const std::vector<std::uint32_t>& regions,
                                  const std::vector<Launch>& launches)
{
    std::vector<Interval> spans;
    spans.reserve(regions.size());
    for (std::uint32_t region : regions) {
        if (region >= run.regions.size()) {
            spans.push_back({});
            continue;
        }
        const Region& r = run.regions[region];
        spans.push_back({r.beginNs, workOf(run, launches, r).endNs});
    }
    return spans;
}

Run sliceOf(const Run& run, Interval span)
{
    Run slice;
    slice.name = run.name;
    slice.pipeline = run.pipeline;
    slice.device = run.device;
    slice.moreDevices = run.moreDevices;
    slice.params = run.params;
    slice.timing = run.timing;
    slice.status = run.status;
    slice.timedBeginNs = span.beginNs;
    slice.timedEndNs = span.endNs;
    slice.lanes = run.lanes;
    slice.names = run.names;
    slice.kernelShapes = run.kernelShapes;
    slice.sourceSites = run.sourceSites;
    slice.stacksRecorded = run.stacksRecorded;
    for (const OpRange& range : opRangesIn(run, span.beginNs, span.endNs)) {
        const auto from = run.ops.begin() + range.begin;
        const auto to = run.ops.begin() + range.end;
        for (auto op = from; op != to && !run.opShapes.empty(); ++op) {
            const auto index = static_cast<std::size_t>(op - run.ops.begin());
            if (index < run.opShapes.size() && run.opShapes[index] > 0) {
                slice.opShapes.resize(slice.ops.size() + static_cast<std::size_t>(op - from) + 1, 0);
                slice.opShapes.back() = run.opShapes[index];
            }
        }
        for (auto op = from; op != to && !run.opSources.empty(); ++op) {
            const auto index = static_cast<std::size_t>(op - run.ops.begin());
            if (const OpSource* source = run.sourceOf(index)) {
                slice.opSources.resize(slice.ops.size() + static_cast<std::size_t>(op - from) + 1);
                slice.opSources.back() = *source;
            }
        }
        for (auto op = from; op != to && !run.opUnifiedMemory.empty(); ++op) {
            const auto index = static_cast<std::size_t>(op - run.ops.begin());
            if (const UnifiedMemoryOp* counter = run.unifiedMemoryOf(index)) {
                slice.opUnifiedMemory.resize(slice.ops.size() + static_cast<std::size_t>(op - from) + 1);
                slice.opUnifiedMemory.back() = *counter;
            }
        }
        slice.ops.insert(slice.ops.end(), from, to);
    }
    for (const Region& r : run.regions)
        if (r.beginNs < span.endNs && r.endNs > span.beginNs)
            slice.regions.push_back(r);
    return slice;
}

namespace {

// judgedSpanOf with the run's launches, found once by the caller.
JudgedSpan spanOfGroup(const Run& run, const RegionGroup& group, const std::vector<Launch>& launches,
                       bool leaveOutWarmUp)
{
    if (group.regions.empty())
        return whole(run);
    JudgedSpan j;
    j.basis = JudgedSpan::Basis::Regions;
    j.group = group;
    std::vector<std::int64_t> durations;
    for (std::uint32_t r : group.regions)
        durations.push_back(run.regions[r].durationNs());
    // A first step much slower than the rest is warm-up (allocations, the
    // first call's lazy loading): setup, not the loop.
    std::size_t first = 0;
    if (leaveOutWarmUp && group.regions.size() >= thresholds::kWarmUpMinSteps) {
        const std::vector<std::int64_t> rest(durations.begin() + 1, durations.end());
        if (static_cast<double>(durations.front()) > thresholds::kWarmUpStepFactor * static_cast<double>(upperMedian(rest)))
            first = 1;
    }
    j.group.regions.erase(j.group.regions.begin(), j.group.regions.begin() + static_cast<std::ptrdiff_t>(first));
    const Region& begin = run.regions[j.group.regions.front()];
    j.span = {begin.beginNs, begin.endNs};
    for (std::uint32_t r : j.group.regions)
        j.span.endNs = std::max(j.span.endNs, workOf(run, launches, run.regions[r]).endNs);
    const std::string& firstName = run.regions[j.group.regions.front()].name;
    const std::string& lastName = run.regions[j.group.regions.back()].name;
    j.label = j.group.regions.size() == 1 ? "region '" + firstName + "'"
                                          : std::to_string(j.group.regions.size()) + " regions " + firstName + " to "
                                                + lastName;
    const Interval timed = timedRegion(run);
    j.setup = {timed.beginNs, std::max(timed.beginNs, j.span.beginNs)};
    j.setupText = setupWords(run, j.setup, first ? "setup and warm-up" : "setup");
    return j;
}

} // namespace

JudgedSpan judgedSpan(const Run& run)
{
    return isPipelineRun(run) ? whole(run) : judgedSpan(run, launchesOf(run));
}

JudgedSpan judgedSpan(const Run& run, const std::vector<Launch>& launches)
{
    if (isPipelineRun(run))
        return whole(run);
    // Steps are the work even where the trace holds no GPU op (a CPU-only
    // profile); the other rules weigh the GPU work.
    const std::vector<RegionGroup> groups = regionGroups(run);
    if (const RegionGroup* g = defaultGroup(run, groups, launches))
        return spanOfGroup(run, *g, launches, true);
    if (launches.empty())
        return whole(run, "no GPU work");
    return steadyState(run, launches);
}

JudgedSpan judgedSpanOf(const Run& run, const RegionGroup& group, bool leaveOutWarmUp)
{
    return spanOfGroup(run, group, group.regions.empty() ? std::vector<Launch>{} : launchesOf(run), leaveOutWarmUp);
}

JudgedSpan judgedSpanOf(const Run& run, const RegionGroup& group, const std::vector<Launch>& launches,
                        bool leaveOutWarmUp)
{
    return spanOfGroup(run, group, launches, leaveOutWarmUp);
}

std::vector<RegionGroup> regionGroups(const Run& run)
{
    std::vector<RegionGroup> groups;
    std::map<std::pair<std::string, int>, std::size_t> index; // (name, source) -> group
    for (std::uint32_t i = 0; i < run.regions.size(); ++i) {
        const Region& r = run.regions[i];
        if (r.source == RegionSource::Pipeline && r.depth > 0)
            continue;
        if (r.endNs <= r.beginNs)
            continue;
        const auto key = std::make_pair(groupName(r.name), static_cast<int>(r.source));
        auto [it, fresh] = index.emplace(key, groups.size());
        if (fresh)
            groups.push_back({key.first, {}});
        groups[it->second].regions.push_back(i);
    }
    for (RegionGroup& g : groups)
        std::stable_sort(g.regions.begin(), g.regions.end(), [&](std::uint32_t a, std::uint32_t b) {
            return run.regions[a].beginNs < run.regions[b].beginNs;
        });
    std::stable_sort(groups.begin(), groups.end(), [&](const RegionGroup& a, const RegionGroup& b) {
        return run.regions[a.regions.front()].beginNs < run.regions[b.regions.front()].beginNs;
    });
    return groups;
}

std::vector<RegionGroup> regionGroupsMatching(const Run& run, const std::string& pattern, std::string* error)
{
    std::vector<RegionGroup> matched;
    const std::vector<RegionGroup> groups = regionGroups(run);
    auto named = [&](const RegionGroup& g, auto&& test) {
        RegionGroup m{g.name, {}};
        for (std::uint32_t r : g.regions)
            if (test(g.name) || test(run.regions[r].name))
                m.regions.push_back(r);
        if (!m.regions.empty())
            matched.push_back(std::move(m));
    };
    for (const RegionGroup& g : groups)
        named(g, [&](const std::string& name) { return name == pattern; });
    if (!matched.empty())
        return matched;
    try {
        const std::regex re(pattern, std::regex::ECMAScript);
        // libstdc++'s matcher recurses per character: a name from a hostile
        // trace (megabytes long) would overflow the stack, and no region a
        // user names is that long.
        constexpr std::size_t kLongestMatchedName = 4096;
        for (const RegionGroup& g : groups)
            named(g, [&](const std::string& name) {
                return name.size() <= kLongestMatchedName && std::regex_match(name, re);
            });
    } catch (const std::regex_error& e) {
        if (error)
            *error = "'" + pattern + "' is neither a region's name nor a valid regular expression (" + e.what() + ")";
        return {};
    }
    return matched;
}

} // namespace ovs
