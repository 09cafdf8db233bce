#include "base/DeviceClassRates.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace ovs {

namespace {

// The lent H200's bandwidth sweep, 256 MiB pinned medians (docs/measurements.md,
// "Transfer bandwidth"), as the h200 simulator preset has them.
constexpr double kH200H2DGBps = 55.4;
constexpr double kH200D2HGBps = 55.3;
constexpr double kH200BidirectionalGBps = 99.1;
// The seed's published RTX 4090 table, 256 MiB pinned medians, as the
// rtx4090 simulator preset has them (it publishes no bidirectional figure).
constexpr double kRtx4090H2DGBps = 23.6;
constexpr double kRtx4090D2HGBps = 23.85;
// NVLink-C2C between a Grace CPU and its GPU: 900 GB/s total, 450 GB/s each
// way (NVIDIA's Grace Hopper Superchip architecture whitepaper).
constexpr double kNvlinkC2CGBps = 450.0;

std::string percent(double share)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
    return text;
}

std::string gbpsText(double gbps)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB/s", gbps);
    return text;
}

// A row whose rates are assumed from the theoretical one-way rate of its link.
DeviceClassRates assumed(std::string match, std::string name, std::string link, double theoreticalGBps,
                         const std::string& why = "")
{
    DeviceClassRates row;
    row.match = std::move(match);
    row.name = std::move(name);
    row.h2dGBps = row.d2hGBps = assumedLinkEfficiency() * theoreticalGBps;
    row.bidirectionalGBps = assumedBidirectionalShare() * (row.h2dGBps + row.d2hGBps);
    row.source = "assumed: " + percent(assumedLinkEfficiency()) + " of " + link + "'s theoretical "
                 + gbpsText(theoreticalGBps) + " each way (the H200's measured share), both ways "
                 + percent(assumedBidirectionalShare()) + " of the sum (the H200's)" + why;
    row.link = std::move(link);
    return row;
}

DeviceClassRates pcie(std::string match, std::string name, int generation, int lanes, const std::string& why = "")
{
    return assumed(std::move(match), std::move(name),
                   "PCIe Gen" + std::to_string(generation) + " x" + std::to_string(lanes),
                   pcieTheoreticalGBps(generation, lanes), why);
}

