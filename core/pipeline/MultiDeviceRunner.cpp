#include "pipeline/MultiDeviceRunner.h"

#include "pipeline/PipelineRunner.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <unordered_map>

namespace ovs {

ChunkRange chunkRangeOf(int chunks, int devices, int index)
{
    const int base = chunks / devices;
    const int extra = chunks % devices;
    return {index * base + std::min(index, extra), base + (index < extra ? 1 : 0)};
}

namespace {

std::string streamLaneName(int device, const std::string& name)
{
    return "GPU " + std::to_string(device) + " \u00b7 " + name;
}

std::string hostLaneName(int device, const std::string& name)
{
    return name + " \u00b7 GPU " + std::to_string(device);
}

void shift(Op& op, std::int64_t offsetNs, int chunkOffset)
{
    op.startNs += offsetNs;
    op.endNs += offsetNs;
    if (op.hasExec()) {
        op.execStartNs += offsetNs;
        op.execEndNs += offsetNs;
    }
    if (op.chunk >= 0)
        op.chunk += chunkOffset;
}

// Forwards every part's live ops to the one sink, with lanes numbered in the
// order they arrive (the finished run orders them by device), on the common
// time base. The parts call it from their own threads: one lock serializes.
class MergingSink {
public:
    MergingSink(RecordSink& sink, int parts) : m_sink(sink), m_fraction(static_cast<std::size_t>(parts), 0.0) {}

    class Part : public RecordSink {
    public:
        Part(MergingSink& merger, Device& device, int index, int chunkOffset, std::int64_t commonStartNs)
            : m_merger(merger), m_device(device), m_index(index), m_chunkOffset(chunkOffset),
              m_commonStartNs(commonStartNs)
        {
        }
        std::int64_t offsetNs() const { return m_offsetNs; }
        int chunkOffset() const { return m_chunkOffset; }

        // The recorder took its zero just before this call.
        // Lanes added before the start come with the header.
        void runStarted(const Run& header) override
        {
            m_offsetNs = std::max<std::int64_t>(0, m_device.hostNowNs() - m_commonStartNs);
            for (std::size_t l = 0; l < header.lanes.size(); ++l)
                laneAdded(header.lanes[l], static_cast<int>(l));
        }
        void laneAdded(const Lane& lane, int laneIndex) override
        {
            std::lock_guard lock(m_merger.m_mutex);
            Lane merged = lane;
            merged.name = lane.kind == LaneKind::Stream ? streamLaneName(m_index, lane.name) : hostLaneName(m_index, lane.name);
            merged.device = lane.kind == LaneKind::Stream ? static_cast<std::uint16_t>(m_index) : 0;
            const int global = m_merger.m_liveLanes++;
            m_laneMap[laneIndex] = global;
            m_merger.m_sink.laneAdded(merged, global);
        }
        void opsCompleted(std::span<const Op> ops) override
        {
            std::vector<Op> merged(ops.begin(), ops.end());
            std::lock_guard lock(m_merger.m_mutex);
            for (Op& op : merged) {
                shift(op, m_offsetNs, m_chunkOffset);
                const auto it = m_laneMap.find(op.lane);
                op.lane = static_cast<std::uint16_t>(it != m_laneMap.end() ? it->second : 0);
                op.nameId = 0; // pipeline ops carry no names
            }
            m_merger.m_sink.opsCompleted(merged);
        }
        void progress(double fraction, const std::string& what) override
        {
            std::lock_guard lock(m_merger.m_mutex);
            m_merger.m_fraction[static_cast<std::size_t>(m_index)] = fraction;
            double sum = 0;
            for (double f : m_merger.m_fraction)
                sum += f;
            m_merger.m_sink.progress(sum / static_cast<double>(m_merger.m_fraction.size()),
                                     "GPU " + std::to_string(m_index) + ": " + what);
        }

