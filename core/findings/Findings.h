#pragma once

// Findings on any run: our pipelines, a program recorded by
// `overlapscope-cli profile`, an imported PyTorch (Kineto) trace. Per device,
// what each engine did (busy, overlap, idle); then a list of findings, each a
// reason copies and kernels fail to overlap, with the time it costs, the ops
// it concerns and the fix. docs/profiling.md ("Findings") lists each rule,
// its thresholds and how its cost is estimated.
//
// Use: analyzeRun (analysis/RunAnalysis.h) fills RunAnalysis::findings,
// computing the metrics once; analyzeFindings there is the same for a caller
// that holds only a run and its trace's sweeps (the window). Both are pure functions of
// their arguments (no shared state), linear-logarithmic in the run's ops: a
// window calls them on a worker thread for a large run, never on the GUI
// thread.

// Verdict.h (and the standard headers it brings) before FindingSource.h:
// Qt 6.4's moc, reading a test that includes this first, cannot parse
// <compare> (trace/SourceSite.h) as the first standard header it meets.
#include "findings/Verdict.h"
#include "findings/FindingSource.h"
#include "judgement/RunMetrics.h"
#include "judgement/TransferRates.h"
#include "findings/WhatIf.h"
#include "replay/Fix.h"
#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ovs {

class RunIndex;
class WhatIf;

// The reasons we look for. Reports sort findings by cost, but the order
// here is part of what is printed: a combined finding is named by its parts
// in this order ("one-stream+host-sync": combineFindings), and lists of the
// kinds follow it (the export's --what-if ids). A new kind goes last.
enum class FindingKind : std::uint8_t {
    PageableCopies,      // copies from or to pageable host memory: staged by the driver, block the host
    SyncCopies,          // synchronous cudaMemcpy / cudaMemset calls block the host thread
    LegacyDefaultStream, // work on the legacy default stream serializes the other streams
    OneStream,           // copies and kernels of a loop on one stream, or on too few; words "too few streams"
    SyncInLoop,          // a host wait per chunk (event, stream or device synchronize): chunks cannot overlap; id "host-sync"
    AllocInLoop,         // allocation, free or registration between GPU work, with its implicit sync
    SmallCopies,         // copies too small to reach the link's rate
    CopyEngineQueue,     // same-direction copies queued on one copy engine (event vs engine time)
    Bound,               // what bounds the run and how far it is from that bound
    ManagedMigration,    // kernels stalled on managed memory migrated on their page faults; id "managed-migration"
};
inline constexpr int kFindingKindCount = 10;
// Short words for a kind: "pageable memory", "too few streams", ...
const char* toString(FindingKind kind);
// The documented kebab-case id of `analyze --json` ("pageable-memory",
// "one-stream", ...; docs/what-if.md).
const char* kindId(FindingKind kind);

// Where a finding's cost comes from.
enum class CostSource : std::uint8_t {
    Estimate, // the rule of docs/profiling.md for its kind (no replayable fix, or the run could not be replayed)
    Replay,   // the replayed span without the fix subtracted from the replayed span with it (docs/what-if.md)
};

// A finding lists at most this many of its ops (the window selects them);
// opCount keeps the full count.
inline constexpr std::size_t kMaxFindingOps = 1000;

struct Finding {
    FindingKind kind = FindingKind::Bound;
    std::string cause; // one line: what happened, with the numbers that say so
    std::string fix;   // what to change, in words
    // The time it costs the run, ns: how much shorter the timed region would
    // be without it, by the estimate FindingRules.cpp documents for each kind
    // (also in docs/profiling.md). Never negative, at most the wall time.
    std::int64_t costNs = 0;
    // The ops it concerns: indices into Run::ops, ascending, the first
    // kMaxFindingOps of them.
    std::vector<std::uint32_t> ops;
    std::size_t opCount = 0; // all of them, however many `ops` lists
    int device = -1;         // the device (see DeviceActivity::device); -1: the whole run
    // The fix as the replay applies it; 0 when the kind has none.
    FixSet fixes = 0;
    CostSource costSource = CostSource::Estimate;
    // A replayed cost that rests on a pinned rate not measured on this
    // device (pinning, a prefetch) says where the rate came from: "rate
    // assumed for A100 SXM4 on PCIe Gen4 x16" (the device class table),
    // "rate given: ..." (--pinned-rate); empty otherwise.
    std::string costRate;
    // Parts of a combined finding ("one stream + host sync"), whose fixes
    // save time only together: every kind but the first. `kind` is the first.
    std::vector<FindingKind> alsoKinds;
    // Where the judged span is made of steps (region groups): what the fix
    // saves each step, by group, split from the same replay as costNs
    // (WhatIf::stepSavings), so the steps and the whole agree. Empty for
    // estimates and where there are no steps.
    std::vector<WhatIf::StepSavings> stepSavingsNs;
    // Where its CUDA calls came from, from the run's call sources
    // (FindingSources.cpp): the user's lines, most calls first, the first
    // thresholds::kMaxFindingSources of them; the PyTorch ops around the
    // calls, the same; and a note where the trace cannot say (no stacks
    // recorded: how to record them). Empty where the run has no sources.
    std::vector<FindingSource> sources;
    std::vector<FindingTorchOp> torchOps;
    std::string sourcesNote;
};

