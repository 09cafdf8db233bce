#pragma once

#include "findings/Findings.h"
#include "analysis/RunAnalysis.h"
#include "trace/Run.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ovs {

// Where a rank's number came from.
enum class RankSource : std::uint8_t {
    Trace,    // the trace says it (Kineto's distributedInfo.rank)
    FileName, // "rank3", "worker_3" in the file's name
    None,     // neither: the rank is labelled with its file's name
};
const char* toString(RankSource source); // "trace", "file name", "none"

// A finding of a rank, without its ops: what the ranks table compares.
struct RankFinding {
    FindingKind kind = FindingKind::Bound;
    std::vector<FindingKind> alsoKinds;
    std::int64_t costNs = 0; // per step where the rank has steps, else over its judged span
    CostSource costSource = CostSource::Estimate;
    std::string fix;
};

// A profiler step's start on the rank's own time base.
struct StepStart {
    std::int64_t number = 0; // k of "ProfilerStep#k"
    std::int64_t beginNs = 0;
};

// One rank of a folder: what the ranks table shows of it, and nothing of
// its ops, so that a folder of 128 ranks costs 128 of these and not 128
// runs in memory.
struct RankSummary {
    std::size_t file = 0; // RankFolder::files index
    std::string runName;
    int rank = -1;
    RankSource rankSource = RankSource::None;
    std::string label; // "rank 3", or the file's name (with the run's where its file holds several)
    std::string device;
    // The run's time 0 on the job's shared clock (Run::sharedClockOriginNs).
    std::optional<std::int64_t> clockOriginNs;
    std::vector<StepStart> steps; // every ProfilerStep#k, by begin (else the judged steps: NVTX "step k")
    std::string judged;           // what was judged: "steps ProfilerStep#1 to #5"
    // Step time over the judged steps (the judged span's first region group);
    // a rank without steps has its judged span as its one "step".
    bool hasSteps = false;
    int stepsJudged = 0;
    std::int64_t stepMedianNs = 0;
    std::int64_t stepSlowestNs = 0;
    std::string slowestStep; // its region's name; empty without steps
    double gpuBusyPercent = 0; // the busiest device's busy time over the judged span
    double overlapPercent = 0;         // copies overlapping kernels, of copy time
    double overlapOfPossiblePercent = 0;
    // Its findings but the bound, largest cost first: the steps' common
    // findings (median cost per step) where it has steps, else those of the
    // judged span.
    std::vector<RankFinding> findings;
    std::string bound; // "compute bound"; the bound most steps have
    // Time inside collectives per judged step (the union of c10d's ranges,
    // "gloo:all_reduce", "nccl:all_reduce", and NCCL's kernels, within the
    // step), the median over the steps; -1 where the rank shows none. Where
    // the ranks meet at a collective every step (DDP's gradient all-reduce),
    // every rank's step lasts as long as the slowest's, and this is where the
    // others wait for it.
    std::int64_t collectiveMedianNs = -1;
};

// The row of `run`, analysed as `analysis` (analyzeRun with the same
// options `analyze` uses on the file alone).
RankSummary summarizeRank(const Run& run, const RunAnalysis& analysis);

} // namespace ovs
