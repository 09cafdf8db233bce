#pragma once

#include <cstdint>
#include <string>

namespace ovs {

// Nanoseconds as text: the one set of helpers the analysis, the lessons, the
// ranks and the CLI write a time with, so that they never disagree on
// rounding (printf's, through formatted() in base/NumberText.h).

// Nanoseconds as the JSON outputs give times: milliseconds.
inline double toMs(std::int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

// Milliseconds with `decimals` decimals and the unit: "9.59 ms".
std::string millisecondsText(double milliseconds, int decimals);
// Nanoseconds the same way: msText(9'590'000) is "9.59 ms".
std::string msText(std::int64_t ns, int decimals = 2);
// The number without the unit, for a table whose header names it: "9.590".
std::string msNumber(std::int64_t ns, int decimals = 3);
// A change, always signed, without the unit: "+1.250", "-0.500".
std::string signedMsNumber(std::int64_t ns, int decimals = 3);
// With `digits` significant digits and the unit: "0.123 ms", "45.6 ms",
// "1.23e+03 ms" (printf's %g).
std::string msSignificant(std::int64_t ns, int digits);
// In the unit that suits its size: "2.50 s", "12.3 ms", "4.5 µs", "800 ns".
std::string durationText(std::int64_t ns);

} // namespace ovs
