#include "formats/ChromeTraceExport.h"

#include "io/JsonFile.h"
#include "base/Saturating.h"
#include "formats/TraceJson.h"

#include <vector>

namespace ovs {

namespace {

// Chrome uses microseconds; three decimals keep every nanosecond.
constexpr int kMicrosecondDecimals = 3;

// Event times where the engine ran the op when that is known: queue time
// behind a busy engine is not transfer time.
double achievedGbps(const Op& op)
{
    const std::int64_t ns = op.hasExec() ? spanNs(op.execStartNs, op.execEndNs) : spanNs(op.startNs, op.endNs);
    return ns > 0 && op.bytes > 0 ? static_cast<double>(op.bytes) / static_cast<double>(ns) : 0.0;
}

std::string eventName(const Op& op)
{
    std::string name = toString(op.kind);
    if (op.chunk >= 0)
        name += " c" + std::to_string(op.chunk);
    return name;
}

void metadataEvent(JsonWriter& w, const char* name, int pid, int tid)
{
    w.member("name", name);
    w.member("ph", "M");
    w.member("pid", pid);
    w.member("tid", tid);
}

// The process name is written in parts: a run's name may be huge, and is
// streamed rather than copied.
void processMetadata(JsonWriter& w, const Run& run, int pid, int sortIndex, std::string_view nameTail,
                     const DeviceInfo* device)
{
    w.beginObject();
    metadataEvent(w, "process_name", pid, 0);
    w.key("args");
    w.beginObject();
    w.key("name");
    w.value({run.name, " \u2014 ", nameTail});
    // Viewers read only "name"; the rest travels for whoever reads the file.
    w.member("pipeline", run.pipeline);
    if (device) {
        w.member("device", device->label());
        w.member("simulated", device->simulated);
    }
    w.member("timing", run.timing);
    w.member("status", toString(run.status));
    if (!run.error.empty())
        w.member("error", run.error);
    w.member("timedBeginNs", run.timedBeginNs);
    w.member("timedEndNs", run.timedEndNs);
    w.member("wallNs", saturatingSub(run.timedEndNs, run.timedBeginNs));
    w.member("verification", run.verification.message);
    w.endObject();
    w.endObject();

    w.beginObject();
    metadataEvent(w, "process_sort_index", pid, 0);
    w.key("args");
    w.beginObject();
    w.member("sort_index", sortIndex);
    w.endObject();
    w.endObject();
}

// A single-GPU run is one process. A run on several GPUs is one process per
// device plus one for its host threads, as Nsight Systems and Perfetto show a
// multi-GPU node: lanes of one GPU together, host threads apart. Returns the
// pid of each lane.
std::vector<int> writeRunMetadata(JsonWriter& w, const Run& run, int& nextPid)
{
    std::vector<int> lanePid(run.lanes.size(), nextPid);
    if (run.deviceCount() == 1) {
        const int pid = nextPid++;
        processMetadata(w, run, pid, pid - 1, run.device.label(), &run.device);
    } else {
        const int hostPid = nextPid++;
        processMetadata(w, run, hostPid, hostPid - 1, "host", nullptr);
        std::vector<int> devicePid(static_cast<std::size_t>(run.deviceCount()));
        for (int d = 0; d < run.deviceCount(); ++d) {
            const int pid = nextPid++;
            devicePid[static_cast<std::size_t>(d)] = pid;
            processMetadata(w, run, pid, pid - 1,
                            "GPU " + std::to_string(d) + ": " + run.deviceAt(d).label(),
                            &run.deviceAt(d));
        }
        for (std::size_t lane = 0; lane < run.lanes.size(); ++lane) {
            const Lane& l = run.lanes[lane];
            const bool onDevice = l.kind == LaneKind::Stream && l.device < run.deviceCount();
            lanePid[lane] = onDevice ? devicePid[l.device] : hostPid;
        }
    }

    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane) {
        const int tid = static_cast<int>(lane) + 1;
        const int pid = lanePid[lane];
        w.beginObject();
        metadataEvent(w, "thread_name", pid, tid);
        w.key("args");
        w.beginObject();
        w.member("name", run.lanes[lane].name);
        // Viewers read only "name"; the kind travels as the process's extras do.
        if (run.lanes[lane].kind == LaneKind::Stream && run.lanes[lane].streamKind != StreamKind::Unknown)
            w.member("streamKind", toString(run.lanes[lane].streamKind));
        w.endObject();
        w.endObject();

        w.beginObject();
        metadataEvent(w, "thread_sort_index", pid, tid);
        w.key("args");
        w.beginObject();
        w.member("sort_index", static_cast<int>(lane));
        w.endObject();
        w.endObject();
    }
    return lanePid;
}

void writeOpEvent(JsonWriter& w, const Run& run, std::size_t opIndex, int pid)
{
    const Op& op = run.ops[opIndex];
    w.beginObject();
    // A unified-memory op says which counter it is ("HtoD migration").
    w.member("name", op.kind == OpKind::UnifiedMemory ? run.nameOf(op) : eventName(op));
    w.member("cat", toString(op.kind));
    w.member("ph", "X");
    w.member("pid", pid);
    // Thread ids start at 1: some viewers treat tid 0 as special.
    w.member("tid", static_cast<int>(op.lane) + 1);
    w.key("ts");
    w.decimal(op.startNs, kMicrosecondDecimals);
    w.key("dur");
    w.decimal(saturatingSub(op.endNs, op.startNs), kMicrosecondDecimals);
    w.key("args");
    w.beginObject();
    w.member("chunk", op.chunk);
    w.member(run.countsFaults(opIndex) ? "faults" : "bytes", op.bytes);
    w.member("memory", toString(op.memory));
    if (op.kind != OpKind::UnifiedMemory) // the driver's migrations: no engine rate to speak of
        w.member("GB/s", achievedGbps(op));
    if (op.hasExec()) {
        w.member("execStartNs", op.execStartNs);
        w.member("execEndNs", op.execEndNs);
    }
    w.endObject();
    w.endObject();
}

// A run's regions without a thread (a profiler range, a step) get a track of
// their own after the lanes, in the process of the run's host threads.
int regionTrackTid(const Run& run) { return static_cast<int>(run.lanes.size()) + 1; }

bool hasRegionsWithoutLane(const Run& run)
{
    for (const Region& region : run.regions)
        if (region.lane == Region::kNoLane || region.lane >= run.lanes.size())
            return true;
    return false;
}

void writeRegionTrackMetadata(JsonWriter& w, const Run& run, int pid)
{
    const int tid = regionTrackTid(run);
    w.beginObject();
    metadataEvent(w, "thread_name", pid, tid);
    w.key("args");
    w.beginObject();
    w.member("name", "regions");
    w.endObject();
    w.endObject();
    w.beginObject();
    metadataEvent(w, "thread_sort_index", pid, tid);
    w.key("args");
    w.beginObject();
    w.member("sort_index", tid - 1);
    w.endObject();
    w.endObject();
}

// A region is a complete event on its thread's track, so the viewer nests it
// with the thread's ops (an NVTX range around the API calls made inside it)
// and with the regions inside it. Regions are written before the ops and in
// (begin, depth) order, the enclosing one first: viewers that break ties in
// file order then still put the parent above its children.
void writeRegionEvent(JsonWriter& w, const Region& region, int pid, int tid)
{
    w.beginObject();
    w.member("name", region.name);
    w.member("cat", "region");
    w.member("ph", "X");
    w.member("pid", pid);
    w.member("tid", tid);
    w.key("ts");
    w.decimal(region.beginNs, kMicrosecondDecimals);
    w.key("dur");
    w.decimal(saturatingSub(region.endNs, region.beginNs), kMicrosecondDecimals);
    w.key("args");
    w.beginObject();
    w.member("source", toString(region.source));
    w.member("depth", static_cast<int>(region.depth));
    w.endObject();
    w.endObject();
}

void writeRegions(JsonWriter& w, const Run& run, const std::vector<int>& lanePid, int hostPid)
{
    if (run.regions.empty())
        return;
    if (hasRegionsWithoutLane(run))
        writeRegionTrackMetadata(w, run, hostPid);
    for (const Region& region : run.regions) {
        if (region.lane < lanePid.size())
            writeRegionEvent(w, region, lanePid[region.lane], static_cast<int>(region.lane) + 1);
        else
            writeRegionEvent(w, region, hostPid, regionTrackTid(run));
    }
}

void writeSweeps(JsonWriter& w, const Trace& trace)
{
    w.beginArray();
    for (const auto& sweep : trace.sweeps) {
        w.beginObject();
        w.member("device", sweep.device.label());
        w.member("simulated", sweep.device.simulated);
        w.member("timing", sweep.timing);
        w.member("warmups", sweep.warmups);
        w.member("samples", sweep.samples);
        w.key("points");
        w.beginArray();
        for (const auto& point : sweep.points) {
            w.beginObject();
            w.member("bytes", point.bytes);
            w.member("memory", toString(point.memory));
            w.member("direction", point.direction);
            w.member("medianMs", point.medianMs);
            w.member("gbps", point.gbps);
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
}

// The whole document; callers add the final line break.
void writeChromeJson(JsonWriter& w, const Trace& trace)
{
    w.beginObject();
    w.key("traceEvents");
    w.beginArray();
    int nextPid = 1;
    for (const Run& run : trace.runs) {
        // The run's first process is its only one, or its host threads'.
        const int hostPid = nextPid;
        const std::vector<int> lanePid = writeRunMetadata(w, run, nextPid);
        writeRegions(w, run, lanePid, hostPid);
        for (std::size_t i = 0; i < run.ops.size(); ++i) {
            const Op& op = run.ops[i];
            writeOpEvent(w, run, i, op.lane < lanePid.size() ? lanePid[op.lane] : lanePid.empty() ? nextPid - 1 : lanePid[0]);
        }
    }
    w.endArray();
    w.member("displayTimeUnit", "ns");
    w.key("otherData");
    w.beginObject();
    w.member("tool", trace.tool);
    w.member("created", trace.createdUtc);
    w.member("source", "OverlapScope trace format version " + std::to_string(trace.formatVersion()));
    w.key("bandwidthSweeps");
    writeSweeps(w, trace);
    w.endObject();
    w.endObject();
}

} // namespace

std::string traceToChromeJson(const Trace& trace)
{
    std::size_t opCount = 0;
    for (const auto& run : trace.runs)
        opCount += run.ops.size();
    std::string out;
    out.reserve(4096 + opCount * 200);
    JsonWriter w(out);
    writeChromeJson(w, trace);
    out.push_back('\n');
    return out;
}

bool exportChromeTrace(const Trace& trace, const std::string& path, std::string* error)
{
    return writeJsonFile(path, [&trace](JsonWriter& w) { writeChromeJson(w, trace); }, error);
}

} // namespace ovs
