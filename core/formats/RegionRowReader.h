#pragma once

#include "io/JsonReader.h"
#include "trace/Run.h"

#include <cstddef>
#include <functional>
#include <string>

namespace ovs {

// Reads a run's "regions" rows (docs/trace-format.md, version 4):
// [source, lane or null, depth, beginNs, endNs, name]. Each row is checked
// on its own as it is read; what needs the run's lanes, which may come after
// the regions in a file, is checked by checkLanes once the run is read.
// Errors name the place: "run 0 ('x'), region 3: end 5 is before begin 9".
class RegionRowReader {
public:
    // `runWhere` names the run for messages, asked only when one fails (the
    // run's name may be read after its regions).
    RegionRowReader(JsonReader& json, std::function<std::string()> runWhere);

    Region read(JsonReader::Value& row, std::size_t index);
    // Every region's lane is one of the run's lanes (or none).
    void checkLanes(const Run& run) const;

private:
    [[noreturn]] void fail(std::size_t index, const std::string& message) const;
    std::int64_t integer(JsonReader::Value& e, std::size_t index, std::size_t element, const char* name);
    std::int64_t time(JsonReader::Value& e, std::size_t index, std::size_t element, const char* name);

    JsonReader& m_json;
    std::function<std::string()> m_runWhere;
};

} // namespace ovs
