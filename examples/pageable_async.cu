// Pitfall: cudaMemcpyAsync from pageable memory (malloc, new, std::vector).
// The driver copies such memory through a pinned staging buffer of its own,
// with the calling thread, so the "async" call returns only once the copy
// is done: the host cannot queue the next chunk, and copies on several
// streams do not overlap the kernels. A profile shows the copies as
// "Pageable" and the cudaMemcpyAsync calls as long as the copies.
// Fix (--fix): the same loop from pinned memory (cudaMallocHost).
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(argc, argv, "cudaMemcpyAsync from pageable memory (--fix: pinned)");
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* in = nullptr;
    float* out = nullptr;
    if (a.fix) {
        EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
        EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    } else {
        in = static_cast<float*>(std::malloc(total * sizeof(float)));
        out = static_cast<float*>(std::malloc(total * sizeof(float)));
        if (!in || !out) {
            std::fprintf(stderr, "out of host memory\n");
            return 1;
        }
    }
    fillInput(in, total);
    std::vector<cudaStream_t> streams(size_t(a.streams));
    std::vector<float*> device(size_t(a.streams));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&streams[size_t(s)], cudaStreamNonBlocking));
        EXAMPLE_CHECK(cudaMalloc(&device[size_t(s)], a.chunkBytes));
    }

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % a.streams);
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
    }
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    const int status = reportExample("pageable_async", a, ms, countWrong(out, total));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    if (a.fix) {
        EXAMPLE_CHECK(cudaFreeHost(in));
        EXAMPLE_CHECK(cudaFreeHost(out));
    } else {
        std::free(in);
        std::free(out);
    }
    return status;
}
