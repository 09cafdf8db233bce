#include "words/JudgementWords.h"

#include "base/DurationText.h"
#include "base/Printable.h"
#include "base/Saturating.h"

namespace ovs {

std::string judgedSentence(const Run& run, const RunAnalysis& analysis)
{
    const JudgedSpan& j = analysis.judged;
    if (isPipelineRun(run))
        return {};
    if (j.wholeRun())
        return "Judged: the timed region (" + msNumber(spanNs(j.span.beginNs, j.span.endNs)) + " ms)"
               + (j.whyWhole.empty() ? "" : ": " + printable(j.whyWhole)) + ".";
    return "Judged: " + printable(j.label) + ", " + msNumber(spanNs(j.span.beginNs, j.span.endNs)) + " ms of the "
           + msNumber(run.wallNs()) + " ms timed region" + (j.setupText.empty() ? "" : "; " + printable(j.setupText)) + ".";
}

std::vector<WordsLine> regionJudgementWords(const Run& run, const RegionJudgement& r)
{
    std::vector<WordsLine> lines;
    const std::size_t judged = r.group.regions.size();
    const std::string slowest = r.slowestRegion < run.regions.size() ? printable(run.regions[r.slowestRegion].name)
                                                                     : std::string("?");
    lines.push_back({0, "Each of " + printable(r.group.name) + ": " + std::to_string(judged) + " judged"
                            + (r.instancesFound > judged ? " (the first " + std::to_string(judged) + " of "
                                                               + std::to_string(r.instancesFound) + ")"
                                                         : std::string())
                            + "; median " + msNumber(r.medianNs) + " ms, slowest " + slowest + " " + msNumber(r.slowestNs)
                            + " ms; bound in " + std::to_string(r.boundInstances) + " of " + std::to_string(judged)
                            + ": " + toString(r.bound)});
    for (const CommonFinding& c : r.common) {
        const bool replayed = c.costSource == CostSource::Replay;
        const std::string basis = c.fromWholeSpan ? "the whole span's replay, split at the steps"
                                  : replayed      ? "replay, the steps judged alone"
                                                  : "estimate, the steps judged alone";
        lines.push_back({1, "in " + std::to_string(c.instances) + " of " + std::to_string(judged) + ": "
                                + findingWords(c.kind, c.alsoKinds) + ": " + (replayed ? "its fix saves" : "costs")
                                + " " + msNumber(c.medianCostNs) + " ms each (median, " + basis + ")"
                                + (c.fromWholeSpan ? "; " + msNumber(c.stepsSumNs) + " ms over the steps, of "
                                                         + msNumber(c.wholeCostNs) + " ms for the whole span"
                                                   : std::string())});
        lines.push_back({2, printable(c.cause)});
        lines.push_back({2, "fix: " + printable(c.fix)});
    }
    if (r.common.empty())
        lines.push_back({1, "no finding holds in most of them"});
    if (r.medianAllFixesSavingNs > 0)
        lines.push_back({1, "every fix together saves " + msNumber(r.medianAllFixesSavingNs) + " ms each (median, replay)"
                                + (r.allFixesStepsSumNs >= 0 ? "; " + msNumber(r.allFixesStepsSumNs) + " ms over the steps, of "
                                                                   + msNumber(r.wholeAllFixesSavingNs) + " ms for the whole span"
                                                             : std::string())});
    if (!r.disagreement.empty())
        lines.push_back({1, printable(r.disagreement)});
    return lines;
}

} // namespace ovs
