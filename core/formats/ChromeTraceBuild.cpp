// Building the trace from the importer's pending ops and ranges: one run
// per host process that called CUDA, lanes per thread and stream, ranges
// nested on their lanes, and the one-line summary of what was read.

#include "formats/ChromeTraceImporter.h"

#include "base/MessageText.h"
#include "base/ParallelWork.h"
#include "base/SortedRuns.h"

#include <algorithm>
#include <future>
#include <limits>
#include <unordered_set>

namespace ovs {

namespace {

// CUPTI reports the legacy default (NULL) stream of a context as stream 7 in
// the traces PyTorch writes; streams the program creates get other ids.
constexpr std::int64_t kLegacyDefaultStream = 7;

} // namespace

ChromeTraceImport ChromeTraceImporter::build()
{
    if (m_pending.empty())
        throw JsonReadError{"the trace holds no GPU work: no kernel, memcpy, memset or CUDA API event "
                            "(categories kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver)"};
    const RunsOfPids runsOf(*this);
    const std::int64_t first = firstTime();
    attributeSources(); // on the file's own times, before groupByLane moves the ops'
    const std::size_t pythonFrames = static_cast<std::size_t>(
        std::count_if(m_frames.begin(), m_frames.end(), [](const PendingFrame& f) { return f.python; }));
    const std::size_t frameworkOps = m_frames.size() - pythonFrames;
    m_frames.clear();
    m_frames.shrink_to_fit();
    std::map<LaneKey, LaneOps> byLane = groupByLane(runsOf, first);
    ChromeTraceImport result;
    std::vector<Run>& runs = result.trace.runs;
    runs.resize(runsOf.pids.size());
    std::map<LaneKey, std::uint16_t> laneOfKey; // the lane of each key's first op
    std::vector<std::vector<std::int64_t>> gpusOfRun(runs.size());
    std::size_t splitLanes = 0;
    const std::vector<LanePlace> places = placeOnLanes(runs, byLane, laneOfKey, gpusOfRun, splitLanes);
    const RegionCounts regionCounts = countRegions();
    // The ops copied to their places on the other core while this one
    // builds the ranges (neither reads what the other writes).
    std::future<void> copied =
        std::async(launchPolicyFor(m_pending.size()), [&] { copyToRuns(runs, places); });
    buildRegions(runs, runsOf.regionRuns, laneOfKey, first);
    copied.get();
    m_pending.release();
    describeRuns(runs, runsOf.pids, gpusOfRun, first);
    result.events = m_events;
    result.summary = summary(splitLanes, regionCounts, pythonFrames, frameworkOps);
    return result;
}

// One run per host process that called CUDA (one when none did). GPU work
// goes to the process whose API call has its correlation id; work nobody
// claims goes to the first.
ChromeTraceImporter::RunsOfPids::RunsOfPids(const ChromeTraceImporter& importer)
{
    for (const auto& [pid, unused] : importer.m_hostPids)
        pids.push_back(pid);
    if (pids.empty())
        pids.push_back(std::numeric_limits<std::int64_t>::min());
    if (pids.size() > 1) {
        importer.m_pending.forEach([&](const Pending& p) {
            if (!p.gpu)
                runOfCorrelation.add(p.op.correlation, runOfPid(p.a));
        });
        runOfCorrelation.finish();
    }
    regionRuns = importer.runsOfRegions(pids);
}

std::uint32_t ChromeTraceImporter::RunsOfPids::runOfPid(std::int64_t pid) const
{
    return static_cast<std::uint32_t>(std::lower_bound(pids.begin(), pids.end(), pid) - pids.begin());
}

std::uint32_t ChromeTraceImporter::RunsOfPids::runOf(const Pending& p) const
{
    if (pids.size() == 1)
        return 0;
    if (!p.gpu)
        return runOfPid(p.a);
    const std::uint32_t run = runOfCorrelation.find(p.op.correlation);
    return run == CorrelationMap::kNone ? 0 : run;
}

// Times count from the first event of the file, for every run alike.
std::int64_t ChromeTraceImporter::firstTime() const
{
    const std::int64_t first = m_firstNs, last = m_lastNs; // kept as the ops and ranges came
    const bool spanOverflows = first < 0 && last > std::numeric_limits<std::int64_t>::max() + first;
    if (spanOverflows || last - first >= Trace::kTimeLimitNs)
        throw JsonReadError{"the trace spans more than 2^62 ns (146 years) from its first event to its last"};
    return first;
}

// The pending ops' indices by lane, their times made relative to `first`.
// A thread or stream that only opened ranges gets its lane too: the range
// is drawn where it was opened.
std::map<ChromeTraceImporter::LaneKey, ChromeTraceImporter::LaneOps> ChromeTraceImporter::groupByLane(const RunsOfPids& runsOf, std::int64_t first)
{
    std::map<LaneKey, LaneOps> byLane;
    // The lane of the host op and of the GPU op before, kept: most ops
    // follow one of their own lane (a thread's calls, a stream's kernels;
    // Kineto writes a kernel and its launch one after the other), and a
    // map lookup per op was half of this walk over millions.
    LaneKey lastKey[2];
    LaneOps* lastLane[2] = {nullptr, nullptr};
    LaterIds* later = m_laterIds ? &*m_laterIds : nullptr;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        Pending& p = m_pending[i];
        if (later && i >= later->from)
            renumber(p, *later);
        p.op.startNs -= first;
        p.op.endNs -= first;
        if (p.gpu) {
            p.op.execStartNs = p.op.startNs;
            p.op.execEndNs = p.op.endNs;
        }
        const LaneKey key{runsOf.runOf(p), p.gpu, p.a, p.b};
        LaneKey& last = lastKey[p.gpu];
        LaneOps*& lane = lastLane[p.gpu];
        if (!lane || key.run != last.run || key.a != last.a || key.b != last.b) {
            last = key;
            lane = &byLane[key];
        }
        if (std::tie(p.op.startNs, p.op.endNs) < std::tie(lane->lastStartNs, lane->lastEndNs))
            lane->inTimeOrder = false;
        lane->lastStartNs = p.op.startNs;
        lane->lastEndNs = p.op.endNs;
        lane->shapes = lane->shapes || p.shape > 0;
        lane->sources = lane->sources || !p.source.empty();
        lane->indices.push_back(static_cast<std::uint32_t>(i));
    }
    m_laterIds.reset();
    for (std::size_t i = 0; i < m_regions.size(); ++i)
        byLane.try_emplace({runsOf.regionRuns[i], m_regions[i].gpu, m_regions[i].a, m_regions[i].b});
    return byLane;
}

