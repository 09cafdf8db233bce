#include "style/TimeFormat.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ovs::ui {

namespace {

struct Unit {
    double ns;
    const char16_t* suffix;
};

constexpr std::array<Unit, 4> kUnits = {{
    {1.0, u" ns"},
    {1e3, u" \u00b5s"},
    {1e6, u" ms"},
    {1e9, u" s"},
}};

const Unit& unitFor(double magnitudeNs)
{
    const double m = std::abs(magnitudeNs);
    for (std::size_t i = kUnits.size(); i-- > 1;) {
        if (m >= kUnits[i].ns)
            return kUnits[i];
    }
    return kUnits[0];
}

// Decimals that keep `significantDigits` for a value of this size, rounded
// first so 999.96 µs becomes "1.00 ms" rather than "1000 µs".
int decimalsFor(double value, int significantDigits)
{
    const double a = std::abs(value);
    if (a < 1.0)
        return std::max(0, significantDigits - 1);
    const int integerDigits = static_cast<int>(std::floor(std::log10(a))) + 1;
    return std::max(0, significantDigits - integerDigits);
}

QString number(double value, int decimals)
{
    // "-0" would read as a negative instant.
    if (value == 0.0 || std::abs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0.0;
    return QString::number(value, 'f', decimals);
}

} // namespace

QString TimeFormat::duration(double ns, int significantDigits)
{
    if (!std::isfinite(ns))
        return QStringLiteral("n/a");
    significantDigits = std::max(1, significantDigits);
    const Unit* unit = &unitFor(ns);
    int decimals = 0;
    double value = 0;
    // Rounding can carry into the next unit (999.96 µs); one retry settles it.
    for (int attempt = 0; attempt < 2; ++attempt) {
        value = ns / unit->ns;
        decimals = unit->ns >= 1e9 ? 3 : (unit->ns == 1.0 ? 0 : decimalsFor(value, significantDigits));
        const double rounded = std::round(std::abs(value) * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
        if (rounded < 1000.0 || unit == &kUnits.back())
            break;
        ++unit;
    }
    return number(value, decimals) + QString::fromUtf16(unit->suffix);
}

QString TimeFormat::tick(double ns, double stepNs, double magnitudeNs)
{
    const Unit& unit = unitFor(std::max(std::abs(magnitudeNs), std::abs(stepNs)));
    const double step = std::abs(stepNs) / unit.ns;
    // A 1-2-5 step below one unit needs as many decimals as its first digit's
    // place; the epsilon keeps 0.1 (stored as 0.1000…01) at one decimal.
    const int decimals = step >= 1.0 || step <= 0.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    return number(ns / unit.ns, decimals) + QString::fromUtf16(unit.suffix);
}

double TimeFormat::niceStep(double span, int targetTicks)
{
    if (!(span > 0) || targetTicks < 1)
        return 1.0;
    const double raw = span / targetTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double normalized = raw / magnitude;
    double nice = 10.0;
    for (double candidate : {1.0, 2.0, 5.0}) {
        if (normalized <= candidate * (1.0 + 1e-9)) {
            nice = candidate;
            break;
        }
    }
    return nice * magnitude;
}

QString TimeFormat::bandwidth(std::uint64_t bytes, std::int64_t ns)
{
    if (ns <= 0)
        return QStringLiteral("n/a");
    // bytes per ns is decimal GB/s.
    const double gbps = static_cast<double>(bytes) / static_cast<double>(ns);
    return number(gbps, decimalsFor(gbps, 3)) + QStringLiteral(" GB/s");
}

double TimeFormat::gbps(std::uint64_t bytes, std::int64_t ns)
{
    return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}

QString TimeFormat::wallTime(std::int64_t ns)
{
    return QStringLiteral("%1 ms").arg(static_cast<double>(ns) / 1e6, 0, 'f', 3);
}

QString TimeFormat::bytes(std::uint64_t bytes)
{
    static constexpr std::array<const char*, 4> kSuffixes = {" B", " KiB", " MiB", " GiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < kSuffixes.size()) {
        value /= 1024.0;
        ++unit;
    }
    // Whole sizes (the common 32 MiB chunk) print without decimals.
    QString text = value == std::floor(value) ? QString::number(value, 'f', 0) : QString::number(value, 'f', 2);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QLatin1String(kSuffixes[unit]);
}

} // namespace ovs::ui
