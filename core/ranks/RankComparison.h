#pragma once

// What the ranks of one job say together: how well their clocks line up,
// and which rank is slow and why. Pure functions of the summary rows, so a
// folder of 128 ranks is compared without any of its ops.

#include "ranks/RankSummary.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// Kineto's timestamps are wall-clock time, which the ranks of a job share
// (within NTP between hosts): each rank's time 0 is placed on it, and the
// spread of a step's start across the ranks says how well that holds (it
// holds the clocks' disagreement and the ranks' real lateness together: a
// step that every rank starts after one collective starts within
// microseconds on clocks that agree).
struct RankAlignment {
    bool sharedClock = false; // every rank has a shared-clock time 0
    std::string why;          // when not: which rank has none
    // Per row: its time 0 after the earliest rank's, ns; all 0 when not aligned.
    std::vector<std::int64_t> offsetNs;
    int stepsCompared = 0; // ProfilerStep numbers at least two ranks have
    std::int64_t medianSpreadNs = 0; // latest start minus earliest, median over those steps
    std::int64_t worstSpreadNs = 0;
    std::int64_t worstStep = 0; // the step number of the worst spread
};

RankAlignment alignRanks(const std::vector<RankSummary>& rows);

// The slowest rank, by its median step, and whether it stands out: a
// straggler is kStragglerShare slower than the median of the other ranks'
// median steps. Where no rank is slower but every rank waits inside
// collectives, the ranks meet every step (DDP) and all take the slowest's
// time: the straggler is then the rank that waits least, where the others
// wait kStragglerShare of a step longer. The finding that differs on it is
// the one whose cost on it exceeds the median of its cost on the other ranks
// (0 where a rank lacks it) by the most.
struct RankStraggler {
    std::optional<std::size_t> row; // the straggler; none when no rank stands out (or fewer than 2)
    std::size_t slowestRow = 0;
    double slowerPercent = 0; // its median step over the other ranks' median, minus 100%
    std::string findingId;    // "pageable-memory"; empty when no finding costs it more
    std::string findingWords; // "pageable memory"
    std::int64_t findingExtraNs = 0; // its cost there minus the others' median
    std::string fix;
    // Found by its wait in collectives, not its step: then its median wait,
    // the other ranks' median wait, and what the finding's fix would save
    // the job per step (the straggler's step less the longer of its own
    // work without the finding and the other ranks' own work, each plus the
    // collective's own time, the straggler's wait).
    bool byCollectiveWait = false;
    std::int64_t itsWaitNs = 0;
    std::int64_t othersWaitNs = 0;
    std::int64_t jobSavingNs = 0;
    // One line: "rank 5 is the straggler: median step 12.3 ms, 40% above the
    // other ranks' median 8.8 ms; pageable memory costs it 3.5 ms more per step
    // than the other ranks' median"; empty with fewer than two ranks.
    std::string sentence;
};

RankStraggler findStraggler(const std::vector<RankSummary>& rows);

} // namespace ovs
