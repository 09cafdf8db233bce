#include "pipeline/PipelineRunner.h"

#include "pipeline/PageAlignedAllocator.h"
#include "pipeline/PipelineBody.h"
#include "record/Recorder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

namespace ovs {

Verification verifyIncrement(std::span<const float> input, std::span<const float> output, int repeats)
{
    Verification v;
    v.checked = true;
    const float add = static_cast<float>(repeats);
    std::size_t firstBad = output.size();
    for (std::size_t i = 0; i < output.size() && i < input.size(); ++i) {
        if (output[i] != input[i] + add) {
            if (v.mismatches == 0)
                firstBad = i;
            ++v.mismatches;
        }
    }
    if (input.size() != output.size())
        v.mismatches += input.size() > output.size() ? input.size() - output.size() : output.size() - input.size();
    v.passed = v.mismatches == 0;
    const std::string total = std::to_string(output.size());
    if (v.passed) {
        v.message = "verified: all " + total + " floats equal input + " + std::to_string(repeats);
    } else {
        v.message = "FAILED: " + std::to_string(v.mismatches) + " of " + total + " floats differ from input + "
                    + std::to_string(repeats);
        if (firstBad < output.size())
            v.message += " (first at index " + std::to_string(firstBad) + ": got " + std::to_string(output[firstBad])
                         + ", expected " + std::to_string(input[firstBad] + add) + ")";
    }
    return v;
}

namespace {

} // namespace

Run failedRun(Run header, std::string error)
{
    header.status = RunStatus::Failed;
    header.error = std::move(error);
    header.verification.message = "not verified: the run did not start";
    return header;
}

Run pipelineHeader(const Device& device, const PipelineConfig& config)
{
    const auto& kind = pipelineKindInfo(config.kind);
    Run header;
    header.name = pipelineTitle(config);
    header.pipeline = kind.id;
    header.device = device.info();
    header.params.chunks = config.chunks;
    header.params.chunkBytes = config.chunkBytes;
    header.params.slotCount = pipelineStreamCount(config);
    header.params.kernelRepeats = config.kernelRepeats;
    // Only the overlapped path stages; the others have no staging thread to count.
    header.params.stagingThreads = config.kind == PipelineKind::Overlapped ? config.stagingThreads : 1;
    header.params.issueOrder = config.issueOrder;
    header.params.streamSync = config.streamSync;
    header.params.defaultStreamOp = config.defaultStreamOp;
    header.params.loopAllocation = config.loopAllocation;
    return header;
}

Run runPipelineBody(Device& device, const PipelineConfig& config, RecordSink& sink, const CancelFlag& cancel,
                    std::span<const float> input, std::span<float> output, bool verify)
{
    device.takeHazards(); // only this run's hazards count
    Recorder recorder(device, sink, pipelineHeader(device, config), config.opTiming);
    recorder.setHostLane(recorder.addHostLane("host"));
    PipelineContext context{recorder, config, input, output, cancel, sink};

    Run run;
    try {
        recorder.begin();
        switch (config.kind) {
        case PipelineKind::Serialized: runSerializedPipeline(context); break;
        case PipelineKind::Overlapped: runOverlappedPipeline(context); break;
        case PipelineKind::Registered: runRegisteredPipeline(context); break;
        case PipelineKind::PinnedData: runPinnedDataPipeline(context); break;
        case PipelineKind::PageableAsync: runPageableAsyncPipeline(context); break;
        case PipelineKind::PinnedOneStream: runPinnedOneStreamPipeline(context); break;
        }
        run = recorder.finish();
        if (verify)
            run.verification = verifyIncrement(input, output, config.kernelRepeats);
    } catch (const RunCancelled& e) {
        run = recorder.finish(RunStatus::Cancelled, e.what());
        run.verification.message = "not verified: the run was cancelled";
    } catch (const DeviceError& e) {
        run = recorder.finish(RunStatus::Failed, e.what());
        run.verification.message = "not verified: the run failed";
    } catch (const std::bad_alloc&) {
        run = recorder.finish(RunStatus::Failed, "out of host memory during the run");
        run.verification.message = "not verified: the run failed";
    }

    const auto hazards = device.takeHazards();
    if (!hazards.empty()) {
        run.verification.passed = false;
        run.verification.message += "; " + std::to_string(hazards.size()) + " async-contract hazard(s): " + hazards.front();
    }
    return run;
}

Run runPipeline(Device& device, const PipelineConfig& config, RecordSink& sink, const CancelFlag& cancel)
{
    const Run header = pipelineHeader(device, config);
    if (std::string problem = validate(config); !problem.empty()) {
        Run run = failedRun(header, problem);
        sink.runFinished(run);
        return run;
    }

    // Whole pages of their own: the registered strategy page-locks both with
    // cudaHostRegister, which refuses a page already registered, and two
    // small heap vectors can share one.
    std::vector<float, PageAlignedAllocator<float>> input;
    std::vector<float, PageAlignedAllocator<float>> output;
    if (!makePipelineData(config, input, output)) {
        Run run = failedRun(header, "could not allocate " + std::to_string(2 * config.totalBytes() >> 20)
                                        + " MiB of host memory for the input and output");
        sink.runFinished(run);
        return run;
    }

    Run run = runPipelineBody(device, config, sink, cancel, input, output, true);
    sink.progress(1.0, run.name + ": " + toString(run.status));
    sink.runFinished(run);
    return run;
}

namespace {

// `data` becomes `count` elements: `period` over and over. Written as one
// period and then copies of what is written, doubling, with no division per
// element: the data is gigabytes at the largest settings, and this runs
// before every run (and under the sanitizers, which check each element a
// loop of ours writes, but a memcpy's range at once).
template <std::size_t N>
void fillRepeating(PipelineData& data, std::size_t count, const std::array<float, N>& period)
{
    data.resize(count);
    std::size_t done = std::min(N, count);
    std::memcpy(data.data(), period.data(), done * sizeof(float));
    // `done` stays a whole number of periods until the last copy.
    while (done < count) {
        const std::size_t n = std::min(done, count - done);
        std::memcpy(data.data() + done, data.data(), n * sizeof(float));
        done += n;
    }
}

} // namespace

bool makePipelineData(const PipelineConfig& config, PipelineData& input, PipelineData& output)
{
    try {
        const std::size_t count = static_cast<std::size_t>(config.chunkFloats()) * static_cast<std::size_t>(config.chunks);
        std::array<float, 257> seed{};
        for (std::size_t i = 0; i < seed.size(); ++i)
            seed[i] = static_cast<float>(i) * 0.25f;
        fillRepeating(input, count, seed);
        // NaN everywhere first, so an element no chunk wrote fails verification.
        std::array<float, 1024> nan{};
        nan.fill(std::numeric_limits<float>::quiet_NaN());
        fillRepeating(output, count, nan);
        return true;
    } catch (const std::bad_alloc&) {
        input = {};
        output = {};
        return false;
    }
}

} // namespace ovs
