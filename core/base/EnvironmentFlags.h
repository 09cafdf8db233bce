#pragma once

#include <cstdlib>
#include <string_view>

// Reading the environment variables that switch measurement knobs, the same
// way in the core and in the injection library (which links no core library:
// header only).
namespace ovs {

// Set, non-empty and not "0".
inline bool environmentFlag(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value && std::string_view(value) != "0";
}

// Whether the comma-separated list in `name` holds `token` exactly
// (OVERLAPSCOPE_CUPTI_SKIP=driver,kernel).
inline bool environmentListHas(const char* name, std::string_view token)
{
    const char* list = std::getenv(name);
    if (!list || !*list)
        return false;
    const std::string_view all(list);
    for (std::size_t at = 0; at <= all.size();) {
        std::size_t comma = all.find(',', at);
        if (comma == std::string_view::npos)
            comma = all.size();
        if (all.substr(at, comma - at) == token)
            return true;
        at = comma + 1;
    }
    return false;
}

} // namespace ovs
