#include "ConsoleReport.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>

namespace ovs::cli {

void printDeviceLine(std::FILE* out, const DeviceInfo& device, const std::string& timing)
{
    std::fprintf(out, "Device: %s\n", device.label().c_str());
    if (!device.detail.empty())
        std::fprintf(out, "        %s\n", device.detail.c_str());
    if (device.simulated)
        std::fprintf(out, "        SIMULATED: every time below comes from the simulator's model, not a GPU\n");
    else
        std::fprintf(out, "        timing: %s\n", timing.c_str());
}

void printBandwidthTable(std::FILE* out, const BandwidthSweep& sweep)
{
    // One row per size; columns as in the seed, plus bidirectional pinned.
    const std::array<std::pair<HostMemoryKind, const char*>, 5> columns = {{
        {HostMemoryKind::Pageable, "HtoD"},
        {HostMemoryKind::Pinned, "HtoD"},
        {HostMemoryKind::Pageable, "DtoH"},
        {HostMemoryKind::Pinned, "DtoH"},
        {HostMemoryKind::Pinned, "bidir"},
    }};
    std::map<std::uint64_t, std::array<double, 5>> rows;
    for (const auto& p : sweep.points) {
        auto& row = rows.try_emplace(p.bytes, std::array<double, 5>{-1, -1, -1, -1, -1}).first->second;
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (columns[c].first == p.memory && p.direction == columns[c].second)
                row[c] = p.gbps;
    }
    std::fprintf(out, "\nTransfer bandwidth, GB/s (median of %d event-timed samples after %d warm-ups%s)\n",
                 sweep.samples, sweep.warmups, sweep.device.simulated ? ", SIMULATED" : "");
    std::fprintf(out, "| size | pageable HtoD | pinned HtoD | pageable DtoH | pinned DtoH | pinned bidir |\n");
    std::fprintf(out, "|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& [bytes, row] : rows) {
        std::fprintf(out, "| %llu MiB |", static_cast<unsigned long long>(bytes >> 20));
        for (double v : row) {
            if (v < 0)
                std::fprintf(out, " - |");
            else
                std::fprintf(out, " %.2f |", v);
        }
        std::fprintf(out, "\n");
    }
}

void printPipelineTable(std::FILE* out, const std::vector<Run>& runs)
{
    if (runs.empty())
        return;
    // Speedups are against the serialized run when there is one.
    double baselineMs = 0;
    for (const auto& run : runs)
        if (run.pipeline == "serialized" && run.status == RunStatus::Completed)
            baselineMs = static_cast<double>(run.wallNs()) / 1e6;
    const auto& first = runs.front();
    int slots = 1;
    for (const auto& run : runs)
        slots = std::max(slots, run.params.slotCount);
    std::fprintf(out, "\nPipeline: %d chunks x %llu MiB, %d slots, kernel x%d%s\n", first.params.chunks,
                 static_cast<unsigned long long>(first.params.chunkBytes >> 20), slots,
                 first.params.kernelRepeats, first.device.simulated ? " (SIMULATED)" : "");
    std::fprintf(out, "| pipeline | wall ms | speedup | status | verification |\n|---|---:|---:|---|---|\n");
    for (const auto& run : runs) {
        const double ms = static_cast<double>(run.wallNs()) / 1e6;
        std::string speedup = "-";
        if (baselineMs > 0 && ms > 0 && run.status == RunStatus::Completed) {
            char text[32];
            std::snprintf(text, sizeof text, "%.2fx", baselineMs / ms);
            speedup = text;
        }
        std::string status = toString(run.status);
        if (!run.error.empty())
            status += ": " + run.error;
        std::fprintf(out, "| %s | %.3f | %s | %s | %s |\n", run.name.c_str(), ms, speedup.c_str(), status.c_str(),
                     run.verification.message.c_str());
    }
}

void printOpCounts(std::FILE* out, const std::vector<Run>& runs)
{
    std::fprintf(out, "\nRecorded ops per run (GPU ops timed by %s events; host ops by the host clock)\n",
                 !runs.empty() && runs.front().device.simulated ? "simulated" : "CUDA");
    std::fprintf(out, "| pipeline | lanes | upload | kernel | download | stage in | stage out | host wait | alloc | "
                      "free | sync | total |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& run : runs) {
        std::array<int, kOpKindCount> counts{};
        for (const auto& op : run.ops)
            ++counts[static_cast<std::size_t>(op.kind)];
        std::fprintf(out, "| %s | %zu |", run.name.c_str(), run.lanes.size());
        for (OpKind kind : {OpKind::Upload, OpKind::Kernel, OpKind::Download, OpKind::StageIn, OpKind::StageOut,
                            OpKind::HostWait, OpKind::Alloc, OpKind::Free, OpKind::Sync})
            std::fprintf(out, " %d |", counts[static_cast<std::size_t>(kind)]);
        std::fprintf(out, " %zu |\n", run.ops.size());
    }
}

} // namespace ovs::cli
