#pragma once

#include "cupti/GpuActivity.h"

#include <cupti_activity.h>

#include <optional>

namespace ovs::cupti {

// The GPU work in an activity record: copies (MEMCPY, MEMCPY2), memsets and
// concurrent kernels, decoded; nullopt for every other kind of record. Both
// collectors read GPU records only through this, so they agree on kinds,
// memory and which records are timed; it needs no GPU, so tests feed it
// records built in memory.
//
// The layouts read are those of the CUPTI headers we build with (CUDA 13's
// CUpti_ActivityMemcpy6, MemcpyPtoP4, Memset4, Kernel10); libcupti of the
// same major version writes them (Library loads that one first).
std::optional<GpuActivity> decodeGpuActivity(const CUpti_Activity& record);

} // namespace ovs::cupti