    private:
        MergingSink& m_merger;
        Device& m_device;
        int m_index;
        int m_chunkOffset;
        std::int64_t m_commonStartNs;
        std::int64_t m_offsetNs = 0;
        std::unordered_map<int, int> m_laneMap;
    };

private:
    RecordSink& m_sink;
    std::mutex m_mutex;
    int m_liveLanes = 0;
    std::vector<double> m_fraction;
};

// Adds a note to the device's detail wherever the run is seen.
class NotingSink : public RecordSink {
public:
    NotingSink(RecordSink& sink, std::string note) : m_sink(sink), m_note(std::move(note)) {}
    void runStarted(const Run& header) override { m_sink.runStarted(noted(header)); }
    void laneAdded(const Lane& lane, int laneIndex) override { m_sink.laneAdded(lane, laneIndex); }
    void opsCompleted(std::span<const Op> ops) override { m_sink.opsCompleted(ops); }
    void runFinished(const Run& run) override { m_sink.runFinished(noted(run)); }
    void progress(double fraction, const std::string& what) override { m_sink.progress(fraction, what); }
    Run noted(Run run) const
    {
        run.device.detail = m_note + (run.device.detail.empty() ? "" : "; " + run.device.detail);
        return run;
    }

private:
    RecordSink& m_sink;
    std::string m_note;
};

std::string joined(const std::vector<std::string>& parts)
{
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : "; ") + part;
    return text;
}

// A run refused before any device worked: said to the sink as finished.
Run refused(RecordSink& sink, const Run& header, const std::string& why)
{
    Run run = failedRun(header, why);
    sink.runFinished(run);
    return run;
}

// Why `config` cannot be spread over `devices` GPUs, or "".
std::string spreadProblem(const PipelineConfig& config, int devices)
{
    if (std::string problem = validate(config); !problem.empty())
        return problem;
    if (config.chunks < devices)
        return std::to_string(config.chunks) + " chunk" + (config.chunks == 1 ? "" : "s") + " cannot be spread over "
               + std::to_string(devices) + " GPUs: use at least one chunk per GPU";
    return {};
}

// One device's share of the run: its chunks, its configuration, its slices
// of the input and output, the sink that merges what it records live, and
// the run it recorded.
struct Share {
    ChunkRange range;
    PipelineConfig config;
    std::span<const float> input;
    std::span<float> output;
    std::unique_ptr<MergingSink::Part> sink;
    Run run;
};

std::vector<Share> shareOut(const DeviceSet& devices, const PipelineConfig& config, MergingSink& merger,
                            std::int64_t startNs, const PipelineData& input, PipelineData& output)
{
    const int n = devices.size();
    const std::size_t chunkFloats = config.chunkFloats();
    std::vector<Share> shares(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d) {
        Share& share = shares[static_cast<std::size_t>(d)];
        share.range = chunkRangeOf(config.chunks, n, d);
        share.config = config;
        share.config.chunks = share.range.count;
        const std::size_t first = static_cast<std::size_t>(share.range.first) * chunkFloats;
        const std::size_t count = static_cast<std::size_t>(share.range.count) * chunkFloats;
        share.input = std::span<const float>(input).subspan(first, count);
        share.output = std::span<float>(output).subspan(first, count);
        share.sink = std::make_unique<MergingSink::Part>(merger, devices.at(d), d, share.range.first, startNs);
    }
    return shares;
}

// Each device runs its share on a host thread of its own, all at once;
// returns when every one has ended (the threads join as they go).
void runShares(const DeviceSet& devices, std::vector<Share>& shares, const CancelFlag& cancel)
{
    std::vector<std::jthread> threads;
    for (int d = 0; d < devices.size(); ++d) {
        threads.emplace_back([&, d] {
            Device& device = devices.at(d);
            Share& share = shares[static_cast<std::size_t>(d)];
            try {
                share.run = runPipelineBody(device, share.config, *share.sink, cancel, share.input, share.output, false);
            } catch (const std::exception& e) {
                share.run.status = RunStatus::Failed;
                share.run.error = e.what();
            }
            device.leaveSharedClock();
        });
    }
}

// Every GPU's stream lanes, device by device, then the host's threads apart,
// as Nsight Systems shows a multi-GPU node. Returns, per share, where each
// of its lanes went.
std::vector<std::vector<std::uint16_t>> mergeLanes(const std::vector<Share>& shares, Run& merged)
{
    std::vector<std::vector<std::uint16_t>> laneMaps(shares.size());
    for (bool streams : {true, false}) {
        for (std::size_t d = 0; d < shares.size(); ++d) {
            const Run& part = shares[d].run;
            auto& laneMap = laneMaps[d];
            laneMap.resize(part.lanes.size());
            for (std::size_t l = 0; l < part.lanes.size(); ++l) {
                Lane lane = part.lanes[l];
                if ((lane.kind == LaneKind::Stream) != streams)
                    continue;
                const int device = static_cast<int>(d);
                lane.name = streams ? streamLaneName(device, lane.name) : hostLaneName(device, lane.name);
                lane.device = streams ? static_cast<std::uint16_t>(d) : 0;
                laneMap[l] = static_cast<std::uint16_t>(merged.lanes.size());
                merged.lanes.push_back(std::move(lane));
            }
        }
    }
    return laneMaps;
}

// Every share's ops on the common time base and lanes, and the timed region
// that covers the shares that timed one.
void mergeOps(const std::vector<Share>& shares, const std::vector<std::vector<std::uint16_t>>& laneMaps, Run& merged)
{
    std::int64_t begin = -1;
    std::int64_t end = 0;
    for (std::size_t d = 0; d < shares.size(); ++d) {
        const Run& part = shares[d].run;
        const MergingSink::Part& sinkPart = *shares[d].sink;
        for (Op op : part.ops) {
            shift(op, sinkPart.offsetNs(), sinkPart.chunkOffset());
            op.lane = laneMaps[d][op.lane];
            op.nameId = 0;
            merged.ops.push_back(op);
        }
        // Each GPU's host thread keeps its loop and chunk regions; the
        // chunks are renamed to their place in the whole input. A part's
        // chunk regions are its chunks in order (the loop starts them so).
        int chunk = sinkPart.chunkOffset();
        for (Region region : part.regions) {
            region.beginNs += sinkPart.offsetNs();
            region.endNs += sinkPart.offsetNs();
            if (region.lane < laneMaps[d].size())
                region.lane = laneMaps[d][region.lane];
            if (region.depth == 1)
                region.name = "chunk " + std::to_string(chunk++);
            merged.regions.push_back(std::move(region));
        }
        if (part.timedEndNs > part.timedBeginNs || part.status == RunStatus::Completed) {
            const std::int64_t b = part.timedBeginNs + sinkPart.offsetNs();
            begin = begin < 0 ? b : std::min(begin, b);
            end = std::max(end, part.timedEndNs + sinkPart.offsetNs());
        }
    }
    merged.timedBeginNs = std::max<std::int64_t>(0, begin);
    merged.timedEndNs = std::max(merged.timedBeginNs, end);
    merged.sortOps();
    merged.sortRegions();
}

// The merged status and verification: failed or cancelled when any share
// was (saying which GPUs), else every element of every share checked.
void judge(const std::vector<Share>& shares, int kernelRepeats, std::size_t totalFloats, Run& merged)
{
    std::vector<std::string> failures;
    std::vector<std::string> cancels;
    std::vector<std::string> perDevice;
    bool allPassed = true;
    std::uint64_t mismatches = 0;
    for (std::size_t d = 0; d < shares.size(); ++d) {
        const Run& part = shares[d].run;
        const std::string gpu = "GPU " + std::to_string(d);
        if (part.status == RunStatus::Failed)
            failures.push_back(gpu + ": " + part.error);
        else if (part.status == RunStatus::Cancelled)
            cancels.push_back(gpu + ": " + part.error);
        else {
            const Verification v = verifyIncrement(shares[d].input, shares[d].output, kernelRepeats);
            // The part's own message holds the simulator's hazards, if any.
            const bool hazard = !part.verification.message.empty();
            allPassed = allPassed && v.passed && !hazard;
            mismatches += v.mismatches;
            perDevice.push_back(gpu + " " + v.message + (hazard ? part.verification.message : ""));
        }
    }
    if (!failures.empty()) {
        merged.status = RunStatus::Failed;
        merged.error = joined(failures);
        merged.verification.message = "not verified: the run failed on " + std::to_string(failures.size()) + " of "
                                      + std::to_string(shares.size()) + " GPUs";
    } else if (!cancels.empty()) {
        merged.status = RunStatus::Cancelled;
        merged.error = "cancelled by the user";
        merged.verification.message = "not verified: the run was cancelled";
    } else {
        merged.verification.checked = true;
        merged.verification.passed = allPassed;
        merged.verification.mismatches = mismatches;
        const std::string total = std::to_string(totalFloats);
        merged.verification.message =
            (allPassed ? "verified: all " + total + " floats equal input + " + std::to_string(kernelRepeats)
                       : "FAILED: " + std::to_string(mismatches) + " of " + total + " floats wrong")
            + " (" + joined(perDevice) + ")";
    }
}

} // namespace

