#pragma once

#include "bench/BandwidthBench.h"
#include "pipeline/PipelineConfig.h"

#include <optional>
#include <vector>

namespace ovs {

// What one request asks of a device: the pipelines in order, then the
// bandwidth sweep if there is one. The CLI's record, pipeline and bench
// commands and the window's Run button all build one of these.
struct JobList {
    std::vector<PipelineConfig> pipelines;
    std::optional<BenchConfig> sweep;

    int count() const { return static_cast<int>(pipelines.size()) + (sweep ? 1 : 0); }
};

} // namespace ovs
