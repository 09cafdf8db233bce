#pragma once

#include <optional>
#include <string_view>

namespace ovs {

// The rank a trace file's name gives, where the trace itself says none:
// the number after "rank" or "worker" ("rank3.json", "trace_rank_12.json",
// "worker-3.pt.trace.json"), case-insensitive. Other numbers are not ranks:
// torch.profiler names its files "HOST_PID.TIMESTAMP.pt.trace.json".
std::optional<int> rankFromFileName(std::string_view fileName);

} // namespace ovs
