#include "base/DurationText.h"

#include "base/NumberText.h"

namespace ovs {

std::string millisecondsText(double milliseconds, int decimals)
{
    return formatted("%.*f ms", decimals, milliseconds);
}

std::string msText(std::int64_t ns, int decimals)
{
    return millisecondsText(toMs(ns), decimals);
}

std::string msNumber(std::int64_t ns, int decimals)
{
    return formatted("%.*f", decimals, toMs(ns));
}

std::string signedMsNumber(std::int64_t ns, int decimals)
{
    return formatted("%+.*f", decimals, toMs(ns));
}

std::string msSignificant(std::int64_t ns, int digits)
{
    return formatted("%.*g ms", digits, toMs(ns));
}

std::string durationText(std::int64_t ns)
{
    if (ns >= 1'000'000'000)
        return formatted("%.2f s", static_cast<double>(ns) / 1e9);
    if (ns >= 1'000'000)
        return formatted("%.1f ms", toMs(ns));
    if (ns >= 1'000)
        return formatted("%.1f \u00b5s", static_cast<double>(ns) / 1e3);
    return std::to_string(ns) + " ns";
}

} // namespace ovs
