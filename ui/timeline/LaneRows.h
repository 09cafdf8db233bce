#pragma once

#include "document/RegionTracks.h"

#include "trace/Run.h"

#include <QString>

#include <vector>

namespace ovs::ui {

// Where each lane of a run sits in the timeline, top to bottom (issue 12).
//
// A single-device run keeps its lanes in recorded order, one row each, no
// headers: it looks exactly as before. A run on several GPUs of one host is
// grouped: a header row per device ("GPU 1 · NVIDIA H200", "[simulated]"
// kept from the device label), that device's stream lanes under it in
// recorded order, then a "host threads" header and every host lane, apart
// from the devices (they belong to the host, shared by every GPU).
// A group with no lanes (yet, during a live run) gets no header.
//
// A run with regions (issue 19) has its regions band on top: the first
// regionRows rows are RegionTracks' tracks, in their order; the lanes and
// headers follow.
//
// Rows are the lane axis' coordinates: row r is drawn at value r.
struct LaneRows {
    struct Header {
        int row = 0;
        int device = -1; // -1: the host threads' group
        QString text;
    };

    std::vector<int> rowOfLane;  // indexed by lane
    std::vector<int> laneAtRow;  // -1 on a header row
    std::vector<Header> headers; // in row order; empty when not grouped
    int regionRows = 0;          // rows 0 ... regionRows-1: the regions band's tracks

    static LaneRows of(const Run& run);
    // With the run's tracks as a RunTimeline keeps them (not rebuilt per call).
    static LaneRows of(const Run& run, const RegionTracks& tracks);

    bool grouped() const { return !headers.empty(); }
    int rowCount() const { return static_cast<int>(laneAtRow.size()); }
    // The lane drawn on `row`, or -1 (a header, or outside).
    int laneAt(int row) const
    {
        return row >= 0 && row < rowCount() ? laneAtRow[static_cast<std::size_t>(row)] : -1;
    }
    int rowOf(int lane) const
    {
        return lane >= 0 && lane < static_cast<int>(rowOfLane.size()) ? rowOfLane[static_cast<std::size_t>(lane)] : lane;
    }
    // The regions band's track drawn on `row`, or -1.
    int regionTrackAt(int row) const { return row >= 0 && row < regionRows ? row : -1; }
    // The header drawn on `row`, or nullptr.
    const Header* headerAt(int row) const;
    // Whether a run is shown grouped: several devices, or (live, before the
    // header lists them) a lane already on a device other than 0.
    static bool groupsByDevice(const Run& run);
    // "GPU 1 · NVIDIA H200" (the run's label for that device; "GPU 1" alone
    // while a live run does not know the device yet).
    static QString deviceHeader(const Run& run, int device);
    static QString hostHeader() { return QStringLiteral("host threads (shared by every GPU)"); }

    bool operator==(const LaneRows& other) const
    {
        return rowOfLane == other.rowOfLane && laneAtRow == other.laneAtRow && regionRows == other.regionRows
               && headerTexts() == other.headerTexts();
    }

private:
    std::vector<QString> headerTexts() const;
};

} // namespace ovs::ui
