#include "findings/WhatIf.h"

#include "base/DurationText.h"
#include "base/FreedMemory.h"
#include "base/NumberText.h"
#include "base/ParallelWork.h"
#include "base/Thresholds.h"
#include "facts/RunIndex.h"
#include "replay/Replay.h"
#include "replay/RunGraphBuilder.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <exception>
#include <future>

namespace ovs {

namespace {

std::string modelWords(const RunGraph& g)
{
    return std::string(g.copyEngines == 1 ? "one copy engine for both directions" : "a copy engine per direction")
           + ", " + (g.kernelSlots == 1 ? "one kernel at a time" : std::to_string(g.kernelSlots) + " kernels at once")
           + ", launch latency " + formatted("%.1f us", static_cast<double>(g.launchLatencyNs) / 1e3)
           + ", dependency latency " + formatted("%.1f us", static_cast<double>(g.dependencyLatencyNs) / 1e3)
           + ", async call " + formatted("%.1f us", static_cast<double>(g.asyncCallNs) / 1e3) + "; " + g.notes;
}

// The kernels that faulted managed memory in, marked on their nodes: what
// Fix::PrefetchManaged takes out and moves ahead of them.
void markFaultedKernels(RunGraph& g, const DemandMigrations& demand)
{
    g.faults.clear();
    if (demand.kernels.empty())
        return;
    std::uint32_t ops = 0;
    for (const FaultedKernel& k : demand.kernels)
        ops = std::max(ops, k.op + 1);
    std::vector<const FaultedKernel*> byOp(ops, nullptr);
    for (const FaultedKernel& k : demand.kernels)
        byOp[k.op] = &k;
    for (std::uint32_t i = 0; i < g.nodes.size(); ++i)
        if (const GraphNode& n = g.nodes[i]; n.gpu && n.op < ops && byOp[n.op]) {
            KernelFault f;
            f.node = i;
            f.stallNs = std::min(byOp[n.op]->stallNs, g.state[i].durationNs);
            f.bytes = byOp[n.op]->bytesIn;
            f.bytesBack = demand.hostReadsBack() ? f.bytes : 0;
            g.faults.push_back(f);
        }
}

// Each step's length in the replay `r` of `g` (StepSavings in WhatIf.h):
// the begin of its first GPU op to the next step's, the last one's to its
// last GPU op's end; nullopt for a step without GPU work. `steps` are sorted
// and do not overlap.
std::vector<std::optional<std::int64_t>> stepLengths(const RunGraph& g, const Replayer& r,
                                                     const std::vector<Interval>& steps)
{
    // One pass over the nodes: this runs for every fix set replayed, on
    // graphs of millions of nodes, and on two threads at once. A lane's GPU
    // ops come in the order they were enqueued, so the step found for the
    // node before is tried first; the last step's end is kept as it goes.
    constexpr std::uint32_t kNone = UINT32_MAX;
    std::vector<std::int64_t> first(steps.size(), INT64_MAX);
    std::uint32_t lastStep = kNone;
    std::int64_t lastEnd = INT64_MIN;
    std::size_t next = 0; // the first step beginning after the last node's enqueue
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& node = g.nodes[n];
        if (!node.gpu || g.state[n].removed)
            continue;
        const std::int64_t at = enqueuedAt(g, node);
        const bool sameAsBefore =
            (next == 0 || steps[next - 1].beginNs <= at) && (next == steps.size() || at < steps[next].beginNs);
        if (!sameAsBefore)
            next = static_cast<std::size_t>(
                std::upper_bound(steps.begin(), steps.end(), at,
                                 [](std::int64_t t, const Interval& s) { return t < s.beginNs; })
                - steps.begin());
        if (next == 0 || at >= steps[next - 1].endNs)
            continue;
        const auto i = static_cast<std::uint32_t>(next - 1);
        first[i] = std::min(first[i], r.timeOf(static_cast<std::uint32_t>(n), false));
        const std::int64_t end = r.timeOf(static_cast<std::uint32_t>(n), true);
        if (lastStep == kNone || i > lastStep) {
            lastStep = i;
            lastEnd = end;
        } else if (i == lastStep) {
            lastEnd = std::max(lastEnd, end);
        }
    }
    std::vector<std::optional<std::int64_t>> lengths(steps.size());
    if (lastStep == kNone)
        return lengths;
    std::uint32_t previous = kNone;
    for (std::uint32_t i = 0; i <= lastStep; ++i) {
        if (first[i] == INT64_MAX)
            continue;
        if (previous != kNone)
            lengths[previous] = first[i] - first[previous];
        previous = i;
    }
    lengths[lastStep] = lastEnd - first[lastStep];
    return lengths;
}

} // namespace

