// The pipeline case of the verdict (Verdict.h) in words: which resource
// sets the pace of one of our pipelines, from its metrics and the pipeline
// model's terms (PipelineModel.cpp), the numbers that say so and the fix.

#include "findings/Verdict.h"

#include "base/Thresholds.h"

#include "base/DurationText.h"
#include "base/NumberText.h"
#include "judgement/OverlapWords.h"

#include "base/Saturating.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ovs {

namespace {

// The thresholds are in base/Thresholds.h, with every other one.
using namespace thresholds;

std::string percent(double share)
{
    return formatted("%.0f%%", 100.0 * share);
}

std::string rate(double gbps)
{
    return formatted(gbps >= 10 ? "%.1f GB/s" : "%.2f GB/s", gbps);
}

double share(std::int64_t ns, std::int64_t wallNs)
{
    return wallNs > 0 ? static_cast<double>(ns) / static_cast<double>(wallNs) : 0.0;
}

std::string withMemory(HostMemoryKind memory, const char* what)
{
    if (memory == HostMemoryKind::None)
        return what;
    return std::string(toString(memory)) + " " + what;
}

// "within 8% of the transfer bound", "1.35x the host staging bound".
std::string distancePhrase(const Verdict& v)
{
    if (v.distance <= 0)
        return {};
    const std::string name = std::string(toString(v.binding())) + " bound";
    // A run cannot beat its bound; one that reads below it beat the rates it
    // was judged by (a sweep median the run's copies bettered by a little),
    // so it is at the bound, not faster than possible.
    if (v.distance < kAtBound)
        return "at the " + name;
    // Beyond this the figure says nothing a reader can use, and from a trace
    // with inconsistent parameters it can reach absurd sizes.
    if (v.distance > kFarFromBound)
        return formatted("over %.0fx the ", kFarFromBound) + name;
    if (v.distance > 1.0 && v.distance <= kNearBoundWords)
        return "within " + formatted("%.0f%%", std::max(1.0, std::round(100.0 * (v.distance - 1.0)))) + " of the "
               + name;
    return formatted("%.2fx", v.distance) + " the " + name;
}

std::vector<Cause> rankCauses(const Run& run, const RunMetrics& m)
{
    const KindThroughput& up = m.kind(OpKind::Upload);
    const KindThroughput& down = m.kind(OpKind::Download);
    const KindThroughput& in = m.kind(OpKind::StageIn);
    const KindThroughput& out = m.kind(OpKind::StageOut);
    const std::int64_t stagingNs = saturatingAdd(in.ns, out.ns);
    const double stagingGBps = stagingNs > 0 ? (static_cast<double>(in.bytes) + static_cast<double>(out.bytes))
                                                   / static_cast<double>(stagingNs)
                                             : 0.0;
    std::vector<Cause> causes = {
        {CauseKind::Uploads, withMemory(up.memory, "uploads"), up.unionNs, 0, up.gbps()},
        {CauseKind::Downloads, withMemory(down.memory, "downloads"), down.unionNs, 0, down.gbps()},
        {CauseKind::Kernels, "kernels", m.kind(OpKind::Kernel).unionNs, 0, 0},
        {CauseKind::HostStaging, run.pipeline == "serialized" ? "host copies" : "host staging memcpy", m.staging.busyNs,
         0, stagingGBps},
        {CauseKind::Allocation, "allocation and free",
         saturatingAdd(m.kind(OpKind::Alloc).unionNs, m.kind(OpKind::Free).unionNs), 0, 0},
        {CauseKind::Registration, "host memory registration", m.kind(OpKind::Register).unionNs, 0,
         m.kind(OpKind::Register).gbps()},
    };
    std::erase_if(causes, [](const Cause& c) { return c.ns <= 0; });
    for (Cause& c : causes)
        c.share = share(c.ns, m.wallNs);
    std::stable_sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) { return a.ns > b.ns; });
    return causes;
}

