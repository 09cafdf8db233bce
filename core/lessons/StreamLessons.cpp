// The lessons about streams: one vs several, issue order, the legacy
// default stream, and allocation (an implicit synchronization) in the loop.
#include "lessons/LessonCatalog.h"
#include "lessons/LessonKit.h"

#include <cmath>

namespace ovs::lessonkit {

namespace {
int parityRepeats(std::span<const Run> calibration)
{
    return kernelRepeatsForCopyParity(calibration, 1.0, kFallbackRepeats);
}

std::string withinPercent(double a, double b)
{
    return percent(b > 0 ? 100.0 * std::abs(a - b) / b : 0);
}
} // namespace

Lesson oneVsSeveralStreams()
{
    Lesson l;
    l.id = "one-vs-several-streams";
    l.title = "One stream vs several";
    l.explanation =
        "Work on one stream runs in order: a chunk's upload, kernel and download, then the next chunk's. The GPU "
        "has separate engines for uploads, downloads and kernels, and only work on different streams may use them "
        "at once. Here the kernels are sized on this device, from a calibration run, to take about as long as an "
        "upload, so that overlap has something to hide. Both runs move the same chunks from pinned memory; one uses "
        "one stream, the other three.";
    l.question = {"With kernels as long as a copy, how much faster are three streams than one?",
                  {{"a", "no faster: the work is the same"}, {"b", "about 1.5x"}, {"c", "2x or more"}}};
    l.calibrate = true;
    l.plan = [](std::span<const Run> calibration, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        const int repeats = parityRepeats(calibration);
        return std::vector<LessonStep>{
            pipelineStep("one", "one stream", pinned(kChunks, kChunkBytes, 1, repeats)),
            pipelineStep("three", "three streams", pinned(kChunks, kChunkBytes, 3, repeats))};
    };
    l.focus = {{"one", {OpKind::Kernel, "stream", std::nullopt, 0, 1},
                "one stream: the copy engines idle while each kernel runs"},
               {"three", {OpKind::Upload, "stream", std::nullopt, 1, 2},
                "three streams: the next chunks upload while this one computes"}};
    l.takeaway = "With {repeats} kernel passes per chunk (a kernel about as long as an upload), one stream took "
                 "{wall_one} with {overlap_one} of the copy time overlapped; three streams took {wall_three} with "
                 "{overlap_three} overlapped: {speedup} faster.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* one = m.run("one");
        const LessonRunResult* three = m.run("three");
        if (!one || !three)
            return v;
        const double speedup = wallMs(*three) > 0 ? wallMs(*one) / wallMs(*three) : 0;
        const double overlapOne = one->analysis.metrics.overlapPercent;
        const double overlapThree = three->analysis.metrics.overlapPercent;
        v.answer = speedup < 1.15 ? "a" : speedup < 1.8 ? "b" : "c";
        v.why = "three streams ran " + ratio(speedup) + " faster than one";
        v.values = {{"repeats", std::to_string(one->run.params.kernelRepeats)},
                    {"wall_one", ms(wallMs(*one))},
                    {"wall_three", ms(wallMs(*three))},
                    {"overlap_one", percent(overlapOne)},
                    {"overlap_three", percent(overlapThree)},
                    {"speedup", ratio(speedup)}};
        v.checks.push_back(check("three streams are at least 1.25x faster than one", speedup >= 1.25, ratio(speedup)));
        v.checks.push_back(check("one stream overlaps no copy with a kernel", overlapOne < 5, percent(overlapOne)));
        v.checks.push_back(check("three streams overlap copies with kernels", overlapThree > 30, percent(overlapThree)));
        return v;
    };
    return l;
}

