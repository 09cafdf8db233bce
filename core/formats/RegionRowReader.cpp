#include "formats/RegionRowReader.h"

#include "base/MessageText.h"
#include "trace/Trace.h"

namespace ovs {

namespace {

constexpr std::size_t kRowLength = 6;

std::string sourceWords()
{
    std::string words;
    for (RegionSource s : {RegionSource::Nvtx, RegionSource::ProfilerRange, RegionSource::Annotation,
                           RegionSource::GpuAnnotation, RegionSource::ProfilerStep, RegionSource::Pipeline})
        words += (words.empty() ? "\"" : ", \"") + std::string(toString(s)) + "\"";
    return words;
}

} // namespace

RegionRowReader::RegionRowReader(JsonReader& json, std::function<std::string()> runWhere)
    : m_json(json), m_runWhere(std::move(runWhere))
{
}

void RegionRowReader::fail(std::size_t index, const std::string& message) const
{
    throw JsonReadError{m_runWhere() + ", region " + std::to_string(index) + ": " + message};
}

std::int64_t RegionRowReader::integer(JsonReader::Value& e, std::size_t index, std::size_t element, const char* name)
{
    std::int64_t v = 0;
    JsonKind actual{};
    if (!m_json.tryInteger(e, v, actual))
        fail(index, std::string(name) + " (element " + std::to_string(element) + ") must be an integer, not "
                        + describe(actual));
    return v;
}

std::int64_t RegionRowReader::time(JsonReader::Value& e, std::size_t index, std::size_t element, const char* name)
{
    const std::int64_t t = integer(e, index, element, name);
    if (t < 0)
        fail(index, std::string(name) + " " + std::to_string(t) + " is negative");
    if (t >= Trace::kTimeLimitNs)
        fail(index, std::string(name) + " " + std::to_string(t) + " is too late: the limit is 2^62 ns");
    return t;
}

Region RegionRowReader::read(JsonReader::Value& row, std::size_t index)
{
    const JsonKind kind = m_json.kind(row);
    if (kind != JsonKind::Array)
        fail(index, std::string("must be an array [source, lane, depth, beginNs, endNs, name], not ") + describe(kind));
    Region region;
    std::size_t n = 0;
    m_json.forEachElement(row, 5, [&](JsonReader::Value& e, std::size_t i) {
        n = i + 1;
        switch (i) {
        case 0: {
            const JsonKind k = m_json.kind(e);
            if (k != JsonKind::String)
                fail(index, std::string("source (element 0) must be a string, not ") + describe(k));
            const std::string_view name = m_json.string(e);
            const auto source = regionSourceFromString(name);
            if (!source)
                fail(index, "unknown source " + quotedMessageText(name) + "; expected one of " + sourceWords());
            region.source = *source;
            break;
        }
        case 1: {
            if (m_json.kind(e) == JsonKind::Null) {
                m_json.skip(e, 6);
                region.lane = Region::kNoLane;
                break;
            }
            const std::int64_t lane = integer(e, index, 1, "lane");
            if (lane < 0 || lane >= Region::kNoLane)
                fail(index, "lane " + std::to_string(lane) + " is out of range");
            region.lane = static_cast<std::uint16_t>(lane);
            break;
        }
        case 2: {
            const std::int64_t depth = integer(e, index, 2, "depth");
            if (depth < 0 || depth > 0xFFFF)
                fail(index, "depth " + std::to_string(depth) + " is out of range 0 ... 65535");
            region.depth = static_cast<std::uint16_t>(depth);
            break;
        }
        case 3: region.beginNs = time(e, index, 3, "begin"); break;
        case 4: region.endNs = time(e, index, 4, "end"); break;
        case 5: {
            const JsonKind k = m_json.kind(e);
            if (k != JsonKind::String)
                fail(index, std::string("name (element 5) must be a string, not ") + describe(k));
            region.name = m_json.string(e);
            break;
        }
        default: m_json.skip(e, 6); break; // counted, refused below
        }
    });
    if (n != kRowLength)
        fail(index, "has " + std::to_string(n) + " elements; expected 6 (source, lane, depth, beginNs, endNs, name)");
    if (region.endNs < region.beginNs)
        fail(index, "end " + std::to_string(region.endNs) + " is before begin " + std::to_string(region.beginNs));
    return region;
}

void RegionRowReader::checkLanes(const Run& run) const
{
    for (std::size_t i = 0; i < run.regions.size(); ++i) {
        const std::uint16_t lane = run.regions[i].lane;
        if (lane != Region::kNoLane && lane >= run.lanes.size())
            fail(i, "lane " + std::to_string(lane) + " is out of range: the run has " + std::to_string(run.lanes.size())
                        + " lanes");
    }
}

} // namespace ovs
