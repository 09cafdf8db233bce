#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ovs {

// The pinned copy rates a class of device reaches host memory at, assumed
// where a trace carries no measurement of its own (no sweep, no simulator
// model, no pinned copy in the run): a replay can then price pinning the
// pageable copies of a Kineto or Nsight trace. Decimal GB/s. Every figure is
// either measured on the product (named in `source`) or derived from the
// link's theoretical rate by one efficiency factor calibrated on the H200's
// measurement (assumedLinkEfficiency), so an assumed rate is never a typed-in
// number that looks measured. docs/what-if.md renders the table
// (`overlapscope-cli device-classes`).
struct DeviceClassRates {
    // Which device names the row covers: alternatives separated by '|', each
    // a set of words that must all appear among the name's words
    // (case-insensitive; a word is a run of letters and digits), so "A100
    // SXM4" covers "NVIDIA A100-SXM4-80GB" and "A10" does not cover "A100".
    std::string match;
    std::string name; // "A100 SXM4"
    std::string link; // "PCIe Gen4 x16": what the copies cross to host memory
    double h2dGBps = 0;
    double d2hGBps = 0;
    double bidirectionalGBps = 0; // both directions at once, together
    std::string source;           // where the figures come from

    // "A100 SXM4 on PCIe Gen4 x16": the words "rate assumed for ..." use.
    std::string label() const { return name + " on " + link; }
};

// Rows in the order they are tried: the first that covers a name wins, so
// a specific part comes before its family.
const std::vector<DeviceClassRates>& deviceClassRatesTable();
// The row covering `deviceName`, or nullptr for a device the table does not know.
const DeviceClassRates* deviceClassRatesFor(std::string_view deviceName);

// A PCIe link's theoretical rate one way (GB/s): generation 3 to 5 (8, 16,
// 32 GT/s a lane, 128b/130b encoding) times `lanes`; 0 for a generation the
// table does not model.
double pcieTheoreticalGBps(int generation, int lanes);
// The share of a link's theoretical one-way rate pinned copies reach: the
// H200's measured pinned rates (mean of both directions) over PCIe Gen5 x16.
double assumedLinkEfficiency();
// Both directions at once over the sum of the one-way rates: the H200's
// measured bidirectional rate over its two one-way rates.
double assumedBidirectionalShare();

} // namespace ovs