std::string ChromeTraceImporter::laneName(const LaneKey& key) const
{
    if (key.gpu)
        return "GPU " + std::to_string(key.a) + " stream " + std::to_string(key.b)
               + (key.b == kLegacyDefaultStream ? " (legacy default)" : "");
    const auto threadName = m_threadNames.find({key.a, key.b});
    return threadName != m_threadNames.end() ? messageText(threadName->second, 80) : "thread " + std::to_string(key.b);
}

// Each key's ops into its run, by start time, on the key's lanes. A lane
// runs one op at a time: where ops overlap (API calls nested in others,
// clock rounding), the later one moves to an extra lane. A stream lane's
// device is its GPU's place in gpusOfRun[its run], the CUDA ordinals
// (Kineto's `device`) of the run's stream lanes, rising: the run's devices
// (describeRuns).
//
// A big run's arrays are made at their full size on the other core while
// this one orders each lane's ops and numbers its lanes: faulting in the
// pages of 3.6 M ops (200 MB, and their shapes and call sites) was about
// half of this walk's samples, on one core, with the other idle. Returns
// where each lane's ops go (copyToRuns copies them there); `splitLanes`:
// how many extra lanes were made.
std::vector<ChromeTraceImporter::LanePlace> ChromeTraceImporter::placeOnLanes(
    std::vector<Run>& runs, std::map<LaneKey, LaneOps>& byLane, std::map<LaneKey, std::uint16_t>& laneOfKey,
    std::vector<std::vector<std::int64_t>>& gpusOfRun, std::size_t& splitLanes)
{
    std::vector<std::size_t> opsOfRun(runs.size(), 0);
    // Whether an op of each run has a launch shape, a call source: the
    // run's tables of them are empty where none has (Run.h).
    std::vector<char> shapesOfRun(runs.size(), 0), sourcesOfRun(runs.size(), 0);
    for (const auto& [key, lane] : byLane) {
        opsOfRun[key.run] += lane.indices.size();
        shapesOfRun[key.run] |= lane.shapes;
        sourcesOfRun[key.run] |= lane.sources;
    }
    std::future<void> made = std::async(launchPolicyFor(m_pending.size()), [&] {
        for (std::size_t r = 0; r < runs.size(); ++r) {
            runs[r].ops.resize(opsOfRun[r]);
            if (shapesOfRun[r])
                runs[r].opShapes.resize(opsOfRun[r], 0);
            if (sourcesOfRun[r])
                runs[r].opSources.resize(opsOfRun[r]);
        }
    });
    // Each run holds the whole (small) tables: ids stay the importer's.
    for (std::size_t r = 0; r < runs.size(); ++r) {
        if (shapesOfRun[r])
            runs[r].kernelShapes = m_shapes.shapes();
        if (sourcesOfRun[r])
            runs[r].sourceSites = m_sites;
    }
    // Where each lane's ops go: its run, and its first place in the run's ops.
    std::vector<LanePlace> places;
    std::vector<std::size_t> placed(runs.size(), 0);
    splitLanes = 0;
    std::vector<std::unordered_set<std::string>> namesOfRun(runs.size());
    for (auto& [key, laneOps] : byLane) {
        Run& run = runs[key.run]; // its lanes; its ops and their tables are the other core's until `made`
        std::vector<std::uint32_t>& indices = laneOps.indices;
        // Each lane's events come in time order within each part of the file
        // (the two halves of a windowed read, Kineto's CPU and GPU
        // sections), and nearly always across them (groupByLane saw which):
        // merged by run, not sorted again (base/SortedRuns.h); stable, as
        // std::stable_sort was.
        if (!laneOps.inTimeOrder)
            sortSortedRuns(indices, [&](std::uint32_t x, std::uint32_t y) {
                return std::tie(m_pending[x].op.startNs, m_pending[x].op.endNs)
                       < std::tie(m_pending[y].op.startNs, m_pending[y].op.endNs);
            });
        const std::string name = laneName(key);
        // Keys come by run, host before GPU, then by ordinal: each run's
        // GPUs are met in rising order.
        std::vector<std::int64_t>& gpus = gpusOfRun[key.run];
        if (key.gpu && (gpus.empty() || gpus.back() != key.a)) {
            if (gpus.size() >= kMaxLanes)
                throw JsonReadError{"the trace has more than 65535 GPUs in one process"};
            gpus.push_back(key.a);
        }
        // Kineto's events do not say how the program made its streams; only
        // the legacy default stream is known by its id.
        const Lane lane{name, key.gpu ? LaneKind::Stream : LaneKind::HostThread,
                        static_cast<std::uint16_t>(key.gpu ? gpus.size() - 1 : 0),
                        key.gpu && key.b == kLegacyDefaultStream ? StreamKind::LegacyDefault : StreamKind::Unknown};
        const LaneKey laneKey = key; // `key` is a structured binding, which clang before 16 lets no lambda capture
        const auto addLane = [&](std::size_t sub) {
            if (run.lanes.size() >= kMaxLanes)
                throw JsonReadError{"the trace needs more than 65535 lanes in one process"};
            run.lanes.push_back(lane);
            std::string& named = run.lanes.back().name;
            if (sub > 0)
                named += " (" + std::to_string(sub + 1) + ")";
            // A run's lanes are named apart (a native trace refuses two of
            // one name): a thread named as another of the run (two threads
            // given one name, or the thread of another process whose
            // ranges the run holds) is told apart by its process and
            // thread ids, then by a count.
            if (!namesOfRun[laneKey.run].insert(named).second) {
                const std::string base = laneKey.gpu ? named
                                                     : named + " (pid " + std::to_string(laneKey.a) + ", tid "
                                                           + std::to_string(laneKey.b) + ")";
                named = base;
                for (std::size_t k = 2; !namesOfRun[laneKey.run].insert(named).second; ++k)
                    named = base + " [" + std::to_string(k) + "]";
            }
        };
        std::vector<std::int64_t> laneEnds;
        const std::size_t firstLane = run.lanes.size();
        if (indices.empty()) // ranges only
            addLane(0);
        laneOfKey.emplace(key, static_cast<std::uint16_t>(firstLane));
        for (std::uint32_t i : indices) {
            Pending& p = m_pending[i];
            std::size_t sub = 0;
            while (sub < laneEnds.size() && laneEnds[sub] > p.op.startNs)
                ++sub;
            if (sub == laneEnds.size()) {
                addLane(sub);
                laneEnds.push_back(p.op.endNs);
                splitLanes += sub > 0;
            }
            laneEnds[sub] = p.op.endNs;
            p.op.lane = static_cast<std::uint16_t>(firstLane + sub);
        }
        if (!indices.empty())
            places.push_back({&indices, key.run, placed[key.run]});
        placed[key.run] += indices.size();
    }
    made.get(); // rethrows where an array could not be made
    return places;
}

