#include "trace/ChromeTraceExport.h"

#include "trace/JsonFile.h"
#include "trace/Saturating.h"
#include "trace/TraceJson.h"

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

void writeRunMetadata(JsonWriter& w, const Run& run, int pid, int sortIndex)
{
    w.beginObject();
    metadataEvent(w, "process_name", pid, 0);
    w.key("args");
    w.beginObject();
    const std::string device = run.device.label();
    w.key("name");
    w.value({run.name, " \u2014 ", device});
    // Viewers read only "name"; the rest travels for whoever reads the file.
    w.member("pipeline", run.pipeline);
    w.member("device", run.device.label());
    w.member("simulated", run.device.simulated);
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

    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane) {
        const int tid = static_cast<int>(lane) + 1;
        w.beginObject();
        metadataEvent(w, "thread_name", pid, tid);
        w.key("args");
        w.beginObject();
        w.member("name", run.lanes[lane].name);
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
}

void writeOpEvent(JsonWriter& w, const Op& op, int pid)
{
    w.beginObject();
    w.member("name", eventName(op));
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
    w.member("bytes", op.bytes);
    w.member("memory", toString(op.memory));
    w.member("GB/s", achievedGbps(op));
    if (op.hasExec()) {
        w.member("execStartNs", op.execStartNs);
        w.member("execEndNs", op.execEndNs);
    }
    w.endObject();
    w.endObject();
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
    for (std::size_t i = 0; i < trace.runs.size(); ++i) {
        const Run& run = trace.runs[i];
        const int pid = static_cast<int>(i) + 1;
        writeRunMetadata(w, run, pid, static_cast<int>(i));
        for (const auto& op : run.ops)
            writeOpEvent(w, op, pid);
    }
    w.endArray();
    w.member("displayTimeUnit", "ns");
    w.key("otherData");
    w.beginObject();
    w.member("tool", trace.tool);
    w.member("created", trace.createdUtc);
    w.member("source", "OverlapScope trace format version " + std::to_string(Trace::kFormatVersion));
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
