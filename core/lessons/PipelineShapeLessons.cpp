// The lessons about the shape of the pipeline: the staging trap, the chunk
// size, and which of copy or compute bounds the run.
#include "lessons/LessonCatalog.h"
#include "lessons/LessonKit.h"

#include <algorithm>

namespace ovs::lessonkit {

namespace {
constexpr int kStagingThreads = 8;
} // namespace

Lesson stagingThreads()
{
    Lesson l;
    l.id = "staging-threads";
    l.title = "The staging trap, and staging threads";
    l.explanation =
        "The seed's overlapped path keeps its data in pageable memory and copies each chunk into a pinned staging "
        "buffer, and each result back out, with one host thread. The GPU side overlaps nicely, but one thread's "
        "memcpy is several times slower than the link, so the host becomes the bottleneck. Several threads can "
        "share each staging copy, up to what the host's memory bandwidth allows. The runs are the seed's path as "
        "written and the same path with " + std::to_string(kStagingThreads) + " staging threads.";
    l.question = {"What do " + std::to_string(kStagingThreads) + " staging threads do to the seed's overlapped path?",
                  {{"a", "nothing: the copies to the GPU are the limit"},
                   {"b", "faster, but well short of " + std::to_string(kStagingThreads)
                             + "x: the threads share the host's memory bandwidth"},
                   {"c", "about " + std::to_string(kStagingThreads) + "x faster"}}};
    l.plan = [](std::span<const Run>, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        PipelineConfig seed;
        seed.kind = PipelineKind::Overlapped;
        seed.chunks = kChunks;
        seed.chunkBytes = kChunkBytes;
        seed.slotCount = 3;
        PipelineConfig threads = seed;
        threads.stagingThreads = kStagingThreads;
        return std::vector<LessonStep>{
            pipelineStep("seed", "the seed's overlapped path, one staging thread", seed),
            pipelineStep("threads", "the same with " + std::to_string(kStagingThreads) + " staging threads", threads)};
    };
    l.focus = {{"seed", {OpKind::StageIn, "host", std::nullopt, -1, -1},
                "one host thread copies every chunk into pinned memory, and the GPU waits for it"},
               {"threads", {OpKind::StageIn, "staging", std::nullopt, -1, -1},
                "the staging threads share each copy"}};
    l.takeaway = "With one staging thread the host staged for {staging_seed} of the run's {wall_seed} ({diagnosis}). "
                 "With {threads} threads the run took {wall_threads}: {speedup} faster.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* seed = m.run("seed");
        const LessonRunResult* threads = m.run("threads");
        if (!seed || !threads)
            return v;
        const double speedup = wallMs(*threads) > 0 ? wallMs(*seed) / wallMs(*threads) : 0;
        const double staging = 100.0 * seed->analysis.metrics.staging.utilisation;
        v.answer = speedup < 1.1 ? "a" : speedup < 0.9 * kStagingThreads ? "b" : "c";
        v.why = std::to_string(kStagingThreads) + " staging threads ran " + ratio(speedup) + " faster";
        v.values = {{"staging_seed", percent(staging)},
                    {"wall_seed", ms(wallMs(*seed))},
                    {"diagnosis", toString(seed->analysis.findings.verdict.kind)},
                    {"threads", std::to_string(kStagingThreads)},
                    {"wall_threads", ms(wallMs(*threads))},
                    {"speedup", ratio(speedup)}};
        v.checks.push_back(check("with one thread the host stages for more than half the run", staging > 50,
                                 percent(staging)));
        v.checks.push_back(check(std::to_string(kStagingThreads) + " staging threads are at least 1.5x faster",
                                 speedup >= 1.5, ratio(speedup)));
        return v;
    };
    return l;
}

