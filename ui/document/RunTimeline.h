#pragma once

#include "document/RegionTracks.h"

#include "trace/Run.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ovs::ui {

// One run as the timeline shows it. A finished run is core's Run as it is:
// its ops flat and sorted by (lane, start), shared with the analysis (which
// takes it without a copy or a re-sort, and whose op indices are the
// timeline's), each lane a view of its range. A live run keeps its header
// and an op list per lane until it finishes, since its ops arrive in
// batches. Ops in one lane never overlap, so each lane is sorted by end
// too, which is what makes the visible-range search a pair of binary
// searches.
class RunTimeline {
public:
    RunTimeline();
    // A finished run (loaded from a file, or the end of a live run).
    explicit RunTimeline(const Run& run);
    // The same, taking the run over instead of copying it.
    explicit RunTimeline(Run&& run);

    // Live: the header first, then lanes and batches of ops as they complete.
    static RunTimeline live(const Run& header);
    void addLane(const Lane& lane, int laneIndex);
    void addOps(std::span<const Op> ops);
    // Appends to the header's name table, which ops' nameId index.
    void addNames(std::span<const std::string> names);
    // Replaces everything with the finished run.
    void finish(const Run& run);

    // The run: a finished run with its ops; a live run's header, whose ops
    // are in laneOps only (run().ops is empty while live).
    const Run& run() const { return *m_run; }
    // The finished run, shared: what the analysis reads. nullptr while live.
    std::shared_ptr<const Run> sharedRun() const;
    bool isLive() const { return m_live; }
    int laneCount() const { return m_laneCount; }
    std::span<const Op> laneOps(int lane) const;
    std::size_t opCount() const { return m_live ? m_liveOpCount : m_run->ops.size(); }
    // The run's regions in the rows of the timeline's regions band (built
    // with the header: regions come with a finished run, never in batches).
    const RegionTracks& regionTracks() const { return m_regionTracks; }
    // Latest end of any op (0 if none).
    std::int64_t endNs() const { return m_endNs; }

    // Indices [first, last) in laneOps(lane) of the ops that intersect [t0, t1].
    std::pair<std::size_t, std::size_t> visibleRange(int lane, std::int64_t t0, std::int64_t t1) const;
    // The op of `lane` under time t, or the nearest one within `toleranceNs`;
    // -1 if none.
    int opIndexAt(int lane, std::int64_t t, std::int64_t toleranceNs) const;

    // Where the finished run's op `opIndex` (an index into run().ops, as a
    // finding's ops are) sits: its lane and its index in laneOps(lane);
    // {-1, -1} while live or out of range.
    std::pair<int, int> laneIndexOf(std::size_t opIndex) const;
    // Where an op equal to `op` (lane, times and kind; an op of another Run:
    // a slice's, a lesson focus') sits in laneOps(op.lane), found by binary
    // search on its start; -1 when the run has no such op.
    int indexOf(const Op& op) const;

    // The whole run as a core Run, for saving.
    Run toRun() const;

private:
    void indexLanes();
    // A finished run about to change (ops after the end): its own copy, so
    // that an analysis reading the shared one never sees it change.
    Run& ownRun();

    std::shared_ptr<Run> m_run;
    RegionTracks m_regionTracks;
    // Finished: lane l's ops are run().ops[m_laneBegin[l], m_laneBegin[l + 1]).
    std::vector<std::size_t> m_laneBegin;
    // Live: the ops per lane.
    std::vector<std::vector<Op>> m_liveLanes;
    std::size_t m_liveOpCount = 0;
    int m_laneCount = 0;
    std::int64_t m_endNs = 0;
    bool m_live = false;
};

} // namespace ovs::ui
