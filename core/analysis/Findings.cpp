#include "analysis/Findings.h"

#include "analysis/DemandMigrations.h"
#include "analysis/FindingContext.h"
#include "analysis/FindingSources.h"
#include "analysis/FindingRules.h"
#include "analysis/NumberText.h"
#include "analysis/ParallelWork.h"
#include "analysis/RunAnalysis.h"
#include "analysis/WhatIf.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "replay/RunGraphBuilder.h"

#include <algorithm>
#include <map>

namespace ovs {

// The rules that name findings are in FindingRules.cpp, the run's work they
// read in FindingContext.cpp; here each finding's cost is replaced by what
// its fix saves in the replay, and findFindings puts it together.
namespace findings {

namespace {

// The thresholds (kMinRepeats, kMinCostShare, ...) live in
// base/Thresholds.h with the reasons for their values.
using namespace thresholds;

// ---- Costs by replay

// Each finding with a fix costs what the fix saves in the replay. A fix
// the replay cannot apply for want of a rate (pinning with no pinned rate
// known) leaves the finding its estimate, labelled so; one with nothing to
// change in the graph saves nothing (a legacy stream with no blocking
// stream beside it holds nothing back). A saving that rests on a pinned
// rate not measured on the device says where the rate came from.
void replayCosts(WhatIf& whatIf, const Run& run, const TransferRates& rates, std::vector<Finding>& findings)
{
    const FixSet atPinnedRate = fixBit(Fix::PinHostMemory) | fixBit(Fix::PrefetchManaged);
    for (Finding& f : findings) {
        if (f.fixes == 0)
            continue;
        FixSet applied = 0;
        bool clamped = false;
        const std::int64_t span = whatIf.spanWith(f.fixes, &applied, &clamped);
        if (span < 0 || (applied == 0 && whatIf.cannotApply(f.fixes))) {
            const std::string unknown = "no pinned rate known for " + run.device.name
                                        + ": cost is an estimate; --pinned-rate H2D,D2H sets one";
            f.cause += span < 0 ? " (the replay failed: the cost is an estimate)"
                       : has(f.fixes, Fix::PrefetchManaged) ? " (the replay cannot time a prefetch: " + unknown + ")"
                                                            : " (the replay cannot pin them: " + unknown + ")";
            continue;
        }
        f.costNs = std::max<std::int64_t>(0, whatIf.summary().replaySpanNs - span);
        f.costSource = CostSource::Replay;
        if (clamped)
            f.cause += " (the replay with the fix went below the fixed run's physical floor, " + msText(span)
                       + ": the floor is taken)";
        if ((applied & atPinnedRate) != 0 && !rates.pinnedBasis.empty())
            f.costRate = "rate " + rates.pinnedBasis;
    }
}

// Fixes that save time only together (one stream and a wait per chunk:
// more streams change nothing while the host waits for each chunk, and not
// waiting changes nothing on one stream) become one finding, costed by
// what both save; either alone would be left out at zero.
// Whether two findings' fixes make a pair worth replaying: each has a fix
// the other lacks.
bool combinable(const Finding& x, const Finding& y)
{
    return x.fixes != 0 && y.fixes != 0 && (x.fixes & y.fixes) != y.fixes && (x.fixes & y.fixes) != x.fixes;
}

// Every fix set replayCosts and combineFindings will ask the replay for:
// replayed up front, so that a big run's replays share the two cores.
void replayAhead(WhatIf& whatIf, const std::vector<Finding>& findings)
{
    std::vector<FixSet> sets;
    for (std::size_t a = 0; a < findings.size(); ++a) {
        sets.push_back(findings[a].fixes);
        for (std::size_t b = a + 1; b < findings.size(); ++b)
            if (combinable(findings[a], findings[b]))
                sets.push_back(findings[a].fixes | findings[b].fixes);
    }
    whatIf.replayEach(sets);
}

void combineFindings(WhatIf& whatIf, std::int64_t minCost, std::vector<Finding>& findings)
{
    struct Pair {
        std::size_t a, b;
        std::int64_t saving;
    };
    std::vector<Pair> pairs;
    for (std::size_t a = 0; a < findings.size(); ++a)
        for (std::size_t b = a + 1; b < findings.size(); ++b) {
            const Finding& x = findings[a];
            const Finding& y = findings[b];
            if (!combinable(x, y))
                continue;
            const std::int64_t both = whatIf.savingOf(x.fixes | y.fixes);
            const std::int64_t better = std::max(x.costNs, y.costNs);
            if (both >= minCost && static_cast<double>(both) >= kSynergyFactor * static_cast<double>(better)
                && both - better >= minCost)
                pairs.push_back({a, b, both});
        }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& p, const Pair& q) { return p.saving > q.saving; });
    std::vector<bool> used(findings.size(), false);
    std::vector<Finding> combined;
    for (const Pair& p : pairs) {
        if (used[p.a] || used[p.b])
            continue;
        used[p.a] = used[p.b] = true;
        // The kinds in their enum order, so an id is always spelt one way.
        const Finding& x = findings[p.a].kind < findings[p.b].kind ? findings[p.a] : findings[p.b];
        const Finding& y = &x == &findings[p.a] ? findings[p.b] : findings[p.a];
        std::vector<std::uint32_t> ops = x.ops;
        ops.insert(ops.end(), y.ops.begin(), y.ops.end());
        Finding f = makeFinding(x.kind, std::move(ops), x.device == y.device ? x.device : -1);
        f.alsoKinds = {y.kind};
        f.fixes = x.fixes | y.fixes;
        f.costNs = p.saving;
        f.costSource = CostSource::Replay;
        f.costRate = x.costRate.empty() ? y.costRate : x.costRate;
        f.cause = std::string(toString(x.kind)) + " and " + toString(y.kind) + ": together their fixes save "
                  + msText(p.saving) + "; alone, the first saves " + msText(x.costNs) + " and the second " + msText(y.costNs)
                  + ". " + x.cause + "; and " + y.cause;
        f.fix = "both: " + x.fix + "; and " + y.fix;
        combined.push_back(std::move(f));
    }
    std::vector<Finding> kept;
    for (std::size_t i = 0; i < findings.size(); ++i)
        if (!used[i])
            kept.push_back(std::move(findings[i]));
    kept.insert(kept.end(), std::make_move_iterator(combined.begin()), std::make_move_iterator(combined.end()));
    findings = std::move(kept);
}

// The host's own work between CUDA calls inside the GPU's active span, on
// the busiest host thread: what binds a loop whose waits cost nothing.
std::int64_t hostWorkNs(const RunGraph& g)
{
    std::map<int, std::int64_t> perThread;
    for (const GraphEdge& e : g.edges)
        if (e.kind == EdgeKind::HostOrder && g.nodes[e.to].measuredBeginNs > g.measuredSpanBeginNs
            && g.nodes[e.to].measuredBeginNs <= g.measuredSpanEndNs)
            perThread[g.nodes[e.to].lane] = saturatingAdd(perThread[g.nodes[e.to].lane], e.lagNs);
    std::int64_t most = 0;
    for (const auto& [thread, ns] : perThread)
        most = std::max(most, ns);
    return most;
}

} // namespace

} // namespace findings

