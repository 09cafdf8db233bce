#pragma once

#include "trace/Op.h"

#include <cstdint>

namespace ovs::test {

// An op in one line, for hand-built runs in tests. Exec times of -1 mean
// "no engine-true interval".
inline Op makeOp(OpKind kind, int lane, int chunk, std::int64_t start, std::int64_t end, std::uint64_t bytes = 0,
                 HostMemoryKind memory = HostMemoryKind::None, std::int64_t execStart = -1,
                 std::int64_t execEnd = -1)
{
    Op op;
    op.kind = kind;
    op.lane = static_cast<std::uint16_t>(lane);
    op.chunk = chunk;
    op.startNs = start;
    op.endNs = end;
    op.bytes = bytes;
    op.memory = memory;
    op.execStartNs = execStart;
    op.execEndNs = execEnd;
    return op;
}

} // namespace ovs::test
