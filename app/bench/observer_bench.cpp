// overlapscope-observer-bench: what recording costs. Runs each strategy with
// its ops recorded and with only its wall time taken, interleaved in one
// process, and prints the medians and their ratio (docs/measurements.md).
// No Qt: it builds and runs wherever the CLI does.

#include "../cli/CliArgs.h"

#include "bench/ObserverBench.h"
#include "devicefactory/DeviceFactory.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace ovs;
using ovs::cli::CliArgs;
using ovs::cli::UsageError;

namespace {

const char* kUsage = R"(overlapscope-observer-bench: what recording costs, per strategy

Usage: overlapscope-observer-bench [options]

Each run is made twice, interleaved: recorded as overlapscope-cli records it (events around every
GPU op, CUPTI engine records where available, host ops), and with only its wall time taken (no
events, no CUPTI, no ops; overlapscope-cli --no-op-timing). Overlapped runs with several staging
threads also run on plain std::threads started per copy instead of the persistent copy pool
(real GPUs only). Prints the medians and recorded / wall only.

  --device SPEC          auto (default), cuda, cuda:N, sim, sim:h200, sim:rtx4090
  --pipelines LIST       strategies, or all (default all)
  --staging-threads LIST staging threads of the overlapped runs, one run each (default 1,8)
  --chunks N             (default 8)   --chunk-mib N (default 32)   --slots N (default 3)
  --kernel-repeats N     (default 1)
  --repetitions N        measured repetitions (default 7)
  --warmups N            repetitions run first and dropped (default 1)
  --quiet                no progress on stderr
)";

