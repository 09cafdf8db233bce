#include "trace/TraceJson.h"

#include "trace/JsonParser.h"
#include "trace/JsonWriter.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <random>
#include <tuple>
#include <unordered_map>

namespace ovs {

namespace {

constexpr std::string_view kFormatName = "overlapscope-trace";
constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
// Op::lane is 16 bits wide.
constexpr std::size_t kMaxLanes = 65535;

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

void writeRun(JsonWriter& w, const Run& run)
{
    w.beginObject();
    w.member("name", run.name);
    w.member("pipeline", run.pipeline);
    w.key("device");
    writeDevice(w, run.device);
    w.key("params");
    w.beginObject();
    w.member("chunks", run.params.chunks);
    w.member("chunkBytes", run.params.chunkBytes);
    w.member("slots", run.params.slotCount);
    w.member("kernelRepeats", run.params.kernelRepeats);
    w.member("stagingThreads", run.params.stagingThreads);
    w.endObject();
    w.member("timing", run.timing);
    w.member("status", toString(run.status));
    w.member("error", run.error);
    w.member("timedBeginNs", run.timedBeginNs);
    w.member("timedEndNs", run.timedEndNs);
    w.key("verification");
    w.beginObject();
    w.member("checked", run.verification.checked);
    w.member("passed", run.verification.passed);
    w.member("mismatches", run.verification.mismatches);
    w.member("message", run.verification.message);
    w.endObject();
    w.key("lanes");
    w.beginArray();
    for (const auto& lane : run.lanes) {
        w.beginObject();
        w.member("name", lane.name);
        w.member("kind", toString(lane.kind));
        w.endObject();
    }
    w.endArray();
    w.key("ops");
    w.beginArray();
    for (const auto& op : run.ops) {
        w.beginArray();
        w.value(toString(op.kind));
        w.value(op.lane);
        w.value(op.chunk);
        w.value(op.startNs);
        w.value(op.endNs);
        w.value(op.bytes);
        w.value(toString(op.memory));
        if (op.hasExec()) {
            w.value(op.execStartNs);
            w.value(op.execEndNs);
        }
        w.endArray();
    }
    w.endArray();
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

// ---- reading ----------------------------------------------------------------

struct FormatError {
    std::string message;
};

[[noreturn]] void fail(std::string_view where, const std::string& message)
{
    throw FormatError{std::string(where) + ": " + message};
}

// Names go into one-line messages; a line break in a name must not split one.
std::string printable(std::string_view name)
{
    std::string text(name);
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20)
            c = ' ';
    return text;
}

std::string inQuotes(std::string_view text) { return "\"" + printable(text) + "\""; }

const Json& field(const Json& object, std::string_view where, std::string_view key)
{
    const Json* value = object.find(key);
    if (!value)
        fail(where, "missing field " + inQuotes(key));
    return *value;
}

[[noreturn]] void wrongType(std::string_view where, std::string_view key, const char* expected, const Json& actual)
{
    fail(where, "field " + inQuotes(key) + " must be " + expected + ", not " + Json::typeName(actual.type()));
}

const Json& objectField(const Json& object, std::string_view where, std::string_view key)
{
    const Json& value = field(object, where, key);
    if (!value.isObject())
        wrongType(where, key, "an object", value);
    return value;
}

const Json::Array& arrayField(const Json& object, std::string_view where, std::string_view key)
{
    const Json& value = field(object, where, key);
    if (!value.isArray())
        wrongType(where, key, "an array", value);
    return value.asArray();
}

const std::string& stringField(const Json& object, std::string_view where, std::string_view key)
{
    const Json& value = field(object, where, key);
    if (!value.isString())
        wrongType(where, key, "a string", value);
    return value.asString();
}

bool boolField(const Json& object, std::string_view where, std::string_view key)
{
    const Json& value = field(object, where, key);
    if (!value.isBool())
        wrongType(where, key, "true or false", value);
    return value.asBool();
}

std::int64_t integerField(const Json& object, std::string_view where, std::string_view key, std::int64_t min,
                          std::int64_t max)
{
    const Json& value = field(object, where, key);
    if (!value.isInteger())
        wrongType(where, key, "an integer", value);
    const std::int64_t v = value.asInteger();
    if (v < min)
        fail(where, "field " + inQuotes(key) + " is " + std::to_string(v) + "; it must be at least " + std::to_string(min));
    if (v > max)
        fail(where, "field " + inQuotes(key) + " is " + std::to_string(v) + "; it must be at most " + std::to_string(max));
    return v;
}

double nonNegativeNumberField(const Json& object, std::string_view where, std::string_view key)
{
    const Json& value = field(object, where, key);
    if (!value.isNumber())
        wrongType(where, key, "a number", value);
    const double v = value.asDouble();
    if (v < 0)
        fail(where, "field " + inQuotes(key) + " is negative");
    return v;
}

std::string describeRun(std::size_t index, const std::string& name)
{
    return "run " + std::to_string(index) + " ('" + printable(name) + "')";
}

std::optional<RunStatus> runStatusFromString(std::string_view name)
{
    for (auto status : {RunStatus::Completed, RunStatus::Cancelled, RunStatus::Failed})
        if (name == toString(status))
            return status;
    return std::nullopt;
}

DeviceInfo readDevice(const Json& object, const std::string& where)
{
    DeviceInfo device;
    device.name = stringField(object, where, "name");
    device.simulated = boolField(object, where, "simulated");
    device.preset = stringField(object, where, "preset");
    device.detail = stringField(object, where, "detail");
    device.asyncEngineCount = static_cast<int>(integerField(object, where, "asyncEngineCount", 0, kMaxInt));
    device.totalMemoryBytes = static_cast<std::uint64_t>(integerField(object, where, "totalMemoryBytes", 0, kMaxInt64));
    // Optional: traces from before the model was stored have none.
    if (object.find("model")) {
        const Json& model = objectField(object, where, "model");
        const std::string modelWhere = where + ", model";
        ModelRates m;
        m.pinnedH2DGBps = nonNegativeNumberField(model, modelWhere, "pinnedH2DGBps");
        m.pinnedD2HGBps = nonNegativeNumberField(model, modelWhere, "pinnedD2HGBps");
        m.pageableH2DGBps = nonNegativeNumberField(model, modelWhere, "pageableH2DGBps");
        m.pageableD2HGBps = nonNegativeNumberField(model, modelWhere, "pageableD2HGBps");
        m.hostMemcpyGBps = nonNegativeNumberField(model, modelWhere, "hostMemcpyGBps");
        m.hostMemoryGBps = nonNegativeNumberField(model, modelWhere, "hostMemoryGBps");
        m.kernelGBps = nonNegativeNumberField(model, modelWhere, "kernelGBps");
        device.model = m;
    }
    return device;
}

RunParams readParams(const Json& object, const std::string& where)
{
    RunParams params;
    params.chunks = static_cast<int>(integerField(object, where, "chunks", 0, kMaxInt));
    params.chunkBytes = static_cast<std::uint64_t>(integerField(object, where, "chunkBytes", 0, kMaxInt64));
    params.slotCount = static_cast<int>(integerField(object, where, "slots", 0, kMaxInt));
    params.kernelRepeats = static_cast<int>(integerField(object, where, "kernelRepeats", 0, kMaxInt));
    params.stagingThreads = static_cast<int>(integerField(object, where, "stagingThreads", 0, kMaxInt));
    return params;
}

// Ops are the bulk of a file, so their checks build no strings unless one fails.
class OpReader {
public:
    OpReader(const Run& run, std::size_t runIndex) : m_run(run), m_runIndex(runIndex) {}

