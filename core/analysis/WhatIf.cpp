#include "analysis/WhatIf.h"

#include "analysis/NumberText.h"
#include "base/Thresholds.h"
#include "replay/Replay.h"
#include "replay/RunGraphBuilder.h"

#include <cmath>

namespace ovs {

namespace {

std::string msText(std::int64_t ns)
{
    return formatted("%.2f ms", static_cast<double>(ns) / 1e6);
}

std::string modelWords(const RunGraph& g)
{
    return std::string(g.copyEngines == 1 ? "one copy engine for both directions" : "a copy engine per direction")
           + ", " + (g.kernelSlots == 1 ? "one kernel at a time" : std::to_string(g.kernelSlots) + " kernels at once")
           + ", launch latency " + formatted("%.1f us", static_cast<double>(g.launchLatencyNs) / 1e3)
           + ", async call " + formatted("%.1f us", static_cast<double>(g.asyncCallNs) / 1e3) + "; " + g.notes;
}

// The kernels that faulted managed memory in, marked on their nodes: what
// Fix::PrefetchManaged takes out and moves ahead of them.
void markFaultedKernels(RunGraph& g, const Run& run, const DemandMigrations& demand)
{
    if (demand.kernels.empty())
        return;
    std::vector<const FaultedKernel*> byOp(run.ops.size(), nullptr);
    for (const FaultedKernel& k : demand.kernels)
        byOp[k.op] = &k;
    for (GraphNode& n : g.nodes)
        if (n.gpu && byOp[n.op]) {
            n.faultStallNs = std::min(byOp[n.op]->stallNs, n.durationNs);
            n.faultBytes = byOp[n.op]->bytesIn;
            n.faultBytesBack = demand.hostReadsBack() ? n.faultBytes : 0;
        }
}

} // namespace

WhatIf::WhatIf(const Run& run, const TransferRates& rates) : WhatIf(run, rates, {run.timedBeginNs, run.timedEndNs}) {}

WhatIf::WhatIf(const Run& run, const TransferRates& rates, Interval span)
{
    m_rates = {rates.pinnedH2DGBps, rates.pinnedD2HGBps};
    if (run.timing == kWallOnlyTiming) {
        m_summary.why = "the run has no op timing";
        return;
    }
    m_demand = demandMigrations(run, span);
    GraphBuild build = buildRunGraph(run, span.beginNs, span.endNs);
    if (!build.graph) {
        m_summary.why = build.why;
        return;
    }
    m_graph = std::move(build.graph);
    markFaultedKernels(*m_graph, run, m_demand);
    m_summary.measuredSpanNs = m_graph->measuredSpanNs();
    m_summary.assumptions = modelWords(*m_graph);
    const ReplayResult& unchanged = m_replayer.replay(*m_graph);
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
}

std::int64_t WhatIf::spanWith(FixSet fixes, FixSet* applied)
{
    if (!m_summary.replayed)
        return -1;
    if (fixes == 0) {
        if (applied)
            *applied = 0;
        return m_summary.replaySpanNs;
    }
    const auto [at, fresh] = m_replayed.try_emplace(fixes);
    if (fresh) {
        m_fixed = *m_graph; // into the memory of the last fixed graph
        at->second.applied = applyFixesInPlace(m_fixed, fixes, m_rates);
        // Fixes that changed nothing left the graph as it was: its replay is the unchanged one.
        at->second.spanNs = m_summary.replaySpanNs;
        if (at->second.applied != 0) {
            const ReplayResult& r = m_replayer.replay(m_fixed);
            at->second.spanNs = r.ok ? r.spanNs() : -1;
        }
    }
    if (applied)
        *applied = at->second.applied;
    return at->second.spanNs;
}

std::int64_t WhatIf::savingOf(FixSet fixes)
{
    const std::int64_t span = spanWith(fixes);
    return span < 0 ? 0 : std::max<std::int64_t>(0, m_summary.replaySpanNs - span);
}

void WhatIf::setAllFixes(FixSet fixes)
{
    m_summary.allFixes = fixes;
    const std::int64_t span = spanWith(fixes);
    m_summary.allFixesSpanNs = span < 0 ? m_summary.replaySpanNs : span;
}

std::optional<Run> whatIfRun(const Run& run, const TransferRates& rates, FixSet fixes, Interval span, std::string* why)
{
    const WhatIf whatIf(run, rates, span);
    if (!whatIf.summary().replayed) {
        if (why)
            *why = whatIf.summary().why;
        return std::nullopt;
    }
    const RunGraph fixed = applyFixes(*whatIf.graph(), fixes, {rates.pinnedH2DGBps, rates.pinnedD2HGBps});
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
        if (node.removed)
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
        op.lane = node.lane;
        op.memory = node.memory;
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
