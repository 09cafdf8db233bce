#pragma once

#include "findings/Findings.h"
#include "facts/RunIndex.h"
#include "trace/Run.h"

#include <vector>

namespace ovs {

// Gives each finding the user's lines its CUDA calls came from
// (Finding::sources), the PyTorch ops around them, named by their cause
// where one is an implicit synchronization (Finding::torchOps,
// TorchSyncCauses.h), and a note where the trace cannot say. Reads only
// the run's typed call sources (Run::opSources): a GPU op counts as the
// host call that enqueued it (its correlation, looked up in the run's
// index). One pass after the findings are made; it changes nothing else of
// them.
void attachSources(const RunIndex& index, std::vector<Finding>& findings);

} // namespace ovs
