// The tree-building reader that the streaming one (NativeTraceReader)
// replaces; kept only until the benchmark has compared the two.
#include "trace/TraceJson.h"

#include "trace/JsonParser.h"

#include <algorithm>
#include <limits>
#include <new>
#include <tuple>
#include <unordered_map>

namespace ovs {

namespace {

constexpr std::string_view kFormatName = "overlapscope-trace";
constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kMaxLanes = 65535;

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
    OpReader(const Run& run, std::size_t runIndex, std::int64_t version)
        : m_run(run), m_runIndex(runIndex), m_version(version)
    {
    }

    Op read(const Json& element, std::size_t index) const
    {
        m_index = index;
        if (!element.isArray())
            failOp(std::string("must be an array [kind, lane, chunk, startNs, endNs, bytes, memory], not ")
                   + Json::typeName(element.type()));
        const auto& a = element.asArray();
        const bool lengthOk = a.size() == 7 || a.size() == 9 || (m_version >= 2 && (a.size() == 10 || a.size() == 11));
        if (!lengthOk)
            failOp("has " + std::to_string(a.size())
                   + " elements; expected 7 (kind, lane, chunk, startNs, endNs, bytes, memory) or 9 (and "
                     "execStartNs, execEndNs)"
                   + (m_version >= 2 ? ", 10 (and nameId) or 11 (and correlation)" : ""));
        Op op;
        if (!a[0].isString())
            failOp(std::string("kind (element 0) must be a string, not ") + Json::typeName(a[0].type()));
        const auto kind = opKindFromString(a[0].asString());
        if (!kind)
            failOp("unknown op kind " + inQuotes(a[0].asString()));
        if (m_version < 2 && static_cast<int>(*kind) > static_cast<int>(OpKind::Register))
            failOp("op kind " + inQuotes(a[0].asString()) + " needs format version 2");
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
        if (m_version < 2 && static_cast<int>(*memory) > static_cast<int>(HostMemoryKind::Registered))
            failOp("memory kind " + inQuotes(a[6].asString()) + " needs format version 2");
        op.memory = *memory;

        // From 10 elements on, unknown exec times are written as null.
        if (a.size() >= 9 && !(a.size() >= 10 && a[7].isNull() && a[8].isNull())) {
            op.execStartNs = integer(a, 7, "execStartNs");
            op.execEndNs = integer(a, 8, "execEndNs");
            if (op.execStartNs < 0)
                failOp("exec start " + std::to_string(op.execStartNs) + " is negative");
            if (op.execEndNs < op.execStartNs)
                failOp("exec end " + std::to_string(op.execEndNs) + " is before exec start "
                       + std::to_string(op.execStartNs));
        }
        if (a.size() >= 10) {
            const std::int64_t nameId = integer(a, 9, "nameId");
            if (nameId < 0 || static_cast<std::uint64_t>(nameId) >= m_run.names.size())
                failOp("nameId " + std::to_string(nameId) + " is out of range: the run has "
                       + std::to_string(m_run.names.size()) + " names");
            op.nameId = static_cast<std::uint32_t>(nameId);
        }
        if (a.size() >= 11) {
            const std::int64_t correlation = integer(a, 10, "correlation");
            if (correlation < 0 || correlation > std::numeric_limits<std::uint32_t>::max())
                failOp("correlation " + std::to_string(correlation) + " is out of range 0 ... 4294967295");
            op.correlation = static_cast<std::uint32_t>(correlation);
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
    std::int64_t m_version;
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

Run readRun(const Json& element, std::size_t index, std::int64_t version)
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

    if (const Json* names = element.find("names")) {
        if (!names->isArray())
            wrongType(where, "names", "an array", *names);
        const auto& list = names->asArray();
        if (list.empty() || !list[0].isString() || !list[0].asString().empty())
            fail(where, "names[0] must be \"\" (the empty name)");
        if (list.size() > std::numeric_limits<std::uint32_t>::max())
            fail(where, "has too many names");
        run.names.clear();
        run.names.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].isString())
                fail(where, "name " + std::to_string(i) + " must be a string, not " + Json::typeName(list[i].type()));
            run.names.push_back(list[i].asString());
        }
    }

    const auto& ops = arrayField(element, where, "ops");
    if (ops.size() > std::numeric_limits<std::uint32_t>::max())
        fail(where, "has too many ops");
    run.ops.reserve(ops.size());
    const OpReader reader(run, index, version);
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
        trace.runs.push_back(readRun(runs[i], i, version.asInteger()));
    for (std::size_t i = 0; i < sweeps.size(); ++i)
        trace.sweeps.push_back(readSweep(sweeps[i], i));
    return trace;
}

} // namespace

TraceLoadResult traceFromJsonTree(std::string_view text)
{
    TraceLoadResult result;
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

} // namespace ovs
