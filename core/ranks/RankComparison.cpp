#include "ranks/RankComparison.h"

#include "base/Median.h"
#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Saturating.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ovs {

RankAlignment alignRanks(const std::vector<RankSummary>& rows)
{
    RankAlignment a;
    a.offsetNs.assign(rows.size(), 0);
    if (rows.empty())
        return a;
    for (const RankSummary& row : rows)
        if (!row.clockOriginNs) {
            a.why = row.label + " has no shared clock (only PyTorch profiler traces have one): the ranks are "
                                "not aligned";
            return a;
        }
    a.sharedClock = true;
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    for (const RankSummary& row : rows)
        earliest = std::min(earliest, *row.clockOriginNs);
    for (std::size_t i = 0; i < rows.size(); ++i)
        a.offsetNs[i] = saturatingSub(*rows[i].clockOriginNs, earliest);

    // Each step's earliest and latest start on the shared clock.
    struct Starts {
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        std::int64_t last = std::numeric_limits<std::int64_t>::min();
        int ranks = 0;
    };
    std::map<std::int64_t, Starts> steps;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::map<std::int64_t, bool> seen; // a step a rank has twice counts once, at its first start
        for (const StepStart& step : rows[i].steps) {
            if (!seen.emplace(step.number, true).second)
                continue;
            const std::int64_t at = saturatingAdd(a.offsetNs[i], step.beginNs);
            Starts& s = steps[step.number];
            s.first = std::min(s.first, at);
            s.last = std::max(s.last, at);
            ++s.ranks;
        }
    }
    std::vector<std::int64_t> spreads;
    for (const auto& [number, s] : steps) {
        if (s.ranks < 2)
            continue;
        const std::int64_t spread = spanNs(s.first, s.last);
        spreads.push_back(spread);
        if (spreads.size() == 1 || spread > a.worstSpreadNs) {
            a.worstSpreadNs = spread;
            a.worstStep = number;
        }
    }
    a.stepsCompared = static_cast<int>(spreads.size());
    a.medianSpreadNs = upperMedian(spreads);
    return a;
}

namespace {

// The finding whose cost on the straggler exceeds its median cost on the
// other ranks by the most, into `s`; its words end the sentence.
void nameDifferingFinding(const std::vector<RankSummary>& rows, std::size_t straggler, RankStraggler& s)
{
    const RankSummary& slow = rows[straggler];
    // Each finding's cost on every other rank (0 where it lacks it).
    std::map<std::string, std::vector<std::int64_t>> others;
    for (const RankFinding& f : slow.findings)
        others.try_emplace(findingId(f.kind, f.alsoKinds));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == straggler)
            continue;
        for (auto& [id, costs] : others) {
            std::int64_t cost = 0;
            for (const RankFinding& f : rows[i].findings)
                if (findingId(f.kind, f.alsoKinds) == id)
                    cost = std::max(cost, f.costNs);
            costs.push_back(cost);
        }
    }
    const RankFinding* differs = nullptr;
    for (const RankFinding& f : slow.findings) {
        const std::int64_t extra = saturatingSub(f.costNs, upperMedian(others[findingId(f.kind, f.alsoKinds)]));
        if (extra > s.findingExtraNs) {
            s.findingExtraNs = extra;
            differs = &f;
        }
    }
    const char* per = slow.hasSteps ? " per step" : "";
    if (!differs) {
        s.sentence += "; no finding costs it more than the other ranks: its bound is " + slow.bound;
        return;
    }
    s.findingId = findingId(differs->kind, differs->alsoKinds);
    s.findingWords = findingWords(differs->kind, differs->alsoKinds);
    s.fix = differs->fix;
    s.sentence += "; " + s.findingWords + " costs it " + msText(s.findingExtraNs, 3) + " more" + per
                  + " than the other ranks' median";
}

