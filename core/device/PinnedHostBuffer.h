#pragma once

#include "device/OwnedAllocation.h"

#include <span>

namespace ovs {

// Page-locked host memory for `count` elements of T: the DMA engines read and
// write it directly, which is what lets a copy run asynchronously.
//
// Host access goes through span(), which tells the device; the simulator
// reports a hazard if a copy on the buffer is still in flight. Freeing waits
// for queued work on the buffer first.
template <typename T>
class PinnedHostBuffer : public OwnedAllocation<T, &Device::allocatePinned, &Device::freePinned> {
public:
    using OwnedAllocation<T, &Device::allocatePinned, &Device::freePinned>::OwnedAllocation;

    std::span<T> span()
    {
        this->device().checkHostAccess(this->data(), this->bytes());
        return {this->data(), this->size()};
    }
    std::span<const T> span() const
    {
        this->device().checkHostAccess(this->data(), this->bytes());
        return {this->data(), this->size()};
    }
    // Raw address for enqueueing copies; does not count as a host access.
    T* hostPtr() const { return this->data(); }
};

} // namespace ovs
