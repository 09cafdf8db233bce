// The lessons about host memory and the link: pageable vs pinned, the
// pageable cudaMemcpyAsync that blocks, and both directions at once.
#include "lessons/LessonCatalog.h"
#include "lessons/LessonKit.h"

#include <algorithm>

namespace ovs::lessonkit {

namespace {
constexpr int kStreams = 3;

// Where the host waited before the loop's final waits: the time it took to
// enqueue everything, from the timed region's start to its first wait on a
// result (HostWait ops that are not pageable staging).
std::int64_t issueNs(const Run& run)
{
    std::int64_t first = run.timedEndNs;
    for (const Op& op : run.ops)
        if (op.kind == OpKind::HostWait && op.memory != HostMemoryKind::Pageable && op.startNs >= run.timedBeginNs)
            first = std::min(first, op.startNs);
    return first - run.timedBeginNs;
}
} // namespace

Lesson pageableVsPinned()
{
    Lesson l;
    l.id = "pageable-vs-pinned";
    l.title = "Pageable vs pinned transfers";
    l.explanation =
        "A copy between the host and the GPU is done by a copy engine that reads host memory directly, so the host "
        "pages must stay put while it runs. Pinned (page-locked) memory guarantees that; ordinary pageable memory "
        "does not, so the driver first copies it into a pinned buffer of its own, on the CPU, chunk by chunk. "
        "The bandwidth sweep measures both kinds at several sizes, and the two pipelines move the same chunks "
        "once from pageable memory with cudaMemcpyAsync and once from data already in pinned memory.";
    l.question = {"At the largest size of the sweep, how much faster do copies from pinned memory upload than "
                  "copies from pageable memory?",
                  {{"a", "about the same speed"}, {"b", "faster, but less than 2x"}, {"c", "2x or more"}}};
    l.plan = [](std::span<const Run>, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        std::vector<LessonStep> steps;
        steps.push_back(
            sweepStep("sweep", "bandwidth sweep: pageable and pinned", {kChunkBytes / 8, kChunkBytes, 8 * kChunkBytes}, true));
        PipelineConfig pageable = pinned(kChunks, kChunkBytes, kStreams, 1);
        pageable.kind = PipelineKind::PageableAsync;
        steps.push_back(pipelineStep("pageable", "pageable memory, cudaMemcpyAsync, 3 streams", pageable));
        steps.push_back(pipelineStep("pinned", "data already pinned, 3 streams", pinned(kChunks, kChunkBytes, kStreams, 1)));
        return steps;
    };
    l.focus = {
        {"pageable", {OpKind::HostWait, "host", HostMemoryKind::Pageable, -1, -1},
         "the host thread stages every pageable copy through the driver's pinned buffer"},
        {"pinned", {OpKind::Upload, "stream", std::nullopt, -1, -1},
         "uploads straight from pinned memory, at the link's rate"},
    };
    l.takeaway = "At {size}, pinned memory uploaded at {pinned_h2d} and pageable memory at {pageable_h2d} ({ratio} "
                 "faster); downloads ran at {pinned_d2h} vs {pageable_d2h}. The same {total} took {wall_pinned} from "
                 "pinned memory and {wall_pageable} from pageable memory.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const BandwidthSweep* sweep = m.sweep("sweep");
        const LessonRunResult* pageable = m.run("pageable");
        const LessonRunResult* pinnedRun = m.run("pinned");
        if (!sweep || !pageable || !pinnedRun)
            return v;
        const std::uint64_t size = largestSize(*sweep);
        const double pinH2D = sweepRate(*sweep, size, HostMemoryKind::Pinned, "HtoD");
        const double pagH2D = sweepRate(*sweep, size, HostMemoryKind::Pageable, "HtoD");
        const double pinD2H = sweepRate(*sweep, size, HostMemoryKind::Pinned, "DtoH");
        const double pagD2H = sweepRate(*sweep, size, HostMemoryKind::Pageable, "DtoH");
        const double r = pagH2D > 0 ? pinH2D / pagH2D : 0;
        v.answer = r < 1.2 ? "a" : r < 2.0 ? "b" : "c";
        v.why = "pinned uploads ran at " + gbps(pinH2D) + ", pageable at " + gbps(pagH2D) + " (" + ratio(r) + ")";
        v.values = {{"size", mib(size)},
                    {"pinned_h2d", gbps(pinH2D)},
                    {"pageable_h2d", gbps(pagH2D)},
                    {"pinned_d2h", gbps(pinD2H)},
                    {"pageable_d2h", gbps(pagD2H)},
                    {"ratio", ratio(r)},
                    {"total", mib(pinnedRun->run.params.chunkBytes * static_cast<std::uint64_t>(pinnedRun->run.params.chunks))},
                    {"wall_pinned", ms(wallMs(*pinnedRun))},
                    {"wall_pageable", ms(wallMs(*pageable))}};
        v.checks.push_back(check("pinned uploads are faster than pageable ones at " + mib(size), pinH2D > pagH2D,
                                 gbps(pinH2D) + " vs " + gbps(pagH2D)));
        v.checks.push_back(check("pinned downloads are faster than pageable ones at " + mib(size), pinD2H > pagD2H,
                                 gbps(pinD2H) + " vs " + gbps(pagD2H)));
        v.checks.push_back(check("the pipeline from pinned memory is faster", wallMs(*pinnedRun) < wallMs(*pageable),
                                 ms(wallMs(*pinnedRun)) + " vs " + ms(wallMs(*pageable))));
        return v;
    };
    return l;
}

