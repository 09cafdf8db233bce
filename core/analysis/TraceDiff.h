#pragma once

// Two traces compared, before and after a fix (`overlapscope-cli diff`, the
// window's File > Compare, `overlapscope export --compare`). Runs are paired
// by name (matchRuns) or chosen by the user (selectRun); each pair is judged
// by the analysis each run gets alone (analyzeRun, as `analyze` does: the
// trace's own sweeps and serialized baseline), so a diff never disagrees with
// `analyze` of either trace. Nothing is measured here: the numbers are the
// analysis', set side by side, and the findings are paired by kind.

#include "findings/Findings.h"
#include "analysis/RunAnalysis.h"
#include "trace/Trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// Two runs to compare: indices into the before and after traces' runs.
struct RunMatch {
    std::size_t before = 0;
    std::size_t after = 0;
    // How they were paired: "name" (the same name), "name without pid" (the
    // same but for " (pid N)"), "program" (the same program, other
    // arguments: `app` and `app --fix`), "only runs" (one run each, nothing
    // else to go by), "chosen" (--run).
    std::string by;
};

struct RunMatching {
    std::vector<RunMatch> pairs; // in the before trace's order
    std::vector<std::size_t> onlyBefore; // runs left unpaired
    std::vector<std::size_t> onlyAfter;
};

// Pairs the runs of two traces, each at most once: first by the same name,
// then by the name without " (pid N)", then by the program (the name's first
// word, so `app (pid 1)` pairs with `app --fix (pid 2)`); where that pairs
// nothing and each trace holds one run, those two.
RunMatching matchRuns(const Trace& before, const Trace& after);

// A run of `trace` as the user names it: its position counted from 1 (as
// `analyze` lists them), its name, or its name without " (pid N)" where that
// names one run. nullopt, with the reason, where it names none or several.
std::optional<std::size_t> selectRun(const Trace& trace, const std::string& selector, std::string* why);

// One side of a pair: what the analysis says about the run, set out for
// comparison. Times in ns.
struct RunSide {
    std::size_t index = 0; // in its trace
    std::string name;
    std::string device; // the device's label
    RunStatus status = RunStatus::Completed;
    std::int64_t wallNs = 0;   // the judged span's length (JudgedSpan)
    // Where the judged span begins, in the run's time base: where the window
    // and `export --compare` align the pair (the loop with the loop, not
    // the process's start with the process's start).
    std::int64_t judgedBeginNs = 0;
    std::int64_t activeNs = 0; // the GPU's active span in it: first GPU work to last
    // Copies and kernels at once, and the most they could have (the shorter
    // of the copy and kernel busy times; RunMetrics).
    std::int64_t overlapNs = 0;
    std::int64_t overlapPossibleNs = 0;
    double overlapOfPossiblePercent = 0;
    std::int64_t h2dWithD2hNs = 0;
    std::int64_t hostStagingNs = 0; // our pipelines' staging copies; 0 for other programs
    // Each device's engines (busy times, idle), as `analyze` tabulates them.
    std::vector<DeviceActivity> devices;
    // The replay of its findings' fixes, all at once (-1: not replayed).
    std::int64_t allFixesSpanNs = -1;
};

enum class FindingChange : std::uint8_t {
    Resolved, // found before, not after (or under the threshold that reports it)
    New,      // found after only
    Changed,  // found in both: its cost before and after
};
const char* toString(FindingChange change); // "resolved", "new", "changed"

// A finding as one side had it.
struct FindingSide {
    std::string id;    // findingId: "pageable-memory", "sync-copies+allocation-in-loop"
    std::string words; // findingWords: "pageable memory", ...
    std::int64_t costNs = 0;
    CostSource costSource = CostSource::Estimate;
    std::size_t opCount = 0;
    std::string cause;
    std::string costRate; // Finding::costRate
    std::vector<FindingSource> sources; // Finding::sources
};

// One of the user's lines that a paired finding's calls came from, on
// either side: "the sync at train.py:42 is gone" is callsAfter 0.
struct SiteChange {
    std::string file;
    std::uint32_t line = 0;
    std::string function;
    SiteLine lineIs = SiteLine::Call;
    std::string cause; // FindingSource::cause: a line's calls of two causes are two changes
    std::size_t callsBefore = 0; // 0: not among before's sources
    std::size_t callsAfter = 0;  // 0: not among after's (gone)
};

struct FindingDiff {
    FindingChange change = FindingChange::Changed;
    int device = -1; // as Finding::device
    std::optional<FindingSide> before; // absent for New
    std::optional<FindingSide> after;  // absent for Resolved
    // The lines of both sides' sources, before's order first, then after's new ones.
    std::vector<SiteChange> sites;
};

struct RunPairDiff {
    RunSide before;
    RunSide after;
    std::string matchedBy; // RunMatch::by
    // Paired by kind and device (and call site, where a kind is found more
    // than once); largest cost (before or after) first, the bound last.
    std::vector<FindingDiff> findings;
    // Before's active span minus after's: negative where after is slower.
    std::int64_t savedNs = 0;
    double savedPercent = 0; // of before's active span
};

struct TraceDiff {
    std::vector<RunPairDiff> pairs;
    std::vector<std::string> onlyBefore; // names of the runs left unpaired
    std::vector<std::string> onlyAfter;
};

// The pairs of `matching` compared. Linear-logarithmic in the runs' ops,
// with a replay per finding (as analyze): a window calls it off the GUI thread.
// `options`: the analysis options each run is judged with (--pinned-rate).
TraceDiff diffTraces(const Trace& before, const Trace& after, const RunMatching& matching,
                     const AnalysisOptions& options = {});

// "saved 134.0 ms (30.1%) of the active span", or "lost ..." where after is
// slower: the sentence every view of a diff gives.
std::string savedSentence(const RunPairDiff& pair);

} // namespace ovs
