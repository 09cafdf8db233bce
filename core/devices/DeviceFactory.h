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

// Creates the device named by `spec`: "cuda", "cuda:1", "sim" (default
// preset), "sim:h200", "sim:rtx4090", or "auto" (the CUDA GPU if one answers,
// else the simulated H200, labelled as such). Throws DeviceError with a message that
// says what to do instead (e.g. "no CUDA GPU: ...; use --device sim").
std::unique_ptr<Device> createDevice(const std::string& spec);

// Every device spec this build can create, for `devices` listings and the GUI.
struct DeviceListing {
    std::string spec;
    std::string label;
    bool available = false;
    std::string note;
};
std::vector<DeviceListing> listDevices();

} // namespace ovs
