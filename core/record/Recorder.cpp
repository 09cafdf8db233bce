#include "record/Recorder.h"

#include "device/HostCopyPool.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <chrono>
#include <thread>

namespace ovs {
namespace {

// CUPTI hands records over in buffers once all their records are complete,
// so an op's records can trail its end event by as long as the work around
// it takes. Its emission waits that long at most; records arriving later
// still reach the finished run.
constexpr std::int64_t kEngineRecordWaitNs = 50'000'000;
// Fetching engine records flushes CUPTI's buffers (a forced flush once every
// stream is idle, as at the end of every run), which costs host time between
// the run's own steps; at most this often during a run, so a short run
// fetches only after its timed region, in finish().
constexpr std::int64_t kEngineFetchIntervalNs = 20'000'000;
// After the final drain every record is complete, but delivery runs on
// CUPTI's thread: how long finish() gives it.
constexpr auto kFinalRecordWait = std::chrono::milliseconds(200);
// Events and engine records are aligned to the host clock separately, each
// within about a microsecond. An engine cannot run an op before its stream
// reached it nor after its end event, so an excess this small is that error.
constexpr std::int64_t kAlignmentSlackNs = 10'000;
constexpr std::size_t kNotEmitted = static_cast<std::size_t>(-1);

// Taken from the stream itself, so a lane cannot claim other than what the
// device was asked for; the simulator and CUDA alike honour it.
StreamKind streamKindOf(const Stream& stream)
{
    if (stream.id() == kLegacyDefaultStream)
        return StreamKind::LegacyDefault;
    if (stream.id() == kPerThreadDefaultStream)
        return StreamKind::PerThreadDefault;
    return stream.sync() == StreamSync::Blocking ? StreamKind::Blocking : StreamKind::NonBlocking;
}

} // namespace

Recorder::Recorder(Device& device, RecordSink& sink, Run header, bool opTiming)
    : m_device(device), m_sink(sink), m_run(std::move(header)), m_opTiming(opTiming)
{
    m_run.device = device.info();
    m_run.ops.clear();
    m_run.lanes.clear();
    if (!m_opTiming)
        m_run.timing = kWallOnlyTiming;
    else if (m_run.timing.empty())
        m_run.timing = device.info().simulated ? "simulated" : "cuda-events";
    m_engineTiming = m_opTiming && !device.engineTimingSource().empty();
}

Recorder::~Recorder() = default;

std::uint16_t Recorder::addStreamLane(const Stream& stream, std::string name)
{
    const auto lane = static_cast<std::uint16_t>(m_run.lanes.size());
    m_run.lanes.push_back({std::move(name), LaneKind::Stream, 0, streamKindOf(stream)});
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
    if (!m_opTiming)
        return;

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
    // Op ids restart at 1 in every run: an earlier run's leftovers must not
    // join this run's ops.
    if (m_engineTiming) {
        m_device.takeEngineRecords();
        m_device.takeEngineTimingLoss();
        // After that flush the tracer sets itself up again at its first
        // traced work: let that be before the timed region, not in it.
        m_device.primeEngineTiming();
    }
    m_lastFetchNs = now();
}

namespace {

// The path as the repository has it ("core/pipeline/SerializedPipeline.cpp"):
// the compiler gives it as the build was invoked, absolute or relative to the
// build folder (ccache's base directory makes it relative), and a finding's
// line must read the same from every build.
std::string repositoryPath(std::string_view file)
{
    constexpr std::string_view kSourceDir = OVERLAPSCOPE_SOURCE_DIR "/";
    if (file.starts_with(kSourceDir))
        return std::string(file.substr(kSourceDir.size()));
    while (file.starts_with("./") || file.starts_with("../"))
        file.remove_prefix(file.starts_with("./") ? 2 : 3);
    return std::string(file);
}

// "void ovs::runSerialized(ovs::PipelineContext&)" -> "runSerialized".
std::string functionName(std::string_view pretty)
{
    pretty = pretty.substr(0, pretty.find('('));
    if (const auto colons = pretty.rfind("::"); colons != std::string_view::npos)
        pretty.remove_prefix(colons + 2);
    if (const auto space = pretty.rfind(' '); space != std::string_view::npos)
        pretty.remove_prefix(space + 1);
    return std::string(pretty);
}

} // namespace

void Recorder::at(const std::source_location& where)
{
    if (!m_opTiming)
        return; // no ops, no sites
    const auto key = std::make_pair(where.file_name(), static_cast<std::uint32_t>(where.line()));
    if (const auto known = m_siteIds.find(key); known != m_siteIds.end()) {
        m_site = known->second;
        return;
    }
    SourceSite site{repositoryPath(where.file_name()), static_cast<std::uint32_t>(where.line()),
                    functionName(where.function_name()), SiteLine::Call};
    // Two files' copies of one inline function share a line: one site.
    auto same = static_cast<std::size_t>(
        std::find(m_run.sourceSites.begin(), m_run.sourceSites.end(), site) - m_run.sourceSites.begin());
    if (same == m_run.sourceSites.size())
        m_run.sourceSites.push_back(std::move(site));
    m_site = static_cast<std::uint32_t>(same + 1);
    m_siteIds.emplace(key, m_site);
}

void Recorder::keepSite(std::uint32_t site)
{
    if (site == 0)
        return;
    m_run.opSources.resize(m_run.ops.size());
    m_run.opSources.back().site = site;
}

std::int64_t Recorder::now()
{
    return m_device.hostNowNs() - m_hostStartNs;
}

void Recorder::markTimedBegin()
{
    m_run.timedBeginNs = now();
    m_timedBegun = true;
}

void Recorder::markTimedEnd()
{
    closeChunkRegion();
    m_run.timedEndNs = now();
}

void Recorder::beginChunk(int chunk)
{
    if (!m_opTiming)
        return; // the wall-time baseline records nothing but its timed region
    closeChunkRegion();
    if (chunk < 0 || chunk >= kMaxChunkRegions)
        return;
    m_openChunk = chunk;
    m_chunkBeginNs = now();
}

void Recorder::endChunks()
{
    closeChunkRegion();
}

void Recorder::closeChunkRegion()
{
    if (m_openChunk < 0)
        return;
    m_run.regions.push_back(
        {"chunk " + std::to_string(m_openChunk), m_chunkBeginNs, now(), m_hostLane, 1, RegionSource::Pipeline});
    m_openChunk = -1;
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
                          std::uint64_t bytes, HostMemoryKind memory, int chunk, std::uint64_t opId, int launches)
{
    Pending pending;
    pending.start = std::move(start);
    pending.end = std::move(end);
    pending.op.kind = kind;
    pending.op.lane = laneOf(stream);
    pending.op.chunk = chunk;
    pending.op.bytes = bytes;
    pending.op.memory = memory;
    pending.opId = opId;
    pending.launches = launches;
    pending.site = m_site;
    m_pending.push_back(std::move(pending));
}

std::uint64_t Recorder::nextOpId()
{
    m_engineSpans.emplace_back();
    m_opIndex.push_back(kNotEmitted);
    return m_engineSpans.size();
}

void Recorder::untagAfterFailure()
{
    try {
        m_device.tagWork(0);
    } catch (const DeviceError&) {
        // The failure being thrown already is the one to report.
    }
}

CopyToken Recorder::upload(Stream& stream, DeviceBuffer<float>& dst, const PinnedHostBuffer<float>& src, int chunk,
                           std::source_location where)
{
    at(where);
    return recordCopy(OpKind::Upload, stream, src.bytes(), HostMemoryKind::Pinned, chunk,
                      [&] { return copyToDeviceAsync(stream, dst, src); });
}

CopyToken Recorder::upload(Stream& stream, DeviceBuffer<float>& dst, std::span<const float> src, HostMemoryKind kind,
                           int chunk, std::source_location where)
{
    at(where);
    return recordCopy(OpKind::Upload, stream, src.size_bytes(), kind, chunk,
                      [&] { return copyToDeviceAsync(stream, dst, src, kind); });
}

CopyToken Recorder::download(Stream& stream, PinnedHostBuffer<float>& dst, const DeviceBuffer<float>& src, int chunk,
                             std::source_location where)
{
    at(where);
    return recordCopy(OpKind::Download, stream, dst.bytes(), HostMemoryKind::Pinned, chunk,
                      [&] { return copyToHostAsync(stream, dst, src); });
}

CopyToken Recorder::download(Stream& stream, std::span<float> dst, const DeviceBuffer<float>& src, HostMemoryKind kind,
                             int chunk, std::source_location where)
{
    at(where);
    return recordCopy(OpKind::Download, stream, dst.size_bytes(), kind, chunk,
                      [&] { return copyToHostAsync(stream, dst, src, kind); });
}

void Recorder::kernel(Stream& stream, DeviceBuffer<float>& data, int repeats, int chunk, std::source_location where)
{
    at(where);
    if (!m_opTiming) {
        m_device.launchIncrement(data.devicePtr(), data.size(), repeats, stream.id());
        return;
    }
    auto start = startEvent(stream);
    const std::uint64_t opId = nextOpId();
    m_device.tagWork(opId);
    try {
        m_device.launchIncrement(data.devicePtr(), data.size(), repeats, stream.id());
    } catch (...) {
        untagAfterFailure();
        throw;
    }
    m_device.tagWork(0);
    auto end = std::make_shared<Event>(m_device);
    end->record(stream);
    const int launches = data.size() > 0 ? std::max(repeats, 0) : 0; // one launch per pass
    addPending(OpKind::Kernel, stream, std::move(start), std::move(end), data.bytes(), HostMemoryKind::None, chunk,
               opId, launches);
}

void Recorder::hostCopy(OpKind kind, void* dst, const void* src, std::size_t bytes, HostMemoryKind memory, int chunk,
                        std::source_location where)
{
    at(where);
    const std::int64_t t0 = now();
    m_device.hostCopy(dst, src, bytes);
    emitHost(kind, t0, chunk, bytes, memory);
}

void Recorder::ensureStagingLanes(int threads)
{
    while (static_cast<int>(m_stagingLanes.size()) < threads)
        m_stagingLanes.push_back(addHostLane("staging " + std::to_string(m_stagingLanes.size() + 1)));
}

void Recorder::hostCopyParallel(OpKind kind, void* dst, const void* src, std::size_t bytes, int threads,
                                HostMemoryKind memory, int chunk, std::source_location where)
{
    at(where);
    ensureStagingLanes(threads);
    const auto intervals = m_device.hostCopyParallel(dst, src, bytes, threads);
    if (!m_opTiming)
        return;
    // Devices cut the copy as HostCopyPool::split does, so part i's size is known here.
    const auto parts = HostCopyPool::split(bytes, threads);
    for (std::size_t i = 0; i < intervals.size() && i < parts.size(); ++i) {
        Op op;
        op.kind = kind;
        op.lane = m_stagingLanes[i];
        op.chunk = chunk;
        op.bytes = parts[i].bytes;
        op.memory = memory;
        op.startNs = intervals[i].startNs - m_hostStartNs;
        op.endNs = intervals[i].endNs - m_hostStartNs;
        m_run.ops.push_back(op);
        keepSite(m_site);
        m_batch.push_back(op);
    }
}

HostRegistration Recorder::registerHost(void* p, std::size_t bytes, std::source_location where)
{
    at(where);
    const std::int64_t t0 = now();
    HostRegistration registration(m_device, p, bytes);
    emitHost(OpKind::Register, t0, -1, bytes, HostMemoryKind::Registered);
    return registration;
}

void Recorder::unregisterHost(HostRegistration& registration, std::source_location where)
{
    at(where);
    const std::int64_t t0 = now();
    const auto bytes = registration.bytes();
    {
        HostRegistration gone = std::move(registration);
    }
    emitHost(OpKind::Register, t0, -1, bytes, HostMemoryKind::Registered);
}

void Recorder::wait(CopyToken& token, int chunk, std::source_location where)
{
    at(where);
    if (!m_opTiming) {
        token.wait();
        return;
    }
    const std::int64_t t0 = now();
    token.wait();
    emitHost(OpKind::HostWait, t0, chunk, 0, HostMemoryKind::None);
    poll();
}

void Recorder::synchronize(Stream& stream, std::source_location where)
{
    at(where);
    if (!m_opTiming) {
        stream.synchronize();
        return;
    }
    const std::int64_t t0 = now();
    stream.synchronize();
    emitHost(OpKind::Sync, t0, -1, 0, HostMemoryKind::None);
    poll();
}

void Recorder::emitHost(OpKind kind, std::int64_t startNs, int chunk, std::uint64_t bytes, HostMemoryKind memory)
{
    if (!m_opTiming)
        return;
    Op op;
    op.kind = kind;
    op.lane = m_hostLane;
    op.chunk = chunk;
    op.bytes = bytes;
    op.memory = memory;
    op.startNs = startNs;
    op.endNs = now();
    m_run.ops.push_back(op);
    keepSite(m_site);
    m_batch.push_back(op);
}

std::int64_t Recorder::eventTimeNs(Event& event)
{
    return m_anchorHostNs + event.nsSince(*m_anchor);
}

void Recorder::poll()
{
    if (m_opTiming)
        emitCompleted(true);
}

void Recorder::emitCompleted(bool waitForEngine)
{
    // Streams complete in order, so the first unfinished op of a stream
    // blocks the rest of that stream; other streams' ops are still emitted.
    // Completion is checked before the engine records are fetched, so the
    // records of every op seen complete had their chance to arrive. Fetching
    // (a CUPTI flush) costs host time between ops, so it happens only when a
    // completed op still lacks records, at most every kEngineFetchIntervalNs,
    // and always at the end.
    const auto recordsMissing = [&](const Pending& p) {
        return m_engineTiming && p.opId != 0 && m_engineSpans[p.opId - 1].records < p.launches;
    };
    bool fetch = !waitForEngine;
    // Once an op of a lane is not done, the later ones of that lane are not
    // either: skip querying them (each query costs host time).
    std::vector<bool> laneBlocked(m_run.lanes.size(), false);
    for (auto& pending : m_pending) {
        if (pending.doneNs < 0 && !laneBlocked[pending.op.lane]) {
            if (pending.end->isDone())
                pending.doneNs = now();
            else
                laneBlocked[pending.op.lane] = true;
        }
        fetch = fetch || (pending.doneNs >= 0 && recordsMissing(pending));
    }
    if (fetch && (!waitForEngine || now() - m_lastFetchNs >= kEngineFetchIntervalNs)) {
        collectEngineRecords();
        m_lastFetchNs = now();
    }
    const std::int64_t t = now();
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->doneNs < 0) {
            ++it;
            continue;
        }
        if (waitForEngine && recordsMissing(*it) && t - it->doneNs < kEngineRecordWaitNs) {
            ++it;
            continue;
        }
        Op op = it->op;
        op.startNs = eventTimeNs(*it->start);
        op.endNs = eventTimeNs(*it->end);
        if (it->opId != 0) {
            applyExec(op, m_engineSpans[it->opId - 1]);
            m_opIndex[it->opId - 1] = m_run.ops.size();
        }
        m_run.ops.push_back(op);
        keepSite(it->site);
        m_batch.push_back(op);
        it = m_pending.erase(it);
    }
    flush();
}

