#pragma once

#include "device/Device.h"
#include "pipeline/PipelineConfig.h"
#include "base/CancelFlag.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ovs {

// What recording costs: every pipeline run with its ops recorded (events
// around every GPU op, engine records, host ops) and without (wall time
// only), interleaved in one process, so drift between runs falls on both
// alike. Overlapped runs with several staging threads also run without
// recording on plain std::threads started per copy instead of the device's
// persistent pool (real devices only), to show the pool's hand-off cost.
struct ObserverConfig {
    std::vector<PipelineConfig> pipelines;
    int repetitions = 7;
    int warmups = 1; // repetitions run first and dropped (first-touch, thread start, caches)
};

enum class ObserverMode { Recorded, WallOnly, PlainThreads };
const char* toString(ObserverMode mode); // "recorded", "wall only", "plain threads"

struct ObserverRow {
    std::string name; // the run's name
    std::vector<double> recordedMs;
    std::vector<double> wallOnlyMs;
    std::vector<double> plainThreadsMs; // empty where it does not apply
    std::string problem;                // a run that failed or did not verify: why; empty when all passed

    double recordedMedianMs() const;
    double wallOnlyMedianMs() const;
    double plainThreadsMedianMs() const; // 0 when not measured
    std::pair<double, double> pairedRatioQuartiles() const;
    // Recorded over wall-only medians: 1.03 means recording costs 3%.
    double recordingRatio() const;
    // Repetition i's recorded time over its wall-only time. The two ran next
    // to each other, so drift between repetitions (host memory, clocks,
    // other tenants) divides out: their median is the cost to quote when the
    // runs spread more than the cost measured.
    std::vector<double> pairedRatios() const;
    double pairedRatioMedian() const;
    // The middle half of the paired ratios (25th..75th percentile): a cost is
    // shown when the whole range is above 1.
};

// A fresh device for each run: `opTiming` false must give one that traces
// nothing (on CUDA, no CUPTI: it traces every call once attached).
using ObserverDeviceMaker = std::function<std::unique_ptr<Device>(bool opTiming)>;
// Called before each run with what it is about to do.
using ObserverProgress = std::function<void(int done, int total, const std::string& what)>;

// Repetition r runs each pipeline's modes in turn, the order reversed on
// every other repetition so neither mode always goes first. Throws
// DeviceError when a device cannot be made, RunCancelled when cancelled.
std::vector<ObserverRow> runObserverBench(const ObserverDeviceMaker& makeDevice, const ObserverConfig& config,
                                          const CancelFlag& cancel, const ObserverProgress& progress = {});

} // namespace ovs