Lesson issueOrder()
{
    Lesson l;
    l.id = "issue-order";
    l.title = "Issue order: depth-first vs breadth-first";
    l.explanation =
        "The host can enqueue each chunk's upload, kernel and download before the next chunk (depth-first), or all "
        "uploads of a round of chunks, then all kernels, then all downloads (breadth-first). On a GPU with one copy "
        "engine, uploads and downloads share one queue in the order they were issued, so depth-first puts a "
        "download, which must wait for its kernel, in front of the next upload, which could start at once. With a "
        "copy engine per direction, and the hardware queues of recent GPUs, the order matters much less. The lesson "
        "runs both orders on this device and on a simulated GPU with one copy engine.";
    l.question = {"Does issuing breadth-first beat depth-first?",
                  {{"a", "yes, on both GPUs"},
                   {"b", "only on the one-copy-engine GPU"},
                   {"c", "only on this device"},
                   {"d", "on neither"}}};
    l.calibrate = true;
    l.plan = [](std::span<const Run> calibration, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        const int repeats = parityRepeats(calibration);
        PipelineConfig depth = pinned(kChunks, kChunkBytes, 4, repeats);
        PipelineConfig breadth = depth;
        breadth.issueOrder = IssueOrder::BreadthFirst;
        const std::string one = "sim:one-engine";
        return std::vector<LessonStep>{
            pipelineStep("depth", "this device, depth-first", depth),
            pipelineStep("breadth", "this device, breadth-first", breadth),
            pipelineStep("depth-1ce", "one copy engine (simulated), depth-first", depth, one),
            pipelineStep("breadth-1ce", "one copy engine (simulated), breadth-first", breadth, one)};
    };
    l.focus = {{"depth-1ce", {OpKind::Upload, "stream 1", std::nullopt, 1, 1},
                "chunk 1's upload waits behind chunk 0's download in the one copy queue"},
               {"breadth-1ce", {OpKind::Upload, "stream", std::nullopt, 0, 3},
                "breadth-first: the uploads go first, back to back, while the kernels start"}};
    l.takeaway = "On the one-copy-engine GPU (simulated) breadth-first took {wall_breadth_1ce} and depth-first "
                 "{wall_depth_1ce} ({gain_1ce}). On {device} breadth-first took {wall_breadth} and depth-first "
                 "{wall_depth} ({gain}).";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* depth = m.run("depth");
        const LessonRunResult* breadth = m.run("breadth");
        const LessonRunResult* depth1 = m.run("depth-1ce");
        const LessonRunResult* breadth1 = m.run("breadth-1ce");
        if (!depth || !breadth || !depth1 || !breadth1)
            return v;
        auto gain = [](const LessonRunResult& d, const LessonRunResult& b) {
            return wallMs(b) > 0 ? wallMs(d) / wallMs(b) : 0;
        };
        const double gainHere = gain(*depth, *breadth);
        const double gainOne = gain(*depth1, *breadth1);
        const bool winsHere = gainHere > 1.05;
        const bool winsOne = gainOne > 1.05;
        v.answer = winsHere && winsOne ? "a" : winsOne ? "b" : winsHere ? "c" : "d";
        v.why = "breadth-first was " + ratio(gainOne) + " as fast on one copy engine, " + ratio(gainHere) + " here";
        v.values = {{"device", depth->run.device.label()},
                    {"wall_depth", ms(wallMs(*depth))},
                    {"wall_breadth", ms(wallMs(*breadth))},
                    {"wall_depth_1ce", ms(wallMs(*depth1))},
                    {"wall_breadth_1ce", ms(wallMs(*breadth1))},
                    {"gain", ratio(gainHere) + " as fast"},
                    {"gain_1ce", ratio(gainOne) + " as fast"}};
        v.checks.push_back(check("on one copy engine, breadth-first is at least 1.1x as fast as depth-first",
                                 gainOne >= 1.1, ratio(gainOne)));
        v.checks.push_back(check("with a copy engine per direction, breadth-first gains less than 5%",
                                 gainHere < 1.05, ratio(gainHere)));
        return v;
    };
    return l;
}

