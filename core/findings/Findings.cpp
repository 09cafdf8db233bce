#include "findings/Findings.h"

#include "base/DurationText.h"
#include "base/ParallelWork.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"
#include "findings/DemandMigrations.h"
#include "findings/FindingContext.h"
#include "findings/FindingRules.h"
#include "findings/FindingSources.h"
#include "findings/WhatIf.h"
#include "replay/RunGraphBuilder.h"

#include <algorithm>
#include <map>
#include <optional>

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

// Every fix set replayCosts and combineFindings will ask the replay for,
// and the one of all fixes together, which findFindings asks for after
// them (every finding's fix that the replay can apply): replayed up front,
// so that a big run's replays share the two cores. Where a replay fails,
// the set of all fixes differs and the one replayed here is never asked
// for, which leaves no trace (WhatIf::replayEach).
void replayAhead(WhatIf& whatIf, const std::vector<Finding>& findings)
{
    std::vector<FixSet> sets;
    FixSet all = 0;
    for (const Finding& f : findings)
        if (f.fixes != 0 && !whatIf.cannotApply(f.fixes))
            all |= f.fixes;
    sets.push_back(all);
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

// The copy engine queue's finding reads the verdict (its cost is no more
// than the run's distance from its bound), which comes after the replays;
// it has no fix to replay, so it joins the list there, where the rules'
// order would have put it: after the uncombined findings of the kinds
// before it, before the other kinds' and the combined ones. (Equal costs
// keep this order when the list is sorted by cost.)
void insertCopyEngineQueue(const Context& c, const Verdict& verdict, std::vector<Finding>& findings)
{
    std::vector<Finding> queued;
    copyEngineQueue(c, verdict, queued);
    const auto at = std::find_if(findings.begin(), findings.end(), [](const Finding& f) {
        return f.kind > FindingKind::CopyEngineQueue || !f.alsoKinds.empty();
    });
    findings.insert(at, std::make_move_iterator(queued.begin()), std::make_move_iterator(queued.end()));
}

// The verdict as a finding: what bounds the run, last in the list.
Finding boundFinding(const Context& c, const Verdict& verdict)
{
    Finding f = makeFinding(FindingKind::Bound, {}, c.deviceForHost);
    f.cause = verdict.cause;
    f.fix = verdict.fix;
    f.costNs = verdict.costNs;
    return f;
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

std::int64_t DeviceActivity::copyEngineNs() const
{
    return std::max({h2dNs, d2hNs, deviceCopyNs});
}

std::int64_t DeviceActivity::computeEngineNs() const
{
    return saturatingAdd(computeNs, memsetNs);
}

std::int64_t DeviceActivity::busiestEngineNs() const
{
    return std::max(copyEngineNs(), computeEngineNs());
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

RunFindings findFindings(const Run& run, const RunMetrics& metrics, const TransferRates& rates, Interval span,
                         const std::vector<std::vector<Interval>>& stepGroups)
{
    // The run's index is built while the graph is built and replayed; the
    // graph, the larger, on this thread, where it reuses the memory the
    // reader freed (a second thread allocates afresh).
    auto indexed = std::async(launchPolicyFor(run.ops.size()), [&] { return RunIndex(run, span); });
    WhatIf whatIf(run, rates, span);
    const RunIndex index = indexed.get();
    return findFindings(index, whatIf, metrics, rates, stepGroups);
}

// The rules, in the order their findings are listed (ties of cost keep
// it): those before the one that reads the what-if's graph, and after it.
namespace {

void rulesBeforeGraph(const findings::Context& c, std::vector<Finding>& out)
{
    findings::pageableCopies(c, out);
    findings::syncCopies(c, out);
    findings::legacyDefaultStream(c, out);
}

void rulesAfterGraph(const findings::Context& c, const DemandMigrations& demand, std::vector<Finding>& out)
{
    findings::syncInLoop(c, out);
    findings::allocInLoop(c, out);
    findings::smallCopies(c, out);
    findings::managedMigration(c, demand, out);
}

// A run with op times inside its span: else the findings are its bound alone.
bool timedInside(const Run& run, const findings::Context& c)
{
    return run.timing != kWallOnlyTiming && c.wallNs > 0;
}

} // namespace

struct FindingsAheadState {
    findings::Context c;
    DemandMigrations demand;
    bool ruled = false; // the rules ran (a run timed inside its span)
    std::vector<Finding> beforeGraph, afterGraph;
};

FindingsAhead::FindingsAhead() = default;
FindingsAhead::FindingsAhead(FindingsAhead&&) noexcept = default;
FindingsAhead& FindingsAhead::operator=(FindingsAhead&&) noexcept = default;
FindingsAhead::~FindingsAhead() = default;

FindingsAhead findFindingsAhead(const RunIndex& index, const RunMetrics& metrics, const TransferRates& rates,
                                bool replayed)
{
    FindingsAhead ahead;
    ahead.state.reset(new FindingsAheadState{findings::gather(index, metrics, rates), {}, false, {}, {}});
    FindingsAheadState& s = *ahead.state;
    s.c.replayed = replayed;
    if (timedInside(index.run(), s.c)) {
        s.demand = demandMigrations(index);
        rulesBeforeGraph(s.c, s.beforeGraph);
        rulesAfterGraph(s.c, s.demand, s.afterGraph);
        s.ruled = true;
    }
    return ahead;
}

namespace {

// The findings as they are where the what-if replays (`replayed`) or not;
// nullopt where the unchanged replay, made here with the fix sets, did not
// reproduce the measurement after all.
std::optional<RunFindings> findFindingsAs(const RunIndex& index, WhatIf& whatIf, const RunMetrics& metrics,
                                          const TransferRates& rates,
                                          const std::vector<std::vector<Interval>>& stepGroups, FindingsAhead& ahead,
                                          bool replayed)
{
    using namespace findings;
    using namespace thresholds;
    const Run& run = index.run();
    // Only where the fix sets are replayed does the unchanged replay go
    // with them; every other way, it is made here (the summary and a kept
    // what-if need it).
    if (!replayed)
        whatIf.replayUnchanged();
    if (!ahead.state || (ahead.state->ruled && ahead.state->c.replayed != replayed))
        ahead = findFindingsAhead(index, metrics, rates, replayed);
    FindingsAheadState& s = *ahead.state;
    Context& c = s.c;
    c.replayed = replayed;
    RunFindings result;
    result.wallNs = c.wallNs;
    for (const DeviceWork& w : c.devices)
        result.devices.push_back(w.activity);
    if (!s.ruled) {
        whatIf.replayUnchanged();
        if ((whatIf.summary().replayed && run.status == RunStatus::Completed) != replayed)
            return std::nullopt;
        result.verdict = judgeRun(c, {});
        result.findings.push_back(boundFinding(c, result.verdict));
        return result;
    }
    // Before any replay with fixes: the prefetch fix moves the stalls it names.
    whatIf.setDemand(std::move(s.demand));
    result.findings = std::move(s.beforeGraph);
    oneStream(c, whatIf.graph(), result.findings);
    result.findings.insert(result.findings.end(), std::make_move_iterator(s.afterGraph.begin()),
                           std::make_move_iterator(s.afterGraph.end()));
    const std::int64_t activeNs = c.gpuBusy.isEmpty()
                                      ? 0
                                      : spanNs(c.gpuBusy.pieces().front().beginNs, c.gpuBusy.pieces().back().endNs);
    result.activeNs = activeNs;
    const auto minCost = static_cast<std::int64_t>(kMinCostShare * static_cast<double>(activeNs));
    std::int64_t freeSyncSaving = -1; // a host wait per chunk whose fix saves under the minimum
    FixSet all = 0;
    if (c.replayed) {
        whatIf.setSteps(stepGroups);
        replayAhead(whatIf, result.findings); // the unchanged run too, where it waits
        if (!whatIf.summary().replayed)
            return std::nullopt;
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
    // What bounds the run, once the replay has said what the host's waits
    // cost (a run we did not build whose waits cost nothing is bound by the
    // host's own work).
    result.verdict = judgeRun(c, {whatIf.graph(), freeSyncSaving});
    insertCopyEngineQueue(c, result.verdict, result.findings);
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
    result.findings.push_back(boundFinding(c, result.verdict));
    attachSources(index, result.findings);
    return result;
}

} // namespace

RunFindings findFindings(const RunIndex& index, WhatIf& whatIf, const RunMetrics& metrics, const TransferRates& rates,
                         const std::vector<std::vector<Interval>>& stepGroups, FindingsAhead ahead)
{
    const bool completed = index.run().status == RunStatus::Completed;
    // A big run's what-if replays the unchanged run with the fix sets
    // (WhatIf::Unchanged::WithFixSets): until then the rules are found as
    // though it reproduces the measurement, as it nearly always does, and
    // found again where it does not.
    const bool replayable = whatIf.replayable() && completed;
    if (std::optional<RunFindings> found = findFindingsAs(index, whatIf, metrics, rates, stepGroups, ahead, replayable))
        return std::move(*found);
    ahead = {};
    return findFindingsAs(index, whatIf, metrics, rates, stepGroups, ahead, false).value();
}

} // namespace ovs
