#include "bench/ObserverBench.h"

#include "bench/PlainThreadCopyDevice.h"
#include "pipeline/PipelineRunner.h"
#include "record/RecordSink.h"
#include "trace/BandwidthSweep.h"

#include <algorithm>
#include <vector>

namespace ovs {

const char* toString(ObserverMode mode)
{
    switch (mode) {
    case ObserverMode::Recorded: return "recorded";
    case ObserverMode::WallOnly: return "wall only";
    case ObserverMode::PlainThreads: return "plain threads";
    }
    return "?";
}

double ObserverRow::recordedMedianMs() const { return medianOf(recordedMs); }
double ObserverRow::wallOnlyMedianMs() const { return medianOf(wallOnlyMs); }
double ObserverRow::plainThreadsMedianMs() const { return medianOf(plainThreadsMs); }

double ObserverRow::recordingRatio() const
{
    const double bare = wallOnlyMedianMs();
    return bare > 0 ? recordedMedianMs() / bare : 0.0;
}

std::vector<double> ObserverRow::pairedRatios() const
{
    std::vector<double> ratios;
    const std::size_t n = std::min(recordedMs.size(), wallOnlyMs.size());
    for (std::size_t i = 0; i < n; ++i)
        if (wallOnlyMs[i] > 0)
            ratios.push_back(recordedMs[i] / wallOnlyMs[i]);
    return ratios;
}

double ObserverRow::pairedRatioMedian() const { return medianOf(pairedRatios()); }

std::pair<double, double> ObserverRow::pairedRatioQuartiles() const
{
    std::vector<double> r = pairedRatios();
    if (r.empty())
        return {0.0, 0.0};
    std::sort(r.begin(), r.end());
    // Linear interpolation between closest ranks.
    const auto at = [&r](double q) {
        const double pos = q * static_cast<double>(r.size() - 1);
        const auto below = static_cast<std::size_t>(pos);
        const std::size_t above = std::min(below + 1, r.size() - 1);
        return r[below] + (r[above] - r[below]) * (pos - static_cast<double>(below));
    };
    return {at(0.25), at(0.75)};
}

namespace {

bool usesStagingThreads(const PipelineConfig& config)
{
    return config.kind == PipelineKind::Overlapped && config.stagingThreads > 1;
}

std::vector<ObserverMode> modesOf(const PipelineConfig& config, bool simulated)
{
    std::vector<ObserverMode> modes = {ObserverMode::Recorded, ObserverMode::WallOnly};
    if (usesStagingThreads(config) && !simulated)
        modes.push_back(ObserverMode::PlainThreads);
    return modes;
}

double runOnce(const ObserverDeviceMaker& makeDevice, PipelineConfig config, ObserverMode mode,
               const CancelFlag& cancel, std::string& problem)
{
    config.opTiming = mode == ObserverMode::Recorded;
    std::unique_ptr<Device> device = makeDevice(config.opTiming);
    std::unique_ptr<Device> plain;
    Device* used = device.get();
    if (mode == ObserverMode::PlainThreads) {
        plain = std::make_unique<PlainThreadCopyDevice>(*device);
        used = plain.get();
    } else if (usesStagingThreads(config)) {
        // The pool starts its threads on first need; a CLI run finds them
        // started by the runs before it, so start them before the timer here.
        std::vector<std::byte> a(4096), b(4096);
        device->hostCopyParallel(a.data(), b.data(), a.size(), config.stagingThreads);
    }
    RecordSink sink;
    const Run run = runPipeline(*used, config, sink, cancel);
    if (run.status == RunStatus::Cancelled)
        throw RunCancelled();
    if (run.status != RunStatus::Completed || !run.verification.passed) {
        if (problem.empty())
            problem = std::string(toString(mode)) + ": " + (run.error.empty() ? run.verification.message : run.error);
        return 0;
    }
    return static_cast<double>(run.wallNs()) / 1e6;
}

} // namespace

std::vector<ObserverRow> runObserverBench(const ObserverDeviceMaker& makeDevice, const ObserverConfig& config,
                                          const CancelFlag& cancel, const ObserverProgress& progress)
{
    const bool simulated = makeDevice(false)->info().simulated;
    std::vector<ObserverRow> rows(config.pipelines.size());
    int total = 0;
    for (std::size_t p = 0; p < config.pipelines.size(); ++p) {
        rows[p].name = pipelineTitle(config.pipelines[p]);
        total += static_cast<int>(modesOf(config.pipelines[p], simulated).size());
    }
    total *= config.warmups + config.repetitions;

    int done = 0;
    for (int r = 0; r < config.warmups + config.repetitions; ++r) {
        const bool measured = r >= config.warmups;
        for (std::size_t p = 0; p < config.pipelines.size(); ++p) {
            std::vector<ObserverMode> modes = modesOf(config.pipelines[p], simulated);
            if (r % 2 == 1)
                std::reverse(modes.begin(), modes.end());
            for (ObserverMode mode : modes) {
                cancel.throwIfCancelled();
                if (progress)
                    progress(done, total, rows[p].name + ", " + toString(mode) + (measured ? "" : " (warm-up)"));
                const double ms = runOnce(makeDevice, config.pipelines[p], mode, cancel, rows[p].problem);
                ++done;
                if (!measured || ms <= 0)
                    continue;
                (mode == ObserverMode::Recorded   ? rows[p].recordedMs
                 : mode == ObserverMode::WallOnly ? rows[p].wallOnlyMs
                                                  : rows[p].plainThreadsMs)
                    .push_back(ms);
            }
        }
    }
    return rows;
}

} // namespace ovs
