#include "devices/DeviceFactory.h"

#include "base/Printable.h"
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

constexpr std::string_view kSimPrefix = "sim:";

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
        throw DeviceUnavailable("no CUDA GPU available (" + why + "); use --device sim for the simulated device");
#ifdef OVERLAPSCOPE_HAVE_CUDA
    try {
        return createCudaDevice(ordinal);
    } catch (const DeviceUnavailable&) {
        throw;
    } catch (const DeviceError& e) {
        throw DeviceUnavailable(e.what());
    }
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
            throw DeviceError("bad device '" + echoed(spec) + "': expected cuda:N with N a GPU index");
        return createCuda(std::stoi(number));
    }
    if (spec == "sim")
        return std::make_unique<SimDevice>(defaultSimPreset());
    if (spec.rfind(kSimPrefix, 0) == 0) {
        const std::string id = spec.substr(kSimPrefix.size());
        const auto preset = findSimPreset(id);
        if (!preset)
            throw DeviceError("unknown simulator preset '" + echoed(id) + "' (known: " + presetList() + ")");
        return std::make_unique<SimDevice>(*preset);
    }
    throw DeviceError("unknown device '" + echoed(spec) + "': use " + deviceSpecSyntax());
}

std::string deviceSpecSyntax()
{
    std::string syntax = "auto, cuda, cuda:N, sim";
    for (const auto& p : simPresets())
        syntax += ", " + simDeviceSpec(p.id);
    return syntax;
}

std::string simDeviceSpec(const std::string& presetId)
{
    return std::string(kSimPrefix) + presetId;
}

std::string defaultSimDeviceSpec()
{
    return simDeviceSpec(defaultSimPreset().id);
}

std::vector<DeviceListing> simDeviceListings()
{
    std::vector<DeviceListing> devices;
    for (const auto& p : simPresets())
        devices.push_back({simDeviceSpec(p.id), deviceLabel(p.name, true), true, p.source});
    return devices;
}

std::vector<DeviceListing> listDevices()
{
    std::vector<DeviceListing> devices;
    std::string why;
    bool haveCuda = false;
    try {
        haveCuda = cudaDeviceAvailable(&why);
    } catch (const DeviceError& e) {
        why = e.what();
    }
#ifdef OVERLAPSCOPE_HAVE_CUDA
    if (haveCuda) {
        int count = 0;
        try {
            count = cudaDeviceCount();
        } catch (const DeviceError& e) {
            haveCuda = false;
            why = e.what();
        }
        for (int i = 0; i < count; ++i) {
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
    for (auto& listing : simDeviceListings())
        devices.push_back(std::move(listing));
    return devices;
}

} // namespace ovs
