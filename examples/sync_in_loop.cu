// Pitfall: the host waits for the GPU inside the loop. Checking each chunk's
// result as soon as it is queued (cudaDeviceSynchronize, then read it) keeps
// only one chunk in flight: the GPU idles while the host checks, and the
// host idles while the GPU works. A profile shows a synchronize call per
// chunk and the GPU lanes empty between them.
// Fix (--fix): an event per chunk, and the host checks chunk c only when it
// has queued the chunks after it, waiting on that chunk's event alone; the
// GPU always has work queued.
#include "ExampleCommon.h"

#include <vector>

int main(int argc, char** argv)
{
    const ExampleArgs a = parseExampleArgs(argc, argv, "host synchronization in the loop (--fix: per-chunk events, "
                                                       "results checked a few chunks behind)");
    const size_t n = a.chunkBytes / sizeof(float);
    const size_t total = n * size_t(a.chunks);
    float* in = nullptr;
    float* out = nullptr;
    EXAMPLE_CHECK(cudaMallocHost(&in, total * sizeof(float)));
    EXAMPLE_CHECK(cudaMallocHost(&out, total * sizeof(float)));
    fillInput(in, total);
    std::vector<cudaStream_t> streams(size_t(a.streams));
    std::vector<float*> device(size_t(a.streams));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaStreamCreateWithFlags(&streams[size_t(s)], cudaStreamNonBlocking));
        EXAMPLE_CHECK(cudaMalloc(&device[size_t(s)], a.chunkBytes));
    }
    std::vector<cudaEvent_t> done(size_t(a.chunks));
    for (auto& e : done)
        EXAMPLE_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

    size_t wrong = 0;
    // The host's use of a finished chunk: it must read whole, ready data.
    const auto consume = [&](int c) {
        for (size_t i = size_t(c) * n; i < size_t(c + 1) * n; ++i)
            wrong += std::abs(out[i] - (float(i % 1024) + 1.0f)) > 1e-3f;
    };
    const ExampleTimer timer;
    int checked = 0;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % a.streams);
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
        EXAMPLE_CHECK(cudaEventRecord(done[size_t(c)], streams[s]));
        if (!a.fix) {
            EXAMPLE_CHECK(cudaDeviceSynchronize());
        } else if (c + 1 >= a.streams) {
            // The chunk queued streams-1 chunks ago is the oldest in flight.
            EXAMPLE_CHECK(cudaEventSynchronize(done[size_t(checked)]));
        } else {
            continue;
        }
        consume(checked++);
    }
    for (; checked < a.chunks; ++checked) {
        EXAMPLE_CHECK(cudaEventSynchronize(done[size_t(checked)]));
        consume(checked);
    }
    const double ms = timer.ms();

    const int status = reportExample("sync_in_loop", a, ms, wrong);
    for (auto& e : done)
        EXAMPLE_CHECK(cudaEventDestroy(e));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