Lesson legacyDefaultStream()
{
    Lesson l;
    l.id = "legacy-default-stream";
    l.title = "The legacy default stream serializes the others";
    l.explanation =
        "Streams made with cudaStreamCreate are blocking streams: an operation on the legacy default stream (stream "
        "0) waits for all their earlier work, and their later work waits for it. One tiny kernel on stream 0 per "
        "chunk, a memset or a library call that defaults to stream 0, is enough to serialize a pipeline on blocking "
        "streams. Two fixes: create the streams with cudaStreamNonBlocking, or compile with --default-stream "
        "per-thread, so that stream 0 means the per-thread default stream, which is an ordinary stream. The four "
        "runs are the pipeline without the tiny kernel, with it, and with each fix.";
    l.question = {"Each chunk adds one kernel of one float on stream 0. What happens to the pipeline on 3 blocking "
                  "streams?",
                  {{"a", "nothing visible: the kernel is tiny"},
                   {"b", "the streams serialize and the overlap disappears"}}};
    l.calibrate = true;
    l.plan = [](std::span<const Run> calibration, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        const int repeats = parityRepeats(calibration);
        PipelineConfig blocking = pinned(kChunks, kChunkBytes, 3, repeats);
        blocking.streamSync = StreamSync::Blocking;
        PipelineConfig legacy = blocking;
        legacy.defaultStreamOp = DefaultStreamOp::Legacy;
        PipelineConfig nonBlocking = legacy;
        nonBlocking.streamSync = StreamSync::NonBlocking;
        PipelineConfig perThread = blocking;
        perThread.defaultStreamOp = DefaultStreamOp::PerThread;
        return std::vector<LessonStep>{
            pipelineStep("blocking", "3 blocking streams", blocking),
            pipelineStep("legacy", "3 blocking streams + a kernel on stream 0 per chunk", legacy),
            pipelineStep("non-blocking", "fix 1: non-blocking streams + the kernel on stream 0", nonBlocking),
            pipelineStep("per-thread", "fix 2: the kernel on the per-thread default stream", perThread)};
    };
    l.focus = {{"legacy", {OpKind::Kernel, "legacy default stream", std::nullopt, -1, -1},
                "each tiny kernel on stream 0 waits for every stream, and every stream waits for it"},
               {"non-blocking", {OpKind::Upload, "stream", std::nullopt, -1, -1},
                "non-blocking streams ignore stream 0: the overlap is back"}};
    l.takeaway = "Without the tiny kernel the pipeline took {wall_blocking} with {overlap_blocking} of the copy time "
                 "overlapped. One kernel on stream 0 per chunk made it {wall_legacy} ({slowdown} slower) with "
                 "{overlap_legacy} overlapped. Non-blocking streams brought it back to {wall_nonblocking}, the "
                 "per-thread default stream to {wall_perthread}.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* blocking = m.run("blocking");
        const LessonRunResult* legacy = m.run("legacy");
        const LessonRunResult* nonBlocking = m.run("non-blocking");
        const LessonRunResult* perThread = m.run("per-thread");
        if (!blocking || !legacy || !nonBlocking || !perThread)
            return v;
        const double base = wallMs(*blocking);
        const double slowdown = base > 0 ? wallMs(*legacy) / base : 0;
        const double overlapBase = blocking->analysis.metrics.overlapPercent;
        const double overlapLegacy = legacy->analysis.metrics.overlapPercent;
        v.answer = slowdown > 1.2 && overlapLegacy < 0.5 * overlapBase ? "b" : "a";
        v.why = "stream 0 made the run " + ratio(slowdown) + " as long, overlap " + percent(overlapBase) + " -> "
                + percent(overlapLegacy);
        v.values = {{"wall_blocking", ms(base)},
                    {"overlap_blocking", percent(overlapBase)},
                    {"wall_legacy", ms(wallMs(*legacy))},
                    {"overlap_legacy", percent(overlapLegacy)},
                    {"slowdown", ratio(slowdown)},
                    {"wall_nonblocking", ms(wallMs(*nonBlocking))},
                    {"wall_perthread", ms(wallMs(*perThread))}};
        v.checks.push_back(check("a kernel on stream 0 makes the blocking streams at least 1.3x slower",
                                 slowdown >= 1.3, ratio(slowdown)));
        v.checks.push_back(check("a kernel on stream 0 removes the overlap (under 10% of the copy time)",
                                 overlapLegacy < 10, percent(overlapLegacy)));
        // The fixes keep the overlap; their wall time also carries the tiny
        // kernels' own launches, which small chunks make visible.
        const double overlapNb = nonBlocking->analysis.metrics.overlapPercent;
        const double overlapPt = perThread->analysis.metrics.overlapPercent;
        v.checks.push_back(check("non-blocking streams keep the overlap (at least 3/4 of it)",
                                 overlapNb >= 0.75 * overlapBase && wallMs(*nonBlocking) < wallMs(*legacy),
                                 percent(overlapNb) + " overlapped, " + ms(wallMs(*nonBlocking)) + ", "
                                     + withinPercent(wallMs(*nonBlocking), base) + " off the run without the kernel"));
        v.checks.push_back(check("the per-thread default stream keeps the overlap (at least 3/4 of it)",
                                 overlapPt >= 0.75 * overlapBase && wallMs(*perThread) < wallMs(*legacy),
                                 percent(overlapPt) + " overlapped, " + ms(wallMs(*perThread)) + ", "
                                     + withinPercent(wallMs(*perThread), base) + " off the run without the kernel"));
        return v;
    };
    return l;
}

