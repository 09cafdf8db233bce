#pragma once

#include "trace/Run.h"

#include <QString>

namespace ovs::ui {

// The devices a run was recorded on, in one label: the device's label for
// one GPU ("NVIDIA H200", "... [simulated]"); for several GPUs of one host
// "2 × Simulated H200 (PCIe Gen5) [simulated]" when alike, else
// "2 GPUs: A, B". "[simulated]" always survives (DeviceInfo::label).
QString runDevicesLabel(const Run& run);

} // namespace ovs::ui
