#include "trace/Op.h"

#include <array>

namespace ovs {

namespace {
constexpr std::array<const char*, kOpKindCount> kOpKindNames = {
    "upload", "kernel", "download", "stage_in", "stage_out", "host_wait", "alloc", "free", "sync", "register",
    "memset", "device_copy", "api_call", "peer_copy", "unified_memory",
};
}

const char* toString(OpKind kind)
{
    const auto i = static_cast<std::size_t>(kind);
    return i < kOpKindNames.size() ? kOpKindNames[i] : "unknown";
}

std::optional<OpKind> opKindFromString(std::string_view name)
{
    for (std::size_t i = 0; i < kOpKindNames.size(); ++i)
        if (name == kOpKindNames[i])
            return static_cast<OpKind>(i);
    return std::nullopt;
}

std::optional<HostMemoryKind> hostMemoryKindFromString(std::string_view name)
{
    for (auto k : {HostMemoryKind::None, HostMemoryKind::Pageable, HostMemoryKind::Pinned, HostMemoryKind::Registered,
                   HostMemoryKind::Managed, HostMemoryKind::Device})
        if (name == toString(k))
            return k;
    return std::nullopt;
}

const char* toString(LaneKind kind)
{
    return kind == LaneKind::Stream ? "stream" : "host";
}

std::optional<LaneKind> laneKindFromString(std::string_view name)
{
    if (name == "stream")
        return LaneKind::Stream;
    if (name == "host")
        return LaneKind::HostThread;
    return std::nullopt;
}

bool isGpuOp(OpKind kind)
{
    return kind == OpKind::Upload || kind == OpKind::Kernel || kind == OpKind::Download || kind == OpKind::Memset
           || kind == OpKind::DeviceCopy || kind == OpKind::PeerCopy;
}

bool isStreamLaneOp(OpKind kind)
{
    return isGpuOp(kind) || kind == OpKind::UnifiedMemory;
}

} // namespace ovs
