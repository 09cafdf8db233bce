#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ovs {

// A printf-formatted number (or a few) for the sentences of the analysis,
// the lessons and the CLI; times have their helpers on top of it
// (base/DurationText.h). Sized by
// a first pass, so a huge value (times near 2^63 ns from a hostile trace) is
// printed whole rather than cut off.
template <typename... Numbers>
std::string formatted(const char* pattern, Numbers... values)
{
    const int size = std::snprintf(nullptr, 0, pattern, values...);
    if (size <= 0)
        return {};
    std::string text(static_cast<std::size_t>(size), '\0');
    std::snprintf(text.data(), text.size() + 1, pattern, values...);
    return text;
}

} // namespace ovs
