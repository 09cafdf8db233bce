#include "lessons/LessonKit.h"

#include "base/DurationText.h"
#include "base/Median.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ovs::lessonkit {

PipelineConfig pinned(int chunks, std::uint64_t chunkBytes, int streams, int kernelRepeats)
{
    PipelineConfig config;
    config.kind = streams == 1 ? PipelineKind::PinnedOneStream : PipelineKind::PinnedData;
    config.chunks = chunks;
    config.chunkBytes = chunkBytes;
    config.slotCount = streams;
    config.kernelRepeats = kernelRepeats;
    return config;
}

LessonStep pipelineStep(std::string id, std::string caption, PipelineConfig config, std::string deviceSpec)
{
    LessonStep step;
    step.id = std::move(id);
    step.caption = std::move(caption);
    step.pipeline = config;
    step.deviceSpec = std::move(deviceSpec);
    return step;
}

LessonStep calibrationStep(std::uint64_t chunkBytes)
{
    return pipelineStep("calibration", "calibration: one kernel pass per chunk, one stream", pinned(4, chunkBytes, 1, 1));
}

namespace {
bool inTimedRegion(const Run& run, const Op& op)
{
    return op.startNs >= run.timedBeginNs && op.endNs <= run.timedEndNs;
}
std::int64_t opNs(const Op& op)
{
    return op.hasExec() ? op.execEndNs - op.execStartNs : op.durationNs();
}
} // namespace

std::int64_t medianOpNs(const Run& run, OpKind kind)
{
    std::vector<std::int64_t> times;
    for (const Op& op : run.ops)
        if (op.kind == kind && inTimedRegion(run, op))
            times.push_back(opNs(op));
    return upperMedian(std::move(times));
}

std::int64_t totalOpNs(const Run& run, OpKind kind, std::optional<HostMemoryKind> memory)
{
    std::int64_t total = 0;
    for (const Op& op : run.ops)
        if (op.kind == kind && (!memory || op.memory == *memory) && inTimedRegion(run, op))
            total += op.durationNs();
    return total;
}

int kernelRepeatsForCopyParity(std::span<const Run> calibration, double copyShare, int fallback)
{
    for (const Run& run : calibration) {
        if (run.status != RunStatus::Completed || run.params.kernelRepeats != 1)
            continue;
        const std::int64_t upload = medianOpNs(run, OpKind::Upload);
        const std::int64_t kernel = medianOpNs(run, OpKind::Kernel);
        if (upload <= 0 || kernel <= 0)
            continue;
        const double repeats = std::round(copyShare * static_cast<double>(upload) / static_cast<double>(kernel));
        return static_cast<int>(std::clamp(repeats, 1.0, static_cast<double>(kMaxKernelRepeats)));
    }
    return fallback;
}

double wallMs(const LessonRunResult& r)
{
    return toMs(r.run.wallNs());
}

std::string ms(double milliseconds)
{
    return millisecondsText(milliseconds, milliseconds < 10 ? 2 : 1);
}

std::string ms(std::int64_t ns)
{
    return ms(toMs(ns));
}

std::string ratio(double x)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", x);
    return text;
}

std::string percent(double p)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", p);
    return text;
}

std::string gbps(double rate)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB/s", rate);
    return text;
}

std::string mib(std::uint64_t bytes)
{
    if (bytes >= kMiB && bytes % kMiB == 0)
        return std::to_string(bytes / kMiB) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0)
        return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

LessonCheck check(std::string expectation, bool held, std::string measured)
{
    return {std::move(expectation), held, std::move(measured)};
}

double sweepRate(const BandwidthSweep& sweep, std::uint64_t bytes, HostMemoryKind memory, const std::string& direction)
{
    for (const auto& point : sweep.points)
        if (point.bytes == bytes && point.memory == memory && point.direction == direction)
            return point.gbps;
    return 0;
}

std::uint64_t largestSize(const BandwidthSweep& sweep)
{
    std::uint64_t largest = 0;
    for (const auto& point : sweep.points)
        largest = std::max(largest, point.bytes);
    return largest;
}

} // namespace ovs::lessonkit

namespace ovs::lessonkit {

LessonStep sweepStep(std::string id, std::string caption, std::vector<std::uint64_t> sizes, bool pageable)
{
    BenchConfig config;
    config.sizes = std::move(sizes);
    config.warmups = 2;
    config.samples = 5;
    config.pageable = pageable;
    config.pinned = true;
    config.bidirectional = true;
    config.hostCopy = false;
    LessonStep step;
    step.id = std::move(id);
    step.caption = std::move(caption);
    step.sweep = config;
    return step;
}

} // namespace ovs::lessonkit
