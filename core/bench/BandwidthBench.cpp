#include "bench/BandwidthBench.h"

#include "device/Copies.h"
#include "device/HostCopyPool.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

namespace ovs {

std::string validate(const BenchConfig& c)
{
    if (c.sizes.empty())
        return "no transfer sizes given";
    for (auto size : c.sizes)
        if (size < sizeof(float) || size % sizeof(float) != 0 || size > kMaxTransferBytes)
            return "transfer size " + std::to_string(size) + " bytes is not a multiple of 4 between 4 B and "
                   + std::to_string(kMaxTransferBytes >> 30) + " GiB";
    if (c.warmups < 0 || c.warmups > kMaxWarmups)
        return "warm-ups must be between 0 and " + std::to_string(kMaxWarmups);
    if (c.samples < 1 || c.samples > kMaxSamples)
        return "samples must be between 1 and " + std::to_string(kMaxSamples);
    if (!c.pageable && !c.pinned && !c.bidirectional && !c.hostCopy)
        return "nothing to measure: enable pageable, pinned, bidirectional or host copies";
    if (c.hostCopy) {
        if (c.hostCopyBytes < 1 || c.hostCopyBytes > kMaxTransferBytes)
            return "host copy size must be between 1 B and " + std::to_string(kMaxTransferBytes >> 30) + " GiB";
        for (int threads : c.hostCopyThreads)
            if (threads < 1 || threads > HostCopyPool::kMaxThreads)
                return "host copy threads must be between 1 and " + std::to_string(HostCopyPool::kMaxThreads);
    }
    return {};
}

std::vector<int> defaultHostCopyThreads(const DeviceInfo& device)
{
    const int hardware = static_cast<int>(std::thread::hardware_concurrency());
    const int most = device.simulated || hardware <= 0 ? HostCopyPool::kMaxThreads
                                                       : std::min(hardware, HostCopyPool::kMaxThreads);
    std::vector<int> threads;
    for (int t = 1; t < most; t *= 2)
        threads.push_back(t);
    threads.push_back(most);
    return threads;
}

namespace {

double gbpsOf(std::uint64_t bytes, double ms)
{
    return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0;
}

// Times one copy per sample between two events on `stream`.
class CellTimer {
public:
    CellTimer(Device& device, const BenchConfig& config, const CancelFlag& cancel)
        : m_device(device), m_config(config), m_cancel(cancel), m_start(device), m_end(device)
    {
    }

