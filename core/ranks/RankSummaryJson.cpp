#include "ranks/RankSummaryJson.h"

#include "base/MessageText.h"
#include "io/JsonReader.h"
#include "io/JsonWriter.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

namespace ovs {

namespace {

// Times a summary may hold, ns. Wall-clock origins are about 1.8e18 ns
// after 1970; the comparison subtracts and adds these, so bounding them
// at 2^61 keeps every such sum inside int64 whatever a file says.
constexpr std::int64_t kMaxNs = std::int64_t(1) << 61;

const char* sourceId(CostSource source)
{
    return source == CostSource::Replay ? "replay" : "estimate";
}

void writeRun(JsonWriter& w, const RankSummary& r)
{
    w.beginObject();
    w.member("run", r.runName);
    w.member("rank", r.rank);
    w.member("rankSource", toString(r.rankSource));
    w.member("device", r.device);
    w.key("clockOriginNs");
    if (r.clockOriginNs)
        w.value(*r.clockOriginNs);
    else
        w.value(nullptr);
    w.key("steps");
    w.beginArray();
    for (const StepStart& s : r.steps) {
        w.beginArray();
        w.value(s.number);
        w.value(s.beginNs);
        w.endArray();
    }
    w.endArray();
    w.member("judged", r.judged);
    w.member("hasSteps", r.hasSteps);
    w.member("stepsJudged", r.stepsJudged);
    w.member("stepMedianNs", r.stepMedianNs);
    w.member("stepSlowestNs", r.stepSlowestNs);
    w.member("slowestStep", r.slowestStep);
    w.member("gpuBusyPercent", r.gpuBusyPercent);
    w.member("overlapPercent", r.overlapPercent);
    w.member("overlapOfPossiblePercent", r.overlapOfPossiblePercent);
    w.member("bound", r.bound);
    w.member("collectiveMedianNs", r.collectiveMedianNs);
    w.key("findings");
    w.beginArray();
    for (const RankFinding& f : r.findings) {
        w.beginObject();
        w.member("kind", findingId(f.kind, f.alsoKinds));
        w.member("costNs", f.costNs);
        w.member("costSource", sourceId(f.costSource));
        w.member("fix", f.fix);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw JsonReadError{where + ": " + what};
}

using Value = JsonReader::Value;

// Reads the fields of one object, checking each one's kind and range, and
// says which required ones were missing.
class Fields {
public:
    Fields(JsonReader& json, std::string where) : m_json(json), m_where(std::move(where)) {}

    const std::string& where() const { return m_where; }
    void see(std::string_view key) { m_seen.push_back(key); }
    void require(std::initializer_list<std::string_view> keys) const
    {
        for (auto key : keys)
            if (std::find(m_seen.begin(), m_seen.end(), key) == m_seen.end())
                fail(m_where, "missing field " + quotedMessageText(key));
    }
    [[noreturn]] void wrongType(std::string_view key, const char* expected, JsonKind actual) const
    {
        fail(m_where, "field " + quotedMessageText(key) + " must be " + expected + ", not " + describe(actual));
    }
    std::string string(Value& v, std::string_view key)
    {
        see(key);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::String)
            wrongType(key, "a string", kind);
        return std::string(m_json.string(v));
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
        if (value < min || value > max)
            fail(m_where, "field " + quotedMessageText(key) + " is " + std::to_string(value) + "; it must be from "
                              + std::to_string(min) + " to " + std::to_string(max));
        return value;
    }
    // A percentage: finite, 0 to 100 with room for rounding.
    double percent(Value& v, std::string_view key)
    {
        see(key);
        const JsonKind kind = m_json.kind(v);
        if (kind != JsonKind::Integer && kind != JsonKind::Number)
            wrongType(key, "a number", kind);
        const double value = m_json.number(v);
        if (!std::isfinite(value) || value < 0 || value > 1000)
            fail(m_where, "field " + quotedMessageText(key) + " is not a percentage");
        return value;
    }
    bool isNull(Value& v) { return m_json.kind(v) == JsonKind::Null; }
    void expect(Value& v, std::string_view key, JsonKind kind, const char* expected)
    {
        const JsonKind actual = m_json.kind(v);
        if (actual != kind)
            wrongType(key, expected, actual);
    }

private:
    JsonReader& m_json;
    std::string m_where;
    std::vector<std::string_view> m_seen;
};

std::optional<FindingKind> kindFromId(std::string_view id)
{
    for (int k = 0; k < kFindingKindCount; ++k)
        if (id == kindId(static_cast<FindingKind>(k)))
            return static_cast<FindingKind>(k);
    return std::nullopt;
}

class Reader {
public:
    explicit Reader(JsonReader& json) : m_json(json) {}