std::vector<DeviceClassRates> makeTable()
{
    // An SXM module on an x86 host still reaches host memory over PCIe: its
    // NVLink joins GPUs, not the GPU to the CPU. Only Grace parts (C2C) differ.
    const std::string sxm5 = "; an SXM5 module reaches an x86 host over PCIe Gen5 x16";
    std::vector<DeviceClassRates> rows;
    rows.push_back(assumed("GH200", "GH200", "NVLink-C2C", kNvlinkC2CGBps,
                           "; the PCIe efficiency applied to a link not measured here"));
    rows.push_back(assumed("GB200", "GB200", "NVLink-C2C", kNvlinkC2CGBps,
                           "; the PCIe efficiency applied to a link not measured here"));
    DeviceClassRates h200;
    h200.match = "H200";
    h200.name = "H200";
    h200.link = "PCIe Gen5 x16";
    h200.h2dGBps = kH200H2DGBps;
    h200.d2hGBps = kH200D2HGBps;
    h200.bidirectionalGBps = kH200BidirectionalGBps;
    h200.source = "measured: the lent H200's bandwidth sweep, 256 MiB pinned medians (docs/measurements.md)";
    rows.push_back(h200);
    rows.push_back(pcie("H100 PCIe|H100 NVL", "H100 PCIe", 5, 16));
    rows.push_back(pcie("H100 SXM5|H100 SXM|H100 HBM3", "H100 SXM5", 5, 16, sxm5));
    rows.push_back(pcie("H100", "H100", 5, 16));
    rows.push_back(pcie("A100 SXM4", "A100 SXM4", 4, 16, "; an SXM4 module reaches an x86 host over PCIe Gen4 x16"));
    rows.push_back(pcie("A100 PCIe", "A100 PCIe", 4, 16));
    rows.push_back(pcie("A100", "A100", 4, 16));
    rows.push_back(pcie("L40S|L40|L4", "L40S, L40, L4", 4, 16));
    rows.push_back(pcie("A40|A30|A10", "A40, A30, A10", 4, 16));
    rows.push_back(pcie("V100|T4", "V100, T4", 3, 16));
    DeviceClassRates rtx4090;
    rtx4090.match = "RTX 4090";
    rtx4090.name = "RTX 4090";
    rtx4090.link = "PCIe Gen4 x16";
    rtx4090.h2dGBps = kRtx4090H2DGBps;
    rtx4090.d2hGBps = kRtx4090D2HGBps;
    rtx4090.bidirectionalGBps = assumedBidirectionalShare() * (kRtx4090H2DGBps + kRtx4090D2HGBps);
    rtx4090.source = "the seed's published RTX 4090 table, 256 MiB pinned medians (as the rtx4090 simulator "
                     "preset); both ways assumed: "
                     + percent(assumedBidirectionalShare()) + " of the sum (the H200's)";
    rows.push_back(rtx4090);
    rows.push_back(pcie("RTX 4080|RTX 4070", "RTX 4080, 4070", 4, 16));
    rows.push_back(pcie("RTX 4060", "RTX 4060", 4, 8));
    rows.push_back(pcie("RTX 5090|RTX 5080|RTX 5070", "RTX 5090, 5080, 5070", 5, 16));
    rows.push_back(pcie("RTX 5060", "RTX 5060", 5, 8));
    rows.push_back(pcie("RTX 3090|RTX 3080|RTX 3070|RTX 3060", "RTX 3090 to 3060", 4, 16));
    rows.push_back(pcie("RTX 3050", "RTX 3050", 4, 8));
    rows.push_back(pcie("RTX 2080|RTX 2070|RTX 2060", "RTX 2080 to 2060", 3, 16));
    return rows;
}

std::vector<std::string> wordsOf(std::string_view text)
{
    std::vector<std::string> words;
    std::string word;
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c)) {
            word += static_cast<char>(std::tolower(c));
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty())
        words.push_back(std::move(word));
    return words;
}

bool covers(std::string_view match, const std::vector<std::string>& nameWords)
{
    std::size_t begin = 0;
    while (begin <= match.size()) {
        const std::size_t bar = std::min(match.find('|', begin), match.size());
        const std::vector<std::string> wanted = wordsOf(match.substr(begin, bar - begin));
        if (!wanted.empty() && std::all_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
                return std::find(nameWords.begin(), nameWords.end(), w) != nameWords.end();
            }))
            return true;
        begin = bar + 1;
    }
    return false;
}

} // namespace

double pcieTheoreticalGBps(int generation, int lanes)
{
    // GT/s a lane; generations 3 to 5 share 128b/130b encoding.
    const double transfers = generation == 3 ? 8 : generation == 4 ? 16 : generation == 5 ? 32 : 0;
    return transfers * lanes * (128.0 / 130.0) / 8.0;
}

double assumedLinkEfficiency()
{
    return (kH200H2DGBps + kH200D2HGBps) / 2 / pcieTheoreticalGBps(5, 16);
}

double assumedBidirectionalShare()
{
    return kH200BidirectionalGBps / (kH200H2DGBps + kH200D2HGBps);
}

const std::vector<DeviceClassRates>& deviceClassRatesTable()
{
    static const std::vector<DeviceClassRates> table = makeTable();
    return table;
}

const DeviceClassRates* deviceClassRatesFor(std::string_view deviceName)
{
    const std::vector<std::string> words = wordsOf(deviceName);
    for (const DeviceClassRates& row : deviceClassRatesTable())
        if (covers(row.match, words))
            return &row;
    return nullptr;
}

} // namespace ovs
