#include "cupti/GpuActivityDecoder.h"

#include "cupti/OpKinds.h"
#include "cupti/RecordValues.h"
#include "cupti/Timing.h"

namespace ovs::cupti {

namespace {

// The stream and its reader use our names for CUPTI's values; they must be CUPTI's.
constexpr bool same(int ours, int cupti)
{
    return ours == cupti;
}
static_assert(same(kCopyHtoD, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD) && same(kCopyDtoH, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
              && same(kCopyHtoA, CUPTI_ACTIVITY_MEMCPY_KIND_HTOA) && same(kCopyAtoH, CUPTI_ACTIVITY_MEMCPY_KIND_ATOH)
              && same(kCopyAtoA, CUPTI_ACTIVITY_MEMCPY_KIND_ATOA) && same(kCopyAtoD, CUPTI_ACTIVITY_MEMCPY_KIND_ATOD)
              && same(kCopyDtoA, CUPTI_ACTIVITY_MEMCPY_KIND_DTOA) && same(kCopyDtoD, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD)
              && same(kCopyHtoH, CUPTI_ACTIVITY_MEMCPY_KIND_HTOH) && same(kCopyPtoP, CUPTI_ACTIVITY_MEMCPY_KIND_PTOP));
static_assert(same(kMemoryPageable, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE)
              && same(kMemoryPinned, CUPTI_ACTIVITY_MEMORY_KIND_PINNED)
              && same(kMemoryDevice, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE)
              && same(kMemoryArray, CUPTI_ACTIVITY_MEMORY_KIND_ARRAY)
              && same(kMemoryManaged, CUPTI_ACTIVITY_MEMORY_KIND_MANAGED)
              && same(kMemoryDeviceStatic, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC)
              && same(kMemoryManagedStatic, CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC));

// What every GPU record has, under the same names.
template <typename Record>
GpuActivity workOf(const Record& r)
{
    GpuActivity a;
    a.timed = isTimed(r.start, r.end);
    a.startNs = r.start;
    a.endNs = r.end;
    a.deviceId = r.deviceId;
    a.contextId = r.contextId;
    a.streamId = r.streamId;
    a.correlationId = r.correlationId;
    a.graphId = r.graphId;
    return a;
}

template <typename Record>
GpuActivity copyOf(const Record& r, bool peer)
{
    GpuActivity a = workOf(r);
    const CopyOp op = copyOp(r.copyKind, r.srcKind, r.dstKind, peer);
    a.kind = op.kind;
    a.memory = op.memory;
    a.bytes = r.bytes;
    a.copyKind = r.copyKind;
    a.srcKind = r.srcKind;
    a.dstKind = r.dstKind;
    a.async = (r.flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
    a.peer = peer;
    return a;
}

GpuActivity memcpyOf(const CUpti_ActivityMemcpy6& r)
{
    GpuActivity a = copyOf(r, false);
    a.srcDeviceId = a.dstDeviceId = r.deviceId;
    return a;
}

GpuActivity peerMemcpyOf(const CUpti_ActivityMemcpyPtoP4& r)
{
    GpuActivity a = copyOf(r, true);
    a.srcDeviceId = r.srcDeviceId;
    a.dstDeviceId = r.dstDeviceId;
    return a;
}

GpuActivity memsetOf(const CUpti_ActivityMemset4& r)
{
    GpuActivity a = workOf(r);
    a.kind = OpKind::Memset;
    a.memory = memoryKind(r.memoryKind);
    a.bytes = r.bytes;
    a.memsetMemoryKind = r.memoryKind;
    a.memsetFlags = r.flags;
    return a;
}

GpuActivity kernelOf(const CUpti_ActivityKernel10& r)
{
    GpuActivity a = workOf(r);
    a.kind = OpKind::Kernel;
    a.name = r.name;
    a.grid[0] = r.gridX;
    a.grid[1] = r.gridY;
    a.grid[2] = r.gridZ;
    a.block[0] = r.blockX;
    a.block[1] = r.blockY;
    a.block[2] = r.blockZ;
    a.sharedMemoryBytes = static_cast<std::uint32_t>(r.staticSharedMemory + r.dynamicSharedMemory);
    a.registersPerThread = r.registersPerThread;
    return a;
}

} // namespace

std::optional<GpuActivity> decodeGpuActivity(const CUpti_Activity& record)
{
    switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: return memcpyOf(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record));
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return peerMemcpyOf(reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record));
    case CUPTI_ACTIVITY_KIND_MEMSET: return memsetOf(reinterpret_cast<const CUpti_ActivityMemset4&>(record));
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return kernelOf(reinterpret_cast<const CUpti_ActivityKernel10&>(record));
    default: return std::nullopt;
    }
}

} // namespace ovs::cupti
