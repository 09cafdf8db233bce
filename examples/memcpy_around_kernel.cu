// Pitfall: synchronous cudaMemcpy around a kernel that runs on a stream of
// its own. Per chunk: cudaMemcpy uploads the chunk (on the legacy default
// stream, and returns only when the copy is done), the kernel runs on a
// created non-blocking stream, and cudaMemcpy downloads the result. A
// non-blocking stream does not wait for the legacy default stream, nor it
// for it, so the download would read the buffer while the kernel still
// writes it: the program waits for the kernel's stream
// (cudaStreamSynchronize) before the download. The host memory is pinned, so
// what costs is the synchronous calls and the legacy stream, not pageable
// staging: every copy and kernel runs alone, the upload and download engines
// never work at once, and the GPU idles while the host issues each call.
// A profile shows the copies on "default stream (legacy)" and the kernels on
// another stream, one after another, with the host in cudaMemcpy for each.
// Fix (--fix): cudaMemcpyAsync on three created streams around the kernel
// (each chunk's copies and kernel on one stream, a device buffer per
// stream), and one cudaDeviceSynchronize after the loop.
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    ExampleArgs defaults;
    defaults.kernelRepeats = 1024;
    const ExampleArgs a = parseExampleArgs(
        argc, argv,
        "Pitfall: synchronous cudaMemcpy (legacy default stream) before and after a kernel on a created non-blocking "
        "stream, from pinned memory: every copy and kernel runs alone.\n"
        "Fix (--fix): cudaMemcpyAsync on three created streams around the kernel, one cudaDeviceSynchronize after "
        "the loop.",
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
        float* const source = in + size_t(c) * n;
        float* const target = out + size_t(c) * n;
        if (a.fix) {
            EXAMPLE_CHECK(cudaMemcpyAsync(device[s], source, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
            launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
            EXAMPLE_CHECK(cudaMemcpyAsync(target, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
        } else {
            EXAMPLE_CHECK(cudaMemcpy(device[s], source, a.chunkBytes, cudaMemcpyHostToDevice));
            launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
            EXAMPLE_CHECK(cudaStreamSynchronize(streams[s]));
            EXAMPLE_CHECK(cudaMemcpy(target, device[s], a.chunkBytes, cudaMemcpyDeviceToHost));
        }
    }
    if (a.fix)
        EXAMPLE_CHECK(cudaDeviceSynchronize());
    const double ms = timer.ms();

    const int status = reportExample("memcpy_around_kernel", a, ms, countWrong(out, total));
    for (int s = 0; s < streamCount; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
