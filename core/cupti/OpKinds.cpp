#include "cupti/OpKinds.h"

#include "cupti/RecordValues.h"

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

} // namespace ovs::cupti
