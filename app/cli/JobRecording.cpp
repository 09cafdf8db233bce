#include "JobRecording.h"

#include "CliCommon.h"
#include "ConsoleReport.h"

#include "base/Printable.h"
#include "bench/PeerBench.h"
#include "devicefactory/DeviceFactory.h"
#include "jobs/JobRunner.h"
#include "record/TraceCollector.h"

#include <algorithm>
#include <cstdio>

namespace ovs::cli {

std::vector<PipelineConfig> pipelineConfigs(const CliArgs& args)
{
    PipelineConfig base;
    base.chunks = static_cast<int>(args.integer("--chunks", base.chunks, 1, kMaxChunks));
    if (args.has("--chunk-mib") && args.has("--chunk-bytes"))
        throw UsageError("give --chunk-mib or --chunk-bytes, not both");
    if (args.has("--chunk-bytes"))
        base.chunkBytes =
            static_cast<std::uint64_t>(args.integer("--chunk-bytes", 0, 4, static_cast<long long>(kMaxChunkBytes)));
    else
        base.chunkBytes = static_cast<std::uint64_t>(args.integer("--chunk-mib", static_cast<long long>(base.chunkBytes >> 20),
                                                                  1, static_cast<long long>(kMaxChunkBytes >> 20)))
                          << 20;
    base.slotCount = static_cast<int>(args.integer("--slots", base.slotCount, 1, kMaxSlots));
    base.kernelRepeats = static_cast<int>(args.integer("--kernel-repeats", base.kernelRepeats, 1, kMaxKernelRepeats));
    base.stagingThreads = static_cast<int>(args.integer("--staging-threads", base.stagingThreads, 1, kMaxStagingThreads));
    base.opTiming = !args.has("--no-op-timing");
    auto variant = [&](const char* option, auto fromId, auto ids, auto fallback) {
        const auto id = args.value(option);
        if (!id)
            return fallback;
        const auto value = fromId(*id);
        if (!value)
            throw UsageError(std::string(option) + " takes " + ids() + " (got '" + echoed(*id) + "')");
        return *value;
    };
    base.issueOrder = variant("--issue-order", issueOrderFromId, issueOrderIds, base.issueOrder);
    base.streamSync = variant("--stream-sync", streamSyncFromId, streamSyncIds, base.streamSync);
    base.defaultStreamOp = variant("--default-stream-op", defaultStreamOpFromId, defaultStreamOpIds, base.defaultStreamOp);
    base.loopAllocation = variant("--loop-allocation", loopAllocationFromId, loopAllocationIds, base.loopAllocation);

    std::string error;
    const auto kinds = pipelineKindsFromIds(args.list("--pipelines", {"serialized", "overlapped"}), &error);
    if (!kinds)
        throw UsageError(error);
    std::vector<PipelineConfig> configs;
    for (const PipelineKind kind : *kinds) {
        PipelineConfig config = base;
        config.kind = kind;
        if (std::string problem = validate(config); !problem.empty())
            throw UsageError(problem);
        configs.push_back(config);
    }
    return configs;
}

BenchConfig benchConfig(const CliArgs& args)
{
    BenchConfig config;
    if (args.has("--sizes")) {
        config.sizes.clear();
        for (const auto& item : args.list("--sizes", {}))
            config.sizes.push_back(
                static_cast<std::uint64_t>(cli::parseInteger(item, "--sizes", 1, static_cast<long long>(kMaxTransferBytes >> 20)))
                << 20);
    }
    config.warmups = static_cast<int>(args.integer("--warmups", config.warmups, 0, kMaxWarmups));
    config.samples = static_cast<int>(args.integer("--samples", config.samples, 1, kMaxSamples));
    if (std::string problem = validate(config); !problem.empty())
        throw UsageError(problem);
    return config;
}

Recording record(const CliArgs& args, const DeviceSet& devices, const JobList& jobs, CancelFlag& cancel)
{
    const bool quiet = args.has("--quiet");
    ProgressPrinter progress(quiet);
    TraceCollector collector(&progress);
    collector.trace().tool = std::string("overlapscope-cli ") + OVERLAPSCOPE_VERSION;
    collector.trace().createdUtc = nowUtc();
    const JobOutcome outcome = runJobs(devices, jobs, collector, cancel, [&](int index, const std::string& title) {
        if (!quiet)
            std::fprintf(stderr, "job %d of %d: %s\n", index + 1, jobs.count(), title.c_str());
    });
    return {collector.trace(), outcome};
}

std::string whyNoEngineTiming(const Device& device)
{
    std::string why;
    device.engineTimingSource(&why);
    return why;
}

void report(const Trace& trace, const std::string& whyNoEngine)
{
    if (!trace.runs.empty()) {
        cli::printDeviceLine(stdout, trace.runs.front().device, trace.runs.front().timing, whyNoEngine);
        cli::printPipelineTable(stdout, trace.runs);
        cli::printOpCounts(stdout, trace.runs);
        cli::printAnalysisSummary(stdout, trace);
    }
    for (const auto& sweep : trace.sweeps)
        cli::printBandwidthTable(stdout, sweep);
}

void peerMatrix(const CliArgs& args, const DeviceSet& devices, const BenchConfig& config, CancelFlag& cancel,
                Trace& trace, JobOutcome& outcome)
{
    if (!isMultiDeviceSpec(args.value("--device", "auto")) || cancel.isCancelled())
        return;
    const std::uint64_t bytes = *std::max_element(config.sizes.begin(), config.sizes.end());
    if (!args.has("--quiet") && devices.size() > 1)
        std::fprintf(stderr, "peer-to-peer matrix: %d GPUs, %llu MiB\n", devices.size(),
                     static_cast<unsigned long long>(bytes >> 20));
    PeerMatrix matrix = runPeerMatrix(devices, bytes, config.warmups, config.samples, cancel);
    cli::printPeerMatrix(stdout, matrix, devices.size());
    if (matrix.status == RunStatus::Cancelled)
        outcome.cancelled = true;
    else if (matrix.status == RunStatus::Failed)
        outcome.problems.push_back("peer-to-peer matrix failed: " + matrix.error);
    if (matrix.note.empty())
        trace.runs.push_back(std::move(matrix.run));
}

} // namespace ovs::cli
