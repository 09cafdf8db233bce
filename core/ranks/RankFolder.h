#pragma once

// A folder of traces (or several files) read as the ranks of one job: each
// file becomes summary rows (RankSummary), compared (RankComparison.h).
// Each file is read, analysed as `analyze` analyses it alone, summarised,
// and dropped with its ops, two at a time: memory holds the ranks being read
// plus a small row per rank, so 128 ranks of 150 MB read where 19 GB of ops
// would not fit. A caller that shows some ranks (the window) keeps those
// traces whole (RankReadOptions::keep).

#include "analysis/RunAnalysis.h"
#include "formats/TraceJson.h"
#include "ranks/RankComparison.h"
#include "ranks/RankSummary.h"
#include "trace/Trace.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// One file of the folder.
struct RankFile {
    std::string path;
    std::string error; // why it was skipped (loadTrace's line, which names the file); empty when read
    std::vector<std::string> notes; // what its import and analysis said
    std::optional<Trace> trace;     // kept only where RankReadOptions::keep asked
};

struct RankReadOptions {
    std::uint64_t maxBytes = kDefaultMaxTraceBytes;
    AnalysisOptions analysis;
    // Files read at once. Two: a 2-core laptop reads at twice the speed, and
    // memory holds two ranks.
    unsigned threads = 2;
    // Which files (by index) keep their trace whole; none when empty.
    std::function<bool(std::size_t file)> keep;
    // Called once per file as it is done (from the reading threads, one call
    // at a time): a progress line.
    std::function<void(std::size_t done, std::size_t total, const RankFile& file)> onRead;
    // Asked before each file (from the reading threads): true stops the
    // reading, files not started are left with error "cancelled" (a window's
    // Cancel; the folder read so far is then of no use to it).
    std::function<bool()> cancelled;
};

struct RankFolder {
    std::vector<RankFile> files; // in the order given
    // Every run of every file read, by rank (ranks the traces and names do
    // not give last, by label).
    std::vector<RankSummary> ranks;
    RankAlignment alignment; // over `ranks`, in their order
    RankStraggler straggler;
    std::vector<std::string> notes; // ranks given twice, files of several runs
};

// The files of a folder that may be traces: its regular files (links
// followed), hidden ones left out, by name. `error` says why there are none
// (no such folder, or nothing in it).
std::vector<std::string> rankFilesIn(const std::string& folder, std::string* error);

RankFolder readRanks(const std::vector<std::string>& paths, const RankReadOptions& options = {});

// What readRanks keeps of one file: its rows as summarizeRank made them
// (before they are labelled and compared) and what reading it said. A few
// KB whatever the trace's size, so it can be made where the trace is (a
// Dask worker, a node of a job system: `analyze --rank-summary`) and sent
// to where the ranks are merged (RankSummaryJson.h writes and reads it).
struct RankFileSummary {
    RankFile file; // its trace is never kept here
    std::vector<RankSummary> rows;
};

// One file read as readRanks reads each: a trace is loaded, analysed with
// options.analysis and summarised, and dropped (kept in file.trace only
// where options.keep(index) asks); a rank summary file
// (isRankSummaryFile) is read as the summary it holds. A file that cannot
// be read gives no rows and says why in file.error.
RankFileSummary summarizeRankFile(const std::string& path, const RankReadOptions& options = {},
                                  std::size_t index = 0);

// The files' summaries merged as readRanks merges the files it read, in the
// order given: the rows labelled, aligned on the shared clock and compared.
// readRanks(paths) and mergeRankSummaries of summarizeRankFile(path) for
// each path are the same folder.
RankFolder mergeRankSummaries(std::vector<RankFileSummary> files);

// The runs of one trace that say their rank (a `profile` of a distributed
// job: one run per process, each with the rank its launcher gave it),
// compared as a folder's ranks are, from the analyses already made (one
// per run, as analyzeTrace gives them). None where fewer than two runs have
// a rank.
std::optional<RankFolder> ranksOfTrace(const Trace& trace, const std::vector<RunAnalysis>& analyses,
                                       const std::string& path);

} // namespace ovs
