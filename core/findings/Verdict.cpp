// The verdict (Verdict.h): judgeRun, the one function that decides what
// bounds a run, with what cannot be judged, the general model, and the time,
// distance and cost both cases share. The pipeline case is in
// PipelineModel.cpp (its terms) and PipelineVerdict.cpp (its words).

#include "findings/Verdict.h"

#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "findings/FindingContext.h"
#include "judgement/JudgedSpan.h"
#include "replay/RunGraph.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ovs {

using namespace thresholds;
using findings::Context;
using findings::percentText;
using findings::plural;

namespace {

// ---- What cannot be judged, in either case.

std::string partialWords(const Run& run, std::size_t opCount, VerdictKind kind)
{
    const std::string ops = std::to_string(opCount) + (opCount == 1 ? " op" : " ops");
    const bool cancelled = kind == VerdictKind::Cancelled;
    return std::string(toString(kind)) + ": "
           + (run.error.empty() ? std::string(cancelled ? "stopped before the end" : "no reason given") : run.error)
           + "; the " + ops + " recorded before it stopped are shown, but a partial run has no bound";
}

// ---- The general model: any run we did not build.

// The first of `pieces` (in order, apart) that ends after `t`.
std::vector<Interval>::const_iterator firstEndingAfter(const std::vector<Interval>& pieces, std::int64_t t)
{
    return std::upper_bound(pieces.begin(), pieces.end(), t, [](std::int64_t v, const Interval& p) { return v < p.endNs; });
}

// Where a host-bound run's idle GPU time went: the CUDA calls the host was
// in while the GPU idled, by name, largest first ("cudaHostAlloc (2 calls,
// 412.30 ms)"); those under a tenth of the idle time are left out.
std::string idleCalls(const Context& c, std::int64_t idleNs)
{
    struct Use {
        std::size_t calls = 0;
        std::int64_t ns = 0;
    };
    // Summed by name id (a big trace has millions of host ops and a few
    // hundred names), then by name.
    std::vector<Use> byId(c.run.names.size());
    // The host ops come in time order (FindingContext::hostOps), so the
    // first idle piece that ends after each one's start only moves on: a
    // cursor, not a search per op (85 ms of the 2 GB trace's `analyze`, on
    // one core after the replays). An op that starts earlier than the one
    // before is searched for anew.
    const auto& pieces = c.gpuIdle.pieces();
    auto from = pieces.begin();
    std::int64_t lastStart = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t i : c.hostOps) {
        const Op& op = c.run.ops[i];
        if (op.nameId >= byId.size())
            continue;
        if (op.startNs < lastStart)
            from = firstEndingAfter(pieces, op.startNs);
        lastStart = op.startNs;
        while (from != pieces.end() && from->endNs <= op.startNs)
            ++from;
        std::int64_t idle = 0;
        for (auto it = from; it != pieces.end() && it->beginNs < op.endNs; ++it)
            idle = saturatingAdd(idle, std::min(it->endNs, op.endNs) - std::max(it->beginNs, op.startNs));
        Use& u = byId[op.nameId];
        ++u.calls;
        u.ns = saturatingAdd(u.ns, idle);
    }
    std::map<std::string, Use> byName;
    for (std::size_t id = 0; id < byId.size(); ++id) {
        if (byId[id].calls == 0 || c.run.names[id].empty())
            continue;
        Use& u = byName[c.run.names[id]];
        u.calls += byId[id].calls;
        u.ns = saturatingAdd(u.ns, byId[id].ns);
    }
    std::vector<std::pair<std::string, Use>> top(byName.begin(), byName.end());
    std::erase_if(top, [&](const auto& e) { return static_cast<double>(e.second.ns) < kIdleCallShare * static_cast<double>(idleNs); });
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    std::string text;
    for (std::size_t i = 0; i < top.size() && i < 3; ++i)
        text += (text.empty() ? "" : ", ") + top[i].first + " (" + plural(top[i].second.calls, "call", "calls") + ", "
                + msText(top[i].second.ns) + ")";
    return text;
}

// The host's own work between CUDA calls inside the GPU's active span, on
// the busiest host thread: what binds a loop whose waits cost nothing.
std::int64_t hostWorkNs(const RunGraph& g)
{
    std::map<int, std::int64_t> perThread;
    for (const GraphEdge& e : g.edges)
        if (e.kind == EdgeKind::HostOrder && g.nodes[e.to].measuredBeginNs > g.measuredSpanBeginNs
            && g.nodes[e.to].measuredBeginNs <= g.measuredSpanEndNs)
            perThread[g.state[e.to].lane] = saturatingAdd(perThread[g.state[e.to].lane], e.lagNs);
    std::int64_t most = 0;
    for (const auto& [thread, ns] : perThread)
        most = std::max(most, ns);
    return most;
}

