#pragma once

#include "device/Device.h"
#include "device/DeviceSet.h"

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
// A spec naming several devices (below) is refused with a message saying
// which commands take it.
std::unique_ptr<Device> createDevice(const std::string& spec);

// Several GPUs of one host: "cuda:0,1" (those CUDA GPUs, each once),
// "cuda:all" (every GPU the driver lists; on a one-GPU machine a set of one,
// which DeviceSet::note says), "sim:<preset>xN" (N simulated GPUs, 1 to 8,
// sharing one simulated host: "sim:h200x2"). Any single spec gives a set of
// one. Throws as createDevice does.
DeviceSet createDevices(const std::string& spec);
// Whether `spec` has the form of a multi-device spec (it may still be bad).
bool isMultiDeviceSpec(const std::string& spec);
inline constexpr int kMaxSimDevices = 8;
// "cuda:0,1, cuda:all, sim:<preset>xN (N 1..8)", for help texts.
std::string multiDeviceSpecSyntax();

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
// The multi-device specs, for `devices` listings: cuda:all (available when a
// GPU answers) and a simulated two-GPU host per preset ("sim:h200x2").
// Never throws for a missing or broken GPU.
std::vector<DeviceListing> multiDeviceListings();

} // namespace ovs
