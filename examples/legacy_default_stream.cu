// Pitfall: work on the legacy default stream (stream 0) next to streams made
// with cudaStreamCreate. Those streams are "blocking": an operation on the
// legacy default stream waits for all of their work and holds back all of
// their later work, so one small cudaMemset per chunk on stream 0 puts every
// chunk in single file. A profile shows the memsets on "default stream
// (legacy)" and no two streams busy at once.
// Fix (--fix): non-blocking streams (cudaStreamNonBlocking) and the memset on
// the chunk's own stream (cudaMemsetAsync). Building with
// --default-stream per-thread is the other way out.
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(argc, argv, "work on the legacy default stream serializes blocking streams "
                                                       "(--fix: non-blocking streams, no default-stream work)");
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* in = nullptr;
    float* out = nullptr;
    EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
    EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    fillInput(in, total);
    std::vector<cudaStream_t> streams(size_t(a.streams));
    std::vector<float*> device(size_t(a.streams));
    std::vector<int*> flags(size_t(a.streams));
    for (int s = 0; s < a.streams; ++s) {
        if (a.fix)
            EXAMPLE_CHECK(cudaStreamCreateWithFlags(&streams[size_t(s)], cudaStreamNonBlocking));
        else
            EXAMPLE_CHECK(cudaStreamCreate(&streams[size_t(s)]));
        EXAMPLE_CHECK(cudaMalloc(&device[size_t(s)], a.chunkBytes));
        EXAMPLE_CHECK(cudaMalloc(&flags[size_t(s)], sizeof(int)));
    }

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % a.streams);
        // A per-chunk status word reset before the chunk: small, and harmless
        // only when it stays on the chunk's stream.
        if (a.fix)
            EXAMPLE_CHECK(cudaMemsetAsync(flags[s], 0, sizeof(int), streams[s]));
        else
            EXAMPLE_CHECK(cudaMemset(flags[s], 0, sizeof(int)));
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
    }
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    const int status = reportExample("legacy_default_stream", a, ms, countWrong(out, total));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaFree(flags[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