WhatIf::WhatIf(const Run& run, const TransferRates& rates) : WhatIf(run, rates, {run.timedBeginNs, run.timedEndNs}) {}

WhatIf::WhatIf(const Run& run, const TransferRates& rates, Interval span, const NameRoles* roles,
               const std::vector<OpRange>* ops, Unchanged unchanged)
{
    m_rates = {rates.pinnedH2DGBps, rates.pinnedD2HGBps};
    m_contentionRates = {rates.pinnedH2DGBps, rates.pinnedD2HGBps, rates.bidirectionalGBps, rates.hostMemoryGBps,
                          rates.bidirectionalBasis};
    if (run.timing == kWallOnlyTiming) {
        m_summary.why = "the run has no op timing";
        return;
    }
    // Calibrated, and for a big graph the replays' memory made, while the
    // build's cycle check runs on the other core (neither reads the edges).
    GraphBuild build = buildRunGraph(run, span.beginNs, span.endNs, roles, ops, [&](RunGraph& g) {
        calibrateContention(g, run, m_contentionRates);
        if (launchPolicyFor(g.nodes.size()) == std::launch::async) {
            // What the reader and the build freed and the replays' arrays
            // cannot take goes back before they are made (FreedMemory.h).
            releaseFreedMemory();
            // This thread's replay memory, made before the second thread
            // starts on its copy, as when the unchanged replay followed here
            // at once. Left to the unchanged replay, now made beside the fix
            // sets' first replays (Unchanged::WithFixSets), the 2 GB trace's
            // peak measured 30 to 70 MB higher and its system time some
            // 0.5 s more.
            m_replayer.prepare(g.nodes.size(), g.edges.size());
        }
    });
    if (!build.graph) {
        m_summary.why = build.why;
        return;
    }
    m_graph = std::move(build.graph);
    if (launchPolicyFor(m_graph->nodes.size()) == std::launch::async) {
        // The second thread's copy of a big graph, made ahead on it.
        m_ahead = std::async(std::launch::async, [&g = *m_graph] {
            // The arrays alone: this thread may set the graph's faults or
            // steps meanwhile (the model is taken when the point is).
            // The nodes' facts and the kernels' fill are shared, not copied.
            RunGraph arrays;
            arrays.nodes = g.nodes;
            arrays.state = g.state;
            arrays.edges = g.edges;
            arrays.kernelFill = g.kernelFill;
            Replayer replayer;
            replayer.prepare(g.nodes.size(), g.edges.size());
            return Ahead{GraphRestorePoint(g.nodes, g.state, g.edges), std::move(arrays), std::move(replayer)};
        });
    }
    m_summary.measuredSpanNs = m_graph->measuredSpanNs();
    m_summary.assumptions = modelWords(*m_graph);
    m_summary.contention = m_graph->contention;
    m_summary.droppedWaits = m_graph->droppedWaits;
    m_summary.floorNs = floorNs(*m_graph, m_contentionRates, &m_summary.floorBinds);
    m_unchangedPending = true;
    if (unchanged == Unchanged::InConstructor)
        replayUnchanged();
}

