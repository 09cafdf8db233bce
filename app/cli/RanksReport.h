#pragma once

#include "ranks/RankFolder.h"

#include <cstdio>
#include <string>
#include <vector>

namespace ovs::cli {

// `analyze DIR`: the ranks table, how well the ranks' clocks align, the
// straggler and the finding that differs on it (docs/ranks.md).
void printRanks(std::FILE* out, const RankFolder& folder);

// After a trace's findings: where two or more of its runs say their rank (a
// `profile` of a distributed job), the same table over them.
void printRanksOfTrace(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses,
                       const std::string& path);

} // namespace ovs::cli