const char* kindId(FindingKind kind)
{
    switch (kind) {
    case FindingKind::PageableCopies: return "pageable-memory";
    case FindingKind::SyncCopies: return "sync-copies";
    case FindingKind::LegacyDefaultStream: return "legacy-default-stream";
    case FindingKind::OneStream: return "one-stream";
    case FindingKind::SyncInLoop: return "host-sync";
    case FindingKind::AllocInLoop: return "allocation-in-loop";
    case FindingKind::SmallCopies: return "small-copies";
    case FindingKind::CopyEngineQueue: return "copy-queue";
    case FindingKind::ManagedMigration: return "managed-migration";
    case FindingKind::Bound: return "bound";
    }
    return "?";
}

std::string findingId(FindingKind kind, const std::vector<FindingKind>& alsoKinds)
{
    std::string id = kindId(kind);
    for (FindingKind k : alsoKinds)
        id += std::string("+") + kindId(k);
    return id;
}

std::string findingId(const Finding& finding)
{
    return findingId(finding.kind, finding.alsoKinds);
}

std::string findingWords(FindingKind kind, const std::vector<FindingKind>& alsoKinds)
{
    std::string words = toString(kind);
    for (FindingKind k : alsoKinds)
        words += std::string(" + ") + toString(k);
    return words;
}

std::string findingWords(const Finding& finding)
{
    return findingWords(finding.kind, finding.alsoKinds);
}

bool isPipelineRun(const Run& run)
{
    return run.params.chunks > 0;
}

const char* toString(FindingKind kind)
{
    switch (kind) {
    case FindingKind::PageableCopies: return "pageable memory";
    case FindingKind::SyncCopies: return "synchronous copies";
    case FindingKind::LegacyDefaultStream: return "legacy default stream";
    // Words, not the id: a run on two streams has too few as well (the id
    // stays "one-stream" for the JSON's readers).
    case FindingKind::OneStream: return "too few streams";
    case FindingKind::SyncInLoop: return "sync in the loop";
    case FindingKind::AllocInLoop: return "allocation in the loop";
    case FindingKind::SmallCopies: return "small copies";
    case FindingKind::CopyEngineQueue: return "copy engine queue";
    case FindingKind::ManagedMigration: return "managed memory migrated on demand";
    case FindingKind::Bound: return "bound";
    }
    return "?";
}

RunFindings findFindings(const Run& run, const RunMetrics& metrics, const TransferRates& rates, const Bounds& bounds,
                         const Diagnosis& diagnosis, Interval span, const std::vector<std::vector<Interval>>& stepGroups)
{
    // The run's index is built while the graph is built and replayed; the
    // graph, the larger, on this thread, where it reuses the memory the
    // reader freed (a second thread allocates afresh).
    auto indexed = std::async(launchPolicyFor(run.ops.size()), [&] { return RunIndex(run, span); });
    WhatIf whatIf(run, rates, span);
    const RunIndex index = indexed.get();
    return findFindings(index, whatIf, metrics, rates, bounds, diagnosis, stepGroups);
}

