#include "formats/TraceJson.h"

#include "io/AtomicFileWriter.h"
#include "formats/ChromeTraceImport.h"
#include "io/JsonFile.h"
#include "io/JsonReader.h"
#include "io/JsonWriter.h"
#include "base/MessageText.h"
#include "formats/NativeTraceReader.h"
#include "formats/NsightSchema.h"
#include "formats/NsightSqliteImport.h"
#include "formats/TraceFile.h"

#include <new>

namespace ovs {

namespace {

// ---- writing ----------------------------------------------------------------

void writeDevice(JsonWriter& w, const DeviceInfo& device)
{
    w.beginObject();
    w.member("name", device.name);
    w.member("simulated", device.simulated);
    w.member("preset", device.preset);
    w.member("detail", device.detail);
    w.member("asyncEngineCount", device.asyncEngineCount);
    w.member("totalMemoryBytes", device.totalMemoryBytes);
    // Optional, written only where known, so a trace without them reads as before.
    if (device.smCount > 0)
        w.member("smCount", device.smCount);
    if (device.computeCapability > 0)
        w.member("computeCapability", device.computeCapability);
    if (device.model) {
        const ModelRates& m = *device.model;
        w.key("model");
        w.beginObject();
        w.member("pinnedH2DGBps", m.pinnedH2DGBps);
        w.member("pinnedD2HGBps", m.pinnedD2HGBps);
        w.member("pageableH2DGBps", m.pageableH2DGBps);
        w.member("pageableD2HGBps", m.pageableD2HGBps);
        w.member("hostMemcpyGBps", m.hostMemcpyGBps);
        w.member("hostMemoryGBps", m.hostMemoryGBps);
        w.member("kernelGBps", m.kernelGBps);
        w.endObject();
    }
    w.endObject();
}

void writeParams(JsonWriter& w, const RunParams& params)
{
    w.beginObject();
    w.member("chunks", params.chunks);
    w.member("chunkBytes", params.chunkBytes);
    w.member("slots", params.slotCount);
    w.member("kernelRepeats", params.kernelRepeats);
    w.member("stagingThreads", params.stagingThreads);
    // Optional, written only where they differ from the default, so a run
    // without variants reads exactly as before they existed.
    if (params.issueOrder != IssueOrder::DepthFirst)
        w.member("issueOrder", toString(params.issueOrder));
    if (params.streamSync != StreamSync::NonBlocking)
        w.member("streamSync", toString(params.streamSync));
    if (params.defaultStreamOp != DefaultStreamOp::None)
        w.member("defaultStreamOp", toString(params.defaultStreamOp));
    if (params.loopAllocation != LoopAllocation::None)
        w.member("loopAllocation", toString(params.loopAllocation));
    w.endObject();
}

void writeVerification(JsonWriter& w, const Verification& verification)
{
    w.beginObject();
    w.member("checked", verification.checked);
    w.member("passed", verification.passed);
    w.member("mismatches", verification.mismatches);
    w.member("message", verification.message);
    w.endObject();
}

void writeLanes(JsonWriter& w, const Run& run)
{
    // Format 3 (a lane's device), written only for a run on several GPUs,
    // so a single-GPU run reads exactly as before.
    const bool severalDevices = run.usesSeveralDevices();
    w.beginArray();
    for (const auto& lane : run.lanes) {
        w.beginObject();
        w.member("name", lane.name);
        w.member("kind", toString(lane.kind));
        if (severalDevices && lane.kind == LaneKind::Stream)
            w.member("device", static_cast<int>(lane.device));
        // Optional, so files stay what older readers read; an unknown kind
        // is written only where the lane's name alone would read as the
        // legacy stream (see streamKindWithout), so every kind reads back.
        if (lane.kind == LaneKind::Stream && lane.streamKind != streamKindWithout(lane.name))
            w.member("streamKind", toString(lane.streamKind));
        w.endObject();
    }
    w.endArray();
}

void writeOp(JsonWriter& w, const Op& op)
{
    w.beginArray();
    w.value(toString(op.kind));
    w.value(op.lane);
    w.value(op.chunk);
    w.value(op.startNs);
    w.value(op.endNs);
    w.value(op.bytes);
    w.value(toString(op.memory));
    // Trailing elements are written only as far as the last one set.
    const int extra = op.correlation != 0 ? 4 : op.nameId != 0 ? 3 : op.hasExec() ? 2 : 0;
    if (extra >= 2) {
        if (op.hasExec()) {
            w.value(op.execStartNs);
            w.value(op.execEndNs);
        } else {
            w.value(nullptr);
            w.value(nullptr);
        }
    }
    if (extra >= 3)
        w.value(op.nameId);
    if (extra >= 4)
        w.value(op.correlation);
    w.endArray();
}

void writeRegion(JsonWriter& w, const Region& region)
{
    w.beginArray();
    w.value(toString(region.source));
    if (region.lane == Region::kNoLane)
        w.value(nullptr);
    else
        w.value(region.lane);
    w.value(region.depth);
    w.value(region.beginNs);
    w.value(region.endNs);
    w.value(region.name);
    w.endArray();
}

void writeRun(JsonWriter& w, const Run& run)
{
    w.beginObject();
    w.member("name", run.name);
    w.member("pipeline", run.pipeline);
    w.key("device");
    writeDevice(w, run.device);
    // Format 3, written only for a run on several GPUs.
    if (!run.moreDevices.empty()) {
        w.key("moreDevices");
        w.beginArray();
        for (const auto& device : run.moreDevices)
            writeDevice(w, device);
        w.endArray();
    }
    w.key("params");
    writeParams(w, run.params);
    w.member("timing", run.timing);
    w.member("status", toString(run.status));
    w.member("error", run.error);
    w.member("timedBeginNs", run.timedBeginNs);
    w.member("timedEndNs", run.timedEndNs);
    // Format 6, written only for a process of a distributed job: its rank,
    // and its time 0 on the clock the job's processes share.
    if (run.rank >= 0) {
        w.member("rank", static_cast<std::int64_t>(run.rank));
        if (run.sharedClockOriginNs)
            w.member("sharedClockOriginNs", *run.sharedClockOriginNs);
    }
    w.key("verification");
    writeVerification(w, run.verification);
    w.key("lanes");
    writeLanes(w, run);
    w.key("names");
    w.beginArray();
    if (run.names.empty())
        w.value("");
    for (const auto& name : run.names)
        w.value(name);
    w.endArray();
    w.key("ops");
    w.beginArray();
    for (const auto& op : run.ops)
        writeOp(w, op);
    w.endArray();
    // Format 7, written only for a run with kernels' launch shapes: each
    // distinct shape once, then [op, shape] for each op that has one (op:
    // its index in "ops"; shape: its index in "kernelShapes").
    if (run.usesKernelShapes()) {
        w.key("kernelShapes");
        w.beginArray();
        for (const KernelShape& shape : run.kernelShapes) {
            w.beginArray();
            for (const std::uint32_t d : shape.grid)
                w.value(std::uint64_t{d});
            for (const std::uint32_t d : shape.block)
                w.value(std::uint64_t{d});
            w.value(std::uint64_t{shape.registersPerThread});
            w.value(std::uint64_t{shape.sharedMemoryBytes});
            w.endArray();
        }
        w.endArray();
        w.key("opShapes");
        w.beginArray();
        for (std::size_t i = 0; i < run.ops.size(); ++i)
            if (run.shapeOf(i)) {
                w.beginArray();
                w.value(static_cast<std::uint64_t>(i));
                w.value(std::uint64_t{run.opShapes[i] - 1});
                w.endArray();
            }
        w.endArray();
    }
    // Format 8, written only for a run with call sources or recorded
    // stacks: whether stacks were recorded, each of the user's lines once
    // ([file, line, function, "call" or "frame-entry"]), then [op, site, aten op, called] for each op
    // the trace says something of (op: its index in "ops"; site: 1 + its
    // index in "sourceSites"; aten op and called: ids in "names"; each 0
    // for none).
    if (run.usesSources()) {
        w.member("stacksRecorded", run.stacksRecorded);
        w.key("sourceSites");
        w.beginArray();
        for (const SourceSite& site : run.sourceSites) {
            w.beginArray();
            w.value(site.file);
            w.value(std::uint64_t{site.line});
            w.value(site.function);
            w.value(toString(site.lineIs));
            w.endArray();
        }
        w.endArray();
        w.key("opSources");
        w.beginArray();
        for (std::size_t i = 0; i < run.ops.size(); ++i)
            if (const OpSource* source = run.sourceOf(i)) {
                w.beginArray();
                w.value(static_cast<std::uint64_t>(i));
                w.value(std::uint64_t{source->site});
                w.value(std::uint64_t{source->op});
                w.value(std::uint64_t{source->called});
                w.endArray();
            }
        w.endArray();
    }
    // Format 9, written only for a run with unified-memory ops: [op,
    // counter, cause] for each that says what it counts (op: its index in
    // "ops"; counter and cause: trace/UnifiedMemoryOp.h's words). Before 9
    // the reader takes them from the ops' names (NativeTraceReader).
    if (run.usesUnifiedMemory()) {
        w.key("unifiedMemoryOps");
        w.beginArray();
        for (std::size_t i = 0; i < run.ops.size(); ++i)
            if (const UnifiedMemoryOp* counter = run.unifiedMemoryOf(i);
                counter && run.ops[i].kind == OpKind::UnifiedMemory) {
                w.beginArray();
                w.value(static_cast<std::uint64_t>(i));
                w.value(toString(counter->counter));
                w.value(toString(counter->cause));
                w.endArray();
            }
        w.endArray();
    }
    // Format 4, written only for a run that has regions.
    if (!run.regions.empty()) {
        w.key("regions");
        w.beginArray();
        for (const auto& region : run.regions)
            writeRegion(w, region);
        w.endArray();
    }
    w.endObject();
}

void writeSweep(JsonWriter& w, const BandwidthSweep& sweep)
{
    w.beginObject();
    w.key("device");
    writeDevice(w, sweep.device);
    w.member("timing", sweep.timing);
    w.member("warmups", sweep.warmups);
    w.member("samples", sweep.samples);
    // Optional on reading: files written before sweeps had a status hold
    // completed sweeps only.
    w.member("status", toString(sweep.status));
    if (!sweep.error.empty())
        w.member("error", sweep.error);
    w.key("points");
    w.beginArray();
    for (const auto& point : sweep.points) {
        w.beginObject();
        w.member("bytes", point.bytes);
        w.member("memory", toString(point.memory));
        w.member("direction", point.direction);
        w.key("samplesMs");
        w.beginArray();
        for (double sample : point.samplesMs)
            w.value(sample);
        w.endArray();
        w.member("medianMs", point.medianMs);
        w.member("gbps", point.gbps);
        w.endObject();
    }
    w.endArray();
    w.key("hostCopies");
    w.beginArray();
    for (const auto& point : sweep.hostCopies) {
        w.beginObject();
        w.member("threads", point.threads);
        w.member("bytes", point.bytes);
        w.key("samplesMs");
        w.beginArray();
        for (double sample : point.samplesMs)
            w.value(sample);
        w.endArray();
        w.member("medianMs", point.medianMs);
        w.member("gbps", point.gbps);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

bool isBlank(std::string_view text)
{
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Chrome traces are an array of events, or an object with "traceEvents";
// ours have "format" (and name it first, so this looks at one member).
bool isChromeTrace(JsonReader& json)
{
    const JsonKind root = json.rootKind();
    if (root == JsonKind::Array)
        return true;
    if (root != JsonKind::Object)
        return false;
    bool chrome = false;
    for (auto member : json.rootObject()) {
        simdjson::ondemand::field field;
        if (const auto error = std::move(member).get(field))
            json.syntaxError(error); // the document cannot be rewound after an error
        if (field.key() == "format")
            break;
        if (field.key() == "traceEvents") {
            chrome = true;
            break;
        }
    }
    json.rewind();
    return chrome;
}

TraceLoadResult readPadded(std::string_view paddedText)
{
    TraceLoadResult result;
    if (isBlank(paddedText)) {
        result.error = "the trace is empty";
        return result;
    }
    try {
        JsonReader json(paddedText);
        if (isChromeTrace(json)) {
            ChromeTraceImport imported = ChromeTraceImport::read(json);
            result.trace = std::move(imported.trace);
            result.note = std::move(imported.summary);
        } else {
            result.trace = readNativeTrace(json);
        }
    } catch (const JsonReadError& e) {
        result.error = clippedMessage(e.message);
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to load the trace";
    }
    return result;
}

TraceLoadResult readNsightSqlite(const std::string& path, const CancelFlag* cancel)
{
    TraceLoadResult result;
    try {
        NsightSqliteImport imported = NsightSqliteImport::read(path, cancel);
        result.trace = std::move(imported.trace);
        result.note = std::move(imported.summary);
    } catch (const NsightImportError& e) {
        result.error = clippedMessage(std::string("Nsight Systems report: ") + e.what());
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to load the trace";
    }
    return result;
}

// The whole document; callers add the final line break.
void writeTrace(JsonWriter& w, const Trace& trace)
{
    w.beginObject();
    w.member("format", kNativeFormatName);
    w.member("version", trace.formatVersion());
    w.member("tool", trace.tool);
    w.member("created", trace.createdUtc);
    w.key("runs");
    w.beginArray();
    for (const auto& run : trace.runs)
        writeRun(w, run);
    w.endArray();
    w.key("sweeps");
    w.beginArray();
    for (const auto& sweep : trace.sweeps)
        writeSweep(w, sweep);
    w.endArray();
    w.endObject();
}

} // namespace

std::string traceToJson(const Trace& trace)
{
    std::size_t opCount = 0;
    for (const auto& run : trace.runs)
        opCount += run.ops.size();
    std::string out;
    out.reserve(4096 + opCount * 64);
    JsonWriter w(out);
    writeTrace(w, trace);
    out.push_back('\n');
    return out;
}

bool saveTrace(const Trace& trace, const std::string& path, std::string* error)
{
    return writeJsonFile(path, [&trace](JsonWriter& w) { writeTrace(w, trace); }, error);
}

TraceLoadResult traceFromJson(std::string_view text)
{
    const simdjson::padded_string padded(text);
    return readPadded(std::string_view(padded.data(), padded.size()));
}

namespace {

TraceLoadResult loadTraceOrCancel(const std::string& path, std::uint64_t maxBytes, const ReadProgress& progress)
{
    TraceLoadResult result;
    // Large Chrome and Kineto traces are read a window at a time.
    if (auto imported = ChromeTraceImport::readFile(path, std::min(maxBytes, kMaxTraceBytesCeiling),
                                                    ChromeTraceImport::kWindowBytes, progress)) {
        result.trace = std::move(imported->trace);
        result.note = std::move(imported->summary);
        return result;
    }
    {
        TraceFile file = TraceFile::read(path, maxBytes, progress);
        if (file.sqlite)
            result = readNsightSqlite(path, progress.cancel);
        else if (file.text)
            result = readPadded(std::string_view(file.text->data(), file.text->size()));
        else
            result.error = file.error;
    } // the file's text is released before the caller builds its views
    progress.throwIfCancelled(); // a cancel during the parse, which has no windows
    if (!result.trace)
        result.error = clippedMessage(messageText(path, 120) + ": " + result.error);
    return result;
}

} // namespace

TraceLoadResult loadTrace(const std::string& path, std::uint64_t maxBytes, const ReadProgress& progress)
{
    try {
        return loadTraceOrCancel(path, maxBytes, progress);
    } catch (const RunCancelled&) {
        TraceLoadResult result;
        result.cancelled = true;
        result.error = clippedMessage(messageText(path, 120) + ": loading cancelled");
        return result;
    }
}

bool writeTextFileAtomically(const std::string& path, std::string_view text, std::string* error)
{
    return writeFileAtomically(path, text, error);
}

} // namespace ovs
