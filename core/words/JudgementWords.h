#pragma once

// What was judged, and each repeated region's judgement, in words: the
// lines `analyze` prints ("Judged: ...", "Each of ...") and the window
// shows, written once here so the two never word it differently.

#include "analysis/RegionJudgement.h"
#include "analysis/RunAnalysis.h"
#include "trace/Run.h"

#include <string>
#include <vector>

namespace ovs {

// One line of words and how deep it sits under the line it belongs to
// (0: a heading; the CLI indents three spaces a level, the window nests).
struct WordsLine {
    int depth = 0;
    std::string text;
};

// "Judged: steps ProfilerStep#1 to #9, 108.000 ms of the 130.000 ms timed
// region; setup: ...", or "Judged: the timed region (12.000 ms): why".
// Empty for our pipelines' runs, where the timed region is the rule.
std::string judgedSentence(const Run& run, const RunAnalysis& analysis);

// One repeated region judged instance by instance: "Each of ProfilerStep#N:
// 9 judged; median ..., slowest ...; bound in 9 of 9: ..." (depth 0), then
// each finding common to most instances with its cause and fix (depths 1
// and 2), then what every fix together saves an instance (depth 1).
std::vector<WordsLine> regionJudgementWords(const Run& run, const RegionJudgement& judgement);

} // namespace ovs