    template <typename Enqueue>
    std::vector<double> time(Stream& stream, Enqueue&& enqueue)
    {
        std::vector<double> samples;
        for (int i = 0; i < m_config.warmups + m_config.samples; ++i) {
            m_cancel.throwIfCancelled();
            m_start.record(stream);
            CopyToken copy = enqueue();
            // End event first, then the wait: the host's wake-up latency must
            // not land inside the timed interval.
            m_end.record(stream);
            m_end.synchronize();
            copy.wait();
            if (i >= m_config.warmups)
                samples.push_back(static_cast<double>(m_end.nsSince(m_start)) / 1e6);
        }
        return samples;
    }

private:
    Device& m_device;
    const BenchConfig& m_config;
    const CancelFlag& m_cancel;
    Event m_start;
    Event m_end;
};

// Measures every cell into `sweep`; throws RunCancelled, DeviceError or
// std::bad_alloc, with the cells measured before that already in `sweep` and
// delivered to the sink.
void measureCells(Device& device, const BenchConfig& config, RecordSink& sink, const CancelFlag& cancel,
                  BandwidthSweep& sweep)
{
    Stream stream(device);
    Stream second(device);
    CellTimer timer(device, config, cancel);
    const int cellsPerSize = (config.pageable ? 2 : 0) + (config.pinned ? 2 : 0) + (config.bidirectional ? 1 : 0);
    const std::vector<int> hostThreads = !config.hostCopy              ? std::vector<int>{}
                                         : config.hostCopyThreads.empty() ? defaultHostCopyThreads(device.info())
                                                                          : config.hostCopyThreads;
    const double totalCells = static_cast<double>(cellsPerSize * config.sizes.size() + hostThreads.size());
    int cellsDone = 0;

    auto finishCell = [&](std::uint64_t bytes, std::uint64_t moved, HostMemoryKind memory, const char* direction,
                          std::vector<double> samples) {
        BandwidthPoint point;
        point.bytes = bytes;
        point.memory = memory;
        point.direction = direction;
        point.samplesMs = std::move(samples);
        point.medianMs = medianOf(point.samplesMs);
        point.gbps = gbpsOf(moved, point.medianMs);
        sweep.points.push_back(point);
        sink.bandwidthMeasured(point);
        sink.progress(++cellsDone / totalCells, std::to_string(bytes >> 20) + " MiB " + toString(memory) + " "
                                                    + direction + ": " + std::to_string(point.gbps) + " GB/s");
    };

    for (const std::uint64_t bytes : config.sizes) {
        const std::size_t count = bytes / sizeof(float);
        DeviceBuffer<float> deviceBuffer(device, count);

        if (config.pageable) {
            std::vector<float> pageable(count, 1.0f);
            auto up = timer.time(stream, [&] {
                return copyToDeviceAsync(stream, deviceBuffer, std::span<const float>(pageable),
                                         HostMemoryKind::Pageable);
            });
            finishCell(bytes, bytes, HostMemoryKind::Pageable, "HtoD", std::move(up));
            auto down = timer.time(stream, [&] {
                return copyToHostAsync(stream, std::span<float>(pageable), deviceBuffer, HostMemoryKind::Pageable);
            });
            finishCell(bytes, bytes, HostMemoryKind::Pageable, "DtoH", std::move(down));
        }
        if (config.pinned || config.bidirectional) {
            PinnedHostBuffer<float> pinned(device, count);
            std::fill(pinned.span().begin(), pinned.span().end(), 1.0f);
            if (config.pinned) {
                auto up = timer.time(stream, [&] { return copyToDeviceAsync(stream, deviceBuffer, pinned); });
                finishCell(bytes, bytes, HostMemoryKind::Pinned, "HtoD", std::move(up));
                auto down = timer.time(stream, [&] { return copyToHostAsync(stream, pinned, deviceBuffer); });
                finishCell(bytes, bytes, HostMemoryKind::Pinned, "DtoH", std::move(down));
            }
            if (config.bidirectional) {
                DeviceBuffer<float> secondDevice(device, count);
                PinnedHostBuffer<float> secondPinned(device, count);
                Event forked(device);
                Event joined(device);
                CopyToken down;
                // Both directions start at the first stream's start event and
                // the second stream's end is joined back before the end event.
                auto both = timer.time(stream, [&] {
                    forked.record(stream);
                    device.streamWaitEvent(second.id(), forked.id());
                    CopyToken up = copyToDeviceAsync(stream, deviceBuffer, pinned);
                    down = copyToHostAsync(second, secondPinned, secondDevice);
                    joined.record(second);
                    device.streamWaitEvent(stream.id(), joined.id());
                    return up;
                });
                down.wait();
                finishCell(bytes, 2 * bytes, HostMemoryKind::Pinned, "bidir", std::move(both));
            }
        }
    }
    if (hostThreads.empty())
        return;
    // Pageable source already touched, pinned destination: what a staging
    // copy in does, apart from any GPU work.
    std::vector<std::byte> pageable(config.hostCopyBytes, std::byte{1});
    PinnedHostBuffer<std::byte> pinned(device, config.hostCopyBytes);
    std::memset(pinned.span().data(), 0, config.hostCopyBytes);
    for (const int threads : hostThreads) {
        HostCopyPoint point;
        point.threads = threads;
        point.bytes = config.hostCopyBytes;
        for (int i = 0; i < config.warmups + config.samples; ++i) {
            cancel.throwIfCancelled();
            const std::int64_t t0 = device.hostNowNs();
            device.hostCopyParallel(pinned.span().data(), pageable.data(), config.hostCopyBytes, threads);
            const std::int64_t t1 = device.hostNowNs();
            if (i >= config.warmups)
                point.samplesMs.push_back(static_cast<double>(t1 - t0) / 1e6);
        }
        point.medianMs = medianOf(point.samplesMs);
        point.gbps = gbpsOf(point.bytes, point.medianMs);
        sweep.hostCopies.push_back(point);
        sink.progress(++cellsDone / totalCells, "host memcpy " + std::to_string(point.bytes >> 20) + " MiB on "
                                                    + std::to_string(threads) + (threads == 1 ? " thread: " : " threads: ")
                                                    + std::to_string(point.gbps) + " GB/s");
    }
}

} // namespace

BandwidthSweep runBandwidthSweep(Device& device, const BenchConfig& config, RecordSink& sink, const CancelFlag& cancel)
{
    BandwidthSweep sweep;
    sweep.device = device.info();
    sweep.timing = device.info().simulated ? "simulated" : "cuda-events";
    sweep.warmups = config.warmups;
    sweep.samples = config.samples;
    if (std::string problem = validate(config); !problem.empty()) {
        sweep.status = RunStatus::Failed;
        sweep.error = "bad benchmark configuration: " + problem;
        sink.sweepFinished(sweep);
        return sweep;
    }
    sink.sweepStarted(sweep);
    try {
        measureCells(device, config, sink, cancel, sweep);
    } catch (const RunCancelled& e) {
        sweep.status = RunStatus::Cancelled;
        sweep.error = e.what();
    } catch (const DeviceError& e) {
        sweep.status = RunStatus::Failed;
        sweep.error = e.what();
    } catch (const std::bad_alloc&) {
        sweep.status = RunStatus::Failed;
        sweep.error = "out of host memory during the sweep";
    }
    sink.sweepFinished(sweep);
    return sweep;
}

} // namespace ovs
