#include "judgement/JudgedRegion.h"

#include "base/Saturating.h"

namespace ovs {

std::int64_t JudgedRegion::lengthNs() const
{
    return spanNs(beginNs, endNs);
}

JudgedRegion judgedRegion(const Run& run)
{
    return {run.timedBeginNs, run.timedEndNs};
}

} // namespace ovs
