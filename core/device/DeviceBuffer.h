#pragma once

#include "device/OwnedAllocation.h"

namespace ovs {

// Device memory for `count` elements of T. Freeing waits for work still using it.
template <typename T>
class DeviceBuffer : public OwnedAllocation<T, &Device::allocateDevice, &Device::freeDevice> {
public:
    using OwnedAllocation<T, &Device::allocateDevice, &Device::freeDevice>::OwnedAllocation;

    // A device address: never dereference on the host.
    T* devicePtr() const { return this->data(); }
};

} // namespace ovs
