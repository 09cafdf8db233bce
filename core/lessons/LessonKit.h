#pragma once

#include "lessons/Lesson.h"

#include <cstdint>
#include <span>
#include <string>

// What the lesson definitions share: the configurations they start from,
// the calibration that sizes kernels for the device at hand, and the words
// and numbers their verdicts are written with. Internal to core/lessons.
namespace ovs::lessonkit {

inline constexpr std::uint64_t kMiB = 1ull << 20;
// The chunks of the lessons' pipelines.
inline constexpr int kChunks = 8;
// Without a calibration run (only when sizing the job count up front), the
// passes that make a kernel as long as an upload on the simulated H200.
inline constexpr int kFallbackRepeats = 20;

// Data already pinned (no staging, so the copies and kernels are what the
// timeline shows), `streams` rotating streams.
PipelineConfig pinned(int chunks, std::uint64_t chunkBytes, int streams, int kernelRepeats);
LessonStep pipelineStep(std::string id, std::string caption, PipelineConfig config, std::string deviceSpec = {});

// The calibration run: data already pinned on one stream, one kernel pass
// per chunk, at `chunkBytes`.
LessonStep calibrationStep(std::uint64_t chunkBytes);
// Kernel passes per chunk so that one chunk's kernel takes about as long as
// `copyShare` x its upload, from the calibration run's median engine times;
// `fallback` when there is no usable calibration run.
int kernelRepeatsForCopyParity(std::span<const Run> calibration, double copyShare, int fallback);
// Median engine (else event) time of the timed region's ops of `kind`; 0 if none.
std::int64_t medianOpNs(const Run& run, OpKind kind);
// Total duration of the timed region's ops of `kind` (and `memory`, where given).
std::int64_t totalOpNs(const Run& run, OpKind kind, std::optional<HostMemoryKind> memory = std::nullopt);

double wallMs(const LessonRunResult& r);
std::string ms(double milliseconds); // "12.3 ms"
std::string ms(std::int64_t ns);
std::string ratio(double x);         // "2.4x"
std::string percent(double p);       // "37%"
std::string gbps(double rate);       // "55.4 GB/s"
std::string mib(std::uint64_t bytes); // "16 MiB", "256 KiB"

LessonCheck check(std::string expectation, bool held, std::string measured);

// The median rate of a sweep's cell, 0 if the sweep has none.
double sweepRate(const BandwidthSweep& sweep, std::uint64_t bytes, HostMemoryKind memory, const std::string& direction);
// The largest size the sweep measured.
std::uint64_t largestSize(const BandwidthSweep& sweep);

} // namespace ovs::lessonkit

namespace ovs::lessonkit {

// A short sweep: pinned HtoD, DtoH and both at once (and pageable where
// asked) at `sizes`, no host memcpy cells. Gives a CUDA run the link rates
// its bound is judged by, and the transfer lessons their numbers.
LessonStep sweepStep(std::string id, std::string caption, std::vector<std::uint64_t> sizes, bool pageable);

} // namespace ovs::lessonkit