// The pending ops copied to their places (placeOnLanes), with their shapes
// and call sites. Writes the runs' ops and their tables only.
void ChromeTraceImporter::copyToRuns(std::vector<Run>& runs, const std::vector<LanePlace>& places) const
{
    for (const LanePlace& place : places) {
        Run& run = runs[place.run];
        std::size_t at = place.at;
        for (const std::uint32_t i : *place.indices) {
            const Pending& p = m_pending[i];
            run.ops[at] = p.op;
            if (p.shape > 0)
                run.opShapes[at] = p.shape;
            if (!p.source.empty())
                run.opSources[at] = p.source;
            ++at;
        }
    }
}

ChromeTraceImporter::RegionCounts ChromeTraceImporter::countRegions() const
{
    RegionCounts counts;
    counts.all = m_regions.size();
    for (const PendingRegion& r : m_regions) {
        counts.steps += r.source == RegionSource::ProfilerStep;
        counts.annotations += r.source == RegionSource::Annotation;
        counts.gpuAnnotations += r.source == RegionSource::GpuAnnotation;
    }
    return counts;
}

std::string ChromeTraceImporter::sourceName() const
{
    return m_kineto ? "PyTorch profiler (Kineto) trace" : "Chrome trace";
}

// Each run's name (its process), rank, clock, devices, timing and span;
// its ops sorted. `first`: the file's first time, the runs' time 0.
// `gpusOfRun`: each run's GPUs by CUDA ordinal (placeOnLanes).
void ChromeTraceImporter::describeRuns(std::vector<Run>& runs, const std::vector<std::int64_t>& runPids,
                                       const std::vector<std::vector<std::int64_t>>& gpusOfRun, std::int64_t first) const
{
    for (std::size_t r = 0; r < runs.size(); ++r) {
        Run& run = runs[r];
        const std::int64_t pid = runPids[r];
        const bool known = pid != std::numeric_limits<std::int64_t>::min();
        const auto processName = m_processNames.find(pid);
        run.name = known ? (processName != m_processNames.end() ? messageText(processName->second, 80) + " (pid "
                                                                      + std::to_string(pid) + ")"
                                                                : "process " + std::to_string(pid))
                         : "GPU work";
        run.pipeline = m_kineto ? "pytorch" : "chrome-trace";
        run.rank = m_rank;
        // Kineto's ts is wall-clock time (from baseTimeNanoseconds where
        // given), which the ranks of one job share; a plain Chrome trace's
        // clock is its own.
        std::int64_t origin = 0;
        if (m_kineto && !__builtin_add_overflow(m_baseTimeNs.value_or(0), first, &origin))
            run.sharedClockOriginNs = origin;
        run.timing = "cupti (imported)";
        run.names = m_names;
        run.stacksRecorded = m_stacks;
        std::int64_t end = 0;
        for (const Op& op : run.ops)
            end = std::max(end, op.endNs);
        for (const Region& region : run.regions)
            end = std::max(end, region.endNs);
        run.timedBeginNs = 0;
        run.timedEndNs = end;
        run.verification.message = "not verified: imported from a " + sourceName();
        // The run's devices are the GPUs its streams ran on, lowest ordinal
        // first, each lane saying which (Lane::device indexes them). A run
        // without GPU lanes (a process that only called CUDA) has the
        // file's first GPU.
        const std::vector<std::int64_t>& gpus = gpusOfRun[r];
        if (!gpus.empty()) {
            run.device = deviceOf(gpus.front());
            for (std::size_t d = 1; d < gpus.size(); ++d)
                run.moreDevices.push_back(deviceOf(gpus[d]));
        } else if (!m_devices.empty() || !m_gpuDevices.empty()) {
            run.device = deviceOf(m_gpuDevices.empty() ? m_devices.begin()->first : m_gpuDevices.begin()->first);
        }
        run.sortOps();
    }
}

