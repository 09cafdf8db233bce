#pragma once

#include "device/Device.h"

#include <memory>
#include <string>

namespace ovs {

// Compiled only when OVERLAPSCOPE_HAVE_CUDA is set. Implemented in CudaDevice.cpp.
bool cudaRuntimeHasDevice(std::string* why);
int cudaDeviceCount();
std::unique_ptr<Device> createCudaDevice(int ordinal);

} // namespace ovs
