#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// The numbers the simulated device's timing model is made of. Rates are
// decimal GB/s (1e9 bytes/s), times microseconds. Every preset says where its
// numbers come from in `source`.
struct SimPreset {
    std::string id;     // "h200", "rtx4090"
    std::string name;   // "Simulated H200 (PCIe Gen5)"
    std::string detail; // shown beside the name
    std::string source; // where the figures come from

    int asyncEngineCount = 2;     // what the driver would report
    // The modelled GPU's SMs and compute capability (major * 10 + minor), as
    // the driver would report them: what a launch shape is read against
    // (DeviceInfo). 0: not modelled.
    int smCount = 0;
    int computeCapability = 0;
    // Copy engines: 2, one per direction (what every preset had before), or
    // 1, shared by both directions, which then takes copies strictly in the
    // order they were issued, as a single DMA queue does (the GPUs of Mark
    // Harris's "How to Overlap Data Transfers in CUDA C/C++", and consumer
    // cards reporting asyncEngineCount 1).
    int copyEngines = 2;
    int h2dEngines = 1;           // with 2 copy engines: copies in one direction share the link, usually 1
    int d2hEngines = 1;

    double pinnedH2DGBps = 0;
    double pinnedD2HGBps = 0;
    double pageableH2DGBps = 0;   // end to end, including the driver's staging
    double pageableD2HGBps = 0;
    double copyLatencyUs = 0;     // engine-side setup per copy
    // Both directions at once share the link (and the host memory): what a
    // pinned upload and download issued together reach in total. 0: the
    // directions are independent. See SimDevice::copyAsync for the model.
    double bidirectionalGBps = 0;
    std::string bidirectionalSource; // measured, or why it is an estimate

    double apiCallUs = 0;         // host time to enqueue one call
    double launchLatencyUs = 0;   // from enqueue until the GPU can start it
    double syncWakeUs = 0;        // from completion until a waiting host thread runs

    double kernelGBps = 0;        // increment kernel: bytes read + written per second
    double kernelFixedUs = 0;     // per launch

    double hostMemcpyGBps = 0;    // one host thread, pageable <-> pinned
    // All host threads copying at once share the host's memory bandwidth:
    // parallel staging stops scaling at this aggregate rate. 0: no cap.
    double hostMemoryGBps = 0;
    // Several GPUs on one host (sim:h200x2): the host memory traffic (bytes
    // read plus bytes written) that all of them together reach. Staging
    // memcpys count twice (read and write), DMA of pinned memory once, a
    // pageable copy three times (the driver's memcpy into its pinned buffer,
    // then the DMA). Not used by a single simulated GPU. 0: no cap.
    double hostMemoryTrafficGBps = 0;
    std::string hostMemoryTrafficSource; // measured, or why it is an estimate
    // GPU to GPU over the peer link with peer access on (cudaMemcpyPeerAsync);
    // off, a peer copy is staged through host memory at the pinned rates.
    double peerGBps = 0;
    std::string peerSource; // measured, or why it is an estimate
    // First write into freshly allocated pageable memory: the OS maps and
    // zeroes each page. Charged on top of the copy into it.
    double pageFaultGBps = 0;

    double deviceAllocUs = 0;     // cudaMalloc, fixed
    double deviceFreeUs = 0;
    double pinnedAllocUs = 0;     // cudaMallocHost, fixed
    double pinnedAllocGBps = 0;   // ... plus page-locking at this rate
    double pinnedFreeUs = 0;
    double registerUs = 0;        // cudaHostRegister, fixed
    double registerGBps = 0;      // ... plus page-locking at this rate
    double unregisterGBps = 0;    // cudaHostUnregister: unlocking at this rate

    std::uint64_t deviceMemoryBytes = 0;
};

const std::vector<SimPreset>& simPresets();
std::optional<SimPreset> findSimPreset(const std::string& id);
const SimPreset& defaultSimPreset();

} // namespace ovs