    RankFileSummary read()
    {
        if (m_json.rootKind() != JsonKind::Object)
            throw JsonReadError{"not a rank summary: the file holds no JSON object"};
        RankFileSummary summary;
        Fields fields(m_json, "summary");
        std::string format;
        std::int64_t schema = 0;
        m_json.forEachMember(m_json.rootObject(), 1, [&](std::string_view key, Value& v) {
            if (key == "format") {
                format = fields.string(v, key);
                if (format != kRankSummaryFormatName)
                    throw JsonReadError{"not a rank summary: \"format\" is " + quotedMessageText(format)};
            } else if (key == "schema") {
                schema = fields.integer(v, key, 1, INT_MAX);
                if (schema > kRankSummarySchema)
                    throw JsonReadError{"this rank summary is schema " + std::to_string(schema)
                                        + "; this build reads up to " + std::to_string(kRankSummarySchema)};
            } else if (key == "path") {
                summary.file.path = fields.string(v, key);
            } else if (key == "error") {
                summary.file.error = fields.string(v, key);
            } else if (key == "notes") {
                fields.see(key);
                fields.expect(v, key, JsonKind::Array, "an array");
                m_json.forEachElement(v, 2, [&](Value& note, std::size_t) {
                    Fields item(m_json, "a note");
                    summary.file.notes.push_back(item.string(note, "notes"));
                });
            } else if (key == "runs") {
                fields.see(key);
                fields.expect(v, key, JsonKind::Array, "an array");
                m_json.forEachElement(v, 2, [&](Value& run, std::size_t index) {
                    summary.rows.push_back(readRun(run, index));
                });
            } else {
                m_json.skip(v, 2); // a field of a later schema
            }
        });
        fields.require({"format", "schema", "path", "error", "notes", "runs"});
        m_json.finish();
        if (summary.file.path.empty())
            throw JsonReadError{"summary: \"path\" is empty"};
        return summary;
    }

private:
    RankSummary readRun(Value& v, std::size_t index)
    {
        RankSummary r;
        Fields fields(m_json, "run " + std::to_string(index + 1));
        fields.expect(v, "runs", JsonKind::Object, "an array of objects");
        m_json.forEachMember(v, 3, [&](std::string_view key, Value& m) {
            if (key == "run") {
                r.runName = fields.string(m, key);
            } else if (key == "rank") {
                r.rank = static_cast<int>(fields.integer(m, key, -1, INT_MAX));
            } else if (key == "rankSource") {
                const std::string source = fields.string(m, key);
                if (source == toString(RankSource::Trace))
                    r.rankSource = RankSource::Trace;
                else if (source == toString(RankSource::FileName))
                    r.rankSource = RankSource::FileName;
                else if (source == toString(RankSource::None))
                    r.rankSource = RankSource::None;
                else
                    fail(fields.where(), "\"rankSource\" " + quotedMessageText(source) + " is none of trace, file name, none");
            } else if (key == "device") {
                r.device = fields.string(m, key);
            } else if (key == "clockOriginNs") {
                if (fields.isNull(m)) {
                    fields.see(key);
                    r.clockOriginNs.reset();
                } else {
                    r.clockOriginNs = fields.integer(m, key, -kMaxNs, kMaxNs);
                }
            } else if (key == "steps") {
                fields.see(key);
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 4, [&](Value& step, std::size_t) {
                    Fields pair(m_json, fields.where() + ", a step");
                    pair.expect(step, "steps", JsonKind::Array, "an array of [number, beginNs] pairs");
                    StepStart start;
                    int n = 0;
                    m_json.forEachElement(step, 5, [&](Value& x, std::size_t i) {
                        if (i == 0)
                            start.number = pair.integer(x, "steps", 0, kMaxNs);
                        else if (i == 1)
                            start.beginNs = pair.integer(x, "steps", -kMaxNs, kMaxNs);
                        else
                            fail(pair.where(), "a step is a [number, beginNs] pair");
                        ++n;
                    });
                    if (n != 2)
                        fail(pair.where(), "a step is a [number, beginNs] pair");
                    r.steps.push_back(start);
                });
            } else if (key == "judged") {
                r.judged = fields.string(m, key);
            } else if (key == "hasSteps") {
                r.hasSteps = fields.boolean(m, key);
            } else if (key == "stepsJudged") {
                r.stepsJudged = static_cast<int>(fields.integer(m, key, 0, INT_MAX));
            } else if (key == "stepMedianNs") {
                r.stepMedianNs = fields.integer(m, key, 0, kMaxNs);
            } else if (key == "stepSlowestNs") {
                r.stepSlowestNs = fields.integer(m, key, 0, kMaxNs);
            } else if (key == "slowestStep") {
                r.slowestStep = fields.string(m, key);
            } else if (key == "gpuBusyPercent") {
                r.gpuBusyPercent = fields.percent(m, key);
            } else if (key == "overlapPercent") {
                r.overlapPercent = fields.percent(m, key);
            } else if (key == "overlapOfPossiblePercent") {
                r.overlapOfPossiblePercent = fields.percent(m, key);
            } else if (key == "bound") {
                r.bound = fields.string(m, key);
            } else if (key == "collectiveMedianNs") {
                r.collectiveMedianNs = fields.integer(m, key, -1, kMaxNs);
            } else if (key == "findings") {
                fields.see(key);
                fields.expect(m, key, JsonKind::Array, "an array");
                m_json.forEachElement(m, 4, [&](Value& f, std::size_t i) {
                    r.findings.push_back(readFinding(f, fields.where() + ", finding " + std::to_string(i + 1)));
                });
            } else {
                m_json.skip(m, 4);
            }
        });
        fields.require({"run", "rank", "rankSource", "device", "clockOriginNs", "steps", "judged", "hasSteps",
                        "stepsJudged", "stepMedianNs", "stepSlowestNs", "slowestStep", "gpuBusyPercent",
                        "overlapPercent", "overlapOfPossiblePercent", "bound", "collectiveMedianNs", "findings"});
        return r;
    }

