#include "record/Recorder.h"

#include <chrono>

namespace ovs {

Recorder::Recorder(Device& device, RecordSink& sink, Run header) : m_device(device), m_sink(sink), m_run(std::move(header))
{
    m_run.device = device.info();
    m_run.ops.clear();
    m_run.lanes.clear();
    if (m_run.timing.empty())
        m_run.timing = device.info().simulated ? "simulated" : "cuda-events";
}

Recorder::~Recorder() = default;

std::uint16_t Recorder::addStreamLane(const Stream& stream, std::string name)
{
    const auto lane = static_cast<std::uint16_t>(m_run.lanes.size());
    m_run.lanes.push_back({std::move(name), LaneKind::Stream});
    m_streamLanes[stream.id()] = lane;
    if (m_begun)
        m_sink.laneAdded(m_run.lanes.back(), lane);
    return lane;
}

std::uint16_t Recorder::addHostLane(std::string name)
{
    const auto lane = static_cast<std::uint16_t>(m_run.lanes.size());
    m_run.lanes.push_back({std::move(name), LaneKind::HostThread});
    if (m_begun)
        m_sink.laneAdded(m_run.lanes.back(), lane);
    return lane;
}

void Recorder::begin()
{
    m_hostStartNs = m_device.hostNowNs();
    m_begun = true;
    m_sink.runStarted(m_run);

    // Anchor: an event on an idle stream completes almost as soon as it is
    // recorded; the first host instant that sees it done ties the two clocks
    // together (error: one query, about a microsecond on CUDA).
    m_anchorStream = std::make_unique<Stream>(m_device);
    m_anchor = std::make_unique<Event>(m_device);
    m_anchor->record(*m_anchorStream);
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!m_anchor->isDone()) {
        if (std::chrono::steady_clock::now() > giveUp) {
            m_anchor->synchronize();
            break;
        }
    }
    m_anchorHostNs = now();
}

std::int64_t Recorder::now()
{
    return m_device.hostNowNs() - m_hostStartNs;
}

void Recorder::markTimedBegin()
{
    m_run.timedBeginNs = now();
}

void Recorder::markTimedEnd()
{
    m_run.timedEndNs = now();
}

std::uint16_t Recorder::laneOf(const Stream& stream) const
{
    auto it = m_streamLanes.find(stream.id());
    if (it == m_streamLanes.end())
        throw DeviceError("recorder: stream " + std::to_string(stream.id()) + " has no lane (addStreamLane first)");
    return it->second;
}

std::shared_ptr<Event> Recorder::startEvent(Stream& stream)
{
    auto start = std::make_shared<Event>(m_device);
    start->record(stream);
    return start;
}

void Recorder::addPending(OpKind kind, const Stream& stream, std::shared_ptr<Event> start, std::shared_ptr<Event> end,
                          std::uint64_t bytes, HostMemoryKind memory, int chunk)
{
    Pending pending;
    pending.start = std::move(start);
    pending.end = std::move(end);
    pending.op.kind = kind;
    pending.op.lane = laneOf(stream);
    pending.op.chunk = chunk;
    pending.op.bytes = bytes;
    pending.op.memory = memory;
    m_pending.push_back(std::move(pending));
}

CopyToken Recorder::upload(Stream& stream, DeviceBuffer<float>& dst, const PinnedHostBuffer<float>& src, int chunk)
{
    return recordCopy(OpKind::Upload, stream, src.bytes(), HostMemoryKind::Pinned, chunk,
                      [&] { return copyToDeviceAsync(stream, dst, src); });
}

CopyToken Recorder::upload(Stream& stream, DeviceBuffer<float>& dst, std::span<const float> src, HostMemoryKind kind,
                           int chunk)
{
    return recordCopy(OpKind::Upload, stream, src.size_bytes(), kind, chunk,
                      [&] { return copyToDeviceAsync(stream, dst, src, kind); });
}

CopyToken Recorder::download(Stream& stream, PinnedHostBuffer<float>& dst, const DeviceBuffer<float>& src, int chunk)
{
    return recordCopy(OpKind::Download, stream, dst.bytes(), HostMemoryKind::Pinned, chunk,
                      [&] { return copyToHostAsync(stream, dst, src); });
}

CopyToken Recorder::download(Stream& stream, std::span<float> dst, const DeviceBuffer<float>& src, HostMemoryKind kind,
                             int chunk)
{
    return recordCopy(OpKind::Download, stream, dst.size_bytes(), kind, chunk,
                      [&] { return copyToHostAsync(stream, dst, src, kind); });
}

void Recorder::kernel(Stream& stream, DeviceBuffer<float>& data, int repeats, int chunk)
{
    auto start = startEvent(stream);
    m_device.launchIncrement(data.devicePtr(), data.size(), repeats, stream.id());
    auto end = std::make_shared<Event>(m_device);
    end->record(stream);
    addPending(OpKind::Kernel, stream, std::move(start), std::move(end), data.bytes(), HostMemoryKind::None, chunk);
}

void Recorder::hostCopy(OpKind kind, void* dst, const void* src, std::size_t bytes, HostMemoryKind memory, int chunk)
{
    const std::int64_t t0 = now();
    m_device.hostCopy(dst, src, bytes);
    emitHost(kind, t0, chunk, bytes, memory);
}

void Recorder::wait(CopyToken& token, int chunk)
{
    const std::int64_t t0 = now();
    token.wait();
    emitHost(OpKind::HostWait, t0, chunk, 0, HostMemoryKind::None);
    poll();
}

void Recorder::synchronize(Stream& stream)
{
    const std::int64_t t0 = now();
    stream.synchronize();
    emitHost(OpKind::Sync, t0, -1, 0, HostMemoryKind::None);
    poll();
}

void Recorder::emitHost(OpKind kind, std::int64_t startNs, int chunk, std::uint64_t bytes, HostMemoryKind memory)
{
    Op op;
    op.kind = kind;
    op.lane = m_hostLane;
    op.chunk = chunk;
    op.bytes = bytes;
    op.memory = memory;
    op.startNs = startNs;
    op.endNs = now();
    m_run.ops.push_back(op);
    m_batch.push_back(op);
}

std::int64_t Recorder::eventTimeNs(Event& event)
{
    return m_anchorHostNs + event.nsSince(*m_anchor);
}

void Recorder::poll()
{
    // Streams complete in order, so the first unfinished op of a stream
    // blocks the rest of that stream; other streams' ops are still emitted.
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (!it->end->isDone()) {
            ++it;
            continue;
        }
        Op op = it->op;
        op.startNs = eventTimeNs(*it->start);
        op.endNs = eventTimeNs(*it->end);
        m_run.ops.push_back(op);
        m_batch.push_back(op);
        it = m_pending.erase(it);
    }
    flush();
}

void Recorder::flush()
{
    if (m_batch.empty())
        return;
    m_sink.opsCompleted(m_batch);
    m_batch.clear();
}

Run Recorder::finish(RunStatus status, std::string error)
{
    try {
        for (auto& pending : m_pending)
            pending.end->synchronize();
        poll();
    } catch (const DeviceError& e) {
        // The device is lost; keep what was recorded and say why the rest is missing.
        m_pending.clear();
        if (status == RunStatus::Completed)
            status = RunStatus::Failed;
        error += (error.empty() ? "" : "; ") + std::string("could not read back timestamps: ") + e.what();
    }
    flush();
    m_run.status = status;
    m_run.error = std::move(error);
    if (m_run.timedEndNs < m_run.timedBeginNs)
        m_run.timedEndNs = now();
    m_run.sortOps();
    return m_run;
}

} // namespace ovs
