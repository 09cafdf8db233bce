// Pitfall: allocating and freeing device memory inside the loop. cudaFree
// waits for all work on the device to finish before it returns (and
// cudaMalloc may too), so each chunk's free drains every stream: the chunks
// run one after another however many streams there are. A profile shows a
// cudaMalloc and a cudaFree per chunk, the frees as long as the GPU work.
// Fix (--fix): one buffer per stream, allocated before the loop and freed
// after it (or cudaMallocAsync / cudaFreeAsync from a memory pool).
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(argc, argv, "cudaMalloc/cudaFree in the loop (--fix: buffers allocated "
                                                       "once)");
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* in = nullptr;
    float* out = nullptr;
    EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
    EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    fillInput(in, total);
    std::vector<cudaStream_t> streams(size_t(a.streams));
    std::vector<float*> device(size_t(a.streams), nullptr);
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&streams[size_t(s)], cudaStreamNonBlocking));
        if (a.fix)
            EXAMPLE_CHECK(cudaMalloc(&device[size_t(s)], a.chunkBytes));
    }

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % a.streams);
        float* buffer = device[s];
        if (!a.fix)
            EXAMPLE_CHECK(cudaMalloc(&buffer, a.chunkBytes));
        EXAMPLE_CHECK(cudaMemcpyAsync(buffer, in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(buffer, n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, buffer, a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
        if (!a.fix)
            EXAMPLE_CHECK(cudaFree(buffer));
    }
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    const int status = reportExample("malloc_in_loop", a, ms, countWrong(out, total));
    for (int s = 0; s < a.streams; ++s) {
        if (a.fix)
            EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