    RankFinding readFinding(Value& v, const std::string& where)
    {
        RankFinding f;
        Fields fields(m_json, where);
        fields.expect(v, "findings", JsonKind::Object, "an array of objects");
        m_json.forEachMember(v, 5, [&](std::string_view key, Value& m) {
            if (key == "kind") {
                // "one-stream+host-sync": the first kind, then those it
                // absorbed, as findingId joins them.
                const std::string id = fields.string(m, key);
                std::size_t begin = 0;
                bool first = true;
                while (true) {
                    const std::size_t plus = id.find('+', begin);
                    const std::string part = id.substr(begin, plus == std::string::npos ? std::string::npos : plus - begin);
                    const auto kind = kindFromId(part);
                    if (!kind || *kind == FindingKind::Bound)
                        fail(where, "\"kind\" " + quotedMessageText(id) + " is no finding's id");
                    if (first)
                        f.kind = *kind;
                    else
                        f.alsoKinds.push_back(*kind);
                    first = false;
                    if (plus == std::string::npos)
                        break;
                    begin = plus + 1;
                }
            } else if (key == "costNs") {
                f.costNs = fields.integer(m, key, 0, kMaxNs);
            } else if (key == "costSource") {
                const std::string source = fields.string(m, key);
                if (source == sourceId(CostSource::Replay))
                    f.costSource = CostSource::Replay;
                else if (source == sourceId(CostSource::Estimate))
                    f.costSource = CostSource::Estimate;
                else
                    fail(where, "\"costSource\" " + quotedMessageText(source) + " is neither replay nor estimate");
            } else if (key == "fix") {
                f.fix = fields.string(m, key);
            } else {
                m_json.skip(m, 6);
            }
        });
        fields.require({"kind", "costNs", "costSource", "fix"});
        return f;
    }

    JsonReader& m_json;
};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

} // namespace

std::string rankSummaryJson(const RankFileSummary& summary)
{
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    // "format" first: isRankSummaryFile tells a summary by its first bytes.
    w.member("format", kRankSummaryFormatName);
    w.member("schema", kRankSummarySchema);
    w.member("path", summary.file.path);
    w.member("error", summary.file.error);
    w.key("notes");
    w.beginArray();
    for (const std::string& note : summary.file.notes)
        w.value(note);
    w.endArray();
    w.key("runs");
    w.beginArray();
    for (const RankSummary& r : summary.rows)
        writeRun(w, r);
    w.endArray();
    w.endObject();
    w.flush();
    out += '\n';
    return out;
}

std::optional<RankFileSummary> rankSummaryFromJson(std::string_view text, std::string* error)
{
    const simdjson::padded_string padded(text.data(), text.size());
    try {
        JsonReader json(std::string_view(padded.data(), padded.size()));
        Reader reader(json);
        return reader.read();
    } catch (const JsonReadError& e) {
        if (error)
            *error = clippedMessage(e.message);
    } catch (const simdjson::simdjson_error& e) {
        if (error)
            *error = clippedMessage(std::string("not valid JSON: ") + e.what());
    }
    return std::nullopt;
}

bool isRankSummaryFile(const std::string& path)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return false;
    const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return false;
    char head[256];
    const std::size_t got = std::fread(head, 1, sizeof head, file.get());
    // The tokens `{ "format" : "overlapscope-rank-summary"` with any white
    // space between them.
    std::string tokens;
    for (std::size_t i = 0; i < got; ++i)
        if (!std::isspace(static_cast<unsigned char>(head[i])))
            tokens += head[i];
    const std::string expected = "{\"format\":\"" + std::string(kRankSummaryFormatName) + "\"";
    return tokens.starts_with(expected);
}

std::optional<RankFileSummary> loadRankSummary(const std::string& path, std::uint64_t maxBytes, std::string* error)
{
    const auto failed = [&](const std::string& why) -> std::optional<RankFileSummary> {
        if (error)
            *error = clippedMessage(messageText(path, 120) + ": " + why);
        return std::nullopt;
    };
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return failed(std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        return failed("not a regular file");
    if (static_cast<std::uint64_t>(info.st_size) > maxBytes)
        return failed("the summary is " + std::to_string(info.st_size) + " bytes, over the limit of "
                      + std::to_string(maxBytes));
    const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return failed(std::string("cannot open: ") + std::strerror(errno));
    std::string text(static_cast<std::size_t>(info.st_size), '\0');
    const std::size_t got = std::fread(text.data(), 1, text.size(), file.get());
    text.resize(got);
    std::string why;
    auto summary = rankSummaryFromJson(text, &why);
    if (!summary)
        return failed(why);
    return summary;
}

} // namespace ovs
