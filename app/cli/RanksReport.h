#pragma once

#include "ranks/RankFolder.h"

#include <cstdio>

namespace ovs::cli {

// `analyze DIR`: the ranks table, how well the ranks' clocks align, the
// straggler and the finding that differs on it (docs/ranks.md).
void printRanks(std::FILE* out, const RankFolder& folder);

} // namespace ovs::cli
