#include "formats/CsvExport.h"

#include "io/AtomicFileWriter.h"
#include "io/JsonWriter.h"
#include "base/Saturating.h"

#include <array>
#include <charconv>

namespace ovs {

namespace {

constexpr std::size_t kChunkBytes = std::size_t(1) << 16;

constexpr std::string_view kHeader = "run,lane,lane_kind,kind,chunk,start_ns,end_ns,duration_ns,bytes,memory,gbps,"
                                     "exec_start_ns,exec_end_ns,device\n";

template <typename T>
void appendInteger(std::string& out, T value)
{
    std::array<char, 24> buffer;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    out.append(buffer.data(), result.ptr);
}

// Engine times where known: queue time behind a busy engine is not transfer
// time. Three decimals of GB/s is finer than any measurement we make.
void appendGbps(std::string& out, const Op& op)
{
    const std::int64_t ns = op.hasExec() ? spanNs(op.execStartNs, op.execEndNs) : spanNs(op.startNs, op.endNs);
    // A unified-memory fault op's bytes is a count (Op.h): no rate.
    if (ns <= 0 || op.bytes == 0 || op.kind == OpKind::UnifiedMemory)
        return;
    std::array<char, 64> buffer;
    const double gbps = static_cast<double>(op.bytes) / static_cast<double>(ns);
    const auto result =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), gbps, std::chars_format::fixed, 3);
    out.append(buffer.data(), result.ptr);
}

// JSON escapes every line break and control character, so a name of any
// content stays on its comment line.
// `sink` takes what `out` holds whenever the writer drains it, so a name of
// hundreds of MiB is streamed rather than copied whole into `out`.
void appendRunLine(std::string& out, const Run& run, std::size_t index,
                   const std::function<void(std::string_view)>& sink)
{
    out.append("# run ");
    appendInteger(out, index);
    out.append(": ");
    JsonWriter w(out, sink);
    w.beginObject();
    w.member("name", run.name);
    w.member("pipeline", run.pipeline);
    w.member("device", run.device.label());
    w.member("simulated", run.device.simulated);
    w.member("status", toString(run.status));
    if (run.deviceCount() > 1) {
        w.key("devices");
        w.beginArray();
        for (int i = 0; i < run.deviceCount(); ++i)
            w.value(run.deviceAt(i).label());
        w.endArray();
    }
    w.key("lanes");
    w.beginArray();
    for (const auto& lane : run.lanes) {
        w.beginObject();
        w.member("name", lane.name);
        w.member("kind", toString(lane.kind));
        if (run.deviceCount() > 1 && lane.kind == LaneKind::Stream)
            w.member("device", static_cast<int>(lane.device));
        w.endObject();
    }
    w.endArray();
    w.endObject();
    out.push_back('\n');
}

void appendRow(std::string& out, const Run& run, std::size_t runIndex, const Op& op)
{
    appendInteger(out, runIndex);
    out.push_back(',');
    appendInteger(out, op.lane);
    out.push_back(',');
    if (op.lane < run.lanes.size())
        out.append(toString(run.lanes[op.lane].kind));
    out.push_back(',');
    out.append(toString(op.kind));
    out.push_back(',');
    appendInteger(out, op.chunk);
    out.push_back(',');
    appendInteger(out, op.startNs);
    out.push_back(',');
    appendInteger(out, op.endNs);
    out.push_back(',');
    appendInteger(out, saturatingSub(op.endNs, op.startNs));
    out.push_back(',');
    appendInteger(out, op.bytes);
    out.push_back(',');
    out.append(toString(op.memory));
    out.push_back(',');
    appendGbps(out, op);
    out.push_back(',');
    if (op.hasExec()) {
        appendInteger(out, op.execStartNs);
        out.push_back(',');
        appendInteger(out, op.execEndNs);
    } else {
        out.push_back(',');
    }
    // The GPU a stream lane's op ran on; host ops run on the host, shared by all.
    out.push_back(',');
    if (op.lane < run.lanes.size() && run.lanes[op.lane].kind == LaneKind::Stream)
        appendInteger(out, run.lanes[op.lane].device);
    out.push_back('\n');
}

} // namespace

void writeCsv(const Trace& trace, const std::function<void(std::string_view)>& sink)
{
    std::string chunk = "# OverlapScope ops: one row per op; names in the '# run' lines (docs/csv-format.md)\n";
    const auto drainIfFull = [&] {
        if (chunk.size() >= kChunkBytes) {
            sink(chunk);
            chunk.clear();
        }
    };
    for (std::size_t r = 0; r < trace.runs.size(); ++r) {
        appendRunLine(chunk, trace.runs[r], r, sink);
        drainIfFull();
    }
    chunk.append(kHeader);
    for (std::size_t r = 0; r < trace.runs.size(); ++r) {
        const Run& run = trace.runs[r];
        for (const Op& op : run.ops) {
            appendRow(chunk, run, r, op);
            drainIfFull();
        }
    }
    if (!chunk.empty())
        sink(chunk);
}

std::string traceToCsv(const Trace& trace)
{
    std::string out;
    writeCsv(trace, [&out](std::string_view text) { out.append(text); });
    return out;
}

bool exportCsv(const Trace& trace, const std::string& path, std::string* error)
{
    AtomicFileWriter file;
    bool ok = file.open(path);
    if (ok) {
        writeCsv(trace, [&file](std::string_view text) { file.write(text); });
        ok = file.commit();
    }
    if (!ok && error)
        *error = file.error();
    return ok;
}

} // namespace ovs