// Every rank waits in collectives, and one waits least by kStragglerShare
// of a step: the others wait for it (see RankStraggler).
std::optional<std::size_t> leastWaiting(const std::vector<RankSummary>& rows, RankStraggler& s)
{
    std::size_t least = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].collectiveMedianNs < 0)
            return std::nullopt;
        if (rows[i].collectiveMedianNs < rows[least].collectiveMedianNs)
            least = i;
    }
    std::vector<std::int64_t> waits, steps;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (i != least) {
            waits.push_back(rows[i].collectiveMedianNs);
            steps.push_back(rows[i].stepMedianNs);
        }
    s.itsWaitNs = rows[least].collectiveMedianNs;
    s.othersWaitNs = upperMedian(waits);
    const double step = static_cast<double>(upperMedian(steps));
    if (step <= 0 || static_cast<double>(saturatingSub(s.othersWaitNs, s.itsWaitNs)) < thresholds::kStragglerShare * step)
        return std::nullopt;
    return least;
}

} // namespace

RankStraggler findStraggler(const std::vector<RankSummary>& rows)
{
    RankStraggler s;
    if (rows.size() < 2)
        return s;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].stepMedianNs > rows[s.slowestRow].stepMedianNs)
            s.slowestRow = i;
    // Against the others only: with two ranks, a median over both would be
    // the straggler's own step.
    std::vector<std::int64_t> medians;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (i != s.slowestRow)
            medians.push_back(rows[i].stepMedianNs);
    const RankSummary& slowest = rows[s.slowestRow];
    const std::int64_t typical = upperMedian(medians);
    s.slowerPercent = typical > 0 ? 100.0 * (static_cast<double>(slowest.stepMedianNs) / static_cast<double>(typical) - 1.0)
                                  : 0.0;
    if (typical > 0 && s.slowerPercent >= 100.0 * thresholds::kStragglerShare) {
        s.row = s.slowestRow;
        s.sentence = slowest.label + " is the straggler: median step " + msText(slowest.stepMedianNs, 3) + ", "
                     + formatted("%.0f%%", s.slowerPercent) + " above the other ranks' median " + msText(typical, 3);
        nameDifferingFinding(rows, s.slowestRow, s);
        return s;
    }
    if (const std::optional<std::size_t> least = leastWaiting(rows, s)) {
        const RankSummary& it = rows[*least];
        s.row = least;
        s.byCollectiveWait = true;
        s.sentence = it.label + " is the straggler: the ranks meet in a collective every step, so their steps take "
                     "as long (median " + msText(it.stepMedianNs, 3) + "), and the other ranks wait a median "
                     + msText(s.othersWaitNs, 3) + " per step inside collectives, " + it.label + " " + msText(s.itsWaitNs, 3);
        nameDifferingFinding(rows, *least, s);
        if (!s.findingId.empty()) {
            // Fixed, its own work shrinks by the finding's cost; the job's
            // step is then the longer of that and the others' own work, plus
            // the collective itself.
            std::vector<std::int64_t> othersWork;
            for (std::size_t i = 0; i < rows.size(); ++i)
                if (i != *least)
                    othersWork.push_back(saturatingSub(rows[i].stepMedianNs, rows[i].collectiveMedianNs));
            const std::int64_t others = upperMedian(std::move(othersWork));
            const std::int64_t itsWork =
                saturatingSub(saturatingSub(it.stepMedianNs, it.collectiveMedianNs), s.findingExtraNs);
            const std::int64_t fixedStep = saturatingAdd(std::max(itsWork, others), s.itsWaitNs);
            s.jobSavingNs = std::max<std::int64_t>(0, saturatingSub(it.stepMedianNs, fixedStep));
            s.sentence += "; fixed, the job's step would save about " + msText(s.jobSavingNs, 3) + " ("
                          + (others >= itsWork ? "the other ranks' own work, " + msText(others, 3) + ", would then bind it)"
                                               : "its own work, " + msText(itsWork, 3) + ", would still bind it)");
        }
        return s;
    }
    s.sentence = "no straggler: the slowest rank, " + slowest.label + ", has a median step of "
                 + msText(slowest.stepMedianNs, 3) + ", " + formatted("%.1f%%", s.slowerPercent)
                 + " above the other ranks' median " + msText(typical, 3);
    return s;
}

} // namespace ovs
