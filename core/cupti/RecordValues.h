#pragma once

// CUPTI's CUpti_ActivityMemcpyKind and CUpti_ActivityMemoryKind values, by
// name, for code that reads them without CUPTI's headers: the record stream
// stores them as CUPTI wrote them (profile/ProfileRecord.h), and the reader
// builds where no CUDA toolkit is. GpuActivityDecoder.cpp checks them against
// the headers wherever those exist.
//
// Shared with the injection library through ProfileRecord.h: keep it free of
// includes beyond <cstdint>.

#include <cstdint>

namespace ovs::cupti {

enum MemcpyKind : std::uint8_t {
    kCopyUnknown = 0, kCopyHtoD = 1, kCopyDtoH = 2, kCopyHtoA = 3, kCopyAtoH = 4, kCopyAtoA = 5,
    kCopyAtoD = 6, kCopyDtoA = 7, kCopyDtoD = 8, kCopyHtoH = 9, kCopyPtoP = 10,
};
enum MemoryKind : std::uint8_t {
    kMemoryUnknown = 0, kMemoryPageable = 1, kMemoryPinned = 2, kMemoryDevice = 3, kMemoryArray = 4,
    kMemoryManaged = 5, kMemoryDeviceStatic = 6, kMemoryManagedStatic = 7,
};

} // namespace ovs::cupti
