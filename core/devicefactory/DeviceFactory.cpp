#include "devicefactory/DeviceFactory.h"

#include "base/Printable.h"
#include "sim/SimDevice.h"
#include "sim/SimPreset.h"

#include <algorithm>
#include <optional>

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

bool isDigits(const std::string& text, std::size_t maxLength)
{
    return !text.empty() && text.size() <= maxLength && text.find_first_not_of("0123456789") == std::string::npos;
}

// "h200x2" -> (h200, 2) when "h200x2" is not itself a preset id and the part
// before the last 'x' is one.
std::optional<std::pair<SimPreset, int>> simPresetTimes(const std::string& id)
{
    if (findSimPreset(id))
        return std::nullopt;
    const auto x = id.rfind('x');
    if (x == std::string::npos || x == 0)
        return std::nullopt;
    const std::string count = id.substr(x + 1);
    const auto preset = findSimPreset(id.substr(0, x));
    if (!preset || !isDigits(count, 3))
        return std::nullopt;
    return std::pair{*preset, std::stoi(count)};
}

DeviceSet createSimSet(const std::string& spec, const SimPreset& preset, int count)
{
    if (count < 1 || count > kMaxSimDevices)
        throw DeviceError("bad device '" + echoed(spec) + "': a simulated host has 1 to "
                          + std::to_string(kMaxSimDevices) + " GPUs");
    DeviceSet set;
    auto host = std::make_shared<SimHost>(preset.hostMemoryTrafficGBps);
    for (int i = 0; i < count; ++i)
        set.devices.push_back(std::make_unique<SimDevice>(preset, host, i, count));
    return set;
}

DeviceSet createCudaSet(const std::vector<int>& ordinals)
{
    DeviceSet set;
    for (int ordinal : ordinals)
        set.devices.push_back(createCuda(ordinal));
    return set;
}

// Whether a CUDA GPU answers, with `why` saying why not; never throws (the
// listings show a broken driver as an unavailable entry).
bool askForCuda(std::string& why)
{
    try {
        return cudaDeviceAvailable(&why);
    } catch (const DeviceError& e) {
        why = e.what();
        return false;
    }
}

} // namespace

bool isMultiDeviceSpec(const std::string& spec)
{
    if (spec == "cuda:all")
        return true;
    if (spec.rfind("cuda:", 0) == 0)
        return spec.find(',') != std::string::npos;
    if (spec.rfind(kSimPrefix, 0) == 0)
        return simPresetTimes(spec.substr(kSimPrefix.size())).has_value();
    return false;
}

std::string multiDeviceSpecSyntax()
{
    return "cuda:0,1 (a list of GPU indices), cuda:all, sim:<preset>xN (N simulated GPUs on one host, 1 to "
           + std::to_string(kMaxSimDevices) + ", e.g. sim:h200x2)";
}

DeviceSet createDevices(const std::string& spec)
{
    if (spec == "cuda:all") {
        std::string why;
        if (!cudaDeviceAvailable(&why))
            throw DeviceUnavailable("no CUDA GPU available (" + why + "); use --device sim:h200x2 for two simulated GPUs");
#ifdef OVERLAPSCOPE_HAVE_CUDA
        const int count = cudaDeviceCount();
        std::vector<int> ordinals(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i)
            ordinals[static_cast<std::size_t>(i)] = i;
        DeviceSet set = createCudaSet(ordinals);
        if (count == 1)
            set.note = "cuda:all: this machine has 1 GPU, so the run uses one device";
        return set;
#endif
    }
    if (spec.rfind("cuda:", 0) == 0 && spec.find(',') != std::string::npos) {
        std::vector<int> ordinals;
        std::size_t from = 5;
        while (true) {
            const std::size_t comma = spec.find(',', from);
            const std::string number = spec.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            if (!isDigits(number, 3))
                throw DeviceError("bad device '" + echoed(spec) + "': expected cuda:N,M,... with GPU indices");
            const int ordinal = std::stoi(number);
            if (std::find(ordinals.begin(), ordinals.end(), ordinal) != ordinals.end())
                throw DeviceError("bad device '" + echoed(spec) + "': GPU " + number + " is named twice");
            ordinals.push_back(ordinal);
            if (comma == std::string::npos)
                break;
            from = comma + 1;
        }
        return createCudaSet(ordinals);
    }
    if (spec.rfind(kSimPrefix, 0) == 0) {
        const std::string id = spec.substr(kSimPrefix.size());
        if (const auto times = simPresetTimes(id))
            return createSimSet(spec, times->first, times->second);
        // "sim:foox2" with an unknown preset: say which presets there are.
        const auto x = id.rfind('x');
        if (x != std::string::npos && x > 0 && isDigits(id.substr(x + 1), 3) && !findSimPreset(id))
            throw DeviceError("unknown simulator preset '" + echoed(id.substr(0, x)) + "' in '" + echoed(spec)
                              + "' (known: " + presetList() + ")");
    }
    DeviceSet set;
    set.devices.push_back(createDevice(spec));
    return set;
}

std::unique_ptr<Device> createDevice(const std::string& spec)
{
    if (isMultiDeviceSpec(spec))
        throw DeviceError("'" + echoed(spec) + "' names several devices; this command takes one (cuda:N or "
                          "sim:<preset>); the pipeline command runs on several");
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

std::vector<DeviceListing> multiDeviceListings()
{
    std::vector<DeviceListing> devices;
    std::string why;
    bool haveCuda = askForCuda(why);
#ifdef OVERLAPSCOPE_HAVE_CUDA
    if (haveCuda) {
        try {
            const int count = cudaDeviceCount();
            devices.push_back({"cuda:all", "all " + std::to_string(count) + " CUDA GPU" + (count == 1 ? "" : "s"), true,
                               count == 1 ? "this machine has 1 GPU: a one-device run" : "or a list: cuda:0,1"});
        } catch (const DeviceError& e) {
            haveCuda = false;
            why = e.what();
        }
    }
#endif
    if (!haveCuda)
        devices.push_back({"cuda:all", "every CUDA GPU", false, why});
    for (const auto& p : simPresets())
        devices.push_back({simDeviceSpec(p.id) + "x2", deviceLabel("2 x " + p.name + " on one host", true), true,
                           p.hostMemoryTrafficSource.empty() ? p.source : p.hostMemoryTrafficSource});
    return devices;
}

std::vector<DeviceListing> listDevices()
{
    std::vector<DeviceListing> devices;
    std::string why;
    bool haveCuda = askForCuda(why);
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
