#pragma once

#include "document/Comparison.h"
#include "document/RankJob.h"
#include "document/RunTimeline.h"

#include "trace/Trace.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ovs::ui {

// What the window shows: the runs (stacked on one time axis) and the
// bandwidth sweeps, whether loaded from a file or arriving live from a run.
// Lives on the GUI thread; every view listens to its signals.
class TraceDocument : public QObject {
    Q_OBJECT

public:
    explicit TraceDocument(QObject* parent = nullptr);

    int runCount() const { return static_cast<int>(m_runs.size()); }
    const RunTimeline& run(int index) const { return m_runs.at(static_cast<std::size_t>(index)); }
    const std::vector<BandwidthSweep>& sweeps() const { return m_sweeps; }
    bool isEmpty() const { return m_runs.empty() && m_sweeps.empty(); }
    // Latest op end over all runs, with their display offsets: the extent of
    // the shared time axis.
    std::int64_t endNs() const;
    // The finished runs' headers (wall times, workloads; no ops), for the
    // core's choice of a serialized baseline. A run still recording is none.
    std::vector<const Run*> finishedRunHeaders() const;

    // When on, each finished run is shifted on the shared axis so that all
    // timed regions (judgement/JudgedRegion.h) start together, or, in a
    // comparison, the judged spans the diff compared (TraceDiff's RunSide):
    // wall times then compare at a glance, whatever setup came before each.
    // Off: every run from its own t = 0.
    void setAlignTimedRegions(bool align);
    bool alignTimedRegions() const { return m_alignTimedRegions; }
    // Where a run's t = 0 sits on the shared axis (0 unless aligned).
    std::int64_t displayOffsetNs(int run) const;
    // The time in `run` that alignment puts at one place on the axis (its
    // timed region's begin, or in a comparison its judged span's), or none
    // where the run has nothing to align (still recording, no region).
    std::optional<std::int64_t> alignmentAnchorNs(int run) const;

    // Replaces everything with a loaded trace. The second takes the trace's
    // strings and ops over instead of copying them (a loaded name may be
    // hundreds of MiB).
    void setTrace(const Trace& trace, const QString& sourcePath);
    void setTrace(Trace&& trace, const QString& sourcePath);
    void clear();
    // Replaces everything with two traces compared (buildComparison's trace),
    // their runs aligned; comparison() says what the comparison found until
    // the document is replaced again.
    void setComparison(Trace&& trace, std::shared_ptr<const Comparison> comparison);
    // Null unless the document shows a comparison.
    const Comparison* comparison() const { return m_comparison.get(); }
    // Replaces everything with a folder of ranks (RankLoader's result): the
    // opened ranks' runs (`opened`, run i showing folder row rows[i]), put
    // in row order and placed on the job's shared clock where the ranks
    // have one (RankAlignment::offsetNs), so step k of every rank lines up
    // as it ran.
    void setRanks(Trace&& opened, const std::vector<std::size_t>& rows, RankFolder&& folder, const QString& sourcePath);
    // More ranks of the folder opened (the ranks panel asked): their runs
    // join the others in row order; emits reset() (run indices change).
    void openRanks(Trace&& opened, const std::vector<std::size_t>& rows);
    // Null unless the document shows a folder of ranks.
    const RankJob* ranks() const { return m_ranks ? &*m_ranks : nullptr; }
    // The document as a trace, for saving and exporting. A loaded trace keeps
    // the tool and creation time it was recorded with; a recording made in
    // the window is stamped when its first run or sweep begins.
    Trace toTrace() const;
    const std::string& tool() const { return m_tool; }
    const std::string& createdUtc() const { return m_createdUtc; }

    QString sourcePath() const { return m_sourcePath; }
    // True when it holds recorded work not yet saved.
    bool isModified() const { return m_modified; }
    void markSaved(const QString& path);

    // Live updates (from RunController and ProfileController, on the GUI
    // thread). `tool`: the provenance an empty document takes from its first
    // run ("overlapscope 0.1.0 profile -- ./app"); empty: the window's own.
    int beginRun(const Run& header, const std::string& tool = {});
    void addLane(int run, const Lane& lane, int laneIndex);
    // Appends to a live run's name table (Op::nameId), before ops naming them.
    void addNames(int run, std::span<const std::string> names);
    void addOps(int run, std::span<const Op> ops);
    void finishRun(int run, const Run& finished);
    int beginSweep(const BandwidthSweep& header);
    void addBandwidthPoint(int sweep, const BandwidthPoint& point);
    void finishSweep(int sweep, const BandwidthSweep& finished);

signals:
    // Everything was replaced (load, clear).
    void reset();
    void runAdded(int run);
    // Lanes or ops were added to a run, or it finished.
    void runChanged(int run);
    void sweepsChanged();
    void modifiedChanged(bool modified);
    // After reset(), when the alignment was switched (by the menu or a lesson).
    void alignTimedRegionsChanged(bool align);

private:
    void setModified(bool modified);
    void stampProvenance(const std::string& tool);
    // Replaces the content; the caller then emits reset().
    void replace(Trace&& trace, const QString& sourcePath, std::shared_ptr<const Comparison> comparison,
                 std::optional<RankJob> ranks = std::nullopt);
    // Moves `runs` (showing folder rows `rows`) in among the document's runs
    // by row, and fills m_ranks' maps.
    void placeRankRuns(std::vector<Run>&& runs, const std::vector<std::size_t>& rows);

    std::vector<RunTimeline> m_runs;
    std::vector<BandwidthSweep> m_sweeps;
    QString m_sourcePath;
    std::string m_tool;
    std::string m_createdUtc;
    bool m_modified = false;
    bool m_alignTimedRegions = false;
    std::shared_ptr<const Comparison> m_comparison;
    std::optional<RankJob> m_ranks;
};

} // namespace ovs::ui