Run runPipelineOnDevices(const DeviceSet& devices, const PipelineConfig& config, RecordSink& sink,
                         const CancelFlag& cancel)
{
    const int n = devices.size();
    if (n == 0) {
        Run run;
        run.name = pipelineTitle(config);
        return refused(sink, run, "no device to run on");
    }
    if (n == 1) {
        if (devices.note.empty())
            return runPipeline(devices.at(0), config, sink, cancel);
        NotingSink noting(sink, devices.note);
        return noting.noted(runPipeline(devices.at(0), config, noting, cancel));
    }

    Run header = pipelineHeader(devices.at(0), config);
    header.name += " on " + std::to_string(n) + " GPUs";
    for (int d = 1; d < n; ++d)
        header.moreDevices.push_back(devices.at(d).info());
    if (std::string problem = spreadProblem(config, n); !problem.empty())
        return refused(sink, header, problem);
    PipelineData input;
    PipelineData output;
    if (!makePipelineData(config, input, output))
        return refused(sink, header,
                       "could not allocate " + std::to_string(2 * config.totalBytes() >> 20)
                           + " MiB of host memory for the input and output");

    // One time base: every device starts at the latest of their clocks (the
    // same real clock for CUDA devices; simulated ones jump to it).
    std::int64_t startNs = 0;
    for (int d = 0; d < n; ++d)
        startNs = std::max(startNs, devices.at(d).hostNowNs());
    for (int d = 0; d < n; ++d)
        devices.at(d).joinSharedClock(startNs);

    sink.runStarted(header);
    MergingSink merger(sink, n);
    std::vector<Share> shares = shareOut(devices, config, merger, startNs, input, output);
    runShares(devices, shares, cancel);

    Run merged = header;
    merged.timing = shares[0].run.timing;
    mergeOps(shares, mergeLanes(shares, merged), merged);
    judge(shares, config.kernelRepeats, output.size(), merged);
    sink.progress(1.0, merged.name + ": " + toString(merged.status));
    sink.runFinished(merged);
    return merged;
}

} // namespace ovs
