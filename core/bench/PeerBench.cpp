#include "bench/PeerBench.h"

#include "device/DeviceBuffer.h"
#include "device/Event.h"
#include "device/Stream.h"
#include "trace/BandwidthSweep.h"

#include <algorithm>

namespace ovs {

namespace {

std::string pairName(int src, int dst, bool access)
{
    return "GPU " + std::to_string(src) + " \u2192 GPU " + std::to_string(dst) + " (peer access "
           + (access ? "on" : "off") + ")";
}

// Aligns a device's host clock to at least `ns` (simulated devices keep one
// each; real ones share the real clock and ignore it).
void alignClock(Device& device, std::int64_t ns)
{
    device.joinSharedClock(ns);
    device.leaveSharedClock();
}

// The matrix's run: its name, its devices, a lane per GPU.
void describeRun(Run& run, const DeviceSet& devices, std::uint64_t bytes)
{
    const int n = devices.size();
    run.name = "peer-to-peer matrix, " + std::to_string(bytes >> 20) + " MiB";
    run.pipeline = "peer-matrix";
    run.device = devices.at(0).info();
    for (int d = 1; d < n; ++d)
        run.moreDevices.push_back(devices.at(d).info());
    run.timing = run.device.simulated ? "simulated" : "cuda-events";
    for (int d = 0; d < n; ++d)
        run.lanes.push_back({"GPU " + std::to_string(d) + " \u00b7 peer copies", LaneKind::Stream,
                             static_cast<std::uint16_t>(d), StreamKind::NonBlocking}); // each pair's Stream(from)
}

// One timed sample as an op on the source GPU's lane, `endNs` after the
// matrix's start.
void recordSample(Run& run, int src, std::int64_t endNs, std::int64_t ns, std::uint64_t bytes, std::uint32_t nameId)
{
    Op op;
    op.kind = OpKind::PeerCopy;
    op.lane = static_cast<std::uint16_t>(src);
    op.endNs = std::max<std::int64_t>(0, endNs);
    op.startNs = std::max<std::int64_t>(0, op.endNs - ns);
    op.bytes = bytes;
    op.memory = HostMemoryKind::Device;
    op.nameId = nameId;
    if (!run.ops.empty() && run.ops.back().lane == op.lane && op.startNs < run.ops.back().endNs)
        op.startNs = run.ops.back().endNs; // never overlap on a lane
    op.endNs = std::max(op.endNs, op.startNs);
    run.ops.push_back(op);
}

// One pair, one direction, peer access on or off: its samples (also as ops
// of `run`) and their median. Throws RunCancelled and DeviceError.
PeerPoint measurePair(const DeviceSet& devices, int src, int dst, bool access, std::uint64_t bytes, int warmups,
                      int samples, const CancelFlag& cancel, Run& run, std::int64_t zeroNs)
{
    Device& from = devices.at(src);
    Device& to = devices.at(dst);
    PeerPoint point;
    point.src = src;
    point.dst = dst;
    point.peerAccess = access;
    point.bytes = bytes;
    if (access && !from.canAccessPeer(to)) {
        point.note = "GPU " + std::to_string(src) + " cannot access GPU " + std::to_string(dst)
                     + "'s memory (cudaDeviceCanAccessPeer)";
        return point;
    }
    if (from.canAccessPeer(to))
        from.setPeerAccess(to, access);
    // One time base: the pair starts where the later clock is.
    const std::int64_t t = std::max(from.hostNowNs(), to.hostNowNs());
    alignClock(from, t);
    alignClock(to, t);
    const std::size_t count = bytes / sizeof(float);
    DeviceBuffer<float> source(from, count);
    DeviceBuffer<float> target(to, count);
    Stream stream(from);
    Event begin(from);
    Event end(from);
    run.names.push_back(pairName(src, dst, access));
    const auto nameId = static_cast<std::uint32_t>(run.names.size() - 1);
    for (int i = 0; i < warmups + samples; ++i) {
        cancel.throwIfCancelled();
        begin.record(stream);
        from.copyPeerAsync(target.devicePtr(), to, source.devicePtr(), count * sizeof(float), stream.id());
        end.record(stream);
        end.synchronize();
        const std::int64_t ns = from.eventElapsedNs(begin.id(), end.id());
        if (i < warmups)
            continue;
        point.samplesMs.push_back(static_cast<double>(ns) / 1e6);
        recordSample(run, src, from.hostNowNs() - zeroNs, ns, count * sizeof(float), nameId);
    }
    point.measured = true;
    point.medianMs = medianOf(point.samplesMs);
    point.gbps = point.medianMs > 0 ? static_cast<double>(bytes) / (point.medianMs * 1e6) : 0;
    return point;
}

} // namespace

PeerMatrix runPeerMatrix(const DeviceSet& devices, std::uint64_t bytes, int warmups, int samples,
                         const CancelFlag& cancel)
{
    PeerMatrix matrix;
    const int n = devices.size();
    if (n < 2) {
        matrix.note = "the peer-to-peer matrix needs two GPUs; this set has " + std::to_string(n)
                      + (devices.note.empty() ? "" : " (" + devices.note + ")")
                      + ": use cuda:0,1 on a machine with two, or sim:h200x2";
        return matrix;
    }
    if (bytes < sizeof(float) || samples < 1 || warmups < 0) {
        matrix.status = RunStatus::Failed;
        matrix.error = "the peer matrix needs at least 4 bytes and 1 sample";
        return matrix;
    }
    Run& run = matrix.run;
    describeRun(run, devices, bytes);

    std::int64_t zeroNs = 0;
    for (int d = 0; d < n; ++d)
        zeroNs = std::max(zeroNs, devices.at(d).hostNowNs());
    try {
        for (bool access : {true, false})
            for (int src = 0; src < n; ++src)
                for (int dst = 0; dst < n; ++dst) {
                    if (src == dst)
                        continue;
                    cancel.throwIfCancelled();
                    matrix.points.push_back(
                        measurePair(devices, src, dst, access, bytes, warmups, samples, cancel, run, zeroNs));
                }
    } catch (const RunCancelled& e) {
        matrix.status = RunStatus::Cancelled;
        matrix.error = e.what();
    } catch (const DeviceError& e) {
        matrix.status = RunStatus::Failed;
        matrix.error = e.what();
    }
    run.status = matrix.status;
    run.error = matrix.error;
    std::int64_t last = 0;
    for (const Op& op : run.ops)
        last = std::max(last, op.endNs);
    run.timedEndNs = last;
    run.verification.message = "not verified: a bandwidth measurement";
    run.sortOps();
    return matrix;
}

} // namespace ovs
