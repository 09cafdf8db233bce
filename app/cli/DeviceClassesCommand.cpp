#include "Commands.h"

#include "base/DeviceClassRates.h"

#include <cstdio>

namespace ovs::cli {

// The table as docs/what-if.md holds it (scripts/regenerate-device-class-docs.py
// writes this output there): the figures come from the code, never typed into the doc.
int commandDeviceClasses()
{
    std::printf("Assumed pinned rates where a trace measured none (core/base/DeviceClassRates.cpp): the first "
                "row whose words all appear in the device's name applies. Assumed rates are %.1f%% of the "
                "link's theoretical one-way rate (the H200's measured %.2f GB/s, both directions' mean, over PCIe "
                "Gen5 x16's %.2f GB/s); "
                "both ways at once, %.1f%% of the two one-way rates together (the H200's).\n\n",
                100 * assumedLinkEfficiency(), assumedLinkEfficiency() * pcieTheoreticalGBps(5, 16),
                pcieTheoreticalGBps(5, 16), 100 * assumedBidirectionalShare());
    std::printf("| device name has | class | link to host memory | H2D GB/s | D2H GB/s | both ways GB/s | source |\n"
                "|---|---|---|---:|---:|---:|---|\n");
    for (const DeviceClassRates& row : deviceClassRatesTable()) {
        std::string match = row.match;
        for (std::size_t at = match.find('|'); at != std::string::npos; at = match.find('|', at + 4))
            match.replace(at, 1, " or ");
        std::printf("| %s | %s | %s | %.1f | %.1f | %.1f | %s |\n", match.c_str(), row.name.c_str(), row.link.c_str(),
                    row.h2dGBps, row.d2hGBps, row.bidirectionalGBps, row.source.c_str());
    }
    return 0;
}

} // namespace ovs::cli