    Op read(const Json& element, std::size_t index) const
    {
        m_index = index;
        if (!element.isArray())
            failOp(std::string("must be an array [kind, lane, chunk, startNs, endNs, bytes, memory], not ")
                   + Json::typeName(element.type()));
        const auto& a = element.asArray();
        if (a.size() != 7 && a.size() != 9)
            failOp("has " + std::to_string(a.size())
                   + " elements; expected 7 (kind, lane, chunk, startNs, endNs, bytes, memory) or 9 (and "
                     "execStartNs, execEndNs)");
        Op op;
        if (!a[0].isString())
            failOp(std::string("kind (element 0) must be a string, not ") + Json::typeName(a[0].type()));
        const auto kind = opKindFromString(a[0].asString());
        if (!kind)
            failOp("unknown op kind " + inQuotes(a[0].asString()));
        op.kind = *kind;

        const std::int64_t lane = integer(a, 1, "lane");
        if (lane < 0 || static_cast<std::uint64_t>(lane) >= m_run.lanes.size())
            failOp("lane " + std::to_string(lane) + " is out of range: the run has " + std::to_string(m_run.lanes.size())
                   + " lanes");
        op.lane = static_cast<std::uint16_t>(lane);

        const std::int64_t chunk = integer(a, 2, "chunk");
        if (chunk < -1 || chunk > kMaxInt)
            failOp("chunk " + std::to_string(chunk) + " is invalid: chunks count from 0, and -1 means none");
        op.chunk = static_cast<std::int32_t>(chunk);

        op.startNs = integer(a, 3, "startNs");
        op.endNs = integer(a, 4, "endNs");
        if (op.startNs < 0)
            failOp("start " + std::to_string(op.startNs) + " is negative");
        if (op.endNs < op.startNs)
            failOp("end " + std::to_string(op.endNs) + " is before start " + std::to_string(op.startNs));

        const std::int64_t bytes = integer(a, 5, "bytes");
        if (bytes < 0)
            failOp("bytes " + std::to_string(bytes) + " is negative");
        op.bytes = static_cast<std::uint64_t>(bytes);

        if (!a[6].isString())
            failOp(std::string("memory (element 6) must be a string, not ") + Json::typeName(a[6].type()));
        const auto memory = hostMemoryKindFromString(a[6].asString());
        if (!memory)
            failOp("unknown memory kind " + inQuotes(a[6].asString()));
        op.memory = *memory;

        if (a.size() == 9) {
            op.execStartNs = integer(a, 7, "execStartNs");
            op.execEndNs = integer(a, 8, "execEndNs");
            if (op.execStartNs < 0)
                failOp("exec start " + std::to_string(op.execStartNs) + " is negative");
            if (op.execEndNs < op.execStartNs)
                failOp("exec end " + std::to_string(op.execEndNs) + " is before exec start "
                       + std::to_string(op.execStartNs));
        }

        const Lane& onLane = m_run.lanes[op.lane];
        if (isGpuOp(op.kind) && onLane.kind != LaneKind::Stream)
            failOp(std::string("a ") + toString(op.kind) + " op runs on a GPU stream, but lane " + std::to_string(lane)
                   + " ('" + printable(onLane.name) + "') is a host lane");
        if (!isGpuOp(op.kind) && onLane.kind == LaneKind::Stream)
            failOp(std::string("a ") + toString(op.kind) + " op runs on the host, but lane " + std::to_string(lane) + " ('"
                   + printable(onLane.name) + "') is a stream lane");
        return op;
    }

private:
    std::int64_t integer(const Json::Array& a, std::size_t i, const char* name) const
    {
        if (!a[i].isInteger())
            failOp(std::string(name) + " (element " + std::to_string(i) + ") must be an integer, not "
                   + Json::typeName(a[i].type()));
        return a[i].asInteger();
    }

