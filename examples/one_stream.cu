// Pitfall: every chunk on one stream. A stream runs its work in order, so
// chunk 2's upload waits for chunk 1's download even though they use
// different engines: copies and kernels never overlap, whatever the memory.
// A profile shows a single busy stream lane with gaps on every engine.
// Fix (--fix): the chunks spread over three streams, each with its own
// device buffer, so one chunk's kernel runs while the next uploads and the
// previous downloads.
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(argc, argv, "all chunks on one stream (--fix: three streams)");
    const int streamCount = a.fix ? a.streams : 1;
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* in = nullptr;
    float* out = nullptr;
    EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
    EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    fillInput(in, total);
    std::vector<cudaStream_t> streams(static_cast<size_t>(streamCount));
    std::vector<float*> device(static_cast<size_t>(streamCount));
    for (int s = 0; s < streamCount; ++s) {
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&streams[size_t(s)], cudaStreamNonBlocking));
        EXAMPLE_CHECK(cudaMalloc(&device[size_t(s)], a.chunkBytes));
    }

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % streamCount);
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
    }
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    const int status = reportExample("one_stream", a, ms, countWrong(out, total));
    for (int s = 0; s < streamCount; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
