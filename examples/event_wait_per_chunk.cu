// Pitfall: a wait on each chunk's event inside the loop. Two streams, as for
// double buffering, and an event recorded after each chunk's download; but
// the host calls cudaEventSynchronize on that event before it queues the
// next chunk's upload, so one chunk is in flight at a time and the second
// stream never runs beside the first. It is a synchronize per chunk, spelt
// as an event wait, which makes it easy to miss. The kernels are long (4096
// steps, longer than a chunk's copies), so the copies could all hide under
// them. A profile shows a cudaEventSynchronize per chunk and the two stream
// lanes taking turns.
// Fix (--fix): four streams, an event recorded per chunk as before, and no
// wait in the loop: the host queues every chunk, then waits once, on an
// event of the first stream made to wait (cudaStreamWaitEvent) for the last
// chunk of every stream, and looks at the chunks.
// The host looks at a strided sample of each finished chunk (cheap, so the
// waits are what binds); the whole output is checked once after the loop,
// outside the timed region.
#include "ExampleCommon.h"

#include <algorithm>
#include <vector>

int main(int argc, char** argv)
{
    ExampleArgs defaults;
    defaults.kernelRepeats = 4096;
    ExampleArgs a = parseExampleArgs(
        argc, argv,
        "Pitfall: two streams, but cudaEventSynchronize on each chunk's download event before the next chunk's "
        "upload is queued: one chunk in flight, the streams take turns.\n"
        "Fix (--fix): four streams, an event per chunk, no wait in the loop; one wait after it, for every "
        "stream's last event.",
        defaults);
    a.streams = a.fix ? 4 : 2;
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
    std::vector<cudaEvent_t> downloaded(size_t(a.chunks));
    for (auto& e : downloaded)
        EXAMPLE_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

    cudaEvent_t allDownloaded = nullptr;
    EXAMPLE_CHECK(cudaEventCreateWithFlags(&allDownloaded, cudaEventDisableTiming));

    size_t wrongInLoop = 0;
    // The host's use of a finished chunk: it reads it.
    const auto look = [&](int c) {
        const size_t begin = size_t(c) * n;
        wrongInLoop += countWrongStrided(out, begin, begin + n, kSampleStride);
    };
    const ExampleTimer timer;
    for (int c = 0; c < a.chunks; ++c) {
        const size_t s = size_t(c % a.streams);
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
        EXAMPLE_CHECK(cudaEventRecord(downloaded[size_t(c)], streams[s]));
        if (!a.fix) {
            EXAMPLE_CHECK(cudaEventSynchronize(downloaded[size_t(c)]));
            look(c);
        }
    }
    if (a.fix) {
        // One wait for all: the first stream waits (on the GPU, not the
        // host) for the last chunk of every stream, and the host for it.
        for (int c = std::max(0, a.chunks - a.streams); c < a.chunks; ++c)
            EXAMPLE_CHECK(cudaStreamWaitEvent(streams[0], downloaded[size_t(c)], 0));
        EXAMPLE_CHECK(cudaEventRecord(allDownloaded, streams[0]));
        EXAMPLE_CHECK(cudaEventSynchronize(allDownloaded));
        for (int c = 0; c < a.chunks; ++c)
            look(c);
    }
    const double ms = timer.ms();

    const int status = reportExample("event_wait_per_chunk", a, ms, wrongInLoop + countWrong(out, total));
    EXAMPLE_CHECK(cudaEventDestroy(allDownloaded));
    for (auto& e : downloaded)
        EXAMPLE_CHECK(cudaEventDestroy(e));
    for (int s = 0; s < a.streams; ++s) {
        EXAMPLE_CHECK(cudaFree(device[size_t(s)]));
        EXAMPLE_CHECK(cudaStreamDestroy(streams[size_t(s)]));
    }
    EXAMPLE_CHECK(cudaFreeHost(in));
    EXAMPLE_CHECK(cudaFreeHost(out));
    return status;
}
