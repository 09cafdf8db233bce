#include "judgement/OverlapWords.h"

#include "base/NumberText.h"

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
    return static_cast<double>(std::min(copies, kernels)) < kTooShortToOverlap * static_cast<double>(std::max(copies, kernels));
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
    return formatted("copies and kernels ran at once %.0f%% of the time they could (%.2f of %.2f ms)",
                   m.overlapOfPossiblePercent, static_cast<double>(m.copyWithKernelNs) / 1e6,
                   static_cast<double>(m.overlapPossibleNs) / 1e6);
}

} // namespace ovs
