#include "cupti/OpKinds.h"

#include "cupti/RecordValues.h"

#include <utility>

namespace ovs::cupti {

HostMemoryKind memoryKind(std::uint32_t cuptiMemoryKind)
{
    switch (cuptiMemoryKind) {
    case kMemoryPageable: return HostMemoryKind::Pageable;
    case kMemoryPinned: return HostMemoryKind::Pinned;
    case kMemoryDevice:
    case kMemoryArray:
    case kMemoryDeviceStatic: return HostMemoryKind::Device;
    case kMemoryManaged:
    case kMemoryManagedStatic: return HostMemoryKind::Managed;
    default: return HostMemoryKind::None;
    }
}

CopyOp copyOp(std::uint32_t copyKind, std::uint32_t srcKind, std::uint32_t dstKind, bool peer)
{
    switch (copyKind) {
    case kCopyHtoD:
    case kCopyHtoA: return {OpKind::Upload, memoryKind(srcKind)};
    case kCopyDtoH:
    case kCopyAtoH: return {OpKind::Download, memoryKind(dstKind)};
    default:
        // Device to device, peer, and the rare host to host through the copy
        // engine: no host side to speak of. Peer copies run between two GPUs:
        // a kind of their own.
        return {peer ? OpKind::PeerCopy : OpKind::DeviceCopy,
                srcKind == kMemoryManaged || dstKind == kMemoryManaged ? HostMemoryKind::Managed
                                                                       : HostMemoryKind::Device};
    }
}

std::uint32_t copyKindFromWord(std::string_view word)
{
    constexpr std::pair<std::string_view, std::uint32_t> kWords[] = {
        {"HtoD", kCopyHtoD}, {"DtoH", kCopyDtoH}, {"HtoA", kCopyHtoA}, {"AtoH", kCopyAtoH}, {"AtoA", kCopyAtoA},
        {"AtoD", kCopyAtoD}, {"DtoA", kCopyDtoA}, {"DtoD", kCopyDtoD}, {"HtoH", kCopyHtoH}, {"PtoP", kCopyPtoP},
    };
    for (const auto& [text, value] : kWords)
        if (word == text)
            return value;
    return kCopyUnknown;
}

std::uint32_t memoryKindFromWord(std::string_view word)
{
    constexpr std::pair<std::string_view, std::uint32_t> kWords[] = {
        {"Pageable", kMemoryPageable}, {"Pinned", kMemoryPinned},        {"Device", kMemoryDevice},
        {"Array", kMemoryArray},       {"Managed", kMemoryManaged},      {"Device Static", kMemoryDeviceStatic},
        {"Managed Static", kMemoryManagedStatic},
    };
    for (const auto& [text, value] : kWords)
        if (word == text)
            return value;
    return kMemoryUnknown;
}

} // namespace ovs::cupti
