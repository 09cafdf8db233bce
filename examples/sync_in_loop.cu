// Pitfall: the host waits for the GPU inside the loop. Waiting for each
// chunk as soon as it is queued (cudaDeviceSynchronize, then a look at its
// result) keeps one chunk in flight: the three streams never overlap, so
// each chunk's upload, kernel and download run one after another, and the
// GPU idles while the host wakes up and queues the next chunk. The kernels
// are long (2048 steps: about as long as a chunk's copies), so overlap is
// worth a lot here. A profile shows a synchronize call per chunk and the GPU
// lanes taking turns.
// Fix (--fix): an event per chunk; the host looks at chunk c only once it
// has queued the three chunks after it, waiting on that chunk's event alone,
// so the GPU always has work queued and the chunks overlap.
// In the loop the host looks at a strided sample of each finished chunk
// (cheap: the synchronization is what binds); the whole output is checked
// once after the loop, outside the timed region.
//
// NVTX ranges (header-only NVTX3 from the CUDA toolkit; no-ops unless a
// tool is attached): "loop" around the timed loop (NVTX3's C++ scoped
// range), "chunk N" around each iteration (nvtxRangePushA/Pop), and with
// --fix "chunk N in flight" from a chunk's queueing to its check, a
// start/end range, since it spans iterations. cudaProfilerStart/Stop
// bracket the loop, so `profile --capture-range cudaProfilerApi` records
// the loop alone. `overlapscope-cli profile` shows them as the run's regions.
//
// --host-bound: the earlier version of this example, "a sync that costs
// nothing". Short kernels (20 steps) and the host reading every element of
// each chunk eight times inside the loop: that takes some fifty times the
// chunk's GPU work, so the host binds, and --fix saves under 2%. A profile still shows
// a synchronize per chunk; what-if analysis should say that removing it
// would not help.
#include "ExampleCommon.h"

#include <cuda_profiler_api.h>
#include <nvtx3/nvtx3.hpp>

#include <optional>
#include <string>
#include <vector>

namespace {

// "chunk N" for one iteration of the loop, however it is left.
class ChunkRange {
public:
    explicit ChunkRange(int chunk) { nvtxRangePushA(("chunk " + std::to_string(chunk)).c_str()); }
    ~ChunkRange() { nvtxRangePop(); }
    ChunkRange(const ChunkRange&) = delete;
    ChunkRange& operator=(const ChunkRange&) = delete;
};

} // namespace

int main(int argc, char** argv)
{
    const bool hostBound = hasArg(argc, argv, "--host-bound");
    ExampleArgs defaults;
    defaults.kernelRepeats = hostBound ? 20 : 2048;
    const ExampleArgs a = parseExampleArgs(
        argc, argv,
        "Pitfall: cudaDeviceSynchronize after each chunk keeps one chunk in flight; the streams never overlap.\n"
        "Fix (--fix): an event per chunk, each chunk looked at (one wait on its own event) once the next three are "
        "queued.\n"
        "--host-bound: short kernels and the host checking every element of each chunk in the loop: the host binds "
        "and --fix saves little (a sync that costs nothing).",
        defaults, "--host-bound");
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

    std::vector<nvtxRangeId_t> inFlight(size_t(a.chunks), 0); // --fix: "chunk N in flight"
    size_t wrongInLoop = 0;
    // --host-bound reads each finished chunk this many times: the host's
    // work per chunk then takes some fifty times the chunk's GPU work, so
    // overlapping the two could save under 2%.
    constexpr int kHostBoundPasses = 8;
    volatile size_t passes = 0; // keeps the repeated reads from being folded into one
    // The host's use of a finished chunk: it must read ready data.
    const auto consume = [&](int c) {
        if (inFlight[size_t(c)] != 0)
            nvtxRangeEnd(inFlight[size_t(c)]);
        const size_t begin = size_t(c) * n;
        wrongInLoop += countWrongStrided(out, begin, begin + n, a.variant ? 1 : kSampleStride);
        for (int pass = 1; a.variant && pass < kHostBoundPasses; ++pass)
            passes = passes + countWrongStrided(out, begin, begin + n, 1) + 1;
    };
    EXAMPLE_CHECK(cudaProfilerStart());
    const ExampleTimer timer;
    int checked = 0;
    std::optional<nvtx3::scoped_range> loop;
    loop.emplace("loop");
    for (int c = 0; c < a.chunks; ++c) {
        const ChunkRange chunkRange(c);
        const size_t s = size_t(c % a.streams);
        EXAMPLE_CHECK(cudaMemcpyAsync(device[s], in + size_t(c) * n, a.chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        launchIncrement(device[s], n, a.kernelRepeats, streams[s]);
        EXAMPLE_CHECK(cudaMemcpyAsync(out + size_t(c) * n, device[s], a.chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
        EXAMPLE_CHECK(cudaEventRecord(done[size_t(c)], streams[s]));
        if (a.fix)
            inFlight[size_t(c)] = nvtxRangeStartA(("chunk " + std::to_string(c) + " in flight").c_str());
        if (!a.fix) {
            EXAMPLE_CHECK(cudaDeviceSynchronize());
        } else if (c >= a.streams) {
            // The chunk queued `streams` chunks ago: while the host waits for
            // it, every stream has a newer chunk queued, so the GPU does not
            // run dry when it returns (one chunk fewer would leave the
            // upload engine waiting for the host's next call each chunk).
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
    loop.reset();
    const double ms = timer.ms();
    EXAMPLE_CHECK(cudaProfilerStop());

    const int status = reportExample(a.variant ? "sync_in_loop --host-bound" : "sync_in_loop", a, ms,
                                     wrongInLoop + countWrong(out, total));
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
