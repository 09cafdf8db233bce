#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace ovs {

// Internal to core/cuda: keeps the CUDA headers out of everything else.

// "139.8 GiB": sizes in error messages and the device description.
std::string formatGiB(std::uint64_t bytes);

// "13.0" from the runtime's 13000 encoding.
std::string formatCudaVersion(int version);

// Throws DeviceError("<what> failed: <CUDA error string> (<note>)"). Clears the
// thread's last error too: a refused allocation or a bad argument is not
// sticky, the device stays usable, and the next launch's cudaGetLastError
// check must not report it again.
[[noreturn]] void throwCudaError(cudaError_t error, const std::string& what, const std::string& note = {});

inline void checkCuda(cudaError_t error, const char* what)
{
    if (error != cudaSuccess) [[unlikely]]
        throwCudaError(error, what);
}

} // namespace ovs