// The GPU of CUDA ordinal `ordinal`, as the trace's deviceProperties
// describe it; named by its ordinal where they do not.
DeviceInfo ChromeTraceImporter::deviceOf(std::int64_t ordinal) const
{
    DeviceInfo device;
    if (const auto info = m_devices.find(ordinal); info != m_devices.end())
        device = info->second;
    if (device.name.empty())
        device.name = "GPU " + std::to_string(ordinal);
    return device;
}

// "imported from a ...: N GPU ops and M CUDA API calls; ...; skipped ..."
std::string ChromeTraceImporter::summary(std::size_t splitLanes, const RegionCounts& regions, std::size_t pythonFrames,
                                         std::size_t frameworkOps) const
{
    std::string text = "imported from a " + sourceName() + ": " + std::to_string(m_gpuOps) + " GPU ops and "
                       + std::to_string(m_apiCalls) + " CUDA API calls";
    if (splitLanes > 0)
        text += "; " + std::to_string(splitLanes) + " extra lanes for overlapping ops";
    if (regions.all > 0)
        text += "; " + std::to_string(regions.all) + " regions (" + std::to_string(regions.steps) + " profiler steps, "
                + std::to_string(regions.annotations) + " annotations, " + std::to_string(regions.gpuAnnotations)
                + " GPU annotations)";
    // The events read for where the calls came from (ChromeTraceSources.cpp).
    if (pythonFrames > 0 || frameworkOps > 0)
        text += "; call sites from " + std::to_string(pythonFrames) + " Python frames and " + std::to_string(frameworkOps)
                + " framework ops";
    if (m_badFrames > 0)
        text += "; left out " + std::to_string(m_badFrames) + " frames without times or names";
    if (!m_badRegions.empty()) {
        std::size_t bad = 0;
        std::string why;
        for (const auto& [what, count] : m_badRegions) {
            bad += count;
            why += (why.empty() ? "" : ", ") + what + " " + std::to_string(count);
        }
        text += "; left out " + std::to_string(bad) + " malformed annotations (" + why + ")";
    }
    std::size_t skipped = 0;
    std::string kinds;
    for (const auto& [what, count] : m_skipped) {
        skipped += count;
        if (kinds.size() < 160)
            kinds += (kinds.empty() ? "" : ", ") + what + " " + std::to_string(count);
    }
    if (skipped > 0)
        text += "; skipped " + std::to_string(skipped) + " other events (" + kinds + ")";
    return text;
}

