#include "ConsoleReport.h"

#include "words/ColumnHelp.h"
#include "judgement/HostShare.h"
#include "words/JudgementWords.h"
#include "base/DurationText.h"
#include "judgement/OverlapWords.h"
#include "analysis/RunAnalysis.h"
#include "base/Printable.h"
#include "base/Saturating.h"
#include "trace/SourceSite.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

namespace ovs::cli {


void printDeviceLine(std::FILE* out, const DeviceInfo& device, const std::string& timing,
                     const std::string& whyNoEngineTiming)
{
    std::fprintf(out, "Device: %s\n", device.label().c_str());
    if (!device.detail.empty())
        std::fprintf(out, "        %s\n", device.detail.c_str());
    if (device.simulated)
        std::fprintf(out, "        SIMULATED: every time below comes from the simulator's model, not a GPU\n");
    else if (timing == "cuda-events+cupti")
        std::fprintf(out, "        timing: CUDA events + CUPTI engine records\n");
    else if (timing == "cuda-events")
        std::fprintf(out, "        timing: CUDA events only%s%s%s\n", whyNoEngineTiming.empty() ? "" : " (",
                     whyNoEngineTiming.c_str(), whyNoEngineTiming.empty() ? "" : ")");
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
    if (sweep.hostCopies.empty())
        return;
    std::fprintf(out, "\nHost memcpy, pageable -> pinned, %llu MiB (median of %d host-timed samples after %d warm-ups%s)\n",
                 static_cast<unsigned long long>(sweep.hostCopies.front().bytes >> 20), sweep.samples, sweep.warmups,
                 sweep.device.simulated ? ", SIMULATED" : "");
    std::fprintf(out, "| threads | GB/s together | GB/s per thread |\n|---:|---:|---:|\n");
    for (const auto& p : sweep.hostCopies)
        std::fprintf(out, "| %d | %.2f | %.2f |\n", p.threads, p.gbps, p.gbps / p.threads);
}

void printPipelineTable(std::FILE* out, const std::vector<Run>& runs)
{
    if (runs.empty())
        return;
    const auto& first = runs.front();
    int slots = 1;
    for (const auto& run : runs)
        slots = std::max(slots, run.params.slotCount);
    std::fprintf(out, "\nPipeline: %d chunks x %llu MiB, %d slots, kernel x%d%s\n", first.params.chunks,
                 static_cast<unsigned long long>(first.params.chunkBytes >> 20), slots,
                 first.params.kernelRepeats, first.device.simulated ? " (SIMULATED)" : "");
    std::fprintf(out, "| pipeline | wall ms | speedup | status | verification |\n|---|---:|---:|---|---|\n");
    for (const auto& run : runs) {
        const std::string ms = msNumber(spanNs(run.timedBeginNs, run.timedEndNs));
        // The same rule as every other view: RunAnalysis's.
        const Speedup s = speedupOver(findSerializedBaseline(runs, run), run);
        std::string speedup = "-";
        if (s.value) {
            char text[32];
            std::snprintf(text, sizeof text, "%.2fx", *s.value);
            speedup = text;
        }
        std::string status = toString(run.status);
        if (!run.error.empty())
            status += ": " + run.error;
        std::fprintf(out, "| %s | %s | %s | %s | %s |\n", run.name.c_str(), ms.c_str(), speedup.c_str(), status.c_str(),
                     run.verification.message.c_str());
    }
}

void printProgramRunTable(std::FILE* out, const std::vector<Run>& runs)
{
    if (runs.empty())
        return;
    std::fprintf(out, "\n| run | source | wall ms | GPU ops | status |\n|---|---|---:|---:|---|\n");
    for (const auto& run : runs) {
        const std::string ms = msNumber(spanNs(run.timedBeginNs, run.timedEndNs));
        std::size_t gpuOps = 0;
        for (const Op& op : run.ops)
            gpuOps += isGpuOp(op.kind);
        std::string status = toString(run.status);
        if (!run.error.empty())
            status += ": " + run.error;
        std::fprintf(out, "| %s | %s | %s | %zu | %s |\n", run.name.c_str(), run.pipeline.c_str(), ms.c_str(), gpuOps,
                     status.c_str());
    }
}

void printOpCounts(std::FILE* out, const std::vector<Run>& runs)
{
    std::fprintf(out, "\nRecorded ops per run (GPU ops timed by %s events; host ops by the host clock)\n",
                 !runs.empty() && runs.front().device.simulated ? "simulated" : "CUDA");
    std::fprintf(out, "| pipeline | lanes | upload | kernel | download | stage in | stage out | host wait | alloc | "
                      "free | sync | register | total |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto& run : runs) {
        std::array<int, kOpKindCount> counts{};
        for (const auto& op : run.ops)
            ++counts[static_cast<std::size_t>(op.kind)];
        std::fprintf(out, "| %s | %zu |", run.name.c_str(), run.lanes.size());
        for (OpKind kind : {OpKind::Upload, OpKind::Kernel, OpKind::Download, OpKind::StageIn, OpKind::StageOut,
                            OpKind::HostWait, OpKind::Alloc, OpKind::Free, OpKind::Sync, OpKind::Register})
            std::fprintf(out, " %d |", counts[static_cast<std::size_t>(kind)]);
        std::fprintf(out, " %zu |\n", run.ops.size());
    }
}

namespace {

std::string printed(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string busyCell(const EngineBusy& busy)
{
    return printed("%.1f%%", 100.0 * busy.utilisation);
}

std::string speedupCell(const Speedup& s)
{
    return s.value ? printed("%.2fx", *s.value) : std::string("-");
}

// The tables show the pipeline model's bound: "-" for a run without one.
std::string distanceCell(const Verdict& v)
{
    return v.pipeline && v.distance > 0 ? printed("%.2fx", v.distance) : std::string("-");
}

std::string mib(std::uint64_t bytes)
{
    return printed("%.1f MiB", static_cast<double>(bytes) / (1 << 20));
}

// Every rate the bounds use, with where it came from.
std::string ratesLine(const TransferRates& r)
{
    std::string line = "pinned H2D " + printed("%.2f", r.pinnedH2DGBps) + ", D2H " + printed("%.2f", r.pinnedD2HGBps);
    if (r.pageableH2DGBps > 0 || r.pageableD2HGBps > 0)
        line += "; pageable H2D " + printed("%.2f", r.pageableH2DGBps) + ", D2H " + printed("%.2f", r.pageableD2HGBps);
    line += " GB/s (" + r.source + "); ";
    if (r.hostMemcpyGBps <= 0) {
        line += "host memcpy not measured (no host-staging bound: record with the bandwidth sweep)";
    } else {
        line += "host memcpy " + printed("%.2f", r.hostMemcpyGBps) + " GB/s on 1 thread";
        if (!r.hostCopyRates.empty() && r.hostCopyRates.back().threads > 1)
            line += ", " + printed("%.2f", r.hostCopyGBps(r.hostCopyRates.back().threads)) + " on "
                    + std::to_string(r.hostCopyRates.back().threads) + " together";
        else if (r.hostMemoryGBps > 0)
            line += ", " + printed("%.2f", r.hostMemoryGBps) + " at most together";
        line += " (" + r.hostSource + ")";
    }
    if (r.kernelGBps > 0)
        line += "; kernel " + printed("%.0f", r.kernelGBps) + " GB/s read + written (" + r.kernelSource + ")";
    return line;
}

// One line per column of the summary table, under it.
void printSummaryLegend(std::FILE* out)
{
    for (const ColumnHelp& column : summaryTableColumns())
        std::fprintf(out, "  %.*s: %.*s\n", static_cast<int>(column.header.size()), column.header.data(),
                     static_cast<int>(column.help.size()), column.help.data());
}

struct Analysed {
    const Run* run;
    RunAnalysis analysis;
};

std::vector<Analysed> analyseAll(const Trace& trace, const std::vector<RunAnalysis>& analyses)
{
    std::vector<Analysed> all;
    for (std::size_t i = 0; i < trace.runs.size() && i < analyses.size(); ++i)
        all.push_back({&trace.runs[i], analyses[i]});
    return all;
}

void printKindRow(std::FILE* out, const char* label, const KindThroughput& t)
{
    if (t.count == 0)
        return;
    std::string value = std::to_string(t.count) + " ops, " + mib(t.bytes) + " in " + msNumber(t.ns) + " ms";
    if (t.bytes > 0 && t.ns > 0)
        value += ", " + printed("%.2f GB/s", t.gbps());
    if (t.ofRate > 0)
        value += printed(" (%.0f%% of the rate)", 100.0 * t.ofRate);
    std::fprintf(out, "| %s | %s |\n", label, value.c_str());
}

} // namespace

void printAnalysis(std::FILE* out, const Trace& trace)
{
    printAnalysis(out, trace, analyzeTrace(trace));
}

void printAnalysis(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses)
{
    for (const Analysed& a : analyseAll(trace, analyses)) {
        const Run& run = *a.run;
        const RunMetrics& m = a.analysis.metrics;
        const Verdict& v = a.analysis.findings.verdict;
        std::fprintf(out, "\n## %s (%s, %s%s)\n", run.name.c_str(), run.device.label().c_str(), run.timing.c_str(),
                     run.status == RunStatus::Completed ? "" : (std::string(", ") + toString(run.status)).c_str());
        std::fprintf(out, "Engine busy times from %s.\n", m.engineTimes.c_str());
        std::fprintf(out, "Rates: %s\n", ratesLine(a.analysis.rates).c_str());
        std::fprintf(out, "| metric | value |\n|---|---|\n");
        std::fprintf(out, "| wall time | %s ms |\n", msNumber(m.wallNs).c_str());
        for (auto [label, busy] : {std::pair{"H2D copy engine busy", &m.h2d}, std::pair{"D2H copy engine busy", &m.d2h},
                                   std::pair{"copy engines busy (either direction)", &m.copies},
                                   std::pair{"compute busy", &m.compute}})
            std::fprintf(out, "| %s | %s ms (%s) |\n", label, msNumber(busy->busyNs).c_str(), busyCell(*busy).c_str());
        std::fprintf(out, "| copies overlapping kernels | %.1f%% of copy time |\n", m.overlapPercent);
        if (const std::string words = overlapInWords(m); !words.empty())
            std::fprintf(out, "| overlap of what was possible | %s |\n", words.c_str());
        std::fprintf(out, "| H2D overlapping D2H | %.1f%% of copy time |\n", m.h2dWithD2hPercent);
        std::fprintf(out, "| host staging | %s ms (%s); %s ms thread time on %d thread%s |\n",
                     msNumber(m.staging.busyNs).c_str(), busyCell(m.staging).c_str(), msNumber(m.stagingThreadNs).c_str(),
                     m.stagingThreads, m.stagingThreads == 1 ? "" : "s");
        std::fprintf(out, "| host waiting (main thread) | %s ms (%.1f%%) |\n", msNumber(m.hostWaitNs).c_str(),
                     m.wallNs > 0 ? 100.0 * static_cast<double>(m.hostWaitNs) / static_cast<double>(m.wallNs) : 0.0);
        printKindRow(out, "uploads", m.kind(OpKind::Upload));
        printKindRow(out, "kernels (bytes read + written)", m.kind(OpKind::Kernel));
        printKindRow(out, "downloads", m.kind(OpKind::Download));
        printKindRow(out, "staging in", m.kind(OpKind::StageIn));
        printKindRow(out, "staging out", m.kind(OpKind::StageOut));
        if (m.h2dQueue.ns > 0 || m.d2hQueue.ns > 0)
            std::fprintf(out, "| copies queued behind other streams | uploads %s ms, downloads %s ms |\n",
                         msNumber(m.h2dQueue.ns).c_str(), msNumber(m.d2hQueue.ns).c_str());
        std::fprintf(out, "| speedup vs serialized | %s |\n", speedupCell(a.analysis.speedup).c_str());
        if (v.pipeline) {
            const PipelineModel& b = *v.pipeline;
            std::fprintf(out, "Bounds (the fastest this pipeline could go at those rates):\n| bound | ms | how |\n|---|---:|---|\n");
            std::fprintf(out, "| transfer | %s | %s: %d chunks, upload %s ms, download %s ms, kernel %s ms per chunk |\n",
                         msNumber(b.transferNs).c_str(), b.transferModel.c_str(), b.chunks, msNumber(b.uploadChunkNs).c_str(),
                         msNumber(b.downloadChunkNs).c_str(), msNumber(b.kernelChunkNs).c_str());
            if (b.stagingNs > 0)
                std::fprintf(out, "| host staging | %s | staged bytes at %.2f GB/s, host memcpy on %d thread%s |\n",
                             msNumber(b.stagingNs).c_str(), b.stagingGBps, b.stagingThreads, b.stagingThreads == 1 ? "" : "s");
            std::fprintf(out, "| compute | %s | time some kernel ran (union of kernel intervals) |\n", msNumber(b.computeNs).c_str());
            std::fprintf(out, "| **binding: %s** | %s | the run took %s of it |\n", toString(b.binding),
                         msNumber(v.boundNs).c_str(), distanceCell(v).c_str());
        }
        std::fprintf(out, "Diagnosis: %s\n", v.words.c_str());
    }
}

void printAnalysisSummary(std::FILE* out, const Trace& trace)
{
    printAnalysisSummary(out, trace, analyzeTrace(trace));
}

void printAnalysisSummary(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses)
{
    if (trace.runs.empty())
        return;
    const std::vector<Analysed> all = analyseAll(trace, analyses);
    std::fprintf(out, "\nAnalysis (each column explained under the table)\n");
    std::fprintf(out, "| pipeline | wall ms | H2D busy | D2H busy | compute busy | overlap | of possible | H2D+D2H | "
                      "staging ms | host wait ms | speedup | bound ms | distance |\n"
                      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Analysed& a : all) {
        const RunMetrics& m = a.analysis.metrics;
        const Verdict& v = a.analysis.findings.verdict;
        const std::string bound =
            v.pipeline ? msNumber(v.boundNs) + " (" + toString(v.binding()) + ")" : std::string("-");
        const std::string ofPossible = m.overlapPossibleNs > 0 ? printed("%.1f%%", m.overlapOfPossiblePercent) : "-";
        std::fprintf(out, "| %s | %s | %s | %s | %s | %.1f%% | %s | %.1f%% | %s | %s | %s | %s | %s |\n",
                     a.run->name.c_str(), msNumber(m.wallNs).c_str(), busyCell(m.h2d).c_str(), busyCell(m.d2h).c_str(),
                     busyCell(m.compute).c_str(), m.overlapPercent, ofPossible.c_str(), m.h2dWithD2hPercent,
                     msNumber(m.staging.busyNs).c_str(),
                     msNumber(m.hostWaitNs).c_str(), speedupCell(a.analysis.speedup).c_str(), bound.c_str(), distanceCell(v).c_str());
    }
    printSummaryLegend(out);
    // Runs judged by the same rates share one line.
    std::vector<std::string> printedRates;
    for (const Analysed& a : all) {
        const std::string line = ratesLine(a.analysis.rates);
        if (std::find(printedRates.begin(), printedRates.end(), line) != printedRates.end())
            continue;
        printedRates.push_back(line);
        std::fprintf(out, "Rates (%s): %s\n", a.run->name.c_str(), line.c_str());
    }
    std::fprintf(out, "Diagnosis:\n");
    for (const Analysed& a : all)
        std::fprintf(out, "- %s: %s\n", a.run->name.c_str(), a.analysis.findings.verdict.words.c_str());
    printHostShares(out, trace);
}

void printPeerMatrix(std::FILE* out, const PeerMatrix& matrix, int devices)
{
    if (!matrix.note.empty()) {
        std::fprintf(out, "\nPeer-to-peer matrix: %s\n", printable(matrix.note).c_str());
        return;
    }
    const bool simulated = matrix.run.device.simulated;
    for (bool access : {true, false}) {
        std::fprintf(out, "\nPeer-to-peer copies (cudaMemcpyPeerAsync), %s, peer access %s, GB/s%s\n",
                     matrix.points.empty() ? "-" : (std::to_string(matrix.points.front().bytes >> 20) + " MiB").c_str(),
                     access ? "on" : "off", simulated ? " (SIMULATED: peer link rate is an estimate)" : "");
        std::fprintf(out, "| source \\ destination |");
        for (int d = 0; d < devices; ++d)
            std::fprintf(out, " GPU %d |", d);
        std::fprintf(out, "\n|---|");
        for (int d = 0; d < devices; ++d)
            std::fprintf(out, "---:|");
        std::fprintf(out, "\n");
        for (int src = 0; src < devices; ++src) {
            std::fprintf(out, "| GPU %d |", src);
            for (int dst = 0; dst < devices; ++dst) {
                std::string cell = "-";
                for (const PeerPoint& p : matrix.points)
                    if (p.src == src && p.dst == dst && p.peerAccess == access)
                        cell = p.measured ? printed("%.1f", p.gbps) : "no access";
                std::fprintf(out, " %s |", cell.c_str());
            }
            std::fprintf(out, "\n");
        }
    }
    for (const PeerPoint& p : matrix.points)
        if (!p.note.empty())
            std::fprintf(out, "  %s\n", printable(p.note).c_str());
    if (matrix.status != RunStatus::Completed)
        std::fprintf(out, "  stopped: %s\n", printable(matrix.error).c_str());
}

void printHostShares(std::FILE* out, const Trace& trace)
{
    for (const Run& run : trace.runs) {
        const HostShare share = analyseHostShare(run, trace.sweeps);
        if (!share.applies)
            continue;
        std::fprintf(out, "\nSeveral GPUs, one host (%s): uploads of %s memory\n", printable(run.name).c_str(),
                     toString(share.memory));
        std::fprintf(out, "| device | uploaded MiB | upload busy ms | GB/s together | GB/s alone | alone from |\n"
                          "|---|---:|---:|---:|---:|---|\n");
        for (const DeviceUploads& d : share.devices)
            std::fprintf(out, "| GPU %d: %s | %.1f | %s | %.1f | %s | %s |\n", d.device, printable(d.label).c_str(),
                         static_cast<double>(d.bytes) / (1024.0 * 1024.0), msNumber(d.busyNs).c_str(), d.gbps,
                         d.aloneGBps > 0 ? printed("%.1f", d.aloneGBps).c_str() : "-",
                         d.aloneSource.empty() ? "unknown" : printable(d.aloneSource).c_str());
        std::fprintf(out, "| host (all GPUs) | | | %.1f | %s | sum of the above |\n", share.aggregateGBps,
                     share.sumAloneGBps > 0 ? printed("%.1f", share.sumAloneGBps).c_str() : "-");
        std::fprintf(out, "Diagnosis: %s\n", printable(share.diagnosis).c_str());
    }
}

namespace {

std::string busyShare(std::int64_t ns, std::int64_t wallNs)
{
    return msNumber(ns) + printed(" (%.0f%%)", wallNs > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(wallNs) : 0.0);
}

// What was judged, when it is not the whole timed region: the loop, its
// setup, and each instance of the judged regions summarised (core's words,
// which the window shows too).
void printJudged(std::FILE* out, const Run& run, const RunAnalysis& a)
{
    if (const std::string judged = judgedSentence(run, a); !judged.empty())
        std::fprintf(out, "%s\n", judged.c_str());
    for (const RegionJudgement& r : a.regions)
        for (const WordsLine& line : regionJudgementWords(run, r))
            std::fprintf(out, "%*s%s\n", 3 * line.depth, "", line.text.c_str());
}

// Under a finding, the lines it comes from and the PyTorch calls behind it:
// "at train.py:42 in train_step (8 calls): .item() ...". The file by its
// name, as people say it; the JSON keeps the path as the trace wrote it.
void printSources(std::FILE* out, const Finding& x)
{
    for (const FindingSource& s : x.sources) {
        const std::string place = sitePlaceText(s.file, s.line, s.function, s.lineIs);
        std::fprintf(out, "   %s (%zu call%s)%s%s\n", printable(place).c_str(), s.calls, s.calls == 1 ? "" : "s",
                     s.cause.empty() ? "" : ": ", printable(s.cause).c_str());
    }
    for (const FindingTorchOp& t : x.torchOps) {
        if (t.cause.empty())
            std::fprintf(out, "   in PyTorch: %s (%zu call%s)\n", printable(t.op.empty() ? "no aten op" : t.op).c_str(),
                         t.calls, t.calls == 1 ? "" : "s");
        else
            std::fprintf(out, "   in PyTorch: %s%s%s (%zu call%s); fix: %s\n", printable(t.cause).c_str(),
                         t.op.empty() ? "" : ", from ", printable(t.op).c_str(), t.calls, t.calls == 1 ? "" : "s",
                         printable(t.fix).c_str());
    }
    if (!x.sourcesNote.empty())
        std::fprintf(out, "   call sites: %s\n", printable(x.sourcesNote).c_str());
}

void printRunFindings(std::FILE* out, const Run& run, const RunAnalysis& a)
{
    const RunFindings& f = a.findings;
    const char* region = a.judged.wholeRun() ? "the timed region" : "the judged span";
    std::fprintf(out, "\n## %s\n", printable(run.name).c_str());
    printJudged(out, run, a);
    if (f.devices.empty()) {
        std::fprintf(out, "No GPU work in %s (%s ms).\n", region, msNumber(f.wallNs).c_str());
    } else {
        std::fprintf(out, "Busy time in ms (%% of %s, %s ms); times from %s.\n", region, msNumber(f.wallNs).c_str(),
                     printable(f.devices.front().engineTimes).c_str());
        std::fprintf(out, "| device | streams | H2D | D2H | device copies | kernels | memsets | copy with kernel | "
                          "H2D with D2H | GPU idle |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const DeviceActivity& d : f.devices)
            std::fprintf(out, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", printable(d.label).c_str(),
                         d.streams, busyShare(d.h2dNs, f.wallNs).c_str(), busyShare(d.d2hNs, f.wallNs).c_str(),
                         busyShare(d.deviceCopyNs, f.wallNs).c_str(), busyShare(d.computeNs, f.wallNs).c_str(),
                         busyShare(d.memsetNs, f.wallNs).c_str(), busyShare(d.copyWithComputeNs, f.wallNs).c_str(),
                         busyShare(d.h2dWithD2hNs, f.wallNs).c_str(), busyShare(d.idleNs, f.wallNs).c_str());
    }
    const WhatIfSummary& w = f.whatIf;
    if (w.replayed)
        std::fprintf(out, "What if (replay of the GPU's active span): replay %s ms of measured %s ms; all fixes: %s ms "
                          "(%s)%s; floor %s ms (%s)\n   model: %s\n   contention: %s\n",
                     msNumber(w.replaySpanNs).c_str(), msNumber(w.measuredSpanNs).c_str(), msNumber(w.allFixesSpanNs).c_str(),
                     describeFixes(w.allFixes).c_str(), w.allFixesClamped ? ", raised to its floor" : "",
                     msNumber(w.floorNs).c_str(), printable(w.floorBinds).c_str(), printable(w.assumptions).c_str(),
                     printable(w.contention).c_str());
    else if (!f.devices.empty())
        std::fprintf(out, "What if: not replayed (%s): costs are estimates\n", printable(w.why).c_str());
    int n = 0;
    for (const Finding& x : f.findings) {
        const std::string kind = findingWords(x);
        // A fix's saving is measured against the active span: the time the
        // loop's GPU work took, not the process's setup.
        const std::int64_t of = x.costSource == CostSource::Replay ? f.activeNs : f.wallNs;
        // A cost at a pinned rate not measured on the device says where the rate came from.
        const std::string source = std::string(x.costSource == CostSource::Replay ? "replay" : "estimate")
                                   + (x.costRate.empty() ? "" : ", " + x.costRate);
        std::fprintf(out, "%d. %s: %s %s ms (%s) (%s of %s), %zu op%s\n   %s\n   fix: %s\n", ++n, kind.c_str(),
                     x.costSource == CostSource::Replay ? "its fix saves" : "costs", msNumber(x.costNs).c_str(),
                     printable(source).c_str(),
                     printed("%.1f%%", of > 0 ? 100.0 * static_cast<double>(x.costNs) / static_cast<double>(of) : 0.0)
                         .c_str(),
                     x.costSource == CostSource::Replay ? "the active span" : a.judged.wholeRun() ? "wall" : "judged span", x.opCount,
                     x.opCount == 1 ? "" : "s", printable(x.cause).c_str(), printable(x.fix).c_str());
        printSources(out, x);
    }
}

} // namespace

void printFindings(std::FILE* out, const Trace& trace)
{
    printFindings(out, trace, analyzeTrace(trace));
}

void printFindings(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& all)
{
    if (trace.runs.empty())
        return;
    std::fprintf(out, "\nFindings (per run: what was judged, what each engine did, then why copies and kernels do "
                      "not overlap, largest cost first; docs/profiling.md explains each)\n");
    for (std::size_t i = 0; i < trace.runs.size() && i < all.size(); ++i)
        printRunFindings(out, trace.runs[i], all[i]);
}

} // namespace ovs::cli
