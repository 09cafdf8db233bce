#pragma once

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <cstdio>
#include <vector>

namespace ovs::cli {

// The tables the CLI prints, in the seed's layout.
void printDeviceLine(std::FILE* out, const DeviceInfo& device, const std::string& timing);
void printBandwidthTable(std::FILE* out, const BandwidthSweep& sweep);
void printPipelineTable(std::FILE* out, const std::vector<Run>& runs);
// Per run: how many ops of each kind were recorded, and on how many lanes.
void printOpCounts(std::FILE* out, const std::vector<Run>& runs);

} // namespace ovs::cli
