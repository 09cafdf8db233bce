#pragma once

#include "judgement/HostShare.h"
#include "analysis/RunAnalysis.h"
#include "trace/Run.h"

#include <memory>
#include <optional>

namespace ovs::ui {

// One finished run as core's analysis judged it, kept by AnalysisCache.
struct AnalysedRun {
    // The run as analysed: core's copy with its ops sorted, which the
    // findings' op indices point into and the what-if replays.
    std::shared_ptr<const Run> run;
    RunAnalysis analysis;
    // Runs on several GPUs of one host: how they shared it.
    std::optional<HostShare> hostShare;
};

} // namespace ovs::ui