void WhatIf::replayUnchanged()
{
    if (!m_unchangedPending)
        return;
    m_unchangedPending = false;
    const ReplayResult& unchanged = m_replayer.replay(*m_graph, /*nodeTimes=*/false);
    m_replayerHoldsUnchanged = unchanged.ok;
    if (!unchanged.ok) {
        m_summary.why = unchanged.why;
        return;
    }
    m_summary.replaySpanNs = unchanged.spanNs();
    m_summary.allFixesSpanNs = m_summary.replaySpanNs;
    const double measured = static_cast<double>(m_summary.measuredSpanNs);
    const double off = measured > 0 ? std::abs(static_cast<double>(m_summary.replaySpanNs) - measured) / measured : 1.0;
    if (off > thresholds::kReplayTolerance) {
        m_summary.why = "the replay of the unchanged run took " + msText(m_summary.replaySpanNs) + " of measured "
                        + msText(m_summary.measuredSpanNs) + formatted(" (off by %.0f%%, over the ", 100 * off)
                        + formatted("%.0f%% it must be within)", 100 * thresholds::kReplayTolerance);
        return;
    }
    m_summary.replayed = true;
    // Steps set while the replay waited: their lengths in it, read now.
    m_unchangedStepNs.clear();
    for (const std::vector<Interval>& steps : m_steps)
        m_unchangedStepNs.push_back(stepLengths(*m_graph, m_replayer, steps));
}

void WhatIf::setDemand(DemandMigrations demand)
{
    m_demand = std::move(demand);
    // Only the prefetch fix reads the faults; its replays, if any, are stale.
    std::erase_if(m_replayed, [](const auto& entry) { return has(entry.first, Fix::PrefetchManaged); });
    if (m_graph)
        markFaultedKernels(*m_graph, m_demand);
}

std::int64_t WhatIf::spanWith(FixSet fixes, FixSet* applied, bool* clamped)
{
    if (clamped)
        *clamped = false;
    replayUnchanged();
    if (!m_summary.replayed)
        return -1;
    if (fixes == 0) {
        if (applied)
            *applied = 0;
        return m_summary.replaySpanNs;
    }
    Replayed& replayed = replayOnce(fixes);
    replayed.asked = true;
    if (applied)
        *applied = replayed.applied;
    if (clamped)
        *clamped = replayed.clamped;
    return replayed.spanNs;
}

WhatIf::Replayed& WhatIf::replayOnce(FixSet fixes)
{
    const auto [at, fresh] = m_replayed.try_emplace(fixes);
    if (fresh) {
        restorePoint();
        at->second = replayChain({fixes}, *m_graph, m_replayer).front().second;
        finish(at->second);
        m_replayerHoldsUnchanged = false;
    }
    return at->second;
}

GraphRestorePoint& WhatIf::restorePoint(RunGraph* otherArrays, Replayer* otherReplayer)
{
    if (m_ahead.valid()) {
        Ahead ahead = m_ahead.get(); // rethrows a failed copy
        m_restore.emplace(std::move(ahead.point));
        if (otherArrays)
            *otherArrays = std::move(ahead.arrays);
        if (otherReplayer)
            *otherReplayer = std::move(ahead.replayer);
    }
    if (!m_restore)
        m_restore.emplace(*m_graph);
    m_restore->keepModel(*m_graph);
    return *m_restore;
}

std::vector<WhatIf::Chain> WhatIf::chainsOf(const std::vector<FixSet>& sets)
{
    // Smaller sets first: a set can only extend one made before it.
    std::vector<FixSet> bySize = sets;
    std::stable_sort(bySize.begin(), bySize.end(),
                     [](FixSet a, FixSet b) { return std::popcount(a) < std::popcount(b); });
    std::vector<Chain> chains;
    for (const FixSet s : bySize) {
        Chain* extended = nullptr;
        for (Chain& c : chains) {
            const FixSet last = c.back();
            if ((last & ~s) == 0 && appliesAfter(last, s & ~last)
                && (!extended || std::popcount(last) > std::popcount(extended->back())))
                extended = &c;
        }
        if (extended)
            extended->push_back(s);
        else
            chains.push_back({s});
    }
    // The longest first (each set a replay), then of chains as long the one
    // that applies more fixes (each a pass over the graph): two threads take
    // them in this order, and the last taken is the one left to run alone.
    std::stable_sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) {
        return a.size() != b.size() ? a.size() > b.size() : std::popcount(a.back()) > std::popcount(b.back());
    });
    return chains;
}