// A host range belongs to its process's run (the first run when that
// process made no CUDA call); a GPU annotation to the run of the host range
// with its External id, else the first.
std::vector<std::uint32_t> ChromeTraceImporter::runsOfRegions(const std::vector<std::int64_t>& runPids) const
{
    const auto runOfPid = [&](std::int64_t pid) -> std::uint32_t {
        const auto it = std::lower_bound(runPids.begin(), runPids.end(), pid);
        return it != runPids.end() && *it == pid ? static_cast<std::uint32_t>(it - runPids.begin()) : 0;
    };
    std::unordered_map<std::int64_t, std::uint32_t> runOfExternalId;
    if (runPids.size() > 1)
        for (const PendingRegion& r : m_regions)
            if (!r.gpu && r.externalId != 0)
                runOfExternalId.emplace(r.externalId, runOfPid(r.a));
    std::vector<std::uint32_t> runs;
    runs.reserve(m_regions.size());
    for (const PendingRegion& r : m_regions) {
        if (runPids.size() == 1) {
            runs.push_back(0);
        } else if (!r.gpu) {
            runs.push_back(runOfPid(r.a));
        } else {
            const auto it = runOfExternalId.find(r.externalId);
            runs.push_back(it == runOfExternalId.end() ? 0 : it->second);
        }
    }
    return runs;
}

