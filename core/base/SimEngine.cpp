#include "base/SimEngine.h"

#include <algorithm>

namespace ovs {

std::int64_t SimEngine::earliestStart(std::int64_t readyNs, std::int64_t durationNs) const
{
    std::int64_t candidate = readyNs;
    for (const auto& interval : m_busy) {
        if (interval.end <= candidate)
            continue;
        if (interval.start >= candidate + durationNs)
            break; // fits in the gap before this interval
        candidate = interval.end;
    }
    return candidate;
}

std::int64_t SimEngine::schedule(std::int64_t readyNs, std::int64_t durationNs)
{
    const std::int64_t start = earliestStart(readyNs, durationNs);
    const Interval booked{start, start + durationNs};
    auto at = std::lower_bound(m_busy.begin(), m_busy.end(), booked,
                               [](const Interval& a, const Interval& b) { return a.start < b.start; });
    m_busy.insert(at, booked);
    return start;
}

std::int64_t SimEngine::scheduleInOrder(std::int64_t readyNs, std::int64_t durationNs)
{
    const std::int64_t start = std::max(readyNs, busyUntil());
    m_busy.push_back({start, start + durationNs});
    return start;
}

void SimEngine::forgetBefore(std::int64_t ns)
{
    // Keep the last interval so busyUntil() stays right.
    auto firstKept = std::find_if(m_busy.begin(), m_busy.end(), [ns](const Interval& i) { return i.end > ns; });
    if (firstKept == m_busy.end() && !m_busy.empty())
        firstKept = m_busy.end() - 1;
    m_busy.erase(m_busy.begin(), firstKept);
}

std::int64_t SimEngine::busyUntil() const
{
    return m_busy.empty() ? 0 : m_busy.back().end;
}

} // namespace ovs
