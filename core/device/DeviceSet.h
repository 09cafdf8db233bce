#pragma once

#include "device/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace ovs {

// The devices a multi-device spec names (cuda:0,1, cuda:all, sim:h200x2),
// in index order: device i of a run is devices[i]. Simulated ones share one
// simulated host, which they keep alive themselves.
struct DeviceSet {
    std::vector<std::unique_ptr<Device>> devices;
    // What the user should know about how the spec was read ("cuda:all found
    // 1 GPU on this machine"); empty when nothing needs saying.
    std::string note;

    int size() const { return static_cast<int>(devices.size()); }
    Device& at(int i) const { return *devices.at(static_cast<std::size_t>(i)); }
};

} // namespace ovs
