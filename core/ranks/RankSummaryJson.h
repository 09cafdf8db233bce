#pragma once

// One file's rank summary (RankFileSummary) as JSON: what
// `overlapscope-cli analyze --rank-summary TRACE -o S.json` writes and what
// the Python module's workers send back, so that summaries made on other
// machines merge (mergeRankSummaries) into the same ranks table as
// `analyze DIR`. Numbers are written exactly (integer ns, doubles in their
// shortest round-trip text), so a summary read back is the row it was.
// The document (a field is only ever added; `schema` says which version):
//   {"format": "overlapscope-rank-summary", "schema": 1,
//    "path": "traces/rank3.json", "error": "", "notes": [...],
//    "runs": [{"run": ..., "rank": 3, "rankSource": "trace", "device": ...,
//              "clockOriginNs": ... or null, "steps": [[k, beginNs], ...],
//              "judged": ..., "hasSteps": true, "stepsJudged": 5,
//              "stepMedianNs": ..., "stepSlowestNs": ..., "slowestStep": ...,
//              "gpuBusyPercent": ..., "overlapPercent": ...,
//              "overlapOfPossiblePercent": ..., "bound": ...,
//              "collectiveMedianNs": -1 or ...,
//              "findings": [{"kind": "pageable-memory", "costNs": ...,
//                            "costSource": "replay", "fix": ...}]}]}
// "kind" is the finding's id as `analyze --json` writes it (kinds joined
// by "+" for a combined finding).

#include "ranks/RankFolder.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ovs {

inline constexpr std::string_view kRankSummaryFormatName = "overlapscope-rank-summary";
inline constexpr int kRankSummarySchema = 1;

// The summary's text (one line of JSON and a line break).
std::string rankSummaryJson(const RankFileSummary& summary);

// The summary `text` holds; nothing where it is not one, with `error` (one
// line, without a path) saying why. Every field is checked: a summary from
// elsewhere is input like any trace.
std::optional<RankFileSummary> rankSummaryFromJson(std::string_view text, std::string* error);

// Whether the file at `path` starts as a rank summary does: `{"format":
// "overlapscope-rank-summary"` (white space allowed between the tokens).
// False where it cannot be read; loadTrace then says why.
bool isRankSummaryFile(const std::string& path);

// The summary in the file at `path` (a regular file of at most `maxBytes`);
// nothing where it cannot be read or is not one, with `error` naming the
// file and saying why.
std::optional<RankFileSummary> loadRankSummary(const std::string& path, std::uint64_t maxBytes, std::string* error);

} // namespace ovs
