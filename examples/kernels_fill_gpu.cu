// The contention control: every kernel fills the GPU, so more streams save
// nothing. Each chunk is one kernel over its own device buffer (16 MiB:
// 16384 blocks of 256 threads, some fifteen times what the SMs hold at
// once), no copies in the loop; plain, the chunks alternate over two
// streams, so each kernel is launched beside the other stream's. A kernel
// that fills the GPU gains nothing from company: side by side, a pair takes
// the sum of its parts. The replay must say the same: its launch-shape
// basis (docs/what-if.md, "The engine model") reproduces the plain run, and
// predicts no saving for more streams.
// "Fix" (--fix): four streams. The measured saving is about 0, and so must
// the prediction be.
#include "ExampleCommon.h"

#include <vector>

namespace {

__global__ void fillKernel(float* data, size_t n, size_t offset)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = float((offset + i) % 1024);
}

// Counts, into *wrong, the elements that are not their input + 1.
__global__ void checkKernel(const float* data, size_t n, size_t offset, unsigned long long* wrong)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n && fabsf(data[i] - (float((offset + i) % 1024) + 1.0f)) > 1e-3f)
        atomicAdd(wrong, 1ull);
}

} // namespace

int main(int argc, char** argv)
{
    ExampleArgs defaults;
    defaults.chunks = 24;
    defaults.kernelRepeats = 4096; // about a millisecond a chunk on an H200: kernels, not launches, decide
    const ExampleArgs a = parseExampleArgs(argc, argv,
                                           "kernels that each fill the GPU on two streams (--fix: four streams; "
                                           "the saving is about 0)",
                                           defaults);
    const int streamCount = a.fix ? 4 : 2;
    const size_t n = a.chunkBytes / sizeof(float);
    const unsigned blocks = unsigned((n + 255) / 256);
    std::vector<cudaStream_t> streams(static_cast<size_t>(streamCount));
    for (cudaStream_t& s : streams)
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    std::vector<float*> device(static_cast<size_t>(a.chunks));
    for (float*& d : device)
        EXAMPLE_CHECK(cudaMalloc(&d, a.chunkBytes));
    unsigned long long* wrong = nullptr;
    EXAMPLE_CHECK(cudaMalloc(&wrong, sizeof *wrong));
    EXAMPLE_CHECK(cudaMemset(wrong, 0, sizeof *wrong));
    // The input made on the GPU: no copy in the active span but the count's.
    for (int c = 0; c < a.chunks; ++c)
        fillKernel<<<blocks, 256>>>(device[size_t(c)], n, size_t(c) * n);
    EXAMPLE_CHECK(cudaGetLastError());
    EXAMPLE_CHECK(cudaDeviceSynchronize());

    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c)
        launchIncrement(device[size_t(c)], n, a.kernelRepeats, streams[size_t(c % streamCount)]);
    EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    for (int c = 0; c < a.chunks; ++c)
        checkKernel<<<blocks, 256>>>(device[size_t(c)], n, size_t(c) * n, wrong);
    EXAMPLE_CHECK(cudaGetLastError());
    unsigned long long wrongCount = 0;
    EXAMPLE_CHECK(cudaMemcpy(&wrongCount, wrong, sizeof wrongCount, cudaMemcpyDeviceToHost));
    std::printf("kernels_fill_gpu%s: %d chunks x %zu MiB in %.2f ms (%d streams, %u blocks a kernel), %s\n",
                a.fix ? " --fix" : "", a.chunks, a.chunkBytes >> 20, ms, streamCount, blocks,
                wrongCount == 0 ? "verified" : "WRONG RESULTS");
    for (float* d : device)
        EXAMPLE_CHECK(cudaFree(d));
    EXAMPLE_CHECK(cudaFree(wrong));
    for (cudaStream_t s : streams)
        EXAMPLE_CHECK(cudaStreamDestroy(s));
    return wrongCount == 0 ? 0 : 1;
}
