#pragma once

#include "document/RegionTracks.h"

#include "trace/Run.h"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ovs::ui {

// One run as the timeline shows it: its header (name, device, params, lanes,
// status, verification) and its ops split by lane, each lane sorted by start.
// Ops in one lane never overlap, so each lane is sorted by end too, which is
// what makes the visible-range search a pair of binary searches.
class RunTimeline {
public:
    RunTimeline() = default;
    // A finished run (loaded from a file, or the end of a live run).
    explicit RunTimeline(const Run& run);
    // The same, taking the run's strings and ops over instead of copying them.
    explicit RunTimeline(Run&& run);

    // Live: the header first, then lanes and batches of ops as they complete.
    static RunTimeline live(const Run& header);
    void addLane(const Lane& lane, int laneIndex);
    void addOps(std::span<const Op> ops);
    // Appends to the header's name table, which ops' nameId index.
    void addNames(std::span<const std::string> names);
    // Replaces everything with the finished run.
    void finish(const Run& run);

    // The header: ops are not kept here (see laneOps); run().ops is empty.
    const Run& run() const { return m_header; }
    bool isLive() const { return m_live; }
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    const std::vector<Op>& laneOps(int lane) const { return m_lanes[static_cast<std::size_t>(lane)]; }
    std::size_t opCount() const { return m_opCount; }
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

    // Where an op of the run as core holds it (Run::ops: a finding's or a
    // lesson focus' ops) sits in laneOps(op.lane), found by binary search on
    // its start; -1 when the run has no such op.
    int indexOf(const Op& op) const;

    // The whole run back as a core Run (ops merged and sorted), for saving.
    Run toRun() const;

private:
    void insertSorted(std::vector<Op>& lane, const Op& op);

    Run m_header;
    RegionTracks m_regionTracks;
    std::vector<std::vector<Op>> m_lanes;
    std::size_t m_opCount = 0;
    std::int64_t m_endNs = 0;
    bool m_live = false;
};

} // namespace ovs::ui
