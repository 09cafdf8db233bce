// The seed document's two pipelines as a plain CUDA program, with nothing of
// OverlapScope in it: what `overlapscope-cli profile` sees when a user
// profiles their own code, and the standalone program the profile overhead
// benchmark times (scripts/gpu-profile-overhead.py).
//
// Serialized: per chunk, cudaMalloc, a synchronous upload from pageable
// memory, the kernel, a synchronous download, cudaFree.
// Overlapped: three slots (a stream, a device buffer, a pinned staging buffer
// and an event each) used in turn; before reusing a slot the host waits for
// its event, copies the finished result out of the staging buffer and copies
// the next chunk in (one host thread does every staging copy: on a fast link
// this host staging is what bounds the path).
// --fix: the overlapped path with the data already in pinned memory, copied
// straight to and from the device: no staging (what the findings suggest).
#include "ExampleCommon.h"

#include <vector>

namespace {

double serialized(const ExampleArgs& a, const float* in, float* out)
{
    const size_t n = a.chunkBytes / sizeof(float);
    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        float* device = nullptr;
        EXAMPLE_CHECK(cudaMalloc(&device, a.chunkBytes));
        EXAMPLE_CHECK(cudaMemcpy(device, in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice));
        launchIncrement(device, n, a.kernelRepeats, nullptr);
        EXAMPLE_CHECK(cudaMemcpy(out + size_t(c) * n, device, a.chunkBytes, cudaMemcpyDeviceToHost));
        EXAMPLE_CHECK(cudaFree(device));
    }
    return timer.ms();
}

struct Slot {
    cudaStream_t stream = nullptr;
    float* device = nullptr;
    float* staging = nullptr;
    cudaEvent_t done = nullptr;
    int chunk = -1; // the chunk in flight, -1: none
};

// `staged`: copy through the slots' pinned staging buffers (the seed);
// otherwise `in` and `out` are pinned and copied directly (--fix).
double overlapped(const ExampleArgs& a, const float* in, float* out, bool staged)
{
    const size_t n = a.chunkBytes / sizeof(float);
    std::vector<Slot> slots(size_t(a.streams));
    for (Slot& s : slots) {
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
        EXAMPLE_CHECK(cudaMalloc(&s.device, a.chunkBytes));
        if (staged)
            EXAMPLE_CHECK(cudaMallocHost(&s.staging, a.chunkBytes));
        EXAMPLE_CHECK(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
    }
    const auto finish = [&](Slot& s) {
        if (s.chunk < 0)
            return;
        EXAMPLE_CHECK(cudaEventSynchronize(s.done));
        if (staged)
            std::memcpy(out + size_t(s.chunk) * n, s.staging, a.chunkBytes);
        s.chunk = -1;
    };
    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        Slot& s = slots[size_t(c) % slots.size()];
        finish(s);
        const float* source = in + size_t(c) * n;
        float* target = out + size_t(c) * n;
        if (staged) {
            std::memcpy(s.staging, source, a.chunkBytes);
            source = s.staging;
            target = s.staging;
        }
        EXAMPLE_CHECK(cudaMemcpyAsync(s.device, source, a.chunkBytes, cudaMemcpyHostToDevice, s.stream));
        launchIncrement(s.device, n, a.kernelRepeats, s.stream);
        EXAMPLE_CHECK(cudaMemcpyAsync(target, s.device, a.chunkBytes, cudaMemcpyDeviceToHost, s.stream));
        EXAMPLE_CHECK(cudaEventRecord(s.done, s.stream));
        s.chunk = c;
    }
    for (Slot& s : slots)
        finish(s);
    const double ms = timer.ms();
    for (Slot& s : slots) {
        EXAMPLE_CHECK(cudaEventDestroy(s.done));
        if (s.staging)
            EXAMPLE_CHECK(cudaFreeHost(s.staging));
        EXAMPLE_CHECK(cudaFree(s.device));
        EXAMPLE_CHECK(cudaStreamDestroy(s.stream));
    }
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    ExampleArgs defaults; // the seed's: 8 chunks of 32 MiB, one increment, three slots
    defaults.chunks = 8;
    defaults.chunkBytes = size_t(32) << 20;
    defaults.kernelRepeats = 1;
    const ExampleArgs a = parseExampleArgs(
        argc, argv, "the seed's serialized and overlapped pipelines (--fix: overlapped from pinned data, no staging)",
        defaults);
    const size_t total = a.chunkBytes / sizeof(float) * size_t(a.chunks);
    // The seed's data lives in pageable memory; --fix keeps it pinned.
    float* in = nullptr;
    float* out = nullptr;
    if (a.fix) {
        EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
        EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    } else {
        in = static_cast<float*>(std::malloc(total * sizeof(float)));
        out = static_cast<float*>(std::malloc(total * sizeof(float)));
        if (!in || !out) {
            std::fprintf(stderr, "%s: cannot allocate 2 x %zu MiB of host memory\n", argv[0], (total * 4) >> 20);
            return 1;
        }
    }
    fillInput(in, total);

    int status = 0;
    if (!a.fix) {
        std::memset(out, 0, total * sizeof(float));
        const double ms = serialized(a, in, out);
        status |= reportExample("seed_pipelines serialized", a, ms, countWrong(out, total));
    }
    std::memset(out, 0, total * sizeof(float));
    const double ms = overlapped(a, in, out, !a.fix);
    status |= reportExample("seed_pipelines overlapped", a, ms, countWrong(out, total));

    if (a.fix) {
        EXAMPLE_CHECK(cudaFreeHost(in));
        EXAMPLE_CHECK(cudaFreeHost(out));
    } else {
        std::free(in);
        std::free(out);
    }
    return status;
}
