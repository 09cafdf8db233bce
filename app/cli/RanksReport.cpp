#include "RanksReport.h"

#include "ConsoleReport.h"

#include "base/DurationText.h"
#include "base/Printable.h"
#include "io/PathParts.h"

#include <algorithm>
#include <string>

namespace ovs::cli {

namespace {

std::string percentCell(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", value);
    return text;
}

} // namespace

void printRanks(std::FILE* out, const RankFolder& folder)
{
    std::size_t read = 0;
    for (const RankFile& f : folder.files)
        read += f.error.empty();
    std::fprintf(out, "Ranks: %zu runs from %zu of %zu files\n", folder.ranks.size(), read, folder.files.size());
    // The collectives' column where some rank waits in them (DDP's ranks do).
    const bool collectives = std::any_of(folder.ranks.begin(), folder.ranks.end(),
                                         [](const RankSummary& r) { return r.collectiveMedianNs >= 0; });
    std::fprintf(out, "\n| rank | file | device | steps | median step ms | slowest step ms |%s GPU busy | overlap | "
                      "of possible | top finding | its cost ms | bound |\n"
                      "|---|---|---|---:|---:|---:|%s---:|---:|---:|---|---:|---|\n",
                 collectives ? " in collectives ms |" : "", collectives ? "---:|" : "");
    for (std::size_t i = 0; i < folder.ranks.size(); ++i) {
        const RankSummary& r = folder.ranks[i];
        const bool straggler = folder.straggler.row == i;
        const std::string topFinding = r.findings.empty() ? "-" : findingWords(r.findings.front().kind, r.findings.front().alsoKinds);
        const std::string cost = r.findings.empty() ? "-" : msNumber(r.findings.front().costNs);
        // The optional cell, with its leading space and closing bar.
        const std::string waited =
            collectives ? " " + (r.collectiveMedianNs >= 0 ? msNumber(r.collectiveMedianNs) : std::string("-")) + " |" : "";
        std::fprintf(out, "| %s%s | %s | %s | %s | %s | %s |%s %s | %s | %s | %s | %s | %s |\n",
                     echoed(r.label).c_str(), straggler ? " **straggler**" : "",
                     echoed(nameOf(folder.files[r.file].path)).c_str(), echoed(r.device).c_str(),
                     r.hasSteps ? std::to_string(r.stepsJudged).c_str() : "-", msNumber(r.stepMedianNs).c_str(),
                     msNumber(r.stepSlowestNs).c_str(), waited.c_str(),
                     percentCell(r.gpuBusyPercent).c_str(),
                     percentCell(r.overlapPercent).c_str(), percentCell(r.overlapOfPossiblePercent).c_str(),
                     topFinding.c_str(), cost.c_str(), r.bound.c_str());
    }
    std::fprintf(out, "\nsteps: judged steps of each rank (ProfilerStep#N, as `analyze` of the file alone judges "
                      "them); without steps its judged span is its one step\n"
                      "GPU busy: the busiest device's busy time over the judged span; overlap: copies overlapping "
                      "kernels, of copy time, and of the most that could overlap\n"
                      "top finding: the costliest finding but the bound, with its median cost per step (over the "
                      "judged span without steps)\n");
    if (collectives)
        std::fprintf(out, "in collectives: time inside collectives (gloo:/nccl: ranges, NCCL kernels) per judged step, "
                          "the median; where the ranks meet every step, the others wait there for the straggler\n");

    const RankAlignment& a = folder.alignment;
    if (!a.sharedClock)
        std::fprintf(out, "\nClocks: %s\n", echoed(a.why).c_str());
    else if (a.stepsCompared == 0)
        std::fprintf(out, "\nClocks: aligned on the ranks' shared clock (ranks start up to %s ms apart); no profiler step "
                          "is in two ranks, so how well is not measured\n",
                     msNumber(*std::max_element(a.offsetNs.begin(), a.offsetNs.end())).c_str());
    else
        std::fprintf(out, "\nClocks: aligned on the ranks' shared clock; step starts across ranks spread %s ms (median "
                          "over %d steps), at most %s ms (ProfilerStep#%lld)\n",
                     msNumber(a.medianSpreadNs).c_str(), a.stepsCompared, msNumber(a.worstSpreadNs).c_str(),
                     static_cast<long long>(a.worstStep));
    if (!folder.straggler.sentence.empty()) {
        // Our words around at most two labels: longer than one echoed name.
        std::fprintf(out, "Straggler: %s\n", echoed(folder.straggler.sentence, 4 * kEchoLimit).c_str());
        if (!folder.straggler.fix.empty())
            std::fprintf(out, "   fix: %s\n", printable(folder.straggler.fix).c_str());
    }
}

void printRanksOfTrace(std::FILE* out, const Trace& trace, const std::vector<RunAnalysis>& analyses,
                       const std::string& path)
{
    if (const std::optional<RankFolder> ranks = ranksOfTrace(trace, analyses, path)) {
        std::fprintf(out, "\n");
        printRanks(out, *ranks);
    }
}

} // namespace ovs::cli