RunFindings findFindings(const RunIndex& index, WhatIf& whatIf, const RunMetrics& metrics, const TransferRates& rates,
                         const Bounds& bounds, const Diagnosis& diagnosis,
                         const std::vector<std::vector<Interval>>& stepGroups)
{
    using namespace findings;
    using namespace thresholds;
    const Run& run = index.run();
    RunFindings result;
    Context c = gather(index, metrics, rates);
    c.replayed = whatIf.summary().replayed && run.status == RunStatus::Completed;
    result.wallNs = c.wallNs;
    for (const DeviceWork& w : c.devices)
        result.devices.push_back(w.activity);
    if (run.timing == kWallOnlyTiming || c.wallNs <= 0) {
        result.boundDiagnosis = diagnosis;
        result.findings.push_back(pipelineBound(c, bounds, diagnosis));
        return result;
    }
    // Before any replay with fixes: the prefetch fix moves the stalls it names.
    whatIf.setDemand(demandMigrations(index));
    pageableCopies(c, result.findings);
    syncCopies(c, result.findings);
    legacyDefaultStream(c, result.findings);
    oneStream(c, whatIf.graph(), result.findings);
    syncInLoop(c, result.findings);
    allocInLoop(c, result.findings);
    smallCopies(c, result.findings);
    copyEngineQueue(c, bounds, result.findings);
    managedMigration(c, whatIf.demand(), result.findings);
    const std::int64_t activeNs = c.gpuBusy.isEmpty()
                                      ? 0
                                      : spanNs(c.gpuBusy.pieces().front().beginNs, c.gpuBusy.pieces().back().endNs);
    result.activeNs = activeNs;
    const auto minCost = static_cast<std::int64_t>(kMinCostShare * static_cast<double>(activeNs));
    std::int64_t freeSyncSaving = -1; // a host wait per chunk whose fix saves under the minimum
    FixSet all = 0;
    if (c.replayed) {
        whatIf.setSteps(stepGroups);
        replayAhead(whatIf, result.findings);
        replayCosts(whatIf, run, rates, result.findings);
        // "All fixes": every fix the replay could apply, printed or not: a
        // serialized run's causes each save little alone and much together.
        for (const Finding& f : result.findings)
            if (f.costSource == CostSource::Replay)
                all |= f.fixes;
        combineFindings(whatIf, minCost, result.findings);
        for (const Finding& f : result.findings)
            if (f.kind == FindingKind::SyncInLoop && f.alsoKinds.empty() && f.costNs < minCost)
                freeSyncSaving = f.costNs;
    }
    std::erase_if(result.findings, [&](const Finding& f) { return f.costNs < minCost; });
    if (c.replayed)
        whatIf.setAllFixes(all);
    result.whatIf = whatIf.summary();
    if (c.replayed && !stepGroups.empty()) {
        // Each step's share of each replayed saving, from the same replays:
        // the steps and the whole are one computation at two scopes.
        for (std::size_t g = 0; g < stepGroups.size(); ++g) {
            for (Finding& f : result.findings)
                if (f.costSource == CostSource::Replay)
                    f.stepSavingsNs.push_back(whatIf.stepSavings(f.fixes, g));
            result.allFixesStepSavingsNs.push_back(whatIf.stepSavings(all, g));
        }
    }
    std::stable_sort(result.findings.begin(), result.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.costNs > b.costNs; });
    // Our pipelines carry their own model (chunks, slots): their diagnosis is
    // the bound. Any other run gets the general one, which becomes its
    // diagnosis too. A partial run has no bound either way.
    result.boundDiagnosis = diagnosis;
    if (isPipelineRun(run) || run.status != RunStatus::Completed) {
        result.findings.push_back(pipelineBound(c, bounds, diagnosis));
    } else {
        DiagnosisKind kind = DiagnosisKind::NoWork;
        Finding bound = generalBound(c, kind);
        if (freeSyncSaving >= 0 && whatIf.graph())
            bound.cause += "; the host's own work between calls (" + msText(hostWorkNs(*whatIf.graph()))
                           + ") binds: removing the synchronization would save " + msText(freeSyncSaving) + " (replay)";
        result.boundDiagnosis.kind = kind;
        result.boundDiagnosis.sentence = (kind == DiagnosisKind::NoWork ? "no work: " : "") + bound.cause + "; "
                                         + bound.fix;
        result.findings.push_back(std::move(bound));
    }
    attachSources(run, result.findings);
    return result;
}

RunFindings analyzeFindings(const Run& run, const std::vector<BandwidthSweep>& sweeps)
{
    return analyzeRun(run, sweeps, nullptr).findings;
}

} // namespace ovs