Lesson chunkSize()
{
    Lesson l;
    l.id = "chunk-size";
    l.title = "Chunk size: fill and drain vs per-copy cost";
    l.explanation =
        "Cutting the data into chunks is what lets copies and kernels overlap, but the pipeline must fill before "
        "anything overlaps and drain after: the first upload and the last download run alone. Large chunks make "
        "that fill and drain long. Small chunks make it short, but every copy and launch has a fixed cost on the "
        "host and the GPU, paid once per chunk. The runs move the same data in six chunk sizes, from 1/128 of the "
        "lesson's chunk to four times it (256 KiB to 128 MiB at the default 32 MiB); the chart draws each run's "
        "wall time against its chunk size, beside the bound the link allows.";
    l.question = {"Which chunk size moves the data fastest?",
                  {{"a", "the smallest: the most overlap"},
                   {"b", "the largest: the fewest copies"},
                   {"c", "one in between"}}};
    l.plan = [](std::span<const Run>, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        std::vector<LessonStep> steps;
        // At the largest chunk: smaller chunks are judged by rates they cannot
        // quite reach (their per-copy latency), which keeps their bounds bounds.
        steps.push_back(sweepStep("rates", "link rates for the bound", {4 * kChunkBytes}, false));
        const std::uint64_t total = 8 * kChunkBytes;
        // Step ids say the size relative to the lesson's chunk, so that they
        // are the same at every LessonOptions::chunkBytes.
        const std::pair<const char*, std::uint64_t> sizes[] = {
            {"chunk/128", kChunkBytes / 128}, {"chunk/32", kChunkBytes / 32}, {"chunk/8", kChunkBytes / 8},
            {"chunk/2", kChunkBytes / 2},     {"chunk*2", 2 * kChunkBytes},   {"chunk*4", 4 * kChunkBytes}};
        for (const auto& [id, chunk] : sizes) {
            const int chunks = static_cast<int>(total / chunk);
            steps.push_back(pipelineStep(id, std::to_string(chunks) + " chunks of " + mib(chunk),
                                         pinned(chunks, chunk, 3, 1)));
        }
        return steps;
    };
    l.focus = {{"chunk*4", {OpKind::Upload, "stream", std::nullopt, 0, 0},
                "fill: the first upload of the largest chunks runs with nothing beside it"},
               {"chunk/128", {OpKind::Upload, "stream", std::nullopt, 0, 15},
                "the smallest chunks: fixed costs between tiny copies"}};
    l.swept = SweptParameter::ChunkBytes;
    l.takeaway = "The fastest chunk size was {best} at {wall_best} ({distance_best} its bound). The smallest, {smallest}, "
                 "took {wall_smallest}; the largest, {largest}, took {wall_largest}.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        std::vector<const LessonRunResult*> runs;
        for (const auto& r : m.runs)
            if (r.stepId.rfind("chunk", 0) == 0)
                runs.push_back(&r);
        if (runs.size() < 3)
            return v;
        std::sort(runs.begin(), runs.end(),
                  [](const auto* a, const auto* b) { return a->run.params.chunkBytes < b->run.params.chunkBytes; });
        const auto best = std::min_element(runs.begin(), runs.end(),
                                           [](const auto* a, const auto* b) { return wallMs(*a) < wallMs(*b); });
        const bool interior = best != runs.begin() && best != runs.end() - 1;
        v.answer = best == runs.begin() ? "a" : best == runs.end() - 1 ? "b" : "c";
        v.why = "the fastest was " + mib((*best)->run.params.chunkBytes) + " chunks";
        const double distance = (*best)->analysis.findings.verdict.distance;
        v.values = {{"best", mib((*best)->run.params.chunkBytes)},
                    {"wall_best", ms(wallMs(**best))},
                    {"distance_best", distance > 0 ? ratio(distance) : std::string("an unknown multiple of")},
                    {"smallest", mib(runs.front()->run.params.chunkBytes)},
                    {"wall_smallest", ms(wallMs(*runs.front()))},
                    {"largest", mib(runs.back()->run.params.chunkBytes)},
                    {"wall_largest", ms(wallMs(*runs.back()))}};
        v.checks.push_back(check("the fastest chunk size is neither the smallest nor the largest", interior,
                                 mib((*best)->run.params.chunkBytes) + " at " + ms(wallMs(**best))));
        return v;
    };
    return l;
}

