#include "formats/NativeTraceReader.h"

#include "base/MessageText.h"
#include "formats/RegionRowReader.h"
#include "formats/TraceJson.h"

#include <array>
#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

namespace ovs {

namespace {

using Value = JsonReader::Value;

constexpr std::int64_t kMaxInt = std::numeric_limits<int>::max();
constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxUint32 = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void fail(std::string_view where, const std::string& message)
{
    throw JsonReadError{std::string(where) + ": " + message};
}

std::string describeRun(std::size_t index, std::string_view name)
{
    return "run " + std::to_string(index) + " ('" + messageText(name) + "')";
}

std::string timeLimitText()
{
    return "the limit is 2^62 ns (" + std::to_string(Trace::kTimeLimitNs) + ", 146 years)";
}

// "\"unknown\", \"blocking\", ..." for messages.
std::string streamKindWords()
{
    std::string words;
    for (StreamKind k : {StreamKind::Unknown, StreamKind::Blocking, StreamKind::NonBlocking, StreamKind::LegacyDefault,
                         StreamKind::PerThreadDefault})
        words += (words.empty() ? "\"" : ", \"") + std::string(toString(k)) + "\"";
    return words;
}

std::optional<RunStatus> runStatusFromString(std::string_view name)
{
    for (auto status : {RunStatus::Completed, RunStatus::Cancelled, RunStatus::Failed})
        if (name == toString(status))
            return status;
    return std::nullopt;
}

// Reads the members of an object that a table of the format describes.
// Members may come in any order, and after the loop the caller asks for the
// ones that must be there, in the table's order.
class Fields {
public:
    Fields(JsonReader& json, std::string where) : m_json(json), m_where(std::move(where)) {}

    const std::string& where() const { return m_where; }
    void setWhere(std::string where) { m_where = std::move(where); }

    void see(std::string_view key) { m_seen.push_back(key); }
    bool has(std::string_view key) const { return std::find(m_seen.begin(), m_seen.end(), key) != m_seen.end(); }
    void require(std::initializer_list<std::string_view> keys) const
    {
        for (auto key : keys)
            if (!has(key))
                fail(m_where, "missing field " + quotedMessageText(key));
    }

    [[noreturn]] void wrongType(std::string_view key, const char* expected, JsonKind actual) const
    {
        fail(m_where, "field " + quotedMessageText(key) + " must be " + expected + ", not " + describe(actual));
    }

    std::string_view string(Value& v, std::string_view key)
    {
        see(key);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::String)
            wrongType(key, "a string", kind);
        return m_json.string(v);
    }

    bool boolean(Value& v, std::string_view key)
    {
        see(key);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Bool)
            wrongType(key, "true or false", kind);
        return m_json.boolean(v);
    }

    std::int64_t integer(Value& v, std::string_view key, std::int64_t min, std::int64_t max)
    {
        see(key);
        std::int64_t value = 0;
        JsonKind actual{};
        if (!m_json.tryInteger(v, value, actual))
            wrongType(key, "an integer", actual);
        if (value < min)
            fail(m_where, "field " + quotedMessageText(key) + " is " + std::to_string(value) + "; it must be at least "
                              + std::to_string(min));
        if (value > max)
            fail(m_where, "field " + quotedMessageText(key) + " is " + std::to_string(value) + "; it must be at most "
                              + std::to_string(max));
        return value;
    }

    double nonNegativeNumber(Value& v, std::string_view key)
    {
        see(key);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Integer && kind != JsonKind::Number)
            wrongType(key, "a number", kind);
        const double value = m_json.number(v);
        if (value < 0)
            fail(m_where, "field " + quotedMessageText(key) + " is negative");
        return value;
    }

    void expect(Value& v, std::string_view key, JsonKind kind, const char* expected)
    {
        see(key);
        const JsonKind actual = m_json.kind(v);
        if (actual != kind)
            wrongType(key, expected, actual);
    }

private:
    JsonReader& m_json;
    std::string m_where;
    std::vector<std::string_view> m_seen;
};

class Reader {
public:
    explicit Reader(JsonReader& json) : m_json(json) {}

    Trace read()
    {
        const JsonKind root = m_json.rootKind();
        if (root != JsonKind::Object)
            throw JsonReadError{std::string("not an OverlapScope trace: the file holds ") + describe(root)
                                + ", not an object"};
        checkFormatAndVersion();
        m_json.rewind();

        Trace trace;
        Fields fields(m_json, "trace");
        m_json.forEachMember(m_json.rootObject(), 1, [&](std::string_view key, Value& v) {
            if (key == "format" || key == "version") {
                fields.see(key); // checked by the first pass
                m_json.skip(v, 2);
            } else if (key == "tool") {
                trace.tool = fields.string(v, key);
            } else if (key == "created") {
                trace.createdUtc = fields.string(v, key);
            } else if (key == "runs") {
                fields.expect(v, key, JsonKind::Array, "an array");
                trace.runs.reserve(m_json.countElements(v));
                m_json.forEachElement(v, 2, [&](Value& run, std::size_t i) { trace.runs.push_back(readRun(run, i)); });
            } else if (key == "sweeps") {
                fields.expect(v, key, JsonKind::Array, "an array");
                m_json.forEachElement(v, 2,
                                      [&](Value& sweep, std::size_t i) { trace.sweeps.push_back(readSweep(sweep, i)); });
            } else {
                m_json.skip(v, 2);
            }
        });
        m_json.finish();
        fields.require({"tool", "created", "runs", "sweeps"});
        return trace;
    }

private:
    // The format name and version come first, wherever they are in the file:
    // a newer file then says "update" rather than naming a field it has.
    void checkFormatAndVersion()
    {
        std::optional<std::string> format;
        bool formatIsString = false;
        std::optional<std::int64_t> version;
        JsonKind versionKind = JsonKind::Null;
        bool versionSeen = false;
        for (auto member : m_json.rootObject()) {
            simdjson::ondemand::field field;
            if (const auto error = std::move(member).get(field))
                m_json.syntaxError(error);
            // Plain keys only here; an escaped spelling is caught by the full
            // pass as an unknown member.
            if (field.key() == "format" && !format) {
                Value& v = field.value();
                formatIsString = m_json.kind(v) == JsonKind::String;
                format = std::string(formatIsString ? m_json.string(v) : JsonReader::rawText(v));
            } else if (field.key() == "version" && !versionSeen) {
                versionSeen = true;
                std::int64_t value = 0;
                if (m_json.tryInteger(field.value(), value, versionKind))
                    version = value;
            }
            if (format && versionSeen)
                break;
        }
        if (!format)
            throw JsonReadError{"not an OverlapScope trace: there is no \"format\" field"};
        if (!formatIsString || *format != kNativeFormatName)
            throw JsonReadError{"not an OverlapScope trace: \"format\" is "
                                + (formatIsString ? quotedMessageText(*format) : messageText(*format)) + ", expected \""
                                + std::string(kNativeFormatName) + "\""};
        if (!versionSeen)
            fail("trace", "missing field \"version\"");
        if (!version)
            fail("trace", std::string("field \"version\" must be an integer, not ") + describe(versionKind));
        if (*version > Trace::kFormatVersion)
            throw JsonReadError{"this trace is format version " + std::to_string(*version) + "; this build reads up to "
                                + std::to_string(Trace::kFormatVersion) + ": update OverlapScope"};
        if (*version < 1)
            throw JsonReadError{"format version " + std::to_string(*version) + " is not valid; versions start at 1"};
        m_version = *version;
    }

