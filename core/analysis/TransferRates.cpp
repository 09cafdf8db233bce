#include "analysis/TransferRates.h"

#include "trace/Saturating.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace ovs {

namespace {

// Host memcpy when neither the run nor a preset says: a typical single
// thread's pageable <-> pinned rate on the servers we measured (5.6 to 5.9).
constexpr double kAssumedHostMemcpyGBps = 6.0;

double gbps(std::uint64_t bytes, std::int64_t ns)
{
    return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}

std::int64_t engineNs(const Op& op)
{
    return op.hasExec() ? spanNs(op.execStartNs, op.execEndNs) : spanNs(op.startNs, op.endNs);
}

bool isPageable(HostMemoryKind memory)
{
    return memory == HostMemoryKind::Pageable;
}

bool sameDevice(const DeviceInfo& a, const DeviceInfo& b)
{
    return a.name == b.name && a.simulated == b.simulated && a.preset == b.preset && a.detail == b.detail;
}

// Per-thread host memcpy rate of the run's staging copies: bytes over the
// summed thread time, so N threads copying at once each count their own time.
double stagingRate(const Run& run)
{
    std::uint64_t bytes = 0;
    std::int64_t ns = 0;
    for (const Op& op : run.ops) {
        if ((op.kind == OpKind::StageIn || op.kind == OpKind::StageOut) && op.bytes > 0) {
            bytes = saturatingAdd(bytes, op.bytes);
            ns = saturatingAdd(ns, spanNs(op.startNs, op.endNs));
        }
    }
    return gbps(bytes, ns);
}

} // namespace

double TransferRates::h2dGBps(HostMemoryKind memory) const
{
    return isPageable(memory) ? pageableH2DGBps : pinnedH2DGBps;
}

double TransferRates::d2hGBps(HostMemoryKind memory) const
{
    return isPageable(memory) ? pageableD2HGBps : pinnedD2HGBps;
}

TransferRates ratesFromSweep(const BandwidthSweep& sweep)
{
    TransferRates rates;
    std::uint64_t largest = 0;
    for (const auto& p : sweep.points)
        if (p.direction == "HtoD" || p.direction == "DtoH")
            largest = std::max(largest, p.bytes);
    for (const auto& p : sweep.points) {
        if (p.bytes != largest)
            continue;
        const bool pinned = p.memory != HostMemoryKind::Pageable;
        if (p.direction == "HtoD")
            (pinned ? rates.pinnedH2DGBps : rates.pageableH2DGBps) = p.gbps;
        else if (p.direction == "DtoH")
            (pinned ? rates.pinnedD2HGBps : rates.pageableD2HGBps) = p.gbps;
        else if (p.direction == "bidir")
            rates.bidirectionalGBps = p.gbps;
    }
    rates.source = "bandwidth sweep of " + sweep.device.label() + " (" + std::to_string(largest >> 20)
                   + " MiB medians)";
    return rates;
}

TransferRates ratesFromPreset(const SimPreset& preset)
{
    TransferRates rates;
    rates.pinnedH2DGBps = preset.pinnedH2DGBps;
    rates.pinnedD2HGBps = preset.pinnedD2HGBps;
    rates.pageableH2DGBps = preset.pageableH2DGBps;
    rates.pageableD2HGBps = preset.pageableD2HGBps;
    rates.hostMemcpyGBps = preset.hostMemcpyGBps;
    rates.kernelGBps = preset.kernelGBps;
    rates.source = rates.hostSource = rates.kernelSource = "simulator preset " + preset.id;
    return rates;
}

TransferRates ratesFromRunOps(const Run& run)
{
    TransferRates rates;
    const double repeats = std::max(1, run.params.kernelRepeats);
    for (const Op& op : run.ops) {
        if (op.bytes == 0)
            continue;
        const double rate = gbps(op.bytes, engineNs(op));
        switch (op.kind) {
        case OpKind::Upload: {
            double& best = isPageable(op.memory) ? rates.pageableH2DGBps : rates.pinnedH2DGBps;
            best = std::max(best, rate);
            break;
        }
        case OpKind::Download: {
            double& best = isPageable(op.memory) ? rates.pageableD2HGBps : rates.pinnedD2HGBps;
            best = std::max(best, rate);
            break;
        }
        case OpKind::Kernel: rates.kernelGBps = std::max(rates.kernelGBps, 2 * repeats * rate); break;
        default: break;
        }
    }
    rates.hostMemcpyGBps = stagingRate(run);
    rates.source = rates.kernelSource = "estimated from this run's ops";
    if (rates.hostMemcpyGBps > 0)
        rates.hostSource = "this run's staging copies";
    return rates;
}

TransferRates transferRatesFor(const Run& run, const std::vector<BandwidthSweep>& sweeps)
{
    const TransferRates own = ratesFromRunOps(run);
    const std::optional<SimPreset> preset = run.device.simulated ? findSimPreset(run.device.preset) : std::nullopt;

    TransferRates rates = own;
    // The last sweep of the device: a trace recorded twice keeps the newer.
    const BandwidthSweep* sweep = nullptr;
    for (const auto& candidate : sweeps)
        if (sameDevice(candidate.device, run.device) && !candidate.points.empty())
            sweep = &candidate;
    if (sweep) {
        const TransferRates measured = ratesFromSweep(*sweep);
        rates.pinnedH2DGBps = measured.pinnedH2DGBps;
        rates.pinnedD2HGBps = measured.pinnedD2HGBps;
        rates.pageableH2DGBps = measured.pageableH2DGBps;
        rates.pageableD2HGBps = measured.pageableD2HGBps;
        rates.bidirectionalGBps = measured.bidirectionalGBps;
        rates.source = measured.source;
    } else if (preset) {
        const TransferRates modelled = ratesFromPreset(*preset);
        rates.pinnedH2DGBps = modelled.pinnedH2DGBps;
        rates.pinnedD2HGBps = modelled.pinnedD2HGBps;
        rates.pageableH2DGBps = modelled.pageableH2DGBps;
        rates.pageableD2HGBps = modelled.pageableD2HGBps;
        rates.source = modelled.source;
    }
    // A sweep that measured only one memory kind leaves the other to the run.
    for (auto [rate, fallback] : {std::pair{&rates.pinnedH2DGBps, own.pinnedH2DGBps},
                                  std::pair{&rates.pinnedD2HGBps, own.pinnedD2HGBps},
                                  std::pair{&rates.pageableH2DGBps, own.pageableH2DGBps},
                                  std::pair{&rates.pageableD2HGBps, own.pageableD2HGBps}})
        if (*rate <= 0)
            *rate = fallback;

    if (own.hostMemcpyGBps <= 0) {
        if (preset) {
            rates.hostMemcpyGBps = preset->hostMemcpyGBps;
            rates.hostSource = "simulator preset " + preset->id;
        } else {
            rates.hostMemcpyGBps = kAssumedHostMemcpyGBps;
            rates.hostSource = "assumed";
        }
    }
    if (preset) {
        rates.kernelGBps = preset->kernelGBps;
        rates.kernelSource = "simulator preset " + preset->id;
    }
    return rates;
}

} // namespace ovs
