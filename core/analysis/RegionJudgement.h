#pragma once

// A region group judged instance by instance: each step (or each instance of
// a repeated range) is analysed on its own span, and the instances are
// summarised: the median and slowest, and the findings that hold in most of
// them with their median cost (docs/profiling.md, "What is judged").

#include "findings/Verdict.h"
#include "findings/Findings.h"
#include "facts/IntervalSet.h"
#include "facts/RunIndex.h"
#include "judgement/JudgedSpan.h"
#include "judgement/TransferRates.h"
#include "trace/Run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ovs {

struct RunAnalysis; // RunAnalysis.h holds the judgements of this header

// A finding that holds in several instances of a region group: its kind
// (with the kinds it was combined with) and its cost over those instances.
struct CommonFinding {
    FindingKind kind = FindingKind::Bound;
    std::vector<FindingKind> alsoKinds;
    int instances = 0;              // how many of the judged instances have it
    std::int64_t medianCostNs = 0;  // over those instances
    CostSource costSource = CostSource::Estimate;
    std::string cause;              // its cause in the median instance that has it
    std::string fix;
    // True where the cost is each step's share of the whole span's replayed
    // saving (the whole span names it; shareWholeSavings); false where it
    // comes from the steps judged alone (only they name it).
    bool fromWholeSpan = false;
    std::int64_t stepsSumNs = 0;    // fromWholeSpan: the steps' savings added up
    std::int64_t wholeCostNs = 0;   // fromWholeSpan: what the whole span's replay says it saves
};

// One region group judged instance by instance ("ProfilerStep#N": each step):
// how long they take, and which findings hold in most of them.
struct RegionJudgement {
    RegionGroup group;                 // the instances judged (at most thresholds::kMaxJudgedInstances)
    std::size_t instancesFound = 0;    // all instances of the group, judged or not
    std::vector<Interval> spans;       // each judged instance's span (regionSpan)
    std::int64_t medianNs = 0;         // of the spans
    std::int64_t slowestNs = 0;
    std::uint32_t slowestRegion = 0;   // Run::regions index of the slowest
    std::uint32_t medianRegion = 0;    // Run::regions index of the median instance
    // Findings (not the bound) that hold in at least half the instances,
    // largest median cost first.
    std::vector<CommonFinding> common;
    // What every fix together saves an instance in the replay (its replayed
    // span minus the span with all fixes), the median over the instances
    // that replayed; -1 where none did.
    std::int64_t medianAllFixesSavingNs = -1;
    // The bound most instances have, and in how many.
    VerdictKind bound = VerdictKind::NoWork;
    int boundInstances = 0;
    // Every fix together, each step's share of the whole span's saving
    // (shareWholeSavings): the steps' savings added up, and the whole's.
    // -1 where the whole span was not replayed with steps.
    std::int64_t allFixesStepsSumNs = -1;
    std::int64_t wholeAllFixesSavingNs = -1;
    // Why the two differ by more than kStepsAgreeShare; empty when they agree.
    std::string disagreement;
};

// Judges each instance of `group` (the first thresholds::kMaxJudgedInstances,
// base/Thresholds.h) with analyzeSpan and summarises them.
// Each instance is a view of the run (RunIndex::view, the graph of its op
// ranges): it costs what the instance holds, and no copy of its ops is made.
RegionJudgement judgeRegionGroup(const Run& run, const TransferRates& rates, const RegionGroup& group);
// The same, with the judged instances' spans found by the caller
// (regionSpans of judgedInstances(group)) and the run's names decided once.
RegionJudgement judgeRegionGroup(const Run& run, const TransferRates& rates, const RegionGroup& group,
                                 std::vector<Interval> spans, std::shared_ptr<const NameRoles> roles);
// The instances judged: the first thresholds::kMaxJudgedInstances.
std::vector<std::uint32_t> judgedInstances(const RegionGroup& group);

// The whole span's findings and fixes, split at the steps (RunFindings'
// step savings of group `group`), in place of what the steps judged alone
// say of the same findings: a finding the whole span names has, per step,
// its share of the whole's saving, so the steps' savings add up to the
// whole's (or `disagreement` says why not). Findings only the steps judged
// alone name keep their cost from there.
void shareWholeSavings(RegionJudgement& judgement, const RunFindings& whole, std::size_t group);

// One region judged on its own, as judgeRegionGroup judges each instance:
// over `span` (its regionSpan), on a view of the run (the findings' op
// indices point into the run), or where `slice` is given on a slice of the
// run, which `slice` receives (the findings' op indices point into it): the
// window judges the instance a user picks so, and shows the slice. The two
// judge alike (tst_findings checks every step of a stored trace).
RunAnalysis judgeRegionInstance(const Run& run, const TransferRates& rates, std::uint32_t region, Interval span,
                                Run* slice = nullptr, std::shared_ptr<const NameRoles> roles = {});

} // namespace ovs