    DeviceInfo readDevice(Value& v, const std::string& where, int depth)
    {
        Fields fields(m_json, where);
        DeviceInfo device;
        m_json.forEachMember(v, depth, [&](std::string_view key, Value& m) {
            if (key == "name")
                device.name = fields.string(m, key);
            else if (key == "simulated")
                device.simulated = fields.boolean(m, key);
            else if (key == "preset")
                device.preset = fields.string(m, key);
            else if (key == "detail")
                device.detail = fields.string(m, key);
            else if (key == "asyncEngineCount")
                device.asyncEngineCount = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            else if (key == "totalMemoryBytes")
                device.totalMemoryBytes = static_cast<std::uint64_t>(fields.integer(m, key, 0, kMaxInt64));
            else if (key == "smCount")
                device.smCount = static_cast<int>(fields.integer(m, key, 0, 1 << 20));
            else if (key == "computeCapability")
                device.computeCapability = static_cast<int>(fields.integer(m, key, 0, 999));
            else if (key == "model") {
                fields.expect(m, key, JsonKind::Object, "an object");
                device.model = readModel(m, where + ", model", depth + 1);
            } else
                m_json.skip(m, depth + 1);
        });
        fields.require({"name", "simulated", "preset", "detail", "asyncEngineCount", "totalMemoryBytes"});
        return device;
    }

    // A simulated device's model rates (optional: absent before they were stored).
    ModelRates readModel(Value& v, const std::string& where, int depth)
    {
        Fields fields(m_json, where);
        ModelRates model;
        m_json.forEachMember(v, depth, [&](std::string_view key, Value& m) {
            double* rate = key == "pinnedH2DGBps"     ? &model.pinnedH2DGBps
                           : key == "pinnedD2HGBps"   ? &model.pinnedD2HGBps
                           : key == "pageableH2DGBps" ? &model.pageableH2DGBps
                           : key == "pageableD2HGBps" ? &model.pageableD2HGBps
                           : key == "hostMemcpyGBps"  ? &model.hostMemcpyGBps
                           : key == "hostMemoryGBps"  ? &model.hostMemoryGBps
                           : key == "kernelGBps"      ? &model.kernelGBps
                                                      : nullptr;
            if (rate)
                *rate = fields.nonNegativeNumber(m, key);
            else
                m_json.skip(m, depth + 1);
        });
        fields.require({"pinnedH2DGBps", "pinnedD2HGBps", "pageableH2DGBps", "pageableD2HGBps", "hostMemcpyGBps",
                        "hostMemoryGBps", "kernelGBps"});
        return model;
    }

    // An optional variant of the run (see RunVariant.h): one of its ids, or
    // the file is refused.
    template <typename FromId, typename Ids>
    auto variant(Fields& fields, Value& m, std::string_view key, FromId fromId, Ids ids)
    {
        const std::string_view id = fields.string(m, key);
        const auto value = fromId(id);
        if (!value)
            fail(fields.where(), "field " + quotedMessageText(key) + " is " + quotedMessageText(id) + "; expected one of "
                                     + ids());
        return *value;
    }

    RunParams readParams(Value& v, const std::string& where, int depth)
    {
        Fields fields(m_json, where);
        RunParams params;
        m_json.forEachMember(v, depth, [&](std::string_view key, Value& m) {
            if (key == "chunks")
                params.chunks = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            else if (key == "chunkBytes")
                params.chunkBytes = static_cast<std::uint64_t>(fields.integer(m, key, 0, kMaxInt64));
            else if (key == "slots")
                params.slotCount = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            else if (key == "kernelRepeats")
                params.kernelRepeats = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            else if (key == "stagingThreads")
                params.stagingThreads = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            else if (key == "issueOrder")
                params.issueOrder = variant(fields, m, key, issueOrderFromId, issueOrderIds);
            else if (key == "streamSync")
                params.streamSync = variant(fields, m, key, streamSyncFromId, streamSyncIds);
            else if (key == "defaultStreamOp")
                params.defaultStreamOp = variant(fields, m, key, defaultStreamOpFromId, defaultStreamOpIds);
            else if (key == "loopAllocation")
                params.loopAllocation = variant(fields, m, key, loopAllocationFromId, loopAllocationIds);
            else
                m_json.skip(m, depth + 1);
        });
        fields.require({"chunks", "chunkBytes", "slots", "kernelRepeats", "stagingThreads"});
        return params;
    }

    Verification readVerification(Value& v, const std::string& where, int depth)
    {
        Fields fields(m_json, where);
        Verification verification;
        m_json.forEachMember(v, depth, [&](std::string_view key, Value& m) {
            if (key == "checked")
                verification.checked = fields.boolean(m, key);
            else if (key == "passed")
                verification.passed = fields.boolean(m, key);
            else if (key == "mismatches")
                verification.mismatches = static_cast<std::uint64_t>(fields.integer(m, key, 0, kMaxInt64));
            else if (key == "message")
                verification.message = fields.string(m, key);
            else
                m_json.skip(m, depth + 1);
        });
        fields.require({"checked", "passed", "mismatches", "message"});
        return verification;
    }

