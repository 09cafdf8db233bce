#pragma once

// `overlapscope-cli analyze --json DIR` (or several files): the ranks table,
// their alignment and the straggler, machine-readable. The schema is in
// docs/ranks.md; a field is only ever added, and `schema` says which version
// a reader gets.

#include "ranks/RankFolder.h"

#include <string>

namespace ovs {

inline constexpr int kRanksJsonSchema = 1;

std::string ranksJson(const RankFolder& folder);

} // namespace ovs
