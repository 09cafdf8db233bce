#pragma once

// What each CUDA runtime and driver call does, the one table of them: which
// calls a profile records (the injection library enables API records for
// exactly these; every other call would cost time and say nothing about
// overlap), the role the converters give them as ops, what the analysis and
// the replay's graph take a call to wait for, and which calls the CUDA
// device's own CUPTI collection keeps. In trace/, below every floor that
// asks. Header-only and free of the rest of core, since the injection
// library compiles it in.

#include <array>
#include <cstdint>
#include <string_view>

namespace ovs {

enum class ApiRole : std::uint8_t {
    Untraced,
    Copy,       // cudaMemcpy*, cuMemcpy*
    Memset,     // cudaMemset*, cuMemset*
    Launch,     // kernels, host functions, graphs
    // The host waits (apiSynchronizesHost), for:
    DeviceSync, // every stream of the device: device, thread or context synchronize
    StreamSync, // one stream's work
    EventSync,  // one event, the work before it on its stream
    StreamWait, // a stream waits for an event (the host does not)
    Alloc,      // device, pinned, managed or pooled allocation
    Free,
    Register,   // page-locking host memory, and undoing it
    Prefetch,   // managed memory moved ahead of use
    Reset,      // cudaDeviceReset, cuDevicePrimaryCtxReset
    // The profiler range: cudaProfilerStart/Stop, cuProfilerStart/Stop.
    ProfilerStart,
    ProfilerStop,
};

// CUPTI's callback names carry a version suffix ("cudaMemcpyAsync_v3020",
// "cuMemAlloc_v2"); the user knows the call without it.
constexpr std::string_view apiDisplayName(std::string_view cuptiName)
{
    const std::size_t at = cuptiName.rfind("_v");
    if (at == std::string_view::npos || at + 2 == cuptiName.size())
        return cuptiName;
    for (std::size_t i = at + 2; i < cuptiName.size(); ++i)
        if (cuptiName[i] < '0' || cuptiName[i] > '9')
            return cuptiName;
    return cuptiName.substr(0, at);
}

// The role of a call by its display name. Prefixes, so that the variants
// (Async, 2D, 3D, Peer, ToSymbol, _ptsz per-thread stream, Ex) come along.
constexpr ApiRole apiRole(std::string_view name)
{
    struct Prefix {
        std::string_view text;
        ApiRole role;
    };
    constexpr std::array<Prefix, 36> kPrefixes = {{
        {"cudaMemcpy", ApiRole::Copy},
        {"cudaMemset", ApiRole::Memset},
        {"cudaMemPrefetchAsync", ApiRole::Prefetch},
        {"cudaLaunch", ApiRole::Launch},
        {"cudaGraphLaunch", ApiRole::Launch},
        {"cudaDeviceSynchronize", ApiRole::DeviceSync},
        {"cudaThreadSynchronize", ApiRole::DeviceSync},
        {"cudaStreamSynchronize", ApiRole::StreamSync},
        {"cudaEventSynchronize", ApiRole::EventSync},
        {"cudaStreamWaitEvent", ApiRole::StreamWait},
        {"cudaMalloc", ApiRole::Alloc},
        {"cudaHostAlloc", ApiRole::Alloc},
        {"cudaFree", ApiRole::Free},
        {"cudaHostRegister", ApiRole::Register},
        {"cudaHostUnregister", ApiRole::Register},
        {"cudaDeviceReset", ApiRole::Reset},
        {"cuMemcpy", ApiRole::Copy},
        {"cuMemsetD", ApiRole::Memset},
        {"cuMemPrefetchAsync", ApiRole::Prefetch},
        {"cuLaunch", ApiRole::Launch},
        {"cuGraphLaunch", ApiRole::Launch},
        {"cuCtxSynchronize", ApiRole::DeviceSync},
        {"cuStreamSynchronize", ApiRole::StreamSync},
        {"cuEventSynchronize", ApiRole::EventSync},
        {"cuStreamWaitEvent", ApiRole::StreamWait},
        {"cuMemAlloc", ApiRole::Alloc},
        {"cuMemHostAlloc", ApiRole::Alloc},
        {"cuMemFree", ApiRole::Free},
        {"cuMemHostRegister", ApiRole::Register},
        {"cuMemHostUnregister", ApiRole::Register},
        {"cuDevicePrimaryCtxReset", ApiRole::Reset},
        {"cuCtxDestroy", ApiRole::Reset},
        {"cudaProfilerStart", ApiRole::ProfilerStart},
        {"cudaProfilerStop", ApiRole::ProfilerStop},
        {"cuProfilerStart", ApiRole::ProfilerStart},
        {"cuProfilerStop", ApiRole::ProfilerStop},
    }};
    for (const Prefix& p : kPrefixes)
        if (name.substr(0, p.text.size()) == p.text)
            return p.role;
    return ApiRole::Untraced;
}

// The host waits for the device's work: a device, stream or event synchronize.
constexpr bool apiSynchronizesHost(ApiRole role)
{
    return role == ApiRole::DeviceSync || role == ApiRole::StreamSync || role == ApiRole::EventSync;
}

// A call that puts work on a stream (a copy, a memset, a launch): the host
// goes on unless the call blocks for it (a synchronous copy).
constexpr bool apiEnqueuesWork(ApiRole role)
{
    return role == ApiRole::Copy || role == ApiRole::Memset || role == ApiRole::Launch;
}
constexpr bool apiEnqueuesWork(std::string_view name)
{
    return apiEnqueuesWork(apiRole(name));
}

// A stream-ordered call ("...Async"): a copy or memset that returns before
// its work is done, an allocation or free the stream orders (cudaMallocAsync,
// cudaFreeAsync), which synchronizes nothing.
constexpr bool apiIsAsync(std::string_view name)
{
    return name.find("Async") != std::string_view::npos;
}

// A synchronization that waits for the whole device (every stream), where a
// stream or event synchronize waits for one stream's work.
constexpr bool apiWaitsForDevice(std::string_view name)
{
    return apiRole(name) == ApiRole::DeviceSync;
}

// Whether an op or range of this name is a collective: PyTorch's profiling
// titles of c10d's work ("gloo:all_reduce", "nccl:broadcast"), its ops
// ("c10d::allreduce_") and NCCL's kernels ("ncclDevKernel_AllReduce_...").
// The ranks' time in collectives per step reads it (NameRoles, RunIndex).
constexpr bool isCollectiveName(std::string_view name)
{
    return name.starts_with("gloo:") || name.starts_with("nccl:") || name.starts_with("c10d::")
           || name.starts_with("ncclKernel") || name.starts_with("ncclDevKernel");
}

} // namespace ovs
