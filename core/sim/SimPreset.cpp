#include "sim/SimPreset.h"

namespace ovs {

namespace {

SimPreset h200()
{
    SimPreset p;
    p.id = "h200";
    p.name = "Simulated H200 (PCIe Gen5)";
    p.detail = "sm_90 model, PCIe Gen5 x16, 141 GB HBM3e";
    p.source = "calibrated from overlapscope-cli bench and pipeline runs on the lent H200 (docs/measurements.md)";
    p.asyncEngineCount = 3;
    p.h2dEngines = 1;
    p.d2hEngines = 1;
    p.pinnedH2DGBps = 55.0;
    p.pinnedD2HGBps = 55.0;
    p.pageableH2DGBps = 9.0;
    p.pageableD2HGBps = 7.0;
    p.copyLatencyUs = 2.0;
    p.apiCallUs = 3.0;
    p.launchLatencyUs = 4.0;
    p.syncWakeUs = 5.0;
    p.kernelGBps = 3000.0;
    p.kernelFixedUs = 3.0;
    p.hostMemcpyGBps = 6.5;
    p.deviceAllocUs = 60.0;
    p.deviceFreeUs = 40.0;
    p.pinnedAllocUs = 100.0;
    p.pinnedAllocGBps = 8.0;
    p.pinnedFreeUs = 200.0;
    p.registerUs = 50.0;
    p.registerGBps = 10.0;
    p.deviceMemoryBytes = 141ull * 1000 * 1000 * 1000;
    return p;
}

SimPreset rtx4090()
{
    SimPreset p;
    p.id = "rtx4090";
    p.name = "Simulated RTX 4090 (PCIe Gen4)";
    p.detail = "sm_89 model, PCIe Gen4 x16, 24 GB GDDR6X";
    p.source = "calibrated from the seed's published RTX 4090 bandwidth table and pipeline times";
    p.asyncEngineCount = 2;
    p.h2dEngines = 1;
    p.d2hEngines = 1;
    // The seed's 256 MiB pinned figures; pageable: the mean of its H2D column
    // and the large-size D2H figure (fresh pageable destinations fault pages).
    p.pinnedH2DGBps = 23.6;
    p.pinnedD2HGBps = 23.85;
    p.pageableH2DGBps = 14.1;
    p.pageableD2HGBps = 3.6;
    p.copyLatencyUs = 2.0;
    p.apiCallUs = 3.0;
    p.launchLatencyUs = 4.0;
    p.syncWakeUs = 5.0;
    p.kernelGBps = 900.0;
    p.kernelFixedUs = 3.0;
    p.hostMemcpyGBps = 6.0;
    p.deviceAllocUs = 60.0;
    p.deviceFreeUs = 40.0;
    p.pinnedAllocUs = 100.0;
    p.pinnedAllocGBps = 8.0;
    p.pinnedFreeUs = 200.0;
    p.registerUs = 50.0;
    p.registerGBps = 10.0;
    p.deviceMemoryBytes = 24ull * 1000 * 1000 * 1000;
    return p;
}

} // namespace

const std::vector<SimPreset>& simPresets()
{
    static const std::vector<SimPreset> presets = {h200(), rtx4090()};
    return presets;
}

std::optional<SimPreset> findSimPreset(const std::string& id)
{
    for (const auto& p : simPresets())
        if (p.id == id)
            return p;
    return std::nullopt;
}

const SimPreset& defaultSimPreset()
{
    return simPresets().front();
}

} // namespace ovs
