#pragma once

#include "trace/Op.h"

#include <cstdint>

namespace ovs {

// When an op held its engine or its thread: for a GPU op the engine's own
// (exec) times where the recording has them (CUPTI, the simulator's engine
// model), since its event times include the wait behind another stream's
// op; for anything else, or without them, its recorded times. The one
// answer to "engine-true where known" for the metrics, the findings, the
// rates, the host shares and the replay's graph.
inline std::int64_t busyBeginNs(const Op& op)
{
    return isGpuOp(op.kind) && op.hasExec() ? op.execStartNs : op.startNs;
}
inline std::int64_t busyEndNs(const Op& op)
{
    return isGpuOp(op.kind) && op.hasExec() ? op.execEndNs : op.endNs;
}

} // namespace ovs