void Recorder::collectEngineRecords()
{
    if (!m_engineTiming)
        return;
    for (const EngineRecord& record : m_device.takeEngineRecords()) {
        if (record.opId == 0 || record.opId > m_engineSpans.size())
            continue; // not this run's
        EngineSpan& span = m_engineSpans[record.opId - 1];
        span.startNs = span.records ? std::min(span.startNs, record.startNs) : record.startNs;
        span.endNs = span.records ? std::max(span.endNs, record.endNs) : record.endNs;
        ++span.records;
        const std::size_t index = m_opIndex[record.opId - 1];
        if (index != kNotEmitted)
            applyExec(m_run.ops[index], span);
    }
}

void Recorder::applyExec(Op& op, const EngineSpan& span)
{
    if (span.records == 0)
        return;
    std::int64_t start = span.startNs - m_hostStartNs;
    std::int64_t end = span.endNs - m_hostStartNs;
    if (start < op.startNs && op.startNs - start <= kAlignmentSlackNs)
        start = op.startNs;
    if (end > op.endNs && end - op.endNs <= kAlignmentSlackNs)
        end = op.endNs;
    op.execStartNs = start;
    op.execEndNs = std::max(start, end);
    m_engineJoined = true;
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
        emitCompleted(true);
        const auto giveUp = std::chrono::steady_clock::now() + kFinalRecordWait;
        while (!m_pending.empty() && std::chrono::steady_clock::now() < giveUp) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            emitCompleted(true);
        }
        emitCompleted(false);
    } catch (const DeviceError& e) {
        // The device is lost; keep what was recorded and say why the rest is missing.
        m_pending.clear();
        if (status == RunStatus::Completed)
            status = RunStatus::Failed;
        error += (error.empty() ? "" : "; ") + std::string("could not read back timestamps: ") + e.what();
    }
    if (m_engineTiming) {
        // Said, never a failure: the ops without engine records keep their event times.
        for (const std::string& loss : m_device.takeEngineTimingLoss())
            error += (error.empty() ? "" : "; ") + loss;
    }
    flush();
    closeChunkRegion(); // a run stopped inside a chunk
    m_run.status = status;
    m_run.error = std::move(error);
    if (m_engineJoined && m_run.timing == "cuda-events")
        m_run.timing = "cuda-events+cupti";
    if (m_run.timedEndNs < m_run.timedBeginNs)
        m_run.timedEndNs = now();
    if (m_opTiming && m_timedBegun)
        m_run.regions.push_back({"loop", m_run.timedBeginNs, m_run.timedEndNs, m_hostLane, 0, RegionSource::Pipeline});
    m_run.sortOps();
    m_run.sortRegions();
    return m_run;
}

} // namespace ovs