Lesson allocationInLoop()
{
    Lesson l;
    l.id = "allocation-in-loop";
    l.title = "Implicit synchronization: allocating inside the loop";
    l.explanation =
        "Some CUDA calls synchronize implicitly. cudaFree waits for the device to finish, and the Programming Guide "
        "lists device and page-locked allocations among the operations that keep work of different streams from "
        "overlapping. A loop that allocates each chunk's device buffer, or frees the previous one, therefore "
        "drains the pipeline once per chunk, and pays far more than the allocation's own time. The three runs "
        "allocate once before the loop, cudaMalloc in the loop, and cudaMalloc plus cudaFree in the loop.";
    l.question = {"Each chunk does one cudaMalloc and one cudaFree of its device buffer. What does that cost?",
                  {{"a", "about the calls' own time, a fraction of a millisecond each"},
                   {"b", "much more: each call waits for the streams, so the overlap is lost"}}};
    l.calibrate = true;
    l.plan = [](std::span<const Run> calibration, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        const int repeats = parityRepeats(calibration);
        PipelineConfig once = pinned(kChunks, kChunkBytes, 3, repeats);
        PipelineConfig malloc = once;
        malloc.loopAllocation = LoopAllocation::Malloc;
        PipelineConfig mallocFree = once;
        mallocFree.loopAllocation = LoopAllocation::MallocFree;
        return std::vector<LessonStep>{pipelineStep("once", "buffers allocated before the loop", once),
                                       pipelineStep("malloc", "cudaMalloc in the loop", malloc),
                                       pipelineStep("malloc-free", "cudaMalloc and cudaFree in the loop", mallocFree)};
    };
    l.focus = {{"malloc-free", {OpKind::Free, "host", std::nullopt, -1, -1},
                "each cudaFree waits until the device is idle"},
               {"malloc-free", {OpKind::Alloc, "host", std::nullopt, 0, -1},
                "each cudaMalloc in the loop"}};
    l.takeaway = "Allocating once, the pipeline took {wall_once} with {overlap_once} of the copy time overlapped. "
                 "With cudaMalloc in the loop{line_malloc} it took {wall_malloc} ({overlap_malloc} overlapped); with cudaMalloc "
                 "and cudaFree, {wall_mallocfree} ({overlap_mallocfree} overlapped), of which the calls themselves "
                 "were {calls_mallocfree} including their waits.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* once = m.run("once");
        const LessonRunResult* malloc = m.run("malloc");
        const LessonRunResult* mallocFree = m.run("malloc-free");
        if (!once || !malloc || !mallocFree)
            return v;
        const double base = wallMs(*once);
        const double overlapOnce = once->analysis.metrics.overlapPercent;
        const double overlapMf = mallocFree->analysis.metrics.overlapPercent;
        const std::int64_t calls =
            totalOpNs(mallocFree->run, OpKind::Alloc) + totalOpNs(mallocFree->run, OpKind::Free);
        v.answer = overlapMf < 0.5 * overlapOnce ? "b" : "a";
        v.why = "overlap " + percent(overlapOnce) + " allocating once, " + percent(overlapMf)
                + " with cudaMalloc and cudaFree in the loop";
        v.values = {{"wall_once", ms(base)},
                    {"overlap_once", percent(overlapOnce)},
                    {"wall_malloc", ms(wallMs(*malloc))},
                    {"overlap_malloc", percent(malloc->analysis.metrics.overlapPercent)},
                    {"wall_mallocfree", ms(wallMs(*mallocFree))},
                    {"overlap_mallocfree", percent(overlapMf)},
                    {"calls_mallocfree", ms(calls)}};
        v.checks.push_back(check("cudaMalloc and cudaFree in the loop make the run at least 1.2x slower",
                                 wallMs(*mallocFree) >= 1.2 * base, ratio(base > 0 ? wallMs(*mallocFree) / base : 0)));
        v.checks.push_back(check("cudaMalloc and cudaFree in the loop halve the overlap", overlapMf < 0.5 * overlapOnce,
                                 percent(overlapOnce) + " -> " + percent(overlapMf)));
        v.checks.push_back(check("cudaMalloc alone in the loop makes the run slower", wallMs(*malloc) > 1.05 * base,
                                 ratio(base > 0 ? wallMs(*malloc) / base : 0)));
        return v;
    };
    return l;
}

} // namespace ovs::lessonkit
