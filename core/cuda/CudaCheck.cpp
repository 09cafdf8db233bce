#include "cuda/CudaCheck.h"

#include "device/DeviceTypes.h"

#include <cstdio>

namespace ovs {

std::string formatGiB(std::uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return text;
}

std::string formatCudaVersion(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

void throwCudaError(cudaError_t error, const std::string& what, const std::string& note)
{
    cudaGetLastError();
    std::string message = what + " failed: " + cudaGetErrorString(error);
    if (!note.empty())
        message += " (" + note + ")";
    throw DeviceError(message);
}

} // namespace ovs
