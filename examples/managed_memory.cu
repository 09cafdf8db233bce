// Pitfall: kernels on managed memory (cudaMallocManaged) that the host
// filled, without prefetching. The pages live in host memory when each
// kernel starts, so the kernel stalls on GPU page faults while the driver
// migrates them on demand, a few pages at a time; and when the host reads
// the results, each page faults back the same way. The copies never show as
// copies (no cudaMemcpy is made): a profile shows slow kernels, and only
// CUPTI's unified-memory counters show the migrations and faults.
// Fix (--fix): each chunk is prefetched to the GPU on its stream before its
// kernel (cudaMemPrefetchAsync, a bulk copy at the link's rate) and back to
// the host after it, on three streams, so one chunk's migration overlaps
// another's kernel and neither kernel nor host faults.
// The timed region is the loop and the host's read of the results (their
// use: the data has to come back to the host either way); the whole output
// is checked exactly after it.
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(
        argc, argv,
        "Pitfall: kernels on managed memory the host wrote, no prefetch: pages migrate on demand, on GPU page "
        "faults, and back on CPU page faults when the host reads the results.\n"
        "Fix (--fix): cudaMemPrefetchAsync of each chunk to the GPU before its kernel and back to the host after "
        "it, on three streams.");
    int device = 0;
    EXAMPLE_CHECK(cudaGetDevice(&device));
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* data = nullptr;
    EXAMPLE_CHECK(cudaMallocManaged(&data, total * sizeof(float)));
    fillInput(data, total); // the pages are now the host's
    std::vector<cudaStream_t> streams(size_t(a.streams));
    for (auto& s : streams)
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaMemLocation onDevice{};
    onDevice.type = cudaMemLocationTypeDevice;
    onDevice.id = device;
    cudaMemLocation onHost{};
    onHost.type = cudaMemLocationTypeHost;

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        cudaStream_t s = streams[size_t(c % a.streams)];
        float* chunk = data + size_t(c) * n;
        if (a.fix)
            EXAMPLE_CHECK(cudaMemPrefetchAsync(chunk, a.chunkBytes, onDevice, 0, s));
        launchIncrement(chunk, n, a.kernelRepeats, s);
        if (a.fix)
            EXAMPLE_CHECK(cudaMemPrefetchAsync(chunk, a.chunkBytes, onHost, 0, s));
    }
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    // The results' use: one read of every 4 KiB page.
    constexpr size_t kPageFloats = 4096 / sizeof(float);
    const size_t wrongInLoop = countWrongStrided(data, 0, total, kPageFloats);
    const double ms = timer.ms();

    const int status = reportExample("managed_memory", a, ms, wrongInLoop + countWrong(data, total));
    for (auto& s : streams)
        EXAMPLE_CHECK(cudaStreamDestroy(s));
    EXAMPLE_CHECK(cudaFree(data));
    return status;
}
