// Pitfall: each chunk's upload and download on one stream, in turn, with
// only a short kernel between: the link carries one direction at a time,
// though it can carry both at once. A profile shows the one stream busy with
// copies, the other direction's engine idle.
// Fix (--fix): three streams, chunk c on stream c mod 3, so one chunk's
// download runs while the next one uploads. Both directions at once share
// the link: each goes slower than alone (on an H200, about 99 GB/s together
// against 55 each way), so the fix saves less than the copies' overlap would
// at one-way rates. The replay's prediction must use that bidirectional rate
// (docs/what-if.md, "The engine model": uploads beside downloads).
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    ExampleArgs defaults;
    defaults.kernelRepeats = 1; // the copies are the work
    const ExampleArgs a = parseExampleArgs(argc, argv,
                                           "each chunk's upload and download on one stream, in turn (--fix: three "
                                           "streams, uploads beside downloads)",
                                           defaults);
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

    const int status = reportExample("copies_both_ways", a, ms, countWrong(out, total));
    for (int s = 0; s < streamCount; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