    void readLanes(Value& v, Run& run, const std::string& where)
    {
        const std::size_t count = m_json.countElements(v);
        if (count > kMaxLanes)
            fail(where, "has " + std::to_string(count) + " lanes; at most " + std::to_string(kMaxLanes)
                            + " are supported");
        run.lanes.reserve(count);
        std::unordered_map<std::string_view, std::size_t> laneByName;
        m_json.forEachElement(v, 4, [&](Value& element, std::size_t i) {
            const std::string laneWhere = where + ", lane " + std::to_string(i);
            const JsonKind kind = m_json.kind(element);
            if (kind != JsonKind::Object)
                fail(laneWhere, std::string("must be an object, not ") + describe(kind));
            Fields fields(m_json, laneWhere);
            Lane lane;
            m_json.forEachMember(element, 5, [&](std::string_view key, Value& m) {
                if (key == "name") {
                    lane.name = fields.string(m, key);
                } else if (key == "kind") {
                    const std::string_view name = fields.string(m, key);
                    const auto laneKind = laneKindFromString(name);
                    if (!laneKind)
                        fail(laneWhere, "unknown lane kind " + quotedMessageText(name)
                                            + "; expected \"stream\" or \"host\"");
                    lane.kind = *laneKind;
                } else if (key == "device") {
                    if (m_version < 3)
                        fail(laneWhere, "field \"device\" needs format version 3; this file is version "
                                            + std::to_string(m_version));
                    lane.device = static_cast<std::uint16_t>(fields.integer(m, key, 0, kMaxLanes));
                } else if (key == "streamKind") {
                    const std::string_view name = fields.string(m, key);
                    const auto streamKind = streamKindFromString(name);
                    if (!streamKind)
                        fail(laneWhere,
                             "unknown stream kind " + quotedMessageText(name) + "; expected " + streamKindWords());
                    lane.streamKind = *streamKind;
                } else {
                    m_json.skip(m, 6);
                }
            });
            fields.require({"name", "kind"});
            if (lane.kind == LaneKind::HostThread && lane.streamKind != StreamKind::Unknown)
                fail(laneWhere, std::string("is a host lane, but has \"streamKind\" \"") + toString(lane.streamKind)
                                    + "\": only stream lanes have one");
            if (lane.kind == LaneKind::Stream && !fields.has("streamKind"))
                lane.streamKind = streamKindWithout(lane.name);
            run.lanes.push_back(std::move(lane));
        });
        for (std::size_t i = 0; i < run.lanes.size(); ++i) {
            const auto [existing, inserted] = laneByName.emplace(run.lanes[i].name, i);
            if (!inserted)
                fail(where + ", lane " + std::to_string(i), "has the same name '" + messageText(run.lanes[i].name)
                                                                + "' as lane " + std::to_string(existing->second));
        }
    }

    void readNames(Value& v, Run& run, const std::string& where)
    {
        run.names.clear();
        run.names.reserve(m_json.countElements(v));
        m_json.forEachElement(v, 4, [&](Value& element, std::size_t i) {
            const JsonKind kind = m_json.kind(element);
            if (kind != JsonKind::String)
                fail(where, "name " + std::to_string(i) + " must be a string, not " + describe(kind));
            if (i >= static_cast<std::size_t>(kMaxUint32))
                fail(where, "has too many names");
            run.names.emplace_back(m_json.string(element));
        });
        if (run.names.empty() || !run.names[0].empty())
            fail(where, "names[0] must be \"\" (the empty name)");
    }

    // Ops are the bulk of a file: their checks build no strings unless one
    // fails. What depends on other members (lanes, names), which may come
    // after the ops, is checked once the run is read (checkOps).
    class OpReader {
    public:
        OpReader(JsonReader& json, const Run& run, std::size_t runIndex, std::int64_t version, bool lanesKnown)
            : m_json(json), m_run(run), m_runIndex(runIndex), m_version(version), m_lanesKnown(lanesKnown)
        {
        }

        Op read(Value& element, std::size_t index)
        {
            m_index = index;
            const JsonKind kind = m_json.kind(element);
            if (kind != JsonKind::Array)
                failOp(std::string("must be an array [kind, lane, chunk, startNs, endNs, bytes, memory], not ")
                       + describe(kind));
            Op op;
            std::size_t n = 0;
            bool execStartNull = false;
            bool execEndNull = false;
            m_json.forEachElement(element, 5, [&](Value& e, std::size_t i) {
                n = i + 1;
                switch (i) {
                case 0: op.kind = kindOf(e); break;
                case 1: op.lane = laneOf(e); break;
                case 2: {
                    const std::int64_t chunk = integer(e, 2, "chunk");
                    if (chunk < -1 || chunk > kMaxInt)
                        failOp("chunk " + std::to_string(chunk) + " is invalid: chunks count from 0, and -1 means none");
                    op.chunk = static_cast<std::int32_t>(chunk);
                    break;
                }
                case 3: op.startNs = time(e, 3, "startNs", "start"); break;
                case 4: op.endNs = time(e, 4, "endNs", "end"); break;
                case 5: {
                    const std::int64_t bytes = integer(e, 5, "bytes");
                    if (bytes < 0)
                        failOp("bytes " + std::to_string(bytes) + " is negative");
                    op.bytes = static_cast<std::uint64_t>(bytes);
                    break;
                }
                case 6: op.memory = memoryOf(e); break;
                case 7:
                    execStartNull = isNull(e);
                    if (!execStartNull)
                        op.execStartNs = time(e, 7, "execStartNs", "exec start");
                    break;
                case 8:
                    execEndNull = isNull(e);
                    if (!execEndNull)
                        op.execEndNs = time(e, 8, "execEndNs", "exec end");
                    break;
                case 9: {
                    const std::int64_t nameId = integer(e, 9, "nameId");
                    if (nameId < 0 || nameId > kMaxUint32)
                        failOp("nameId " + std::to_string(nameId) + " is out of range: the run has "
                               + std::to_string(m_run.names.size()) + " names");
                    op.nameId = static_cast<std::uint32_t>(nameId);
                    break;
                }
                case 10: {
                    const std::int64_t correlation = integer(e, 10, "correlation");
                    if (correlation < 0 || correlation > kMaxUint32)
                        failOp("correlation " + std::to_string(correlation) + " is out of range 0 ... 4294967295");
                    op.correlation = static_cast<std::uint32_t>(correlation);
                    break;
                }
                default: m_json.skip(e, 6); break; // counted, refused below
                }
            });
            const bool lengthOk = n == 7 || n == 9 || (m_version >= 2 && (n == 10 || n == 11));
            if (!lengthOk)
                failOp("has " + std::to_string(n)
                       + " elements; expected 7 (kind, lane, chunk, startNs, endNs, bytes, memory) or 9 (and "
                         "execStartNs, execEndNs)"
                       + (m_version >= 2 ? ", 10 (and nameId) or 11 (and correlation)" : ""));
            // Unknown engine times are null, both of them, and only where a
            // name or correlation follows.
            if (execStartNull || execEndNull) {
                if (n < 10 || !execStartNull)
                    failOp(std::string(execStartNull ? "execStartNs (element 7)" : "execEndNs (element 8)")
                           + " must be an integer, not null");
                if (!execEndNull)
                    failOp("execEndNs (element 8) must be null when execStartNs is");
            }
            if (op.endNs < op.startNs)
                failOp("end " + std::to_string(op.endNs) + " is before start " + std::to_string(op.startNs));
            if (n >= 9 && !execStartNull && op.execEndNs < op.execStartNs)
                failOp("exec end " + std::to_string(op.execEndNs) + " is before exec start "
                       + std::to_string(op.execStartNs));
            return op;
        }