Lesson pageableAsyncBlocks()
{
    Lesson l;
    l.id = "pageable-async-blocks";
    l.title = "cudaMemcpyAsync from pageable memory does not return early";
    l.explanation =
        "cudaMemcpyAsync is meant to return at once and let the host work while the copy runs. From pageable "
        "memory it cannot: the driver must first copy the data into pinned memory, and it does that with the "
        "calling thread, so the call returns only when the data is on its way. Both runs enqueue the same chunks "
        "on 3 streams without ever waiting in the loop; only the host memory differs. Watch the host lane: "
        "where is the host thread while the copies run?";
    l.question = {"The loop only enqueues work (cudaMemcpyAsync, kernel, cudaMemcpyAsync) and waits at the end. "
                  "With pageable memory, where does the host spend the run?",
                  {{"a", "enqueuing quickly, then waiting at the end, as with pinned memory"},
                   {"b", "blocked inside cudaMemcpyAsync for most of the run"}}};
    l.plan = [](std::span<const Run>, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        PipelineConfig pageable = pinned(kChunks, kChunkBytes, kStreams, 1);
        pageable.kind = PipelineKind::PageableAsync;
        return std::vector<LessonStep>{
            pipelineStep("pageable", "pageable memory, cudaMemcpyAsync, 3 streams", pageable),
            pipelineStep("pinned", "data already pinned, cudaMemcpyAsync, 3 streams", pinned(kChunks, kChunkBytes, kStreams, 1))};
    };
    l.focus = {
        {"pageable", {OpKind::HostWait, "host", HostMemoryKind::Pageable, -1, -1},
         "each cudaMemcpyAsync holds the host until the driver has staged the chunk"},
        {"pinned", {OpKind::HostWait, "host", HostMemoryKind::None, -1, -1},
         "with pinned memory the host enqueued everything at once and only waits here, at the end"},
    };
    l.takeaway = "From pageable memory the host spent {blocked_pageable} ({share_pageable} of the run's "
                 "{wall_pageable}) inside cudaMemcpyAsync{line_pageable}. From pinned memory it spent {blocked_pinned} there and "
                 "had enqueued all the work after {issue_pinned}, free for other work until the end at {wall_pinned}.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const LessonRunResult* pageable = m.run("pageable");
        const LessonRunResult* pinnedRun = m.run("pinned");
        if (!pageable || !pinnedRun)
            return v;
        const std::int64_t blockedPag = totalOpNs(pageable->run, OpKind::HostWait, HostMemoryKind::Pageable);
        const std::int64_t blockedPin = totalOpNs(pinnedRun->run, OpKind::HostWait, HostMemoryKind::Pageable);
        const double share = pageable->run.wallNs() > 0
                                 ? 100.0 * static_cast<double>(blockedPag) / static_cast<double>(pageable->run.wallNs())
                                 : 0;
        const std::int64_t issuePin = issueNs(pinnedRun->run);
        v.answer = share > 50 ? "b" : "a";
        v.why = "the host was blocked in the copy calls " + percent(share) + " of the pageable run";
        v.values = {{"blocked_pageable", ms(blockedPag)},
                    {"share_pageable", percent(share)},
                    {"wall_pageable", ms(wallMs(*pageable))},
                    {"blocked_pinned", ms(blockedPin)},
                    {"issue_pinned", ms(issuePin)},
                    {"wall_pinned", ms(wallMs(*pinnedRun))}};
        v.checks.push_back(check("with pageable memory the host is blocked in cudaMemcpyAsync for most of the run",
                                 share > 50, percent(share) + " of " + ms(wallMs(*pageable))));
        v.checks.push_back(check("with pinned memory cudaMemcpyAsync never blocks the host", blockedPin == 0,
                                 ms(blockedPin) + " blocked"));
        v.checks.push_back(check("with pinned memory the host enqueues everything in under half of the run",
                                 issuePin * 2 < pinnedRun->run.wallNs(),
                                 ms(issuePin) + " of " + ms(wallMs(*pinnedRun))));
        return v;
    };
    return l;
}

