#pragma once

#include "bench/BandwidthBench.h"
#include "pipeline/PipelineConfig.h"

#include <QMetaType>
#include <QString>

#include <vector>

namespace ovs::ui {

// Everything one press of Run asks for: which device, the pipelines to run
// one after another on it, and optionally the bandwidth sweep after them.
struct RunRequest {
    QString deviceSpec = QStringLiteral("sim:h200"); // as ovs::createDevice takes it
    std::vector<PipelineConfig> pipelines;
    bool runBench = false;
    BenchConfig bench;

    // Empty when the request can run; else the first problem, worded for the
    // user (the core's own messages for impossible parameters).
    QString problem() const
    {
        if (deviceSpec.trimmed().isEmpty())
            return QStringLiteral("no device chosen");
        if (pipelines.empty() && !runBench)
            return QStringLiteral("nothing to run: choose a pipeline or the bandwidth sweep");
        for (const auto& config : pipelines)
            if (const std::string message = validate(config); !message.empty())
                return QString::fromStdString(message);
        if (runBench)
            if (const std::string message = validate(bench); !message.empty())
                return QString::fromStdString(message);
        return {};
    }
};

} // namespace ovs::ui

Q_DECLARE_METATYPE(ovs::ui::RunRequest)
