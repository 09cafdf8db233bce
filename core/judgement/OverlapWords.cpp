#include "judgement/OverlapWords.h"

#include "base/DurationText.h"
#include "base/NumberText.h"
#include "base/Thresholds.h"

#include <algorithm>
#include <cstdio>

namespace ovs {

namespace {

// "0.2%" with the precision a small share needs.
std::string share(double fraction)
{
    const double percent = 100.0 * fraction;
    return formatted(percent < 1 ? "%.1f%%" : "%.0f%%", percent);
}

} // namespace

bool overlapTooShortToMatter(const RunMetrics& m)
{
    const std::int64_t copies = m.copies.busyNs;
    const std::int64_t kernels = m.compute.busyNs;
    if (copies <= 0 || kernels <= 0)
        return false;
    return static_cast<double>(std::min(copies, kernels)) < thresholds::kTooShortToOverlap
           * static_cast<double>(std::max(copies, kernels));
}

std::string overlapInWords(const RunMetrics& m)
{
    const std::int64_t copies = m.copies.busyNs;
    const std::int64_t kernels = m.compute.busyNs;
    if (copies <= 0 || kernels <= 0)
        return {};
    if (overlapTooShortToMatter(m)) {
        if (kernels < copies)
            return "kernels are " + share(static_cast<double>(kernels) / static_cast<double>(copies))
                   + " of copy time: nothing to hide copies behind";
        return "copies are " + share(static_cast<double>(copies) / static_cast<double>(kernels))
               + " of kernel time: hiding them gains little";
    }
    return formatted("copies and kernels ran at once %.0f%% of the time they could (", m.overlapOfPossiblePercent)
           + msNumber(m.copyWithKernelNs, 2) + " of " + msText(m.overlapPossibleNs, 2) + ")";
}

} // namespace ovs
