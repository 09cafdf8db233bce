#include "judgement/TransferRates.h"

#include "base/DeviceClassRates.h"
#include "base/NumberText.h"
#include "base/Saturating.h"
#include "trace/OpTimes.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

namespace ovs {

namespace {

double gbps(std::uint64_t bytes, std::int64_t ns)
{
    return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}

std::int64_t engineNs(const Op& op)
{
    return spanNs(busyBeginNs(op), busyEndNs(op));
}

bool isPageable(HostMemoryKind memory)
{
    return memory == HostMemoryKind::Pageable;
}

bool sameDevice(const DeviceInfo& a, const DeviceInfo& b)
{
    return a.name == b.name && a.simulated == b.simulated && a.preset == b.preset && a.detail == b.detail;
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

double TransferRates::hostCopyGBps(int threads) const
{
    threads = std::max(1, threads);
    if (!hostCopyRates.empty()) {
        int reach = hostCopyRates.back().threads;
        for (const HostCopyRate& r : hostCopyRates) {
            if (r.threads >= threads) {
                reach = r.threads;
                break;
            }
        }
        double best = 0;
        for (const HostCopyRate& r : hostCopyRates)
            if (r.threads <= reach)
                best = std::max(best, r.gbps);
        return best;
    }
    const double all = threads * hostMemcpyGBps;
    return hostMemoryGBps > 0 ? std::min(all, hostMemoryGBps) : all;
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

    std::vector<HostCopyPoint> copies = sweep.hostCopies;
    std::erase_if(copies, [](const HostCopyPoint& p) { return p.gbps <= 0; });
    std::stable_sort(copies.begin(), copies.end(),
                     [](const HostCopyPoint& a, const HostCopyPoint& b) { return a.threads < b.threads; });
    for (const HostCopyPoint& p : copies) {
        // A thread count measured twice (a sweep of several sizes) keeps its best.
        if (!rates.hostCopyRates.empty() && rates.hostCopyRates.back().threads == p.threads)
            rates.hostCopyRates.back().gbps = std::max(rates.hostCopyRates.back().gbps, p.gbps);
        else
            rates.hostCopyRates.push_back({p.threads, p.gbps});
    }
    if (!rates.hostCopyRates.empty()) {
        rates.hostMemcpyGBps = rates.hostCopyGBps(1);
        rates.hostSource = "host memcpy sweep of " + sweep.device.label() + " ("
                           + std::to_string(copies.front().bytes >> 20) + " MiB medians, 1 to "
                           + std::to_string(rates.hostCopyRates.back().threads) + " threads)";
    }
    return rates;
}

TransferRates ratesFromModel(const ModelRates& model, const std::string& source)
{
    TransferRates rates;
    rates.pinnedH2DGBps = model.pinnedH2DGBps;
    rates.pinnedD2HGBps = model.pinnedD2HGBps;
    rates.pageableH2DGBps = model.pageableH2DGBps;
    rates.pageableD2HGBps = model.pageableD2HGBps;
    rates.hostMemcpyGBps = model.hostMemcpyGBps;
    rates.hostMemoryGBps = model.hostMemoryGBps;
    rates.kernelGBps = model.kernelGBps;
    rates.source = rates.hostSource = rates.kernelSource = source;
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
    rates.source = rates.kernelSource = "estimated from this run's ops";
    return rates;
}

TransferRates transferRatesFor(const Run& run, const std::vector<BandwidthSweep>& sweeps)
{
    const TransferRates own = ratesFromRunOps(run);
    std::optional<TransferRates> model;
    if (run.device.model)
        model = ratesFromModel(*run.device.model, "simulator preset " + run.device.preset);

    TransferRates rates = own;
    // The last sweep of the device: a trace recorded twice keeps the newer.
    const BandwidthSweep* sweep = nullptr;
    for (const auto& candidate : sweeps)
        if (sameDevice(candidate.device, run.device) && (!candidate.points.empty() || !candidate.hostCopies.empty()))
            sweep = &candidate;
    const std::optional<TransferRates> measured = sweep ? std::optional(ratesFromSweep(*sweep)) : std::nullopt;
    const TransferRates* copies = measured && !sweep->points.empty() ? &*measured : model ? &*model : nullptr;
    if (copies) {
        rates.pinnedH2DGBps = copies->pinnedH2DGBps;
        rates.pinnedD2HGBps = copies->pinnedD2HGBps;
        rates.pageableH2DGBps = copies->pageableH2DGBps;
        rates.pageableD2HGBps = copies->pageableD2HGBps;
        rates.bidirectionalGBps = copies->bidirectionalGBps;
        rates.source = copies->source;
    }
    // A sweep that measured only one memory kind leaves the other to the run.
    for (auto [rate, fallback] : {std::pair{&rates.pinnedH2DGBps, own.pinnedH2DGBps},
                                  std::pair{&rates.pinnedD2HGBps, own.pinnedD2HGBps},
                                  std::pair{&rates.pageableH2DGBps, own.pageableH2DGBps},
                                  std::pair{&rates.pageableD2HGBps, own.pageableD2HGBps}})
        if (*rate <= 0)
            *rate = fallback;
    // Last: a pinned rate nothing measured, assumed for the device's class.
    // Never for a simulated device, which is judged by its own model alone.
    if (!run.device.simulated && (rates.pinnedH2DGBps <= 0 || rates.pinnedD2HGBps <= 0))
        if (const DeviceClassRates* row = deviceClassRatesFor(run.device.name)) {
            const bool both = rates.pinnedH2DGBps <= 0 && rates.pinnedD2HGBps <= 0;
            const char* which = both ? "pinned rates" : rates.pinnedH2DGBps <= 0 ? "pinned H2D" : "pinned D2H";
            if (rates.pinnedH2DGBps <= 0)
                rates.pinnedH2DGBps = row->h2dGBps;
            if (rates.pinnedD2HGBps <= 0)
                rates.pinnedD2HGBps = row->d2hGBps;
            rates.pinnedBasis = "assumed for " + row->label();
            if (rates.bidirectionalGBps <= 0) {
                rates.bidirectionalGBps = row->bidirectionalGBps;
                rates.bidirectionalBasis = rates.pinnedBasis;
            }
            rates.source = std::string(which) + " " + rates.pinnedBasis + " (" + row->source + "); the others "
                           + rates.source;
        }

    // Both directions at once, where nothing measured them but the pinned
    // rates are known: the class's share of the summed one-way rates (a
    // profile times each direction alone; an upload beside a download
    // shares the link, docs/what-if.md "Copies beside copies").
    if (!run.device.simulated && rates.bidirectionalGBps <= 0 && rates.pinnedH2DGBps > 0 && rates.pinnedD2HGBps > 0)
        if (const DeviceClassRates* row = deviceClassRatesFor(run.device.name);
            row && row->h2dGBps + row->d2hGBps > 0 && row->bidirectionalGBps > 0) {
            rates.bidirectionalGBps = row->bidirectionalGBps / (row->h2dGBps + row->d2hGBps)
                                      * (rates.pinnedH2DGBps + rates.pinnedD2HGBps);
            rates.bidirectionalBasis = "assumed for " + row->label();
        }

    const TransferRates* host = measured && !measured->hostCopyRates.empty() ? &*measured : model ? &*model : nullptr;
    if (host) {
        rates.hostMemcpyGBps = host->hostMemcpyGBps;
        rates.hostCopyRates = host->hostCopyRates;
        rates.hostMemoryGBps = host->hostMemoryGBps;
        rates.hostSource = host->hostSource;
    }
    if (model) {
        rates.kernelGBps = model->kernelGBps;
        rates.kernelSource = model->kernelSource;
    }
    return rates;
}

std::optional<GivenPinnedRates> parsePinnedRates(const std::string& text, std::string* error)
{
    const auto fail = [&](const std::string& why) -> std::optional<GivenPinnedRates> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const auto number = [](std::string_view part, double& out) {
        const char* end = part.data() + part.size();
        const auto [at, ec] = std::from_chars(part.data(), end, out);
        return ec == std::errc() && at == end && out > 0 && out <= 10000;
    };
    const std::size_t comma = text.find(',');
    GivenPinnedRates given;
    const std::string_view first = std::string_view(text).substr(0, comma);
    const std::string_view second = comma == std::string::npos ? first : std::string_view(text).substr(comma + 1);
    if (!number(first, given.h2dGBps) || !number(second, given.d2hGBps))
        return fail("a pinned rate is H2D,D2H in GB/s (\"25,26\") or one figure for both, each above 0 and up to "
                    "10000");
    return given;
}

std::string pinnedRatesText(const GivenPinnedRates& given)
{
    return formatted("%.1f,%.1f", given.h2dGBps, given.d2hGBps);
}

TransferRates withGivenPinnedRates(TransferRates rates, const GivenPinnedRates& given)
{
    if (!given.given())
        return rates;
    rates.pinnedH2DGBps = given.h2dGBps;
    rates.pinnedD2HGBps = given.d2hGBps;
    // Both ways at once never beat the two one-way rates together.
    rates.bidirectionalGBps = std::min(rates.bidirectionalGBps, given.h2dGBps + given.d2hGBps);
    rates.pinnedBasis = "given: " + formatted("%.1f GB/s H2D, %.1f GB/s D2H", given.h2dGBps, given.d2hGBps);
    rates.source = "pinned rates " + rates.pinnedBasis + "; the others " + rates.source;
    return rates;
}

} // namespace ovs
