#pragma once

#include "base/ModelRates.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ovs {

// The one place "[simulated]" is attached: every label of a simulated
// device, listed or recorded, is made here.
inline std::string deviceLabel(const std::string& name, bool simulated)
{
    return simulated ? name + " [simulated]" : name;
}

// What a run was recorded on. `simulated` travels into every output so a
// simulated figure can never pass for a measured one.
struct DeviceInfo {
    std::string name;           // "NVIDIA H200" or "Simulated H200 (PCIe Gen5)"
    bool simulated = false;
    std::string preset;         // simulator preset id; empty for real devices
    std::string detail;         // compute capability, driver, bus: free text
    int asyncEngineCount = 0;   // as the driver reports it (or the preset models)
    std::uint64_t totalMemoryBytes = 0;
    // Its SMs, and its compute capability as major * 10 + minor (90 for
    // sm_90), which says what an SM holds (SmLimits.h); 0 where the source
    // does not say. Typed, so the replay reads launch shapes against them
    // without parsing `detail`.
    int smCount = 0;
    int computeCapability = 0;
    // A simulated device's model rates; empty for real devices.
    std::optional<ModelRates> model;

    // "NVIDIA H200" or "Simulated H200 (PCIe Gen5) [simulated]"
    std::string label() const { return deviceLabel(name, simulated); }
};

} // namespace ovs
