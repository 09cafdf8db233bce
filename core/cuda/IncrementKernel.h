#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace ovs {

// Enqueues one pass of data[i] += 1.0f for i < count on `stream` and returns
// the launch's error (cudaGetLastError). `count` must be > 0.
cudaError_t enqueueIncrement(float* data, std::size_t count, int multiProcessorCount, cudaStream_t stream);

} // namespace ovs
