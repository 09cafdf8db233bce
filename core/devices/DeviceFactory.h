#pragma once

#include "device/Device.h"

#include <memory>
#include <string>
#include <vector>

namespace ovs {

// True when this build has the CUDA device and a GPU answers; otherwise false
// and `why` says what is missing ("built without CUDA", "no CUDA-capable
// device is detected", ...).
bool cudaDeviceAvailable(std::string* why = nullptr);

// The spec names a device this machine cannot open now: no CUDA GPU, no GPU
// with that index, a driver that refuses. (A spec that names no device at
// all is a plain DeviceError.)
class DeviceUnavailable : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// Creates the device named by `spec`: "cuda", "cuda:1", "sim" (default
// preset), "sim:h200", "sim:rtx4090", "sim:one-engine", or "auto" (the CUDA GPU if one answers,
// else the simulated H200, labelled as such). Throws DeviceUnavailable or, for
// a spec that is not one of those, DeviceError, with a message that says what
// to do instead (e.g. "no CUDA GPU: ...; use --device sim").
std::unique_ptr<Device> createDevice(const std::string& spec);

// The specs createDevice takes, for help texts and messages:
// "auto, cuda, cuda:N, sim, sim:h200, sim:rtx4090, sim:one-engine".
std::string deviceSpecSyntax();
// The spec of a simulator preset ("sim:h200"), and of the default one: what
// the window offers first, as it needs no GPU.
std::string simDeviceSpec(const std::string& presetId);
std::string defaultSimDeviceSpec();

// Every device spec this build can create, for `devices` listings and the GUI.
struct DeviceListing {
    std::string spec;
    std::string label; // as DeviceInfo::label(): simulated ones say so
    bool available = false;
    std::string note;
};
// Asks the CUDA driver (which can take seconds) and lists its GPUs, or one
// unavailable "cuda" entry saying why there is none, then the simulated
// devices. Never throws for a missing or broken GPU.
std::vector<DeviceListing> listDevices();
// The simulated devices alone, at once: what can be offered before the GPU
// has answered.
std::vector<DeviceListing> simDeviceListings();

} // namespace ovs