std::string serializedSentence(const RunMetrics& m, const Verdict& v, const TransferRates& rates,
                               const std::vector<Cause>& causes)
{
    std::string s = m.staging.busyNs > 0 ? "copies, kernels and host copies never overlap"
                                         : "copies and kernels never overlap";
    if (!causes.empty()) {
        const Cause& top = causes.front();
        s += "; " + percent(top.share) + " of wall time in " + top.what;
        if (top.gbps > 0)
            s += " at " + rate(top.gbps);
        // A pageable download far slower than into warm memory is paying
        // for the OS to map and zero the fresh pages it writes.
        const KindThroughput& down = m.kind(OpKind::Download);
        if (down.memory == HostMemoryKind::Pageable && top.kind == CauseKind::Downloads
            && rates.pageableD2HGBps > 0
            && down.gbps() < kColdPageShare * rates.pageableD2HGBps)
            s += " (" + rate(rates.pageableD2HGBps) + " into warm memory: the copy faults in fresh pages)";
    }
    if (const std::string distance = distancePhrase(v); !distance.empty())
        s += "; " + distance;
    const bool pageable = m.kind(OpKind::Upload).memory == HostMemoryKind::Pageable
                          || m.kind(OpKind::Download).memory == HostMemoryKind::Pageable;
    if (pageable)
        s += "; pinned memory on several streams would let them overlap";
    else if (m.streams <= 1)
        s += "; several streams would let them overlap";
    else
        s += "; the host waits for each chunk before it starts the next: enqueue ahead on more slots";
    return s;
}

std::string stagingSentence(const RunMetrics& m, const Verdict& v, const PipelineModel& model, const TransferRates& rates,
                            double busyShare)
{
    const KindThroughput& in = m.kind(OpKind::StageIn);
    const KindThroughput& out = m.kind(OpKind::StageOut);
    const std::int64_t threadNs = saturatingAdd(in.ns, out.ns);
    const double perThread = threadNs > 0 ? (static_cast<double>(in.bytes) + static_cast<double>(out.bytes))
                                                / static_cast<double>(threadNs)
                                          : rates.hostMemcpyGBps;
    // 64 bits: a loaded trace may claim any int of threads, and we add to it.
    const std::int64_t threads = std::max(1, model.stagingThreads);
    std::string s = threads == 1 ? percent(busyShare) + " of wall time in single-thread memcpy at " + rate(perThread)
                                 : std::to_string(threads) + " staging threads busy " + percent(busyShare)
                                       + " of wall time on average, at " + rate(perThread) + " each";
    if (const std::string distance = distancePhrase(v); !distance.empty())
        s += "; " + distance;
    // Threads enough to bring staging down to the GPU's own bound, else the
    // count that copies fastest, among powers of two (the counts the host
    // memcpy sweep measures).
    const std::int64_t gpuNs = std::max(model.transferNs, model.computeNs);
    const double stagedBytes = static_cast<double>(model.stagingNs) * model.stagingGBps;
    int suggest = 0;
    double best = rates.hostCopyGBps(threads);
    for (int t = 2; t <= kMaxSuggestedThreads && stagedBytes > 0; t *= 2) {
        const double gbps = rates.hostCopyGBps(t);
        if (t <= threads || gbps <= best)
            continue;
        suggest = t;
        best = gbps;
        if (stagedBytes / gbps <= static_cast<double>(gpuNs))
            break;
    }
    if (stagedBytes <= 0)
        s += "; more staging threads or registered memory (no staging copies); record with the bandwidth sweep "
             "to measure how far threads go";
    else if (suggest == 0)
        s += "; registered memory (no staging copies) is the way past it";
    else
        s += "; try " + std::to_string(suggest) + " staging threads or registered memory (no staging copies)";
    return s;
}