        [[noreturn]] void failOp(const std::string& message) const
        {
            fail(describeRun(m_runIndex, m_run.name) + ", op " + std::to_string(m_index), message);
        }
        void setIndex(std::size_t index) { m_index = index; }

    private:
        std::int64_t integer(Value& e, std::size_t i, const char* name)
        {
            std::int64_t v = 0;
            JsonKind actual{};
            if (!m_json.tryInteger(e, v, actual))
                failOp(std::string(name) + " (element " + std::to_string(i) + ") must be an integer, not "
                       + describe(actual));
            return v;
        }

        std::int64_t time(Value& e, std::size_t i, const char* name, const char* label)
        {
            const std::int64_t t = integer(e, i, name);
            if (t < 0)
                failOp(std::string(label) + " " + std::to_string(t) + " is negative");
            if (t >= Trace::kTimeLimitNs)
                failOp(std::string(label) + " " + std::to_string(t) + " is too late: " + timeLimitText());
            return t;
        }

        bool isNull(Value& e)
        {
            bool null = false;
            return !e.is_null().get(null) && null;
        }

        std::string_view text(Value& e, std::size_t i, const char* name)
        {
            const JsonKind kind = m_json.kind(e);
            if (kind != JsonKind::String)
                failOp(std::string(name) + " (element " + std::to_string(i) + ") must be a string, not "
                       + describe(kind));
            return m_json.string(e);
        }

        OpKind kindOf(Value& e)
        {
            const std::string_view name = text(e, 0, "kind");
            const auto kind = opKindFromString(name);
            if (!kind)
                failOp("unknown op kind " + quotedMessageText(name));
            if (m_version < 2 && static_cast<int>(*kind) > static_cast<int>(OpKind::Register))
                failOp("op kind " + quotedMessageText(name) + " needs format version 2");
            if (m_version < 3 && static_cast<int>(*kind) > static_cast<int>(OpKind::ApiCall))
                failOp("op kind " + quotedMessageText(name) + " needs format version 3");
            if (m_version < 5 && *kind == OpKind::UnifiedMemory)
                failOp("op kind " + quotedMessageText(name) + " needs format version 5");
            return *kind;
        }

        HostMemoryKind memoryOf(Value& e)
        {
            const std::string_view name = text(e, 6, "memory");
            const auto memory = hostMemoryKindFromString(name);
            if (!memory)
                failOp("unknown memory kind " + quotedMessageText(name));
            if (m_version < 2 && static_cast<int>(*memory) > static_cast<int>(HostMemoryKind::Registered))
                failOp("memory kind " + quotedMessageText(name) + " needs format version 2");
            return *memory;
        }

        std::uint16_t laneOf(Value& e)
        {
            const std::int64_t lane = integer(e, 1, "lane");
            const std::int64_t count = m_lanesKnown ? static_cast<std::int64_t>(m_run.lanes.size()) : kMaxLanes;
            if (lane < 0 || lane >= count)
                failOp("lane " + std::to_string(lane) + " is out of range"
                       + (m_lanesKnown ? ": the run has " + std::to_string(count) + " lanes" : std::string()));
            return static_cast<std::uint16_t>(lane);
        }

        JsonReader& m_json;
        const Run& m_run;
        std::size_t m_runIndex;
        std::int64_t m_version;
        bool m_lanesKnown;
        std::size_t m_index = 0;
    };

    // What an op's reading could not check: lanes and names may come after
    // the ops in a file. Ops are still in file order here.
    static void checkOps(const Run& run, OpReader& reader)
    {
        for (std::size_t i = 0; i < run.ops.size(); ++i) {
            const Op& op = run.ops[i];
            reader.setIndex(i);
            if (op.lane >= run.lanes.size())
                reader.failOp("lane " + std::to_string(op.lane) + " is out of range: the run has "
                              + std::to_string(run.lanes.size()) + " lanes");
            if (op.nameId >= run.names.size())
                reader.failOp("nameId " + std::to_string(op.nameId) + " is out of range: the run has "
                              + std::to_string(run.names.size()) + " names");
            const Lane& lane = run.lanes[op.lane];
            const bool gpu = isStreamLaneOp(op.kind);
            if (gpu && lane.kind != LaneKind::Stream)
                reader.failOp(std::string("a ") + toString(op.kind) + " op runs on a GPU stream, but lane "
                              + std::to_string(op.lane) + " ('" + messageText(lane.name) + "') is a host lane");
            if (!gpu && lane.kind == LaneKind::Stream)
                reader.failOp(std::string("a ") + toString(op.kind) + " op runs on the host, but lane "
                              + std::to_string(op.lane) + " ('" + messageText(lane.name) + "') is a stream lane");
        }
    }

    // A stream lane names one of the run's devices; host lanes are the host's.
    static void checkLaneDevices(const Run& run, const std::string& where)
    {
        for (std::size_t i = 0; i < run.lanes.size(); ++i) {
            const Lane& lane = run.lanes[i];
            if (lane.kind == LaneKind::HostThread && lane.device != 0)
                fail(where + ", lane " + std::to_string(i), "is a host lane, which belongs to the host, but has "
                                                                "\"device\" " + std::to_string(lane.device));
            if (lane.device >= run.deviceCount())
                fail(where + ", lane " + std::to_string(i),
                     "is on device " + std::to_string(lane.device) + ", but the run has "
                         + std::to_string(run.deviceCount()) + (run.deviceCount() == 1 ? " device" : " devices")
                         + " (\"device\" and " + std::to_string(run.moreDevices.size()) + " in \"moreDevices\")");
        }
    }