// The busiest engine (its time is the verdict's bound), or the host when the
// GPU idles most of the judged span.
void judgeGeneral(Verdict& v, const Context& c, const HostWaitsReplayed& replayed)
{
    // The busiest device's copy engine and its kernels with memsets; the
    // larger is the bound.
    std::int64_t transfer = 0, compute = 0;
    for (const auto& w : c.devices) {
        transfer = std::max(transfer, w.activity.copyEngineNs());
        compute = std::max(compute, w.activity.computeEngineNs());
    }
    if (v.boundNs <= 0) {
        v.kind = VerdictKind::NoWork;
        v.cause = std::string("no GPU work in ") + c.spanWords() + ": nothing to bound";
        v.fix = "profile a part of the program that runs CUDA work";
    } else {
        const std::int64_t idle = c.gpuIdle.length();
        const bool host = static_cast<double>(idle) >= kHostBoundIdleShare * static_cast<double>(c.wallNs);
        v.kind = host ? VerdictKind::HostBound : transfer >= compute ? VerdictKind::TransferBound : VerdictKind::ComputeBound;
        v.cause = std::string(toString(v.kind)) + ": the GPU idles " + percentText(idle, c.wallNs) + " of "
                  + c.spanWords() + " (" + msText(c.wallNs) + "); copies' busiest engine " + msText(transfer)
                  + ", kernels " + msText(compute) + "; " + formatted("%.2fx", v.distance)
                  + " the GPU's own bound (its busiest engine, " + msText(v.boundNs) + ")";
        if (host)
            if (const std::string calls = idleCalls(c, idle); !calls.empty())
                v.cause += "; the GPU idled most while the host was in " + calls;
        v.fix = host ? "the GPU waits on the host: move one-time setup (allocation, pinned memory, data loading) out "
                       "of the loop, queue work ahead instead of synchronizing, and see the other findings"
                : v.kind == VerdictKind::TransferBound
                    ? "the copies set the pace: pinned memory, both directions in flight on separate streams, and "
                      "fewer bytes moved"
                    : "the kernels set the pace: hide copies under them (other findings say why they do not) and "
                      "make the kernels faster";
    }
    if (replayed.savingNs >= 0 && replayed.graph)
        v.cause += "; the host's own work between calls (" + msText(hostWorkNs(*replayed.graph))
                   + ") binds: removing the synchronization would save " + msText(replayed.savingNs) + " (replay)";
    v.words = (v.kind == VerdictKind::NoWork ? "no work: " : "") + v.cause + "; " + v.fix;
}

} // namespace

const char* toString(VerdictKind kind)
{
    switch (kind) {
    case VerdictKind::Cancelled: return "cancelled";
    case VerdictKind::Failed: return "failed";
    case VerdictKind::NoWork: return "no work";
    case VerdictKind::Serialized: return "serialized";
    case VerdictKind::HostStagingBound: return "host staging bound";
    case VerdictKind::TransferBound: return "transfer bound";
    case VerdictKind::ComputeBound: return "compute bound";
    case VerdictKind::LatencyBound: return "latency bound";
    case VerdictKind::SetupBound: return "setup bound";
    case VerdictKind::HostBound: return "host bound";
    }
    return "?";
}

Verdict judgeRun(const Context& c, const HostWaitsReplayed& replayed)
{
    const Run& run = c.run;
    Verdict v;
    for (const auto& w : c.devices)
        v.engineBoundNs = std::max(v.engineBoundNs, w.activity.busiestEngineNs());
    // A partial run's ops say nothing about how fast the whole would go.
    if (run.status != RunStatus::Completed) {
        v.kind = run.status == RunStatus::Cancelled ? VerdictKind::Cancelled : VerdictKind::Failed;
        v.words = v.cause = partialWords(run, c.index.opCount(), v.kind);
        v.fix = "record a completed run to judge it";
        return v;
    }
    const bool wallOnly = run.timing == kWallOnlyTiming;
    // The two cases: the pipeline model fits only our pipelines (chunks,
    // slots); any other run is bounded by its busiest engine.
    const bool pipeline = isPipelineRun(run);
    if (pipeline)
        modelPipeline(v, run, c.metrics, c.rates);
    else if (!wallOnly && c.wallNs > 0)
        v.boundNs = v.engineBoundNs;
    if (v.boundNs > 0 && c.wallNs > 0) {
        v.distance = static_cast<double>(c.wallNs) / static_cast<double>(v.boundNs);
        v.costNs = findings::capped(saturatingSub(c.wallNs, v.boundNs), c.wallNs);
    }
    if (wallOnly) {
        v.kind = VerdictKind::NoWork;
        v.words = v.cause = "no work: recorded without per-op timing (--no-op-timing), so only the wall time is known";
        v.fix = "record a completed run to judge it";
    } else if (pipeline || c.wallNs <= 0) {
        // (An empty span: the pipeline case's words say "no work" for any run.)
        judgePipeline(v, run, c.metrics, c.rates);
    } else {
        judgeGeneral(v, c, replayed);
    }
    return v;
}

} // namespace ovs