Lesson bothDirections()
{
    Lesson l;
    l.id = "both-directions";
    l.title = "Both directions at once share the link";
    l.explanation =
        "A GPU with two copy engines can upload and download at the same time, and PCIe carries both directions on "
        "separate lanes. That does not make the two rates add up: both transfers go through the same host memory, "
        "root complex and DMA machinery. The sweep measures pinned uploads alone, downloads alone, and an upload and "
        "a download issued together; the pipeline shows uploads and downloads of different chunks overlapping.";
    l.question = {"An upload and a download of the same size run at once. What do they reach together?",
                  {{"a", "the sum of the two one-way rates"},
                   {"b", "more than one direction alone, but less than the sum"},
                   {"c", "no more than one direction alone"}}};
    l.plan = [](std::span<const Run>, const LessonOptions& o) {
        const std::uint64_t kChunkBytes = o.chunkBytes;
        return std::vector<LessonStep>{
            sweepStep("sweep", "pinned bandwidth: each direction alone and both at once", {8 * kChunkBytes}, false),
            pipelineStep("pipeline", "data already pinned, 3 streams", pinned(kChunks, kChunkBytes, kStreams, 1))};
    };
    l.focus = {{"pipeline", {OpKind::Download, "stream", std::nullopt, 0, kChunks - 2},
                "downloads of earlier chunks run while later chunks upload"}};
    l.takeaway = "At {size}, uploads alone reached {h2d} and downloads alone {d2h}: {sum} together on paper. Issued "
                 "at once they reached {bidir}, {share} of the sum. In the pipeline, uploads and downloads ran at the "
                 "same time for {both_pct} of the copy time.";
    l.judge = [](const LessonMeasurements& m) {
        LessonVerdict v;
        const BandwidthSweep* sweep = m.sweep("sweep");
        const LessonRunResult* pipeline = m.run("pipeline");
        if (!sweep || !pipeline)
            return v;
        const std::uint64_t size = largestSize(*sweep);
        const double h2d = sweepRate(*sweep, size, HostMemoryKind::Pinned, "HtoD");
        const double d2h = sweepRate(*sweep, size, HostMemoryKind::Pinned, "DtoH");
        const double bidir = sweepRate(*sweep, size, HostMemoryKind::Pinned, "bidir");
        const double sum = h2d + d2h;
        const double share = sum > 0 ? 100.0 * bidir / sum : 0;
        v.answer = bidir > 0.97 * sum ? "a" : bidir < 1.1 * std::max(h2d, d2h) ? "c" : "b";
        v.why = "both at once " + gbps(bidir) + " vs " + gbps(sum) + " summed";
        v.values = {{"size", mib(size)},
                    {"h2d", gbps(h2d)},
                    {"d2h", gbps(d2h)},
                    {"sum", gbps(sum)},
                    {"bidir", gbps(bidir)},
                    {"share", percent(share)},
                    {"both_pct", percent(pipeline->analysis.metrics.h2dWithD2hPercent)}};
        v.checks.push_back(check("both directions at once reach less than the sum of the one-way rates",
                                 bidir < 0.97 * sum, gbps(bidir) + " vs " + gbps(sum)));
        v.checks.push_back(check("both directions at once beat either one alone", bidir > 1.1 * std::max(h2d, d2h),
                                 gbps(bidir) + " vs " + gbps(std::max(h2d, d2h))));
        return v;
    };
    return l;
}

} // namespace ovs::lessonkit
