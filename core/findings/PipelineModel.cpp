// The pipeline case of the verdict (Verdict.h): the fastest one of our
// pipelines could go at the rates it is judged by, term by term, and which
// term binds. Each term is a lower bound on the run; the largest is too.

#include "findings/Verdict.h"

#include "base/Saturating.h"

#include <algorithm>

namespace ovs {

namespace {

// Time to move `bytes` at `gbps`; when the rate is unknown, the run's own
// achieved rate for that kind stands in (so the bound is never zero for work
// that took time).
std::int64_t chunkNs(double bytes, double gbps, const KindThroughput& achieved)
{
    const double rate = gbps > 0 ? gbps : achieved.gbps();
    return rate > 0 ? saturatingCast<std::int64_t>(bytes / rate) : 0;
}

// One chunk's bytes: as the run was configured where it says, else the mean
// of the ops (a trace of another program has no chunk size).
double chunkBytes(const Run& run, const KindThroughput& t)
{
    if (run.params.chunkBytes > 0)
        return static_cast<double>(run.params.chunkBytes);
    return t.count > 0 ? static_cast<double>(t.bytes) / t.count : 0.0;
}

std::int64_t add(std::int64_t a, std::int64_t b) { return saturatingAdd(a, b); }
std::int64_t times(std::int64_t a, std::int64_t b) { return saturatingMul(a, b); }

} // namespace

const char* toString(BoundKind kind)
{
    switch (kind) {
    case BoundKind::None: return "none";
    case BoundKind::Transfer: return "transfer";
    case BoundKind::HostStaging: return "host staging";
    case BoundKind::Compute: return "compute";
    case BoundKind::Serial: return "serial";
    }
    return "?";
}

namespace {

// How the run's work divides: what each GPU must do on its own.
struct Shape {
    std::int64_t chunksPerDevice = 0; // n below
    int streamsPerDevice = 1;
    double uploadBytes = 0;   // one chunk's
    double downloadBytes = 0; // one chunk's
};

// The chunks and devices, and one chunk's upload, download and kernel
// times at the rates the run is judged by; the compute bound.
Shape setChunkTimes(PipelineModel& b, const Run& run, const RunMetrics& metrics, const TransferRates& rates)
{
    const KindThroughput& up = metrics.kind(OpKind::Upload);
    const KindThroughput& down = metrics.kind(OpKind::Download);
    const KindThroughput& kernels = metrics.kind(OpKind::Kernel);
    b.chunks = run.params.chunks > 0 ? run.params.chunks : std::max(up.count, down.count);
    // A run over several GPUs gives each its own range of chunks, streams and
    // link, all at once (core/pipeline/MultiDeviceRunner). Each GPU has at
    // least floor(N / D) chunks and must do them on its own engines, so the
    // per-GPU terms below count that many: a bound on the GPU with the least
    // work is a bound on the run. The host they share can only slow them.
    const int devices = std::max(1, run.deviceCount());
    b.devices = devices;
    Shape shape;
    shape.chunksPerDevice = std::max<std::int64_t>(b.chunks / devices, b.chunks > 0 ? 1 : 0);
    shape.streamsPerDevice = std::max(1, metrics.streams / devices);
    shape.uploadBytes = up.count > 0 ? chunkBytes(run, up) : 0.0;
    shape.downloadBytes = down.count > 0 ? chunkBytes(run, down) : 0.0;
    b.uploadChunkNs = chunkNs(shape.uploadBytes, rates.h2dGBps(up.memory), up);
    b.downloadChunkNs = chunkNs(shape.downloadBytes, rates.d2hGBps(down.memory), down);
    // Kernels on several streams can run at once (the H200 runs three
    // 200-pass kernels together), so their summed durations count shared
    // time more than once and are no bound. The union of their engine
    // intervals is the time the device spent computing; spread over the
    // kernels, it is no more than one kernel alone takes where they shared
    // a saturated device, and less where they did not, so the bounds below
    // stay bounds either way.
    b.kernelChunkNs = kernels.count > 0 ? kernels.unionNs / kernels.count : 0;
    // Several GPUs compute at once: their union is no per-GPU bound, one
    // GPU's share of the kernels is.
    b.computeNs = devices > 1 ? times(b.kernelChunkNs, shape.chunksPerDevice) : kernels.unionNs;
    return shape;
}

// The transfer bound and the model it follows.
void setTransfer(PipelineModel& b, const Run& run, const RunMetrics& metrics, const TransferRates& rates, const Shape& shape)
{
    const KindThroughput& up = metrics.kind(OpKind::Upload);
    const KindThroughput& down = metrics.kind(OpKind::Download);
    const std::int64_t n = shape.chunksPerDevice;
    const std::int64_t u = b.uploadChunkNs;
    const std::int64_t d = b.downloadChunkNs;
    // One stream runs its ops in order, so its copies and kernels add up. On
    // several streams the copies form a three-stage pipeline (upload, kernel,
    // download on three engines): once full, a chunk leaves every
    // max(stage) and the slowest copy direction sets the pace; the first
    // chunk still pays the other stages before the pipe is full (fill), and
    // the last one after the slowest stage is done (drain). So N chunks take
    // N * max(u, d) + min(u, d) + one kernel. With one copy engine for both
    // directions, uploads and downloads queue on it: N * (u + d).
    // Pageable copies both ways are staged by the driver through the calling
    // thread, which does one at a time: the same sum, at pageable rates.
    const bool pageableBothWays = up.memory == HostMemoryKind::Pageable && down.memory == HostMemoryKind::Pageable;
    if (shape.streamsPerDevice <= 1) {
        b.transferNs = times(n, add(u, d));
        b.transferModel = "one stream: every chunk's upload and download in sequence";
    } else if (run.device.asyncEngineCount == 1) {
        // No kernel on top: with several streams the engine can copy other
        // chunks while any one kernel runs (breadth-first issue on the
        // one-copy-engine simulator came in under the sum plus a kernel).
        b.transferNs = times(n, add(u, d));
        b.transferModel = "one copy engine shared by both directions";
    } else if (pageableBothWays) {
        b.transferNs = add(times(n, add(u, d)), b.kernelChunkNs);
        b.transferModel = "pageable copies, staged one at a time by the calling thread";
    } else {
        // Once the pipe is full an upload and a download share the link:
        // where the sweep measured both directions at once, a chunk's pair of
        // copies takes at least their bytes at that combined rate.
        std::int64_t pace = std::max(u, d);
        const bool pinnedBothWays = up.memory != HostMemoryKind::Pageable && down.memory != HostMemoryKind::Pageable;
        if (pinnedBothWays && rates.bidirectionalGBps > 0)
            pace = std::max(pace, saturatingCast<std::int64_t>((shape.uploadBytes + shape.downloadBytes) /
                                                               rates.bidirectionalGBps));
        // The first upload and the last download run alone, at their own
        // rates; the N - 1 pairs between them share the link. Equal to
        // N * max(u, d) + min(u, d) when the pace is the slower direction.
        b.transferNs = add(add(times(std::max<std::int64_t>(n - 1, 0), pace), add(u, d)), b.kernelChunkNs);
        b.transferModel = pace > std::max(u, d) ? "three-stage pipeline with fill and drain, both directions sharing "
                                                  "the link at the measured bidirectional rate"
                                                : "three-stage pipeline with fill and drain";
    }
}

// The host staging bound; returns what one GPU's own chain of work stages
// (all of it on one GPU).
std::int64_t setStaging(PipelineModel& b, const Run& run, const RunMetrics& metrics, const TransferRates& rates,
                        const Shape& shape)
{
    // Host staging: the bytes the host copies into and out of staging
    // buffers, at what that many threads reach together, measured apart from
    // the run (never from its own staging copies: that would make the bound
    // the run itself). A pageable copy's driver staging is not here: pageable
    // link rates already include it.
    const KindThroughput& in = metrics.kind(OpKind::StageIn);
    const KindThroughput& out = metrics.kind(OpKind::StageOut);
    // The threads the run was configured with where it staged at all; a
    // trace without parameters counts the host lanes that staged.
    b.stagingThreads = std::max(1, metrics.stagingThreads > 0 && run.params.stagingThreads > 0
                                       ? run.params.stagingThreads
                                       : metrics.stagingThreads);
    b.stagingGBps = rates.hostCopyGBps(b.stagingThreads);
    const double stagedBytes = static_cast<double>(in.bytes) + static_cast<double>(out.bytes);
    if (stagedBytes > 0 && b.stagingGBps > 0)
        b.stagingNs = saturatingCast<std::int64_t>(stagedBytes / b.stagingGBps);
    std::int64_t oneGpuStagingNs = b.stagingNs;
    if (b.devices > 1 && stagedBytes > 0 && b.chunks > 0) {
        // Each GPU's threads stage its own chunks, and all of them together
        // share the host: the later of one GPU's share at its threads' rate
        // and everything at all the threads' rate.
        const double allGBps = rates.hostCopyGBps(b.stagingThreads * b.devices);
        const double share =
            stagedBytes * static_cast<double>(shape.chunksPerDevice) / static_cast<double>(b.chunks);
        const std::int64_t oneGpu = b.stagingGBps > 0 ? saturatingCast<std::int64_t>(share / b.stagingGBps) : 0;
        const std::int64_t together = allGBps > 0 ? saturatingCast<std::int64_t>(stagedBytes / allGBps) : 0;
        oneGpuStagingNs = oneGpu;
        b.stagingNs = std::max(oneGpu, together);
    }
    return oneGpuStagingNs;
}

// The binding term, the largest that applies; returns its time, the bound.
std::int64_t setBinding(PipelineModel& b, const Run& run, const Shape& shape, std::int64_t oneGpuStagingNs)
{
    if (run.pipeline == "serialized") {
        // The seed's serialized path waits for every copy before the next
        // step, so host copies, copies and kernels add up.
        // On several GPUs each runs its own serial chain, beside the others.
        b.binding = BoundKind::Serial;
        return std::max(add(add(b.transferNs, b.computeNs), oneGpuStagingNs), b.stagingNs);
    }
    const bool oneStream = shape.streamsPerDevice <= 1;
    std::int64_t boundNs = oneStream ? add(b.transferNs, b.computeNs) : b.transferNs;
    b.binding = oneStream ? BoundKind::Serial : BoundKind::Transfer;
    if (b.stagingNs > boundNs) {
        boundNs = b.stagingNs;
        b.binding = BoundKind::HostStaging;
    }
    if (!oneStream && b.computeNs > boundNs) {
        boundNs = b.computeNs;
        b.binding = BoundKind::Compute;
    }
    return boundNs;
}

} // namespace

void modelPipeline(Verdict& v, const Run& run, const RunMetrics& metrics, const TransferRates& rates)
{
    // No GPU work: nothing to bound, no model.
    if (metrics.gpuOps == 0)
        return;
    PipelineModel& b = v.pipeline.emplace();
    const Shape shape = setChunkTimes(b, run, metrics, rates);
    setTransfer(b, run, metrics, rates, shape);
    const std::int64_t oneGpuStagingNs = setStaging(b, run, metrics, rates, shape);
    v.boundNs = setBinding(b, run, shape, oneGpuStagingNs);
}

} // namespace ovs