    // Before the Kineto importer gave stream lanes their devices (Lane::device
    // indexing the run's devices), a trace it read from several GPUs became a
    // run of one device whose stream lanes said their GPU only in their names
    // ("GPU 1 stream 7"), which the analysis parsed. Such a run reads here as
    // the importer makes it now: a device per GPU named, by CUDA ordinal
    // (device 0 the one the file describes, the lowest; the others named
    // "GPU n"), each stream lane on its own. The reader's rule for those
    // files alone: a run that has several devices, or names one GPU, is left
    // as it is.
    static void devicesFromLaneNames(Run& run)
    {
        if (!run.moreDevices.empty())
            return;
        std::vector<std::int64_t> ordinals(run.lanes.size(), -1);
        std::vector<std::int64_t> gpus;
        for (std::size_t i = 0; i < run.lanes.size(); ++i) {
            const Lane& lane = run.lanes[i];
            if (lane.kind != LaneKind::Stream || !lane.name.starts_with("GPU "))
                continue;
            std::size_t at = 4;
            std::int64_t ordinal = 0;
            for (; at < lane.name.size() && at < 10 && lane.name[at] >= '0' && lane.name[at] <= '9'; ++at)
                ordinal = ordinal * 10 + (lane.name[at] - '0');
            if (at == 4 || at == lane.name.size() || lane.name[at] != ' ')
                continue;
            ordinals[i] = ordinal;
            if (std::find(gpus.begin(), gpus.end(), ordinal) == gpus.end())
                gpus.push_back(ordinal);
        }
        if (gpus.size() < 2 || gpus.size() >= kMaxLanes)
            return;
        std::sort(gpus.begin(), gpus.end());
        for (std::size_t d = 1; d < gpus.size(); ++d) {
            DeviceInfo device;
            device.name = "GPU " + std::to_string(gpus[d]);
            run.moreDevices.push_back(std::move(device));
        }
        for (std::size_t i = 0; i < run.lanes.size(); ++i)
            if (ordinals[i] >= 0)
                run.lanes[i].device =
                    static_cast<std::uint16_t>(std::find(gpus.begin(), gpus.end(), ordinals[i]) - gpus.begin());
    }

    // Ops in one lane never overlap: a stream runs one op at a time, and so
    // does a host thread. Touching (end == next start) is fine. Unified-memory
    // ops are exempt: the driver handles a fault group while the migrations
    // it started run, so they overlap on their lane by nature.
    static void checkNoOverlap(const Run& run, const std::string& where)
    {
        const std::vector<std::uint32_t> order = opsInLaneOrder(run);
        for (std::size_t i = 1; i < order.size(); ++i) {
            const Op& a = run.ops[order[i - 1]];
            const Op& b = run.ops[order[i]];
            if (a.lane == b.lane && b.startNs < a.endNs)
                fail(where, "ops " + std::to_string(order[i - 1]) + " and " + std::to_string(order[i])
                                + " overlap on lane " + std::to_string(a.lane) + " ('"
                                + messageText(run.lanes[a.lane].name) + "'): op " + std::to_string(order[i])
                                + " starts at " + std::to_string(b.startNs) + ", before op "
                                + std::to_string(order[i - 1]) + " ends at " + std::to_string(a.endNs));
        }
    }