std::vector<std::pair<FixSet, WhatIf::Replayed>> WhatIf::replayChain(const Chain& chain, RunGraph& graph,
                                                                     Replayer& replayer,
                                                                     const std::atomic<bool>* stop) const
{
    std::vector<std::pair<FixSet, Replayed>> out;
    // Put back as it was however this returns: a failed allocation in a
    // fix or the replay leaves the graph whole for the next chain. (The
    // restore allocates nothing: the graph's arrays only grew since.)
    struct PutBack {
        const GraphRestorePoint& point;
        RunGraph& graph;
        ~PutBack() { point.restore(graph); }
    } putBack{*m_restore, graph};
    FixSet applied = 0; // the fixes applied so far
    FixSet changed = 0; // those of them that changed something
    for (const FixSet fixes : chain) {
        if (stop && *stop)
            break;
        changed |= applyFixesInPlace(graph, fixes & ~applied, m_rates);
        applied = fixes;
        out.emplace_back(fixes, measure(graph, replayer, changed));
    }
    return out;
}

WhatIf::Replayed WhatIf::measure(RunGraph& graph, Replayer& replayer, FixSet applied) const
{
    Replayed out;
    out.applied = applied;
    // Fixes that changed nothing left the graph as it was: its replay is
    // the unchanged one (finish).
    if (out.applied == 0)
        return out;
    const ReplayResult& r = replayer.replay(graph, /*nodeTimes=*/false);
    out.spanNs = r.ok ? r.spanNs() : -1;
    out.droppedWaits = r.droppedWaits;
    if (r.ok)
        for (const std::vector<Interval>& steps : m_steps)
            out.stepNs.push_back(stepLengths(graph, replayer, steps));
    out.floorNs = floorNs(graph, m_contentionRates, &out.floorBinds);
    return out;
}

void WhatIf::finish(Replayed& out) const
{
    if (out.applied == 0) {
        out.spanNs = m_summary.replaySpanNs;
        out.floorNs = m_summary.floorNs;
        out.floorBinds = m_summary.floorBinds;
        out.stepNs = m_unchangedStepNs;
        return;
    }
    // The replay cannot model everything the floor counts (host memory
    // shared by pageable staging): no prediction goes below it.
    if (out.spanNs >= 0 && out.spanNs < out.floorNs) {
        // The steps give up the same share of their saving as the whole.
        const double whole = static_cast<double>(m_summary.replaySpanNs - out.spanNs);
        const double share = whole > 0 ? static_cast<double>(m_summary.replaySpanNs - out.floorNs) / whole : 0.0;
        for (std::size_t g = 0; g < out.stepNs.size(); ++g)
            for (std::size_t i = 0; i < out.stepNs[g].size(); ++i)
                if (out.stepNs[g][i] && m_unchangedStepNs[g][i]) {
                    const double saved = static_cast<double>(*m_unchangedStepNs[g][i] - *out.stepNs[g][i]);
                    out.stepNs[g][i] = *m_unchangedStepNs[g][i] - std::llround(saved * share);
                }
        out.spanNs = out.floorNs;
        out.clamped = true;
    }
}

void WhatIf::setSteps(std::vector<std::vector<Interval>> groups)
{
    m_steps = std::move(groups);
    m_unchangedStepNs.clear();
    m_replayed.clear();
    if (m_graph) {
        m_graph->steps.clear();
        for (const std::vector<Interval>& steps : m_steps)
            m_graph->steps.insert(m_graph->steps.end(), steps.begin(), steps.end());
    }
    // Where the unchanged replay waits, it reads the steps' lengths itself.
    if (m_unchangedPending || !m_summary.replayed || m_steps.empty())
        return;
    // The unchanged replay's times are still in the replayer where no fix
    // set was replayed since: a big graph's replay is not made twice.
    if (!m_replayerHoldsUnchanged && !m_replayer.replay(*m_graph, /*nodeTimes=*/false).ok)
        return;
    m_replayerHoldsUnchanged = true;
    for (const std::vector<Interval>& steps : m_steps)
        m_unchangedStepNs.push_back(stepLengths(*m_graph, m_replayer, steps));
}