std::string transferSentence(const RunMetrics& m, const Verdict& v)
{
    const KindThroughput& up = m.kind(OpKind::Upload);
    const KindThroughput& down = m.kind(OpKind::Download);
    std::string s = "copy engines busy " + percent(m.copies.utilisation);
    std::string rates;
    if (up.count > 0)
        rates += withMemory(up.memory, "uploads") + " " + rate(up.gbps());
    if (down.count > 0)
        rates += (rates.empty() ? "" : ", ") + withMemory(down.memory, "downloads") + " " + rate(down.gbps());
    if (!rates.empty())
        s += " (" + rates + ")";
    if (const std::string distance = distancePhrase(v); !distance.empty())
        s += "; " + distance;
    const bool pageable = up.memory == HostMemoryKind::Pageable || down.memory == HostMemoryKind::Pageable;
    const bool bothWays = up.count > 0 && down.count > 0;
    if (pageable)
        s += "; pinned or registered memory copies several times faster";
    else if (bothWays && m.streams >= 2 && m.h2dWithD2hPercent < 100 * kBothWaysShare)
        s += "; uploads run alongside downloads only " + formatted("%.0f%%", m.h2dWithD2hPercent)
             + " of copy time: more slots let the two directions overlap";
    else
        s += "; the link is the limit: only moving fewer bytes goes faster";
    return s;
}

std::string computeSentence(const RunMetrics& m, const Verdict& v)
{
    std::string s = "kernels busy " + percent(m.compute.utilisation) + " of the run";
    if (m.copies.busyNs > 0)
        s += m.overlapPercent >= 100 * kCopiesHiddenShare ? "; copies hide under them (" + formatted("%.0f%%", m.overlapPercent) + " overlap)"
                                    : "; only " + formatted("%.0f%%", m.overlapPercent) + " of copy time overlaps them";
    if (const std::string distance = distancePhrase(v); !distance.empty())
        s += "; " + distance;
    s += m.overlapPercent >= 100 * kCopiesHiddenShare || m.copies.busyNs == 0 ? "; only faster kernels help"
                                                        : "; more slots would hide the copies under the kernels";
    return s;
}

std::string latencySentence(const Run& run, const RunMetrics& m, const PipelineModel& model, const char* busiest,
                            double busiestShare)
{
    std::string s = "nothing is busy most of the run (the busiest, " + std::string(busiest) + ", "
                    + percent(busiestShare) + ")";
    // Fill and drain: the part of the transfer bound that is not the steady
    // state. Large when there are few chunks per stream.
    const std::int64_t steady = saturatingMul<std::int64_t>(model.chunks,
                                                            std::max(model.uploadChunkNs, model.downloadChunkNs));
    const double fillDrain =
        model.transferNs > 0 ? share(saturatingSub(model.transferNs, steady), model.transferNs) : 0.0;
    const int depth = std::max({1, m.streams, run.params.slotCount});
    if (model.chunks < kMinChunksPerSlot * std::int64_t(depth) || fillDrain > kFillDrainShare)
        s += "; " + std::to_string(model.chunks) + " chunks are too few to fill a " + std::to_string(depth)
             + "-deep pipeline: use more, smaller chunks";
    else
        s += "; fixed per-op costs (launches, waits, API calls) leave the engines idle: use larger chunks";
    return s;
}

std::string queueClause(const RunMetrics& m)
{
    std::vector<std::string> parts;
    for (auto [wait, what] : {std::pair{&m.h2dQueue, "uploads"}, std::pair{&m.d2hQueue, "downloads"}}) {
        if (share(wait->ns, m.wallNs) >= kQueueWorthSaying)
            parts.push_back(std::to_string(wait->streams) + (wait->streams == 1 ? " stream's " : " streams' ") + what
                            + " waited " + durationText(wait->ns));
    }
    if (parts.empty())
        return {};
    std::string s = "; queueing: " + parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i)
        s += " and " + parts[i];
    return s + (parts.size() == 1 ? " on one copy engine" : " on their copy engines")
           + " (event times count the wait as copy time)";
}


// The Bound finding's fix for each kind: short, since the words carry the
// run's own.
const char* shortFix(VerdictKind kind)
{
    switch (kind) {
    case VerdictKind::Serialized: return "pinned memory and several streams let copies and kernels overlap";
    case VerdictKind::HostStagingBound: return "more staging threads, or registered memory (no staging copies)";
    case VerdictKind::TransferBound: return "the link is the limit: pinned memory, both directions at once, fewer bytes";
    case VerdictKind::ComputeBound: return "faster kernels; keep copies hidden under them";
    case VerdictKind::LatencyBound: return "fewer, larger chunks or a deeper pipeline, as the diagnosis says";
    case VerdictKind::SetupBound: return "allocate and register buffers once, outside the timed loop";
    default: return "record a completed run to judge it";
    }
}