    [[noreturn]] void failOp(const std::string& message) const
    {
        fail(describeRun(m_runIndex, m_run.name) + ", op " + std::to_string(m_index), message);
    }

    const Run& m_run;
    std::size_t m_runIndex;
    mutable std::size_t m_index = 0;
};

// Ops in one lane never overlap: a stream runs one op at a time, and so does
// a host thread. Touching (end == next start) is fine.
void checkNoOverlap(const Run& run, const std::string& where)
{
    const auto before = [&run](std::uint32_t a, std::uint32_t b) {
        const Op& x = run.ops[a];
        const Op& y = run.ops[b];
        return std::tie(x.lane, x.startNs, x.endNs) < std::tie(y.lane, y.startNs, y.endNs);
    };
    std::vector<std::uint32_t> order(run.ops.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<std::uint32_t>(i);
    // Files we write are already sorted; only foreign ones pay for the sort.
    if (!std::is_sorted(order.begin(), order.end(), before))
        std::stable_sort(order.begin(), order.end(), before);
    for (std::size_t i = 1; i < order.size(); ++i) {
        const Op& a = run.ops[order[i - 1]];
        const Op& b = run.ops[order[i]];
        if (a.lane == b.lane && b.startNs < a.endNs)
            fail(where, "ops " + std::to_string(order[i - 1]) + " and " + std::to_string(order[i]) + " overlap on lane "
                            + std::to_string(a.lane) + " ('" + printable(run.lanes[a.lane].name) + "'): op "
                            + std::to_string(order[i]) + " starts at " + std::to_string(b.startNs) + ", before op "
                            + std::to_string(order[i - 1]) + " ends at " + std::to_string(a.endNs));
    }
}

Run readRun(const Json& element, std::size_t index)
{
    std::string where = "run " + std::to_string(index);
    if (!element.isObject())
        fail(where, std::string("must be an object, not ") + Json::typeName(element.type()));
    Run run;
    run.name = stringField(element, where, "name");
    where = describeRun(index, run.name);
    run.pipeline = stringField(element, where, "pipeline");
    run.device = readDevice(objectField(element, where, "device"), where + ", device");
    run.params = readParams(objectField(element, where, "params"), where + ", params");
    run.timing = stringField(element, where, "timing");
    const std::string& status = stringField(element, where, "status");
    const auto parsedStatus = runStatusFromString(status);
    if (!parsedStatus)
        fail(where, "unknown status " + inQuotes(status) + "; expected \"completed\", \"cancelled\" or \"failed\"");
    run.status = *parsedStatus;
    run.error = stringField(element, where, "error");
    run.timedBeginNs = integerField(element, where, "timedBeginNs", 0, kMaxInt64);
    run.timedEndNs = integerField(element, where, "timedEndNs", 0, kMaxInt64);
    if (run.timedEndNs < run.timedBeginNs)
        fail(where, "timedEndNs " + std::to_string(run.timedEndNs) + " is before timedBeginNs "
                        + std::to_string(run.timedBeginNs));

    const Json& verification = objectField(element, where, "verification");
    const std::string verificationWhere = where + ", verification";
    run.verification.checked = boolField(verification, verificationWhere, "checked");
    run.verification.passed = boolField(verification, verificationWhere, "passed");
    run.verification.mismatches =
        static_cast<std::uint64_t>(integerField(verification, verificationWhere, "mismatches", 0, kMaxInt64));
    run.verification.message = stringField(verification, verificationWhere, "message");

    const auto& lanes = arrayField(element, where, "lanes");
    if (lanes.size() > kMaxLanes)
        fail(where, "has " + std::to_string(lanes.size()) + " lanes; at most " + std::to_string(kMaxLanes)
                        + " are supported");
    std::unordered_map<std::string, std::size_t> laneByName;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const std::string laneWhere = where + ", lane " + std::to_string(i);
        if (!lanes[i].isObject())
            fail(laneWhere, std::string("must be an object, not ") + Json::typeName(lanes[i].type()));
        Lane lane;
        lane.name = stringField(lanes[i], laneWhere, "name");
        const std::string& kind = stringField(lanes[i], laneWhere, "kind");
        const auto laneKind = laneKindFromString(kind);
        if (!laneKind)
            fail(laneWhere, "unknown lane kind " + inQuotes(kind) + "; expected \"stream\" or \"host\"");
        lane.kind = *laneKind;
        const auto [existing, inserted] = laneByName.emplace(lane.name, i);
        if (!inserted)
            fail(laneWhere, "has the same name '" + printable(lane.name) + "' as lane " + std::to_string(existing->second));
        run.lanes.push_back(std::move(lane));
    }

    const auto& ops = arrayField(element, where, "ops");
    if (ops.size() > std::numeric_limits<std::uint32_t>::max())
        fail(where, "has too many ops");
    run.ops.reserve(ops.size());
    const OpReader reader(run, index);
    for (std::size_t i = 0; i < ops.size(); ++i)
        run.ops.push_back(reader.read(ops[i], i));
    checkNoOverlap(run, where);
    run.sortOps();
    return run;
}

BandwidthSweep readSweep(const Json& element, std::size_t index)
{
    const std::string where = "sweep " + std::to_string(index);
    if (!element.isObject())
        fail(where, std::string("must be an object, not ") + Json::typeName(element.type()));
    BandwidthSweep sweep;
    sweep.device = readDevice(objectField(element, where, "device"), where + ", device");
    sweep.timing = stringField(element, where, "timing");
    sweep.warmups = static_cast<int>(integerField(element, where, "warmups", 0, kMaxInt));
    sweep.samples = static_cast<int>(integerField(element, where, "samples", 0, kMaxInt));
    const auto& points = arrayField(element, where, "points");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string pointWhere = where + ", point " + std::to_string(i);
        const Json& p = points[i];
        if (!p.isObject())
            fail(pointWhere, std::string("must be an object, not ") + Json::typeName(p.type()));
        BandwidthPoint point;
        point.bytes = static_cast<std::uint64_t>(integerField(p, pointWhere, "bytes", 1, kMaxInt64));
        const std::string& memory = stringField(p, pointWhere, "memory");
        const auto memoryKind = hostMemoryKindFromString(memory);
        if (!memoryKind)
            fail(pointWhere, "unknown memory kind " + inQuotes(memory));
        point.memory = *memoryKind;
        point.direction = stringField(p, pointWhere, "direction");
        if (point.direction != "HtoD" && point.direction != "DtoH" && point.direction != "bidir")
            fail(pointWhere, "unknown direction " + inQuotes(point.direction) + "; expected \"HtoD\", \"DtoH\" or \"bidir\"");
        const auto& samples = arrayField(p, pointWhere, "samplesMs");
        if (samples.empty())
            fail(pointWhere, "has no samples");
        for (std::size_t s = 0; s < samples.size(); ++s) {
            if (!samples[s].isNumber())
                fail(pointWhere, "sample " + std::to_string(s) + " must be a number, not "
                                     + Json::typeName(samples[s].type()));
            if (samples[s].asDouble() < 0)
                fail(pointWhere, "sample " + std::to_string(s) + " is negative");
            point.samplesMs.push_back(samples[s].asDouble());
        }
        point.medianMs = nonNegativeNumberField(p, pointWhere, "medianMs");
        point.gbps = nonNegativeNumberField(p, pointWhere, "gbps");
        sweep.points.push_back(std::move(point));
    }
    // Optional: sweeps from before host copies were measured have none.
    if (element.find("hostCopies")) {
        const auto& copies = arrayField(element, where, "hostCopies");
        for (std::size_t i = 0; i < copies.size(); ++i) {
            const std::string copyWhere = where + ", host copy " + std::to_string(i);
            const Json& c = copies[i];
            if (!c.isObject())
                fail(copyWhere, std::string("must be an object, not ") + Json::typeName(c.type()));
            HostCopyPoint copy;
            copy.threads = static_cast<int>(integerField(c, copyWhere, "threads", 1, kMaxInt));
            copy.bytes = static_cast<std::uint64_t>(integerField(c, copyWhere, "bytes", 1, kMaxInt64));
            const auto& samples = arrayField(c, copyWhere, "samplesMs");
            if (samples.empty())
                fail(copyWhere, "has no samples");
            for (std::size_t s = 0; s < samples.size(); ++s) {
                if (!samples[s].isNumber() || samples[s].asDouble() < 0)
                    fail(copyWhere, "sample " + std::to_string(s) + " must be a number of at least 0");
                copy.samplesMs.push_back(samples[s].asDouble());
            }
            copy.medianMs = nonNegativeNumberField(c, copyWhere, "medianMs");
            copy.gbps = nonNegativeNumberField(c, copyWhere, "gbps");
            sweep.hostCopies.push_back(std::move(copy));
        }
    }
    return sweep;
}

Trace readTrace(const Json& root)
{
    if (!root.isObject())
        throw FormatError{std::string("not an OverlapScope trace: the file holds ") + Json::typeName(root.type())
                          + ", not an object"};
    const Json* format = root.find("format");
    if (!format)
        throw FormatError{"not an OverlapScope trace: there is no \"format\" field"};
    if (!format->isString() || format->asString() != kFormatName)
        throw FormatError{"not an OverlapScope trace: \"format\" is " + format->toText() + ", expected \""
                          + std::string(kFormatName) + "\""};
    const std::string where = "trace";
    const Json& version = field(root, where, "version");
    if (!version.isInteger())
        wrongType(where, "version", "an integer", version);
    if (version.asInteger() > Trace::kFormatVersion)
        throw FormatError{"this trace is format version " + std::to_string(version.asInteger())
                          + "; this build reads up to " + std::to_string(Trace::kFormatVersion)
                          + ": update OverlapScope"};
    if (version.asInteger() < 1)
        throw FormatError{"format version " + std::to_string(version.asInteger())
                          + " is not valid; versions start at 1"};

    Trace trace;
    trace.tool = stringField(root, where, "tool");
    trace.createdUtc = stringField(root, where, "created");
    const auto& runs = arrayField(root, where, "runs");
    const auto& sweeps = arrayField(root, where, "sweeps");
    trace.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        trace.runs.push_back(readRun(runs[i], i));
    for (std::size_t i = 0; i < sweeps.size(); ++i)
        trace.sweeps.push_back(readSweep(sweeps[i], i));
    return trace;
}

bool isBlank(std::string_view text)
{
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string systemError(int error) { return std::strerror(error); }

} // namespace

std::string traceToJson(const Trace& trace)
{
    std::size_t opCount = 0;
    for (const auto& run : trace.runs)
        opCount += run.ops.size();
    std::string out;
    out.reserve(4096 + opCount * 64);
    JsonWriter w(out);
    w.beginObject();
    w.member("format", kFormatName);
    w.member("version", Trace::kFormatVersion);
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
    out.push_back('\n');
    return out;
}

bool saveTrace(const Trace& trace, const std::string& path, std::string* error)
{
    return writeTextFileAtomically(path, traceToJson(trace), error);
}

TraceLoadResult traceFromJson(std::string_view text)
{
    TraceLoadResult result;
    if (isBlank(text)) {
        result.error = "the trace is empty";
        return result;
    }
    try {
        auto parsed = parseJson(text);
        if (!parsed.value) {
            result.error = "not valid JSON: " + parsed.error;
            return result;
        }
        result.trace = readTrace(*parsed.value);
    } catch (const FormatError& e) {
        result.error = e.message;
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to load the trace";
    }
    return result;
}

TraceLoadResult loadTrace(const std::string& path)
{
    TraceLoadResult result;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        result.error = "cannot open '" + path + "': it is a folder, not a trace file";
        return result;
    }
    errno = 0;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        result.error = "cannot open '" + path + "': " + systemError(errno);
        return result;
    }
    std::string text;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec)
        text.reserve(size);
    char buffer[1 << 16];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
        text.append(buffer, n);
    if (std::ferror(file.get())) {
        result.error = "cannot read '" + path + "': " + systemError(errno);
        return result;
    }
    if (text.empty()) {
        result.error = "'" + path + "' is empty: not a trace";
        return result;
    }
    result = traceFromJson(text);
    if (!result.trace)
        result.error = path + ": " + result.error;
    return result;
}

bool writeTextFileAtomically(const std::string& path, std::string_view text, std::string* error)
{
    namespace fs = std::filesystem;
    const auto failWith = [error](std::string message) {
        if (error)
            *error = std::move(message);
        return false;
    };
    if (path.empty())
        return failWith("cannot save: no file name given");
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return failWith("cannot save to '" + path + "': it is a folder");

    // Unique per save, so two saves to one path cannot share a temporary.
    std::random_device random;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp-%08x", static_cast<unsigned>(random()));
    const std::string temporary = path + suffix;

    errno = 0;
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (!file)
        return failWith("cannot save to '" + path + "': " + systemError(errno));
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const int writeErrno = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const int why = !written ? writeErrno : errno;
        fs::remove(temporary, ec);
        return failWith("cannot save to '" + path + "': " + systemError(why));
    }
    fs::rename(temporary, path, ec);
    if (ec) {
        const std::string why = ec.message();
        fs::remove(temporary, ec);
        return failWith("cannot save to '" + path + "': " + why);
    }
    return true;
}

} // namespace ovs