// Each range on its lane (a thread's first lane, its extra lanes being
// the same thread), nested by time: a range that begins inside another
// still open on that thread is one level deeper.
void ChromeTraceImporter::buildRegions(std::vector<Run>& runs, const std::vector<std::uint32_t>& regionRuns,
                            const std::map<LaneKey, std::uint16_t>& laneOfKey, std::int64_t first)
{
    for (std::size_t i = 0; i < m_regions.size(); ++i) {
        const PendingRegion& r = m_regions[i];
        Run& run = runs[regionRuns[i]];
        Region region;
        region.name = m_regionNames[r.nameId];
        region.beginNs = r.beginNs - first;
        region.endNs = r.endNs - first;
        region.lane = laneOfKey.at({regionRuns[i], r.gpu, r.a, r.b});
        region.source = r.source;
        run.regions.push_back(std::move(region));
    }
    m_regions.clear();
    m_regions.shrink_to_fit();
    for (Run& run : runs) {
        std::vector<Region>& regions = run.regions;
        // Outer ranges first where two begin together: the longer holds the shorter.
        std::stable_sort(regions.begin(), regions.end(), [](const Region& x, const Region& y) {
            return std::tuple(x.lane, x.beginNs, y.endNs) < std::tuple(y.lane, y.beginNs, x.endNs);
        });
        std::vector<std::int64_t> open; // ends of the ranges open on the lane
        for (std::size_t i = 0; i < regions.size(); ++i) {
            if (i == 0 || regions[i].lane != regions[i - 1].lane)
                open.clear();
            // Ranges that overlap without nesting close in any order.
            std::erase_if(open, [&](std::int64_t end) { return end <= regions[i].beginNs; });
            regions[i].depth = static_cast<std::uint16_t>(std::min<std::size_t>(open.size(), 0xFFFF));
            open.push_back(regions[i].endNs);
        }
        std::stable_sort(regions.begin(), regions.end(), [](const Region& x, const Region& y) {
            return std::tuple(x.beginNs, x.depth, x.lane) < std::tuple(y.beginNs, y.depth, y.lane);
        });
    }
}

} // namespace ovs
