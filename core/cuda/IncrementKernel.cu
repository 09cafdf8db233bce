#include "cuda/IncrementKernel.h"

#include <algorithm>

namespace ovs {
namespace {

constexpr unsigned kThreadsPerBlock = 256;
// 8 blocks of 256 threads fill an SM (2048 resident threads at most, on sm_80
// and sm_90); a grid-stride loop gains nothing from more blocks than fit.
constexpr std::size_t kBlocksPerMultiprocessor = 8;

__global__ void incrementKernel(float* data, std::size_t count)
{
    // 64-bit indexing: a chunk may exceed 2^31 elements.
    const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        data[i] += 1.0f;
}

} // namespace

cudaError_t enqueueIncrement(float* data, std::size_t count, int multiProcessorCount, cudaStream_t stream)
{
    const std::size_t blocksForCount = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    const std::size_t residentBlocks =
        static_cast<std::size_t>(std::max(multiProcessorCount, 1)) * kBlocksPerMultiprocessor;
    const auto blocks = static_cast<unsigned>(std::min(blocksForCount, residentBlocks));
    // Every other call's status is checked where it returns, so the last-error
    // slot holds nothing unreported, at most a cudaEventQuery "not ready"; clear
    // it so the check below sees this launch alone.
    cudaGetLastError();
    incrementKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(data, count);
    return cudaGetLastError();
}

} // namespace ovs
