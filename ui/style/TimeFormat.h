#pragma once

#include <QString>

#include <cstdint>

namespace ovs::ui {

// Human-readable times and rates, shared by the timeline ruler, titles,
// tooltips and panels so every view says "3.21 ms" the same way.
class TimeFormat {
public:
    // A duration or an instant (ns from the run start) in the unit that suits
    // its size: "850 ns", "12.4 µs", "3.21 ms". `significantDigits` applies
    // below one second; seconds keep ms resolution ("1.204 s").
    static QString duration(double ns, int significantDigits = 3);
    // The same of a whole number of ns (a cost, a span, a step's length).
    static QString durationNs(std::int64_t ns) { return duration(static_cast<double>(ns)); }

    // A ruler label: the unit suits `magnitudeNs` (the largest value on the
    // axis, so every label of one axis shares a unit) and the decimals suit
    // `stepNs` (so neighbouring labels differ). "322.5 ms", "0 ms".
    static QString tick(double ns, double stepNs, double magnitudeNs);

    // The 1-2-5 series step (…, 0.5, 1, 2, 5, 10, …) that cuts `span` into
    // at most about `targetTicks` pieces.
    static double niceStep(double span, int targetTicks);

    // Decimal GB/s of `bytes` moved in `ns`: "54.8 GB/s"; "n/a" for ns <= 0.
    static QString bandwidth(std::uint64_t bytes, std::int64_t ns);

    // Decimal GB/s as a number (bytes per ns); 0 when there is no duration.
    static double gbps(std::uint64_t bytes, std::int64_t ns);

    // A run's wall time, always in ms with three decimals as the seed's table
    // prints it, so runs line up digit for digit: "93.612 ms".
    static QString wallTime(std::int64_t ns);

    // Binary sizes as the pipelines are configured: "32 MiB", "1.5 KiB", "512 B".
    static QString bytes(std::uint64_t bytes);
};

} // namespace ovs::ui