// The kind and the words without the fix the Bound finding adds.
std::string kindAndWords(Verdict& v, const Run& run, const RunMetrics& metrics, const TransferRates& rates)
{
    v.causes = rankCauses(run, metrics);
    if (metrics.wallNs <= 0 || metrics.gpuOps == 0) {
        v.kind = VerdictKind::NoWork;
        return "no work: the timed region holds no GPU copies or kernels";
    }
    // Past this point the run has GPU work, so the model has its terms.
    static const PipelineModel kNoModel;
    const PipelineModel& model = v.pipeline ? *v.pipeline : kNoModel;
    const std::int64_t overlapNs =
        saturatingAdd(saturatingAdd(metrics.copyWithKernelNs, metrics.h2dWithD2hNs), metrics.stagingWithGpuNs);
    const Cause* top = v.causes.empty() ? nullptr : &v.causes.front();
    const bool setup = top && (top->kind == CauseKind::Allocation || top->kind == CauseKind::Registration);
    std::string body;
    if (setup && top->share >= kBusyEnough) {
        // One-time costs inside the timed region hide what the pipeline does.
        v.kind = VerdictKind::SetupBound;
        body = percent(top->share) + " of wall time in " + top->what + (top->gbps > 0 ? " at " + rate(top->gbps) : "");
        if (const std::string distance = distancePhrase(v); !distance.empty())
            body += "; " + distance + " (which leaves setup out)";
        body += top->kind == CauseKind::Allocation ? "; allocate the buffers once and reuse them"
                                                   : "; register the buffers once and reuse them across runs";
    } else if (share(overlapNs, metrics.wallNs) < kNoOverlapShare) {
        v.kind = VerdictKind::Serialized;
        body = serializedSentence(metrics, v, rates, v.causes);
    } else {
        // Which resource was busiest, as a share of the wall time: N staging
        // threads count by their average, so 4 threads each busy half the
        // time are not a bottleneck.
        const int threads = std::max(1, model.stagingThreads);
        const double staging = static_cast<double>(metrics.stagingThreadNs)
                               / (static_cast<double>(metrics.wallNs) * static_cast<double>(threads));
        const double copies = metrics.copies.utilisation;
        const double compute = metrics.compute.utilisation;
        if (copies >= staging && copies >= compute) {
            v.kind = VerdictKind::TransferBound;
        } else if (staging >= compute) {
            v.kind = VerdictKind::HostStagingBound;
        } else {
            v.kind = VerdictKind::ComputeBound;
        }
        const double busiest = std::max({staging, copies, compute});
        if (busiest < kBusyEnough) {
            const char* name = v.kind == VerdictKind::TransferBound      ? "copy engines"
                               : v.kind == VerdictKind::HostStagingBound ? "host staging"
                                                                         : "kernels";
            v.kind = VerdictKind::LatencyBound;
            body = latencySentence(run, metrics, model, name, busiest);
        } else if (v.kind == VerdictKind::TransferBound) {
            body = transferSentence(metrics, v);
        } else if (v.kind == VerdictKind::HostStagingBound) {
            body = stagingSentence(metrics, v, model, rates, staging);
        } else {
            body = computeSentence(metrics, v);
        }
    }
    // "0% overlap" on a pipeline built to overlap reads as a failure; where
    // one side is too short to hide anything, say so.
    if (overlapTooShortToMatter(metrics))
        body += "; " + overlapInWords(metrics);
    return std::string(toString(v.kind)) + ": " + body + queueClause(metrics);
}

} // namespace

void judgePipeline(Verdict& v, const Run& run, const RunMetrics& metrics, const TransferRates& rates)
{
    // The words carry their own fix; the Bound finding says them as they are.
    v.words = kindAndWords(v, run, metrics, rates);
    v.cause = v.words;
    v.fix = shortFix(v.kind);
}

} // namespace ovs