void WhatIf::replayEach(const std::vector<FixSet>& sets)
{
    if (!replayable())
        return;
    std::vector<FixSet> todo;
    for (FixSet f : sets)
        if (f != 0 && !m_replayed.contains(f) && std::find(todo.begin(), todo.end(), f) == todo.end())
            todo.push_back(f);
    const std::vector<Chain> chains = chainsOf(todo);
    // The unchanged replay, where it waits, is one more task for the threads.
    const bool unchanged = m_unchangedPending;
    using Done = std::vector<std::pair<FixSet, Replayed>>;
    Done all;
    if (chains.size() + (unchanged ? 1 : 0) < 2 || launchPolicyFor(m_graph->nodes.size()) != std::launch::async) {
        replayUnchanged();
        if (!m_summary.replayed || chains.empty())
            return;
        restorePoint();
        for (const Chain& chain : chains) {
            Done done = replayChain(chain, *m_graph, m_replayer);
            all.insert(all.end(), done.begin(), done.end());
        }
        m_replayerHoldsUnchanged = false;
    } else {
        // The second thread's graph and replayer: made ahead, where they were.
        RunGraph otherGraph;
        Replayer otherReplayer;
        // Each thread takes the next chain not taken: the longest first.
        std::atomic<std::size_t> next{0};
        // Set where the unchanged replay fails or does not reproduce the
        // measurement: the fix sets' replays are then moot.
        std::atomic<bool> stop{false};
        const auto work = [&](RunGraph& graph, Replayer& replayer) {
            Done done;
            for (std::size_t i = next++; i < chains.size() && !stop; i = next++) {
                Done chain = replayChain(chains[i], graph, replayer, &stop);
                done.insert(done.end(), chain.begin(), chain.end());
            }
            return done;
        };
        // The second thread edits its own copy of the graph, made (or its
        // model added to the arrays copied ahead) before this one edits the
        // graph. It takes the restore point too where that was made ahead
        // (waiting for it, where it is not made yet) or where this thread
        // replays the unchanged run meanwhile; else this one makes it while
        // the second copies the graph. All of that only reads the graph.
        const bool otherTakesPoint = m_ahead.valid() || unchanged;
        std::promise<void> copied;
        auto other = std::async(std::launch::async, [&] {
            try {
                if (otherTakesPoint)
                    restorePoint(&otherGraph, &otherReplayer);
                if (otherGraph.nodes.empty())
                    otherGraph = *m_graph;
                else
                    static_cast<GraphModel&>(otherGraph) = *m_graph;
            } catch (...) {
                copied.set_exception(std::current_exception());
                throw;
            }
            copied.set_value();
            return work(otherGraph, otherReplayer);
        });
        std::exception_ptr failed;
        try {
            if (!otherTakesPoint)
                restorePoint();
            replayUnchanged();
        } catch (...) {
            failed = std::current_exception();
        }
        if (failed || !m_summary.replayed)
            stop = true;
        Done mine;
        try {
            copied.get_future().get(); // rethrows where the copy failed
            if (!stop)
                mine = work(*m_graph, m_replayer);
        } catch (...) {
            stop = true;
            if (!failed)
                failed = std::current_exception();
        }
        if (!mine.empty())
            m_replayerHoldsUnchanged = false;
        try {
            all = other.get();
        } catch (...) {
            if (!failed)
                failed = std::current_exception();
        }
        if (failed)
            std::rethrow_exception(failed);
        if (!m_summary.replayed)
            return;
        all.insert(all.end(), mine.begin(), mine.end());
    }
    for (auto& [fixes, replayed] : all) {
        finish(replayed);
        m_replayed[fixes] = std::move(replayed);
    }
}

std::int64_t WhatIf::savingOf(FixSet fixes)
{
    const std::int64_t span = spanWith(fixes);
    return span < 0 ? 0 : std::max<std::int64_t>(0, m_summary.replaySpanNs - span);
}

