#include "cuda/CudaDevice.h"

#include "cuda/CudaCheck.h"
#include "cuda/CudaRuntimeDevice.h"

#include <cuda_runtime_api.h>

namespace ovs {
namespace {

// cudaErrorInsufficientDriver covers both "no driver at all" (the statically
// linked runtime found no libcuda) and "driver too old"; the user needs to know which.
std::string describeMissingDevice(cudaError_t error)
{
    const std::string cudaText = cudaGetErrorString(error);
    if (error != cudaErrorInsufficientDriver)
        return cudaText;
    int driverVersion = 0;
    int runtimeVersion = 0;
    if (cudaDriverGetVersion(&driverVersion) != cudaSuccess || cudaRuntimeGetVersion(&runtimeVersion) != cudaSuccess) {
        cudaGetLastError();
        return cudaText;
    }
    if (driverVersion == 0)
        return "no NVIDIA driver found: " + cudaText;
    return "the NVIDIA driver supports CUDA " + formatCudaVersion(driverVersion) + " but this build uses the CUDA "
        + formatCudaVersion(runtimeVersion) + " runtime: " + cudaText;
}

} // namespace

bool cudaRuntimeHasDevice(std::string* why)
{
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error == cudaSuccess && count > 0)
        return true;
    if (why)
        *why = error == cudaSuccess ? cudaGetErrorString(cudaErrorNoDevice) : describeMissingDevice(error);
    cudaGetLastError();
    return false;
}

int cudaDeviceCount()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

std::unique_ptr<Device> createCudaDevice(int ordinal)
{
    std::string why;
    if (!cudaRuntimeHasDevice(&why))
        throw DeviceError("no CUDA GPU available (" + why + "); use --device sim for the simulated device");
    const int count = cudaDeviceCount();
    if (ordinal < 0 || ordinal >= count)
        throw DeviceError("no CUDA device " + std::to_string(ordinal) + ": this machine has " + std::to_string(count)
                          + (count == 1 ? " (use cuda:0)" : " (use cuda:0 to cuda:" + std::to_string(count - 1) + ")"));
    return std::make_unique<CudaRuntimeDevice>(ordinal);
}

} // namespace ovs
