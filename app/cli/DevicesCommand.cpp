#include "Commands.h"

#include "ConsoleReport.h"

#include "base/Printable.h"
#include "devicefactory/DeviceFactory.h"

#include <cstdio>

namespace ovs::cli {

int commandDevices()
{
    const auto print = [](const DeviceListing& d) {
        std::printf("%-12s %-40s %s%s%s\n", d.spec.c_str(), printable(d.label).c_str(),
                    d.available ? "available" : "unavailable", d.note.empty() ? "" : ": ", echoed(d.note, kMessageLimit).c_str());
    };
    for (const auto& d : listDevices())
        print(d);
    std::printf("\nSeveral GPUs of one host (pipeline, record, bench): %s\n", multiDeviceSpecSyntax().c_str());
    for (const auto& d : multiDeviceListings())
        print(d);
    return 0;
}

} // namespace ovs::cli