void WhatIf::setAllFixes(FixSet fixes)
{
    m_summary.allFixes = fixes;
    const std::int64_t span = spanWith(fixes, nullptr, &m_summary.allFixesClamped);
    m_summary.allFixesSpanNs = span < 0 ? m_summary.replaySpanNs : span;
    if (const auto at = m_replayed.find(fixes); at != m_replayed.end()) {
        m_summary.floorNs = at->second.floorNs;
        m_summary.floorBinds = at->second.floorBinds;
    }
    m_summary.fixDroppedWaits = 0;
    m_summary.replays.clear();
    for (const auto& [set, replayed] : m_replayed) {
        if (!replayed.asked)
            continue;
        m_summary.fixDroppedWaits += replayed.droppedWaits;
        if (replayed.spanNs >= 0)
            m_summary.replays.push_back({set, replayed.spanNs});
    }
}

WhatIf::StepSavings WhatIf::stepSavings(FixSet fixes, std::size_t group)
{
    replayUnchanged();
    if (!m_summary.replayed || group >= m_unchangedStepNs.size())
        return {};
    const StepSavings& unchanged = m_unchangedStepNs[group];
    StepSavings savings(unchanged.size());
    if (spanWith(fixes) < 0)
        return savings;
    const auto at = m_replayed.find(fixes);
    const StepSavings* fixed = fixes == 0 ? &unchanged : at != m_replayed.end() && group < at->second.stepNs.size()
                                                              ? &at->second.stepNs[group]
                                                              : nullptr;
    if (!fixed)
        return savings;
    for (std::size_t i = 0; i < unchanged.size(); ++i)
        if (unchanged[i] && (*fixed)[i])
            savings[i] = *unchanged[i] - *(*fixed)[i];
    return savings;
}

std::optional<Run> whatIfRun(const Run& run, const TransferRates& rates, FixSet fixes, Interval span, std::string* why)
{
    WhatIf whatIf(run, rates, span);
    if (has(fixes, Fix::PrefetchManaged))
        whatIf.setDemand(demandMigrations(RunIndex(run, span)));
    return whatIf.replayedRun(run, fixes, span, why);
}

void WhatIf::releaseReplayMemory()
{
    m_ahead = {};
    m_restore.reset();
    m_replayer = Replayer{};
    m_replayerHoldsUnchanged = false;
}

std::optional<Run> WhatIf::replayedRun(const Run& run, FixSet fixes, Interval span, std::string* why) const
{
    if (!m_summary.replayed || !m_graph) {
        if (why)
            *why = m_unchangedPending ? "the unchanged run is not replayed yet (WhatIf::replayUnchanged)" : m_summary.why;
        return std::nullopt;
    }
    const RunGraph fixed = applyFixes(*m_graph, fixes, m_rates);
    const ReplayResult r = replayGraph(fixed);
    if (!r.ok) {
        if (why)
            *why = r.why;
        return std::nullopt;
    }
    Run out;
    out.name = "what if: " + describeFixes(fixes);
    out.pipeline = run.pipeline;
    out.device = run.device;
    out.moreDevices = run.moreDevices;
    out.params = run.params;
    out.timing = "replay";
    out.timedBeginNs = span.beginNs;
    out.timedEndNs = span.endNs;
    out.verification.message = "a replay of " + run.name + ": nothing ran, nothing to verify";
    out.lanes = fixed.lanes;
    out.names = run.names;
    std::uint32_t prefetchName = 0; // named on first use
    out.ops.reserve(fixed.nodes.size());
    for (std::size_t n = 0; n < fixed.nodes.size(); ++n) {
        const GraphNode& node = fixed.nodes[n];
        const NodeState& state = fixed.state[n];
        if (state.removed)
            continue;
        Op op = run.ops[node.op];
        if (node.added) {
            // A prefetch the fix added before the kernel `op` was.
            if (prefetchName == 0) {
                prefetchName = static_cast<std::uint32_t>(out.names.size());
                out.names.push_back("cudaMemPrefetchAsync (what-if)");
            }
            op.kind = node.kind;
            op.bytes = node.bytes;
            op.nameId = prefetchName;
            op.correlation = 0;
        }
        op.lane = state.lane;
        op.memory = state.memory;
        op.startNs = r.beginNs[n];
        op.endNs = r.endNs[n];
        if (node.gpu) {
            op.execStartNs = op.startNs;
            op.execEndNs = op.endNs;
        }
        out.ops.push_back(op);
    }
    out.sortOps();
    return out;
}

} // namespace ovs