    Run readRun(Value& v, std::size_t index)
    {
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Object)
            fail("run " + std::to_string(index), std::string("must be an object, not ") + describe(kind));
        Run run;
        Fields fields(m_json, "run " + std::to_string(index));
        OpReader ops(m_json, run, index, m_version, false);
        RegionRowReader regions(m_json, [&run, index] { return describeRun(index, run.name); });
        std::vector<std::pair<std::uint32_t, std::uint32_t>> opShapes; // [op, shape] as the file has them
        std::vector<std::pair<std::uint32_t, OpSource>> opSources;      // [op, source] as the file has them
        std::vector<std::pair<std::uint32_t, UnifiedMemoryOp>> opCounters; // [op, counter, cause] as the file has them
        bool lanesRead = false;
        m_json.forEachMember(v, 3, [&](std::string_view key, Value& m) {
            if (key == "name") {
                run.name = fields.string(m, key);
                fields.setWhere(describeRun(index, run.name));
            } else if (key == "pipeline") {
                run.pipeline = fields.string(m, key);
            } else if (key == "device") {
                fields.expect(m, key, JsonKind::Object, "an object");
                run.device = readDevice(m, fields.where() + ", device", 4);
            } else if (key == "moreDevices") {
                fields.expect(m, key, JsonKind::Array, "an array");
                if (m_version < 3)
                    fail(fields.where(), "field \"moreDevices\" needs format version 3; this file is version "
                                             + std::to_string(m_version));
                if (m_json.countElements(m) >= kMaxLanes)
                    fail(fields.where(), "has too many devices");
                m_json.forEachElement(m, 4, [&](Value& device, std::size_t i) {
                    const std::string deviceWhere = fields.where() + ", moreDevices " + std::to_string(i);
                    const JsonKind deviceKind = m_json.kind(device);
                    if (deviceKind != JsonKind::Object)
                        fail(deviceWhere, std::string("must be an object, not ") + describe(deviceKind));
                    run.moreDevices.push_back(readDevice(device, deviceWhere, 5));
                });
            } else if (key == "params") {
                fields.expect(m, key, JsonKind::Object, "an object");
                run.params = readParams(m, fields.where() + ", params", 4);
            } else if (key == "timing") {
                run.timing = fields.string(m, key);
            } else if (key == "status") {
                const std::string_view status = fields.string(m, key);
                const auto parsed = runStatusFromString(status);
                if (!parsed)
                    fail(fields.where(), "unknown status " + quotedMessageText(status)
                                             + "; expected \"completed\", \"cancelled\" or \"failed\"");
                run.status = *parsed;
            } else if (key == "error") {
                run.error = fields.string(m, key);
            } else if (key == "timedBeginNs") {
                run.timedBeginNs = fields.integer(m, key, 0, Trace::kTimeLimitNs - 1);
            } else if (key == "timedEndNs") {
                run.timedEndNs = fields.integer(m, key, 0, Trace::kTimeLimitNs - 1);
            } else if (key == "rank" || key == "sharedClockOriginNs") {
                if (m_version < Trace::kRanksFormatVersion)
                    fail(fields.where(), "field " + quotedMessageText(key) + " needs format version 6; this file is version "
                                             + std::to_string(m_version));
                if (key == "rank")
                    run.rank = static_cast<int>(fields.integer(m, key, 0, std::numeric_limits<std::int32_t>::max()));
                else
                    run.sharedClockOriginNs = fields.integer(m, key, std::numeric_limits<std::int64_t>::min(),
                                                             std::numeric_limits<std::int64_t>::max());
            } else if (key == "verification") {
                fields.expect(m, key, JsonKind::Object, "an object");
                run.verification = readVerification(m, fields.where() + ", verification", 4);
            } else if (key == "lanes") {
                fields.expect(m, key, JsonKind::Array, "an array");
                readLanes(m, run, fields.where());
                lanesRead = true;
            } else if (key == "names") {
                fields.expect(m, key, JsonKind::Array, "an array");
                readNames(m, run, fields.where());
            } else if (key == "ops") {
                fields.expect(m, key, JsonKind::Array, "an array");
                const std::size_t count = m_json.countElements(m);
                if (count > static_cast<std::size_t>(kMaxUint32))
                    fail(fields.where(), "has too many ops");
                run.ops.reserve(count);
                OpReader reader(m_json, run, index, m_version, lanesRead);
                m_json.forEachElement(m, 4, [&](Value& op, std::size_t i) { run.ops.push_back(reader.read(op, i)); });
            } else if (key == "kernelShapes" || key == "opShapes") {
                fields.expect(m, key, JsonKind::Array, "an array");
                if (m_version < Trace::kKernelShapesFormatVersion)
                    fail(fields.where(), "field " + quotedMessageText(key) + " needs format version 7; this file is version "
                                             + std::to_string(m_version));
                if (key == "kernelShapes")
                    readKernelShapes(m, run, fields.where());
                else
                    readOpShapes(m, opShapes, fields.where());
            } else if (key == "stacksRecorded" || key == "sourceSites" || key == "opSources") {
                if (m_version < Trace::kSourcesFormatVersion)
                    fail(fields.where(), "field " + quotedMessageText(key) + " needs format version 8; this file is version "
                                             + std::to_string(m_version));
                if (key == "stacksRecorded") {
                    run.stacksRecorded = fields.boolean(m, key);
                } else {
                    fields.expect(m, key, JsonKind::Array, "an array");
                    if (key == "sourceSites")
                        readSourceSites(m, run, fields.where());
                    else
                        readOpSources(m, opSources, fields.where());
                }
            } else if (key == "unifiedMemoryOps") {
                fields.expect(m, key, JsonKind::Array, "an array");
                if (m_version < Trace::kUnifiedMemoryFieldsFormatVersion)
                    fail(fields.where(), "field \"unifiedMemoryOps\" needs format version 9; this file is version "
                                             + std::to_string(m_version));
                readUnifiedMemoryOps(m, opCounters, fields.where());
            } else if (key == "regions") {
                fields.expect(m, key, JsonKind::Array, "an array");
                if (m_version < Trace::kRegionsFormatVersion)
                    fail(fields.where(), "field \"regions\" needs format version 4; this file is version "
                                             + std::to_string(m_version));
                if (m_json.countElements(m) > static_cast<std::size_t>(kMaxUint32))
                    fail(fields.where(), "has too many regions");
                m_json.forEachElement(m, 4,
                                      [&](Value& row, std::size_t i) { run.regions.push_back(regions.read(row, i)); });
            } else {
                m_json.skip(m, 4);
            }
        });
        const std::string& where = fields.where();
        fields.require({"name", "pipeline", "device", "params", "timing", "status", "error", "timedBeginNs",
                        "timedEndNs", "verification", "lanes", "ops"});
        if (run.timedEndNs < run.timedBeginNs)
            fail(where, "timedEndNs " + std::to_string(run.timedEndNs) + " is before timedBeginNs "
                            + std::to_string(run.timedBeginNs));
        checkLaneDevices(run, where);
        devicesFromLaneNames(run);
        checkOps(run, ops);
        checkNoOverlap(run, where);
        regions.checkLanes(run);
        applyOpShapes(run, opShapes, where);
        applyOpSources(run, opSources, where);
        if (m_version >= Trace::kUnifiedMemoryFieldsFormatVersion)
            applyUnifiedMemoryOps(run, opCounters, where);
        else
            unifiedMemoryFromNames(run);
        run.sortOps();
        run.sortRegions();
        return run;
    }

    // Format 7: [gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, sharedMemoryBytes] each.
    void readKernelShapes(Value& v, Run& run, const std::string& where)
    {
        if (m_json.countElements(v) > static_cast<std::size_t>(kMaxUint32))
            fail(where, "has too many kernel shapes");
        m_json.forEachElement(v, 4, [&](Value& row, std::size_t i) {
            const std::string rowWhere = where + ", kernel shape " + std::to_string(i);
            if (m_json.kind(row) != JsonKind::Array || m_json.countElements(row) != 8)
                fail(rowWhere, "must be an array of 8 integers: grid x, y, z, block x, y, z, registers per thread, "
                               "shared memory bytes");
            Fields fields(m_json, rowWhere);
            std::array<std::int64_t, 8> n{};
            static constexpr std::string_view kNames[8] = {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                                                           "registersPerThread", "sharedMemoryBytes"};
            m_json.forEachElement(row, 5, [&](Value& x, std::size_t j) {
                n[j] = fields.integer(x, kNames[j], j < 6 ? 1 : 0, j == 6 ? 0xFFFF : kMaxUint32);
            });
            KernelShape shape;
            for (int d = 0; d < 3; ++d) {
                shape.grid[d] = static_cast<std::uint32_t>(n[d]);
                shape.block[d] = static_cast<std::uint32_t>(n[3 + d]);
            }
            shape.registersPerThread = static_cast<std::uint16_t>(n[6]);
            shape.sharedMemoryBytes = static_cast<std::uint32_t>(n[7]);
            run.kernelShapes.push_back(shape);
        });
    }

    // Format 7: [op, shape] each, both indices into the run's arrays.
    void readOpShapes(Value& v, std::vector<std::pair<std::uint32_t, std::uint32_t>>& out, const std::string& where)
    {
        if (m_json.countElements(v) > static_cast<std::size_t>(kMaxUint32))
            fail(where, "has too many op shapes");
        m_json.forEachElement(v, 4, [&](Value& row, std::size_t i) {
            const std::string rowWhere = where + ", op shape " + std::to_string(i);
            if (m_json.kind(row) != JsonKind::Array || m_json.countElements(row) != 2)
                fail(rowWhere, "must be an array of 2 integers: op, shape");
            Fields fields(m_json, rowWhere);
            std::array<std::int64_t, 2> n{};
            m_json.forEachElement(row, 5, [&](Value& x, std::size_t j) {
                n[j] = fields.integer(x, j == 0 ? "op" : "shape", 0, kMaxUint32 - 1);
            });
            out.emplace_back(static_cast<std::uint32_t>(n[0]), static_cast<std::uint32_t>(n[1]));
        });
    }

    // Before the ops are sorted: an op index is its place in the file's "ops".
    void applyOpShapes(Run& run, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& opShapes,
                       const std::string& where)
    {
        for (const auto& [op, shape] : opShapes) {
            if (op >= run.ops.size())
                fail(where, "op shape names op " + std::to_string(op) + "; the run has " + std::to_string(run.ops.size()));
            if (shape >= run.kernelShapes.size())
                fail(where, "op shape names kernel shape " + std::to_string(shape) + "; the run has "
                                + std::to_string(run.kernelShapes.size()));
            if (run.ops[op].kind != OpKind::Kernel)
                fail(where, "op shape gives op " + std::to_string(op) + ", a " + toString(run.ops[op].kind)
                                + ", a launch shape; only kernels have one");
            run.setShape(op, shape + 1);
        }
    }

    // Format 8: [file, line, function, "call" or "frame-entry"] each.
    void readSourceSites(Value& v, Run& run, const std::string& where)
    {
        if (m_json.countElements(v) > static_cast<std::size_t>(kMaxUint32) - 1)
            fail(where, "has too many source sites");
        m_json.forEachElement(v, 4, [&](Value& row, std::size_t i) {
            const std::string rowWhere = where + ", source site " + std::to_string(i);
            if (m_json.kind(row) != JsonKind::Array || m_json.countElements(row) != 4)
                fail(rowWhere, "must be an array of 4: file (a string), line (an integer), function (a string), "
                               "what the line is (\"call\" or \"frame-entry\")");
            Fields fields(m_json, rowWhere);
            SourceSite site;
            m_json.forEachElement(row, 5, [&](Value& x, std::size_t j) {
                if (j == 0)
                    site.file = fields.string(x, "file");
                else if (j == 1)
                    site.line = static_cast<std::uint32_t>(fields.integer(x, "line", 0, kMaxUint32));
                else if (j == 2)
                    site.function = fields.string(x, "function");
                else {
                    const std::string_view lineIs = fields.string(x, "lineIs");
                    if (lineIs != "call" && lineIs != "frame-entry")
                        fail(rowWhere, "what the line is must be \"call\" or \"frame-entry\", not "
                                           + quotedMessageText(lineIs));
                    site.lineIs = lineIs == "call" ? SiteLine::Call : SiteLine::FrameEntry;
                }
            });
            run.sourceSites.push_back(std::move(site));
        });
    }

    // Format 8: [op, site, aten op, called] each.
    void readOpSources(Value& v, std::vector<std::pair<std::uint32_t, OpSource>>& out, const std::string& where)
    {
        if (m_json.countElements(v) > static_cast<std::size_t>(kMaxUint32))
            fail(where, "has too many op sources");
        m_json.forEachElement(v, 4, [&](Value& row, std::size_t i) {
            const std::string rowWhere = where + ", op source " + std::to_string(i);
            if (m_json.kind(row) != JsonKind::Array || m_json.countElements(row) != 4)
                fail(rowWhere, "must be an array of 4 integers: op, site, aten op, called");
            Fields fields(m_json, rowWhere);
            static constexpr std::string_view kNames[4] = {"op", "site", "aten op", "called"};
            std::array<std::int64_t, 4> n{};
            m_json.forEachElement(row, 5, [&](Value& x, std::size_t j) {
                n[j] = fields.integer(x, kNames[j], 0, kMaxUint32 - 1);
            });
            out.emplace_back(static_cast<std::uint32_t>(n[0]),
                             OpSource{static_cast<std::uint32_t>(n[1]), static_cast<std::uint32_t>(n[2]),
                                      static_cast<std::uint32_t>(n[3])});
        });
    }

    // Before the ops are sorted, as applyOpShapes.
    static void applyOpSources(Run& run, const std::vector<std::pair<std::uint32_t, OpSource>>& opSources,
                               const std::string& where)
    {
        for (const auto& [op, source] : opSources) {
            if (op >= run.ops.size())
                fail(where, "op source names op " + std::to_string(op) + "; the run has " + std::to_string(run.ops.size()));
            if (source.site > run.sourceSites.size())
                fail(where, "op source of op " + std::to_string(op) + " names site " + std::to_string(source.site)
                                + "; the run has " + std::to_string(run.sourceSites.size()) + " (sites count from 1)");
            if (source.op >= run.names.size() || source.called >= run.names.size())
                fail(where, "op source of op " + std::to_string(op) + " names a name id beyond the run's "
                                + std::to_string(run.names.size()) + " names");
            run.setSource(op, source);
        }
    }

    // Format 9: [op, counter, cause] each (trace/UnifiedMemoryOp.h's words).
    void readUnifiedMemoryOps(Value& v, std::vector<std::pair<std::uint32_t, UnifiedMemoryOp>>& out,
                              const std::string& where)
    {
        if (m_json.countElements(v) > static_cast<std::size_t>(kMaxUint32))
            fail(where, "has too many unified-memory ops");
        m_json.forEachElement(v, 4, [&](Value& row, std::size_t i) {
            const std::string rowWhere = where + ", unified-memory op " + std::to_string(i);
            if (m_json.kind(row) != JsonKind::Array || m_json.countElements(row) != 3)
                fail(rowWhere, "must be an array of 3: op (an integer), counter and cause (strings)");
            Fields fields(m_json, rowWhere);
            std::uint32_t op = 0;
            UnifiedMemoryOp counter;
            m_json.forEachElement(row, 5, [&](Value& x, std::size_t j) {
                if (j == 0) {
                    op = static_cast<std::uint32_t>(fields.integer(x, "op", 0, kMaxUint32 - 1));
                } else if (j == 1) {
                    const std::string_view name = fields.string(x, "counter");
                    const auto parsed = umCounterFromString(name);
                    if (!parsed)
                        fail(rowWhere, "unknown unified-memory counter " + quotedMessageText(name));
                    counter.counter = *parsed;
                } else {
                    const std::string_view name = fields.string(x, "cause");
                    const auto parsed = umCauseFromString(name);
                    if (!parsed)
                        fail(rowWhere, "unknown migration cause " + quotedMessageText(name));
                    counter.cause = *parsed;
                }
            });
            out.emplace_back(op, counter);
        });
    }

    // Before the ops are sorted, as applyOpShapes.
    static void applyUnifiedMemoryOps(Run& run, const std::vector<std::pair<std::uint32_t, UnifiedMemoryOp>>& counters,
                                      const std::string& where)
    {
        for (const auto& [op, counter] : counters) {
            if (op >= run.ops.size())
                fail(where, "unified-memory op names op " + std::to_string(op) + "; the run has "
                                + std::to_string(run.ops.size()));
            if (run.ops[op].kind != OpKind::UnifiedMemory)
                fail(where, "unified-memory op gives op " + std::to_string(op) + ", a " + toString(run.ops[op].kind)
                                + ", a counter; only unified-memory ops have one");
            run.setUnifiedMemory(op, counter);
        }
    }

    // Before format 9 a unified-memory op said what it counted only in its
    // name, as the profiler named it (unifiedMemoryName): read back here, in
    // the reader of those files only, so that every older trace reads as it
    // did. A name it does not know gives no counter.
    static void unifiedMemoryFromNames(Run& run)
    {
        if (!run.usesUnifiedMemory())
            return;
        std::vector<std::optional<UnifiedMemoryOp>> ofName(run.names.size());
        for (std::size_t id = 0; id < run.names.size(); ++id)
            ofName[id] = unifiedMemoryOpNamed(run.names[id]);
        for (std::size_t i = 0; i < run.ops.size(); ++i) {
            const Op& op = run.ops[i];
            if (op.kind == OpKind::UnifiedMemory && op.nameId < ofName.size() && ofName[op.nameId])
                run.setUnifiedMemory(i, *ofName[op.nameId]);
        }
    }

    BandwidthSweep readSweep(Value& v, std::size_t index)
    {
        const std::string where = "sweep " + std::to_string(index);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Object)
            fail(where, std::string("must be an object, not ") + describe(kind));
        BandwidthSweep sweep;
        Fields fields(m_json, where);
        m_json.forEachMember(v, 3, [&](std::string_view key, Value& m) {
            if (key == "device") {
                fields.expect(m, key, JsonKind::Object, "an object");
                sweep.device = readDevice(m, where + ", device", 4);
            } else if (key == "timing") {
                sweep.timing = fields.string(m, key);
            } else if (key == "warmups") {
                sweep.warmups = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            } else if (key == "samples") {
                sweep.samples = static_cast<int>(fields.integer(m, key, 0, kMaxInt));
            } else if (key == "points") {
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 4, [&](Value& p, std::size_t i) { sweep.points.push_back(readPoint(p, where, i)); });
            } else if (key == "status") {
                // Optional: sweeps from before cancel kept partial sweeps are complete.
                const std::string_view status = fields.string(m, key);
                const auto parsed = runStatusFromString(status);
                if (!parsed)
                    fail(where, "unknown status " + quotedMessageText(status)
                                    + "; expected \"completed\", \"cancelled\" or \"failed\"");
                sweep.status = *parsed;
            } else if (key == "error") {
                sweep.error = fields.string(m, key);
            } else if (key == "hostCopies") {
                // Optional: sweeps from before host copies were measured have none.
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 4, [&](Value& p, std::size_t i) {
                    sweep.hostCopies.push_back(readHostCopy(p, where, i));
                });
            } else {
                m_json.skip(m, 4);
            }
        });
        fields.require({"device", "timing", "warmups", "samples", "points"});
        return sweep;
    }

    BandwidthPoint readPoint(Value& v, const std::string& sweepWhere, std::size_t index)
    {
        const std::string where = sweepWhere + ", point " + std::to_string(index);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Object)
            fail(where, std::string("must be an object, not ") + describe(kind));
        BandwidthPoint point;
        Fields fields(m_json, where);
        m_json.forEachMember(v, 5, [&](std::string_view key, Value& m) {
            if (key == "bytes") {
                point.bytes = static_cast<std::uint64_t>(fields.integer(m, key, 1, kMaxInt64));
            } else if (key == "memory") {
                const std::string_view memory = fields.string(m, key);
                const auto memoryKind = hostMemoryKindFromString(memory);
                if (!memoryKind)
                    fail(where, "unknown memory kind " + quotedMessageText(memory));
                point.memory = *memoryKind;
            } else if (key == "direction") {
                point.direction = fields.string(m, key);
                if (point.direction != "HtoD" && point.direction != "DtoH" && point.direction != "bidir")
                    fail(where, "unknown direction " + quotedMessageText(point.direction)
                                    + "; expected \"HtoD\", \"DtoH\" or \"bidir\"");
            } else if (key == "samplesMs") {
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 6, [&](Value& sample, std::size_t s) {
                    const JsonKind sampleKind = m_json.kind(sample);
                    if (sampleKind != JsonKind::Integer && sampleKind != JsonKind::Number)
                        fail(where, "sample " + std::to_string(s) + " must be a number, not " + describe(sampleKind));
                    const double value = m_json.number(sample);
                    if (value < 0)
                        fail(where, "sample " + std::to_string(s) + " is negative");
                    point.samplesMs.push_back(value);
                });
                if (point.samplesMs.empty())
                    fail(where, "has no samples");
            } else if (key == "medianMs") {
                point.medianMs = fields.nonNegativeNumber(m, key);
            } else if (key == "gbps") {
                point.gbps = fields.nonNegativeNumber(m, key);
            } else {
                m_json.skip(m, 6);
            }
        });
        fields.require({"bytes", "memory", "direction", "samplesMs", "medianMs", "gbps"});
        return point;
    }

    HostCopyPoint readHostCopy(Value& v, const std::string& sweepWhere, std::size_t index)
    {
        const std::string where = sweepWhere + ", host copy " + std::to_string(index);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Object)
            fail(where, std::string("must be an object, not ") + describe(kind));
        HostCopyPoint point;
        Fields fields(m_json, where);
        m_json.forEachMember(v, 5, [&](std::string_view key, Value& m) {
            if (key == "threads") {
                point.threads = static_cast<int>(fields.integer(m, key, 1, kMaxInt));
            } else if (key == "bytes") {
                point.bytes = static_cast<std::uint64_t>(fields.integer(m, key, 1, kMaxInt64));
            } else if (key == "samplesMs") {
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 6, [&](Value& sample, std::size_t s) {
                    const JsonKind sampleKind = m_json.kind(sample);
                    if (sampleKind != JsonKind::Integer && sampleKind != JsonKind::Number)
                        fail(where, "sample " + std::to_string(s) + " must be a number, not " + describe(sampleKind));
                    const double value = m_json.number(sample);
                    if (value < 0)
                        fail(where, "sample " + std::to_string(s) + " is negative");
                    point.samplesMs.push_back(value);
                });
                if (point.samplesMs.empty())
                    fail(where, "has no samples");
            } else if (key == "medianMs") {
                point.medianMs = fields.nonNegativeNumber(m, key);
            } else if (key == "gbps") {
                point.gbps = fields.nonNegativeNumber(m, key);
            } else {
                m_json.skip(m, 6);
            }
        });
        fields.require({"threads", "bytes", "samplesMs", "medianMs", "gbps"});
        return point;
    }

    JsonReader& m_json;
    std::int64_t m_version = Trace::kFormatVersion;
};

} // namespace

Trace readNativeTrace(JsonReader& json)
{
    return Reader(json).read();
}

std::optional<UnifiedMemoryOp> unifiedMemoryOpNamed(std::string_view name)
{
    for (UmCounter counter : {UmCounter::MigrationToGpu, UmCounter::MigrationToHost, UmCounter::CpuPageFault,
                              UmCounter::GpuPageFaults, UmCounter::Thrashing, UmCounter::Throttling})
        for (UmCause cause : {UmCause::Unknown, UmCause::Requested, UmCause::Fault, UmCause::DriverPrefetch,
                              UmCause::Eviction, UmCause::AccessCounters}) {
            const UnifiedMemoryOp named{counter, cause};
            if ((named.isMigration() || cause == UmCause::Unknown) && name == unifiedMemoryName(named))
                return named;
        }
    return std::nullopt;
}

StreamKind streamKindWithout(std::string_view laneName)
{
    const bool legacy = laneName.find("default stream (legacy)") != std::string_view::npos
                        || laneName.find("(legacy default)") != std::string_view::npos;
    return legacy ? StreamKind::LegacyDefault : StreamKind::Unknown;
}

} // namespace ovs
