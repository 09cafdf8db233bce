#pragma once

#include "findings/Findings.h"
#include "facts/IntervalSet.h"
#include "judgement/JudgedSpan.h"
#include "analysis/RegionJudgement.h"
#include "judgement/RunMetrics.h"
#include "judgement/TransferRates.h"
#include "findings/WhatIf.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"
#include "trace/Trace.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ovs {

// How much faster a run went than the serialized run of the same workload.
// The one rule every view uses (console tables, analyze, the window's
// summary), so they never disagree.
struct Speedup {
    std::optional<double> value; // baseline wall time / this run's wall time
    std::string why;             // how the value was computed, or why there is none
};

// Everything the analysis says about one run; the CLI and the GUI both show
// this, so they never disagree.
struct RunAnalysis {
    // What was judged (every number below is over it): the loop, not the
    // process (JudgedSpan.h).
    JudgedSpan judged;
    TransferRates rates;
    RunMetrics metrics;
    // Per device activity, the findings and the verdict (findings.verdict:
    // what bounds the run, findings/Verdict.h), which the Bound finding says.
    RunFindings findings;
    Speedup speedup;
    // The judged region groups, each instance on its own: the steps (or the
    // outermost repeated range) by default, the groups `--region` names.
    std::vector<RegionJudgement> regions;
    // The run's collective kernels (RunIndex::collectiveKernels), for the
    // ranks' time in collectives per step (ranks/RankSummary.h).
    IntervalSet collectiveKernels;
    // The what-if's graph and replays, kept where AnalysisOptions::keepWhatIf
    // asked (the window, whose ghosts replay this graph rather than build
    // one again); null otherwise, so that a trace of many runs holds no
    // graphs past its analysis.
    std::shared_ptr<const WhatIf> whatIf;
};

// What the caller asks to judge.
struct AnalysisOptions {
    // `--region NAME|REGEX`: judge the regions of that name (or whose names
    // match); empty: the default rule (JudgedSpan.h).
    std::string region;
    // `--pinned-rate H2D,D2H` (or the window's setting): pinned rates that
    // replace the trace's own and the device class table's, for every run.
    GivenPinnedRates pinnedRates;
    // Keep the what-if (RunAnalysis::whatIf).
    bool keepWhatIf = false;
};

// `sweeps`: the trace's bandwidth sweeps (rates of the same device come from
// there); `serializedBaseline`: see findSerializedBaseline.
RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline);
// With options: a `region` no region of the run matches leaves the run judged
// by the default rule and says so in `note` (and an invalid expression, why).
RunAnalysis analyzeRun(const Run& run, const std::vector<BandwidthSweep>& sweeps, const Run* serializedBaseline,
                       const AnalysisOptions& options, std::string* note = nullptr);
// The analysis of one span of the run only: no region groups (the per
// instance judgements are made of these).
// `stepGroups`: as findFindings takes them (the host spans of each region
// group's judged instances).
// `keepWhatIf`: as AnalysisOptions has it.
// `scope`: the run's names decided once, and a view's op ranges (RunIndex.h).
RunAnalysis analyzeSpan(const Run& run, const TransferRates& rates, const JudgedSpan& judged,
                        const std::vector<std::vector<Interval>>& stepGroups = {}, bool keepWhatIf = false,
                        const SpanScope& scope = {});
// The findings alone, from a run and its trace's bandwidth sweeps (rates of
// the same device come from there): runs analyzeRun and returns its findings.
RunFindings analyzeFindings(const Run& run, const std::vector<BandwidthSweep>& sweeps);
// Every run of the trace, each against its own baseline, in the trace's order.
std::vector<RunAnalysis> analyzeTrace(const Trace& trace);
std::vector<RunAnalysis> analyzeTrace(const Trace& trace, const AnalysisOptions& options,
                                      std::vector<std::string>* notes = nullptr);

// True when `candidate` is a completed serialized run of the same workload as
// `run` (device, chunk count and size, kernel repeats): a speedup never mixes
// devices or sizes.
bool isSerializedBaselineFor(const Run& candidate, const Run& run);
// The last such run in `runs`, or nullptr. The second form serves callers
// that hold runs elsewhere than in one vector (the window's document).
const Run* findSerializedBaseline(const std::vector<Run>& runs, const Run& run);
const Run* findSerializedBaseline(std::span<const Run* const> runs, const Run& run);
// The speedup of `run` over `baseline` (nullptr: none found).
Speedup speedupOver(const Run* baseline, const Run& run);

} // namespace ovs