// What one device's engines did in the judged span. Busy times are
// unions (two streams' copies at once count once), clipped to the region.
struct DeviceActivity {
    int device = 0;    // CUDA ordinal from the lane names ("GPU 1 stream 7"); 0 when they name none
    std::string label; // "NVIDIA H200" for the run's only device, "GPU 1" when there are several
    int streams = 0;   // stream lanes with GPU work in the region
    int gpuOps = 0;
    std::string engineTimes; // engine (exec) intervals or events: which the times below use

    std::int64_t h2dNs = 0;        // uploads
    std::int64_t d2hNs = 0;        // downloads
    std::int64_t deviceCopyNs = 0; // device to device and peer copies
    std::int64_t computeNs = 0;    // kernels
    std::int64_t memsetNs = 0;     // memsets, counted apart from kernels
    std::int64_t busyNs = 0;       // union of all of the above
    std::int64_t copyWithComputeNs = 0; // some copy (any direction) while some kernel ran
    std::int64_t h2dWithD2hNs = 0;      // an upload and a download at once
    std::int64_t idleNs = 0;            // timed region minus busyNs: the GPU had nothing to do

    // Its engines, each alone: the busiest copy engine (uploads, downloads
    // or device copies), the kernels with the memsets, and the busier of the
    // two, the least the device's work could take were all else hidden under
    // it (the general verdict's bound, the structural findings' headroom).
    std::int64_t copyEngineNs() const;
    std::int64_t computeEngineNs() const;
    std::int64_t busiestEngineNs() const;
};

struct RunFindings {
    std::int64_t wallNs = 0;
    // The GPU's active span in the timed region: first GPU work to last.
    std::int64_t activeNs = 0;
    std::vector<DeviceActivity> devices; // by device ordinal
    std::vector<Finding> findings;       // largest cost first; the Bound finding last
    // What bounds the run (Verdict.h), judged once; the Bound finding says it.
    Verdict verdict;
    WhatIfSummary whatIf;
    // What every fix together saves each step, by group, as stepSavingsNs.
    std::vector<WhatIf::StepSavings> allFixesStepSavingsNs;
};

// A finding's id as `analyze --json` prints it: its kind's id, a combined
// finding's parts joined with '+' ("sync-copies+allocation-in-loop").
std::string findingId(const Finding& finding);
std::string findingId(FindingKind kind, const std::vector<FindingKind>& alsoKinds);
// The same in words, parts joined with " + ".
std::string findingWords(const Finding& finding);
std::string findingWords(FindingKind kind, const std::vector<FindingKind>& alsoKinds);

// The findings of one run over `span`, the judged span (judgement/JudgedSpan.h), and
// its verdict. `metrics` are the run's own over the same span (RunAnalysis
// computes them once). `stepGroups`: the steps of the span, a list of host
// spans per region group, whose share of each replayed saving is wanted.
RunFindings findFindings(const Run& run, const RunMetrics& metrics, const TransferRates& rates, Interval span,
                         const std::vector<std::vector<Interval>>& stepGroups = {});

// What the rules find from the run's index alone, before the what-if has a
// graph: analyzeSpan finds it on the index's thread while this one builds
// the graph (a quarter of a second of a 2 GB trace's analysis). The rules
// read whether the run replays; `replayed` is what is assumed, and
// findFindings finds them again where the what-if says otherwise.
struct FindingsAheadState;
struct FindingsAhead {
    FindingsAhead();
    FindingsAhead(FindingsAhead&&) noexcept;
    FindingsAhead& operator=(FindingsAhead&&) noexcept;
    ~FindingsAhead();
    // The context the rules read and what they found: it refers to the
    // index, metrics and rates it was found from, which stay where they are.
    std::unique_ptr<FindingsAheadState> state;
};
FindingsAhead findFindingsAhead(const RunIndex& index, const RunMetrics& metrics, const TransferRates& rates,
                                bool replayed);

// The same from the run's index over the judged span and its what-if over
// the same span (analyzeSpan builds both at once, on two threads), with
// what was found ahead from the same index, metrics and rates, if it was.
RunFindings findFindings(const RunIndex& index, WhatIf& whatIf, const RunMetrics& metrics,
                         const TransferRates& rates, const std::vector<std::vector<Interval>>& stepGroups = {},
                         FindingsAhead ahead = {});

} // namespace ovs