Lesson copyVsCompute()
{
    Lesson l;
    l.id = "copy-vs-compute";
    l.title = "Copy-bound vs compute-bound";
    l.explanation =
        "Overlap can hide the shorter of copying and computing under the longer, never the longer one. The runs "
        "keep the data and the three streams fixed and vary the kernel's work, from an eighth of an upload's time "
        "to eight times it (sized on this device from a calibration run). While copies take longer the wall time "
        "follows the copies; once kernels take longer it follows the kernels, and the copies hide.";
    l.question = {"When each chunk's kernel takes about eight times as long as its upload, what sets the wall time?",
                  {{"a", "copies plus kernels: they add up"},
                   {"b", "the kernels alone: the copies hide under them"},
                   {"c", "the copies alone"}}};
    l.calibrate = true;
    l.plan = [](std::span<const Run> calibration, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        const int parity = kernelRepeatsForCopyParity(calibration, 1.0, kFallbackRepeats);
        std::vector<LessonStep> steps;
        steps.push_back(sweepStep("rates", "link rates for the bound", {kChunkBytes}, false));
        const std::pair<const char*, double> work[] = {
            {"k-1/8", 0.125}, {"k-1/2", 0.5}, {"k-1", 1.0}, {"k-2", 2.0}, {"k-8", 8.0}};
        for (const auto& [id, share] : work) {
            const int repeats = std::max(1, static_cast<int>(parity * share + 0.5));
            steps.push_back(pipelineStep(id, std::string("kernel ") + (id + 2) + " of an upload (" + std::to_string(repeats)
                                                 + " passes)",
                                         pinned(kChunks, kChunkBytes, 3, repeats)));
        }
        return steps;
    };
    l.focus = {{"k-1/8", {OpKind::Upload, "stream", std::nullopt, -1, -1}, "copy-bound: the copy engines never rest"},
               {"k-8", {OpKind::Kernel, "stream", std::nullopt, -1, -1}, "compute-bound: the kernels never rest"}};
    l.swept = SweptParameter::KernelRepeats;
    l.takeaway = "With light kernels the run took {wall_light}, copies busy {copy_light} and kernels {compute_light} "
                 "(bound: {bound_light}). With kernels eight times an upload it took {wall_heavy}: kernels busy "
                 "{compute_heavy}, copies {copy_heavy}, all hidden (bound: {bound_heavy}).";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* light = m.run("k-1/8");
        const LessonRunResult* even = m.run("k-1");
        const LessonRunResult* heavy = m.run("k-8");
        if (!light || !even || !heavy)
            return v;
        const auto& hm = heavy->analysis.metrics;
        const auto& lm = light->analysis.metrics;
        const auto& em = even->analysis.metrics;
        const double wallHeavy = static_cast<double>(heavy->run.wallNs());
        const double computeHeavy = static_cast<double>(hm.compute.busyNs);
        const double sumHeavy = computeHeavy + static_cast<double>(hm.copies.busyNs);
        v.answer = wallHeavy < 1.15 * computeHeavy                         ? "b"
                   : wallHeavy > 0.9 * sumHeavy                            ? "a"
                   : std::abs(wallHeavy - static_cast<double>(hm.copies.busyNs)) < 0.15 * wallHeavy ? "c"
                                                                                                   : "a";
        v.why = "with heavy kernels the run took " + ms(heavy->run.wallNs()) + ", the kernels " + ms(hm.compute.busyNs);
        v.values = {{"wall_light", ms(light->run.wallNs())},
                    {"copy_light", ms(lm.copies.busyNs)},
                    {"compute_light", ms(lm.compute.busyNs)},
                    {"bound_light", toString(light->analysis.findings.verdict.binding())},
                    {"wall_heavy", ms(heavy->run.wallNs())},
                    {"copy_heavy", ms(hm.copies.busyNs)},
                    {"compute_heavy", ms(hm.compute.busyNs)},
                    {"bound_heavy", toString(heavy->analysis.findings.verdict.binding())}};
        const double evenSum = static_cast<double>(em.copies.busyNs + em.compute.busyNs);
        v.checks.push_back(check("with light kernels the wall time is within 1.3x of the copies' busy time",
                                 static_cast<double>(light->run.wallNs()) < 1.3 * static_cast<double>(lm.copies.busyNs),
                                 ms(light->run.wallNs()) + " vs " + ms(lm.copies.busyNs)));
        v.checks.push_back(check("with heavy kernels the wall time is within 1.15x of the kernels' busy time",
                                 wallHeavy < 1.15 * computeHeavy, ms(heavy->run.wallNs()) + " vs " + ms(hm.compute.busyNs)));
        v.checks.push_back(check("with kernels as long as an upload, overlap hides a quarter of copy + compute or more",
                                 static_cast<double>(even->run.wallNs()) < 0.75 * evenSum,
                                 ms(even->run.wallNs()) + " vs " + ms(static_cast<std::int64_t>(evenSum)) + " summed"));
        v.checks.push_back(check("the binding bound goes from transfer to compute",
                                 light->analysis.findings.verdict.binding() == BoundKind::Transfer
                                     && heavy->analysis.findings.verdict.binding() == BoundKind::Compute,
                                 std::string(toString(light->analysis.findings.verdict.binding())) + " -> "
                                     + toString(heavy->analysis.findings.verdict.binding())));
        return v;
    };
    return l;
}

} // namespace ovs::lessonkit
