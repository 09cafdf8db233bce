#include "devices/DeviceFactory.h"

#include "sim/SimDevice.h"
#include "sim/SimPreset.h"

#ifdef OVERLAPSCOPE_HAVE_CUDA
#include "cuda/CudaDevice.h"
#endif

namespace ovs {

bool cudaDeviceAvailable(std::string* why)
{
#ifdef OVERLAPSCOPE_HAVE_CUDA
    return cudaRuntimeHasDevice(why);
#else
    if (why)
        *why = "this build has no CUDA device (built without the CUDA toolkit)";
    return false;
#endif
}

namespace {

std::string presetList()
{
    std::string list;
    for (const auto& p : simPresets())
        list += (list.empty() ? "" : ", ") + p.id;
    return list;
}

std::unique_ptr<Device> createCuda(int ordinal)
{
    std::string why;
    if (!cudaDeviceAvailable(&why))
        throw DeviceError("no CUDA GPU available (" + why + "); use --device sim for the simulated device");
#ifdef OVERLAPSCOPE_HAVE_CUDA
    return createCudaDevice(ordinal);
#else
    (void)ordinal;
    return nullptr;
#endif
}

} // namespace

std::unique_ptr<Device> createDevice(const std::string& spec)
{
    if (spec == "auto") {
        if (cudaDeviceAvailable())
            return createCuda(0);
        return std::make_unique<SimDevice>(defaultSimPreset());
    }
    if (spec == "cuda")
        return createCuda(0);
    if (spec.rfind("cuda:", 0) == 0) {
        const std::string number = spec.substr(5);
        if (number.empty() || number.size() > 3 || number.find_first_not_of("0123456789") != std::string::npos)
            throw DeviceError("bad device '" + spec + "': expected cuda:N with N a GPU index");
        return createCuda(std::stoi(number));
    }
    if (spec == "sim")
        return std::make_unique<SimDevice>(defaultSimPreset());
    if (spec.rfind("sim:", 0) == 0) {
        const auto preset = findSimPreset(spec.substr(4));
        if (!preset)
            throw DeviceError("unknown simulator preset '" + spec.substr(4) + "' (known: " + presetList() + ")");
        return std::make_unique<SimDevice>(*preset);
    }
    throw DeviceError("unknown device '" + spec + "': use auto, cuda, cuda:N, sim or sim:PRESET (presets: "
                      + presetList() + ")");
}

std::vector<DeviceListing> listDevices()
{
    std::vector<DeviceListing> devices;
    std::string why;
    const bool haveCuda = cudaDeviceAvailable(&why);
#ifdef OVERLAPSCOPE_HAVE_CUDA
    if (haveCuda) {
        for (int i = 0; i < cudaDeviceCount(); ++i) {
            DeviceListing listing;
            listing.spec = "cuda:" + std::to_string(i);
            try {
                listing.label = createCudaDevice(i)->info().label();
                listing.available = true;
            } catch (const DeviceError& e) {
                listing.label = "CUDA GPU " + std::to_string(i);
                listing.note = e.what();
            }
            devices.push_back(listing);
        }
    }
#endif
    if (!haveCuda)
        devices.push_back({"cuda", "CUDA GPU", false, why});
    for (const auto& p : simPresets())
        devices.push_back({"sim:" + p.id, p.name + " [simulated]", true, p.source});
    return devices;
}

} // namespace ovs
