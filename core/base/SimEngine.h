#pragma once

#include <cstdint>
#include <vector>

namespace ovs {

// One hardware engine (a copy direction or the compute units) as a list of
// busy intervals. An op is placed in the earliest gap at or after the time it
// becomes ready, so work that becomes ready early can use a gap left before
// work queued earlier (each stream feeds the engine independently).
class SimEngine {
public:
    // Returns the start time of an op of `durationNs` ready at `readyNs`, and
    // marks the engine busy for it.
    std::int64_t schedule(std::int64_t readyNs, std::int64_t durationNs);
    // As schedule(), but never before the end of work already booked: an
    // engine that takes its work strictly in the order it was issued.
    std::int64_t scheduleInOrder(std::int64_t readyNs, std::int64_t durationNs);
    // Earliest start schedule() would give, without booking it.
    std::int64_t earliestStart(std::int64_t readyNs, std::int64_t durationNs) const;
    // Forgets intervals that end before `ns`; nothing can be placed there any more.
    void forgetBefore(std::int64_t ns);
    // End of the last booked interval (0 if idle since the start).
    std::int64_t busyUntil() const;

    struct Interval {
        std::int64_t start;
        std::int64_t end;
    };
    // Booked intervals not yet forgotten, sorted, disjoint.
    const std::vector<Interval>& busy() const { return m_busy; }

private:
    std::vector<Interval> m_busy; // sorted, disjoint
};

} // namespace ovs
