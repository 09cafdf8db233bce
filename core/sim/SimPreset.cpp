#include "sim/SimPreset.h"

namespace ovs {

namespace {

// Fixed costs (API calls, allocation, latencies) measured on the lent H200;
// both presets share them, since the seed publishes no such figures.
void sharedFixedCosts(SimPreset& p)
{
    p.copyLatencyUs = 8.0;
    p.apiCallUs = 3.0;
    p.launchLatencyUs = 4.0;
    p.syncWakeUs = 5.0;
    p.kernelFixedUs = 3.0;
    p.deviceAllocUs = 270.0;
    p.deviceFreeUs = 270.0;
    p.pinnedAllocUs = 100.0;
    p.pinnedAllocGBps = 2.4;
    p.pinnedFreeUs = 200.0;
    p.registerUs = 100.0;
    // cudaHostRegister of 2 GiB took 83 to 89 ms on the H200 (about 25 GB/s),
    // cudaHostUnregister about 43 ms (50 GB/s).
    p.registerGBps = 25.0;
    p.unregisterGBps = 50.0;
}

SimPreset h200()
{
    SimPreset p;
    p.id = "h200";
    p.name = "Simulated H200 (PCIe Gen5)";
    p.detail = "sm_90 model, PCIe Gen5 x16, 141 GB HBM3e";
    p.source = "calibrated from overlapscope-cli runs on the lent H200, 2026-11-29 (docs/measurements.md)";
    sharedFixedCosts(p);
    p.asyncEngineCount = 3;
    p.smCount = 132; // as the lent H200's driver reports it (multiProcessorCount)
    p.computeCapability = 90;
    p.h2dEngines = 1;
    p.d2hEngines = 1;
    // 256 MiB medians of the bandwidth sweep.
    p.pinnedH2DGBps = 55.4;
    p.pinnedD2HGBps = 55.3;
    // The sweep's 256 MiB pinned bidirectional median: both directions at
    // once reach 99.1 GB/s, not 55.4 + 55.3.
    p.bidirectionalGBps = 99.1;
    p.bidirectionalSource = "measured: pinned bidir, 256 MiB, H200 sweep (docs/measurements.md)";
    // Pageable HtoD as the 32 MiB pipeline uploads saw it (the sweep gives
    // 15 GB/s at 16 MiB, 8 at 64 MiB); pageable DtoH into warm pages.
    p.pageableH2DGBps = 7.5;
    p.pageableD2HGBps = 14.6;
    // DtoH into a fresh vector ran at 1.24 GB/s: 1/1.24 = 1/14.6 + 1/1.36.
    p.pageFaultGBps = 1.36;
    // One host thread's memcpy between pageable and pinned memory.
    p.hostMemcpyGBps = 5.8;
    // What several staging threads copying at once reach together: 16
    // threads staged 2 x 2 GiB in 108.6 ms (39.5 GB/s) on the H200, 8 threads
    // 34 GB/s (--staging-threads sweep in docs/measurements.md).
    p.hostMemoryGBps = 40.0;
    // ESTIMATE until measured on a two-GPU machine (none was lent): the
    // host's memory traffic (reads plus writes, DMA and memcpy together).
    // Its lower bound is measured: one H200 moved 99.1 GB/s of pinned DMA
    // through host memory (the bidirectional rate above), so the host serves
    // at least that. (Twice the staging memcpy aggregate, 80 GB/s, is less
    // and so cannot be the limit.) Taking the lower bound makes two-GPU
    // predictions pessimistic: a real host may serve more.
    p.hostMemoryTrafficGBps = 100.0;
    p.hostMemoryTrafficSource = "estimate: the measured one-GPU pinned bidirectional rate (99.1 GB/s), a lower bound "
                                "on what the host serves; not measured with several GPUs (no two-GPU machine lent)";
    // ESTIMATE: no two-GPU machine was lent. H200 PCIe cards without an
    // NVLink bridge copy peer to peer through the PCIe switch, at about the
    // one-way pinned rate of their Gen5 x16 links (nvbandwidth on such hosts
    // reports 50-55 GB/s); with an NVLink bridge it would be far more.
    p.peerGBps = 50.0;
    p.peerSource = "estimate: PCIe Gen5 peer-to-peer without NVLink, about the one-way pinned rate; not measured";
    p.kernelGBps = 3000.0;
    p.deviceMemoryBytes = 150'000'000'000ull;
    return p;
}

SimPreset rtx4090()
{
    SimPreset p;
    p.id = "rtx4090";
    p.name = "Simulated RTX 4090 (PCIe Gen4)";
    p.detail = "sm_89 model, PCIe Gen4 x16, 24 GB GDDR6X";
    p.source = "link rates from the seed's published RTX 4090 table; host memcpy fitted to its 99.3 ms "
               "overlapped run; fixed costs measured on the H200";
    sharedFixedCosts(p);
    p.asyncEngineCount = 2;
    p.smCount = 128; // NVIDIA's RTX 4090 specification (AD102, 128 SMs enabled)
    p.computeCapability = 89;
    p.h2dEngines = 1;
    p.d2hEngines = 1;
    // The seed's 256 MiB pinned medians.
    p.pinnedH2DGBps = 23.6;
    p.pinnedD2HGBps = 23.85;
    // ESTIMATE, not measured: the seed publishes no bidirectional figure;
    // the H200's ratio of bidirectional to summed one-way rate (99.1 / 110.7).
    p.bidirectionalGBps = 0.895 * (23.6 + 23.85);
    p.bidirectionalSource = "estimate: the H200's measured bidirectional / one-way ratio applied to the seed's rates";
    // Its pageable HtoD column averages 14.1; DtoH 12.8 at 16 MiB, and 3.5 at
    // 64 MiB where each sample writes a fresh allocation: 1/3.53 = 1/12.84 + 1/4.87.
    p.pageableH2DGBps = 14.1;
    p.pageableD2HGBps = 12.84;
    p.pageFaultGBps = 4.87;
    p.hostMemcpyGBps = 5.6;
    // ASSUMPTION, not measured: a desktop's dual-channel DDR5 shared by
    // parallel memcpys (reading and writing), by analogy with the H200 host.
    p.hostMemoryGBps = 25.0;
    // ESTIMATE: 2 x the assumed memcpy aggregate, as for the H200 host.
    p.hostMemoryTrafficGBps = 50.0;
    p.hostMemoryTrafficSource = "estimate: 2 x the assumed aggregate memcpy rate (25 GB/s); not measured";
    // ESTIMATE: GeForce cards have no peer access over PCIe; kept at the
    // one-way pinned rate so the model has a figure, labelled as such.
    p.peerGBps = 22.0;
    p.peerSource = "estimate: not measured; GeForce drivers usually refuse peer access over PCIe";
    p.kernelGBps = 900.0;
    p.deviceMemoryBytes = 24'000'000'000ull;
    return p;
}

// A card with one copy engine for both directions. No such card was
// measured: every figure is the RTX 4090 preset's, only the engine count
// differs, so a lesson can show what one engine changes and nothing else.
SimPreset oneCopyEngine()
{
    SimPreset p = rtx4090();
    p.id = "one-engine";
    p.name = "Simulated one-copy-engine GPU (PCIe Gen4)";
    p.detail = "ESTIMATE: the RTX 4090 model with one copy engine shared by uploads and downloads, in issue order";
    p.source = "not calibrated on such a card: the RTX 4090 preset's figures with asyncEngineCount 1 (GeForce cards "
               "before Kepler; M. Harris, \"How to Overlap Data Transfers in CUDA C/C++\", 2012)";
    p.asyncEngineCount = 1;
    p.copyEngines = 1;
    // One engine does one copy at a time: both directions never share the link.
    p.bidirectionalGBps = 0;
    p.bidirectionalSource = "one copy engine: the directions never run at once";
    return p;
}

} // namespace

const std::vector<SimPreset>& simPresets()
{
    static const std::vector<SimPreset> presets = {h200(), rtx4090(), oneCopyEngine()};
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