// Sets an environment variable for as long as it lives, then restores it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : m_name(name)
    {
        if (const char* old = std::getenv(name))
            m_old = old;
        if (value)
            setenv(name, value, 1);
    }
    ~ScopedEnv()
    {
        if (m_old)
            setenv(m_name, m_old->c_str(), 1);
        else
            unsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

std::vector<PipelineConfig> configsFrom(const CliArgs& args)
{
    PipelineConfig base;
    base.chunks = static_cast<int>(args.integer("--chunks", base.chunks, 1, 1'000'000));
    base.chunkBytes = static_cast<std::uint64_t>(args.integer("--chunk-mib", 32, 1, static_cast<long long>(kMaxChunkBytes >> 20))) << 20;
    base.slotCount = static_cast<int>(args.integer("--slots", base.slotCount, 1, 64));
    base.kernelRepeats = static_cast<int>(args.integer("--kernel-repeats", base.kernelRepeats, 1, 100000));
    std::vector<int> threads;
    for (const auto& item : args.list("--staging-threads", {"1", "8"}))
        threads.push_back(static_cast<int>(cli::parseInteger(item, "--staging-threads", 1, 64)));

    std::string error;
    const auto kinds = pipelineKindsFromIds(args.list("--pipelines", {"all"}), &error);
    if (!kinds)
        throw UsageError(error);
    std::vector<PipelineConfig> configs;
    for (const PipelineKind kind : *kinds) {
        PipelineConfig config = base;
        config.kind = kind;
        for (std::size_t t = 0; t < (kind == PipelineKind::Overlapped ? threads.size() : 1); ++t) {
            if (kind == PipelineKind::Overlapped)
                config.stagingThreads = threads[t];
            if (std::string problem = validate(config); !problem.empty())
                throw UsageError(problem);
            configs.push_back(config);
        }
    }
    return configs;
}

std::string cell(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// What the recorded runs' device was, said before the bench: a device kept
// alive through it would keep CUPTI tracing the wall-only runs too.
struct DeviceLabel {
    DeviceInfo info;
    std::string engine;
    std::string whyNoEngine;
};

void printTable(const ObserverConfig& config, const std::vector<ObserverRow>& rows, const DeviceLabel& device)
{
    const DeviceInfo& info = device.info;
    std::printf("Device: %s\n", info.label().c_str());
    if (info.simulated) {
        std::printf("        SIMULATED: the model charges every API call (so every extra event of recording) its "
                    "call time; it has no real threads, so no plain-thread runs\n");
    } else {
        std::printf("        recorded runs: CUDA events%s%s\n",
                    device.engine.empty() ? " only: " : " + CUPTI engine records",
                    device.engine.empty() ? device.whyNoEngine.c_str() : "");
    }
    const PipelineConfig& first = config.pipelines.front();
    std::printf("\nObserver effect: %d chunks x %llu MiB, %d slots, kernel x%d; median of %d runs each, interleaved, "
                "after %d warm-up round%s\n",
                first.chunks, static_cast<unsigned long long>(first.chunkBytes >> 20), first.slotCount,
                first.kernelRepeats, config.repetitions, config.warmups, config.warmups == 1 ? "" : "s");
    std::printf("| pipeline | recorded ms | wall only ms | recorded / wall only | paired ratio median (middle "
                "half) | wall only min..max ms | plain threads ms | pool / plain |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const ObserverRow& row : rows) {
        if (row.wallOnlyMs.empty() || row.recordedMs.empty()) {
            std::printf("| %s | - | - | - | - | - | - | - |\n", row.name.c_str());
            continue;
        }
        const auto [lo, hi] = std::minmax_element(row.wallOnlyMs.begin(), row.wallOnlyMs.end());
        const auto [q1, q3] = row.pairedRatioQuartiles();
        const double plain = row.plainThreadsMedianMs();
        std::printf("| %s | %.3f | %.3f | %.3f | %.3f (%.3f..%.3f) | %.3f..%.3f | %s | %s |\n", row.name.c_str(),
                    row.recordedMedianMs(), row.wallOnlyMedianMs(), row.recordingRatio(), row.pairedRatioMedian(), q1,
                    q3, *lo, *hi,
                    plain > 0 ? cell("%.3f", plain).c_str() : "-",
                    plain > 0 ? cell("%.3f", row.wallOnlyMedianMs() / plain).c_str() : "-");
    }
    std::printf("recorded: ops timed as overlapscope-cli records them; wall only: the same run, only its timed region "
                "taken (--no-op-timing);\nrecorded / wall only: what recording costs (1.030 = 3%%), medians over "
                "medians; paired ratio: the median of each repetition's\nrecorded / wall only (the two ran back to "
                "back, so drift between repetitions divides out), with its middle half; min..max: the\nrun-to-run "
                "spread; plain threads: wall only, staging\ncopies on std::threads started per copy; "
                "pool / plain: the persistent copy pool's wall time over theirs\n");
    for (const ObserverRow& row : rows)
        if (!row.problem.empty())
            std::printf("FAILED %s: %s\n", row.name.c_str(), row.problem.c_str());
}

int run(const CliArgs& args)
{
    ObserverConfig config;
    config.pipelines = configsFrom(args);
    config.repetitions = static_cast<int>(args.integer("--repetitions", config.repetitions, 1, 1000));
    config.warmups = static_cast<int>(args.integer("--warmups", config.warmups, 0, 100));
    const std::string spec = args.value("--device", "auto");
    const bool quiet = args.has("--quiet");

    const ObserverDeviceMaker make = [&](bool opTiming) {
        // CUPTI is attached when a CUDA device is made and then traces every
        // call of the process: a wall-only run needs a device made without it.
        const ScopedEnv cupti("OVERLAPSCOPE_NO_CUPTI", opTiming ? nullptr : "1");
        return createDevice(spec);
    };
    DeviceLabel label;
    {
        const std::unique_ptr<Device> device = make(true);
        label.info = device->info();
        label.engine = device->engineTimingSource(&label.whyNoEngine);
    }
    CancelFlag cancel;
    const auto rows = runObserverBench(make, config, cancel, [&](int done, int total, const std::string& what) {
        if (!quiet)
            std::fprintf(stderr, "[%3d/%d] %s\n", done + 1, total, what.c_str());
    });
    printTable(config, rows, label);
    for (const ObserverRow& row : rows)
        if (!row.problem.empty())
            return 1;
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const CliArgs args(std::vector<std::string>(argv + 1, argv + argc),
                           {"--device", "--pipelines", "--staging-threads", "--chunks", "--chunk-mib", "--slots",
                            "--kernel-repeats", "--repetitions", "--warmups"},
                           {"--quiet", "--help", "-h"});
        if (args.has("--help") || args.has("-h")) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (!args.positionals().empty())
            throw UsageError("unexpected argument '" + args.positionals().front() + "'");
        return run(args);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "overlapscope-observer-bench: %s\n", e.what());
        return 2;
    } catch (const DeviceError& e) {
        std::fprintf(stderr, "overlapscope-observer-bench: device error: %s\n", e.what());
        return 1;
    } catch (const RunCancelled&) {
        std::fprintf(stderr, "overlapscope-observer-bench: cancelled\n");
        return 1;
    }
}
