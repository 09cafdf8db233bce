#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ovs {

// The number helpers the analysis' files share.

// A printf-formatted number (or a few) for the analysis' sentences. Sized by
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

// Nanoseconds as the JSON outputs give times: milliseconds.
inline double toMs(std::int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

// Nanoseconds as milliseconds for a sentence, with `decimals` decimals and
// the unit ("9.59 ms"); the one way the analysis, the ranks and the CLI
// write a time, so that they never disagree on rounding.
inline std::string msText(std::int64_t ns, int decimals = 2)
{
    return formatted("%.*f ms", decimals, toMs(ns));
}
// The same number without the unit, for a table whose header names it.
inline std::string msNumber(std::int64_t ns, int decimals = 3)
{
    return formatted("%.*f", decimals, toMs(ns));
}

} // namespace ovs
