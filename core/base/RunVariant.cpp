#include "base/RunVariant.h"

#include <array>

namespace ovs {

namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> fromId(std::string_view id, const std::array<Enum, N>& all)
{
    for (Enum value : all)
        if (id == toString(value))
            return value;
    return std::nullopt;
}

template <typename Enum, std::size_t N>
std::string ids(const std::array<Enum, N>& all)
{
    std::string text;
    for (Enum value : all)
        text += std::string(text.empty() ? "" : ", ") + toString(value);
    return text;
}

constexpr std::array kIssueOrders{IssueOrder::DepthFirst, IssueOrder::BreadthFirst};
constexpr std::array kStreamSyncs{StreamSync::NonBlocking, StreamSync::Blocking};
constexpr std::array kDefaultStreamOps{DefaultStreamOp::None, DefaultStreamOp::Legacy, DefaultStreamOp::PerThread};
constexpr std::array kLoopAllocations{LoopAllocation::None, LoopAllocation::Malloc, LoopAllocation::MallocFree};

} // namespace

const char* toString(IssueOrder order)
{
    switch (order) {
    case IssueOrder::DepthFirst: return "depth-first";
    case IssueOrder::BreadthFirst: return "breadth-first";
    }
    return "unknown";
}

const char* toString(StreamSync sync)
{
    switch (sync) {
    case StreamSync::NonBlocking: return "non-blocking";
    case StreamSync::Blocking: return "blocking";
    }
    return "unknown";
}

const char* toString(DefaultStreamOp op)
{
    switch (op) {
    case DefaultStreamOp::None: return "none";
    case DefaultStreamOp::Legacy: return "legacy";
    case DefaultStreamOp::PerThread: return "per-thread";
    }
    return "unknown";
}

const char* toString(LoopAllocation allocation)
{
    switch (allocation) {
    case LoopAllocation::None: return "none";
    case LoopAllocation::Malloc: return "malloc";
    case LoopAllocation::MallocFree: return "malloc-free";
    }
    return "unknown";
}

std::optional<IssueOrder> issueOrderFromId(std::string_view id) { return fromId(id, kIssueOrders); }
std::optional<StreamSync> streamSyncFromId(std::string_view id) { return fromId(id, kStreamSyncs); }
std::optional<DefaultStreamOp> defaultStreamOpFromId(std::string_view id) { return fromId(id, kDefaultStreamOps); }
std::optional<LoopAllocation> loopAllocationFromId(std::string_view id) { return fromId(id, kLoopAllocations); }

std::string issueOrderIds() { return ids(kIssueOrders); }
std::string streamSyncIds() { return ids(kStreamSyncs); }
std::string defaultStreamOpIds() { return ids(kDefaultStreamOps); }
std::string loopAllocationIds() { return ids(kLoopAllocations); }

} // namespace ovs
