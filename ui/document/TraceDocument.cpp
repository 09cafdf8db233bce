#include "document/TraceDocument.h"

#include "judgement/JudgedRegion.h"
#include "base/Saturating.h"

#include <QDateTime>

#include <algorithm>

namespace ovs::ui {

TraceDocument::TraceDocument(QObject* parent) : QObject(parent) {}

std::int64_t TraceDocument::endNs() const
{
    std::int64_t end = 0;
    for (int i = 0; i < runCount(); ++i) {
        const RunTimeline& run = m_runs[static_cast<std::size_t>(i)];
        end = std::max(end,
                       saturatingAdd<std::int64_t>(std::max(run.endNs(), run.run().timedEndNs), displayOffsetNs(i)));
    }
    return end;
}

std::vector<const Run*> TraceDocument::finishedRunHeaders() const
{
    std::vector<const Run*> headers;
    for (int i = 0; i < runCount(); ++i)
        if (!run(i).isLive())
            headers.push_back(&run(i).run());
    return headers;
}

void TraceDocument::setAlignTimedRegions(bool align)
{
    if (align == m_alignTimedRegions)
        return;
    m_alignTimedRegions = align;
    emit reset();
    emit alignTimedRegionsChanged(align);
}

std::optional<std::int64_t> TraceDocument::alignmentAnchorNs(int run) const
{
    if (run < 0 || run >= runCount())
        return std::nullopt;
    const RunTimeline& r = m_runs[static_cast<std::size_t>(run)];
    // A run still recording has no timed region yet: it stays at 0 until it
    // finishes, then joins the others.
    if (r.isLive())
        return std::nullopt;
    // A comparison's runs come in pairs (before, after: buildComparison),
    // each judged by the diff: they align where their judged spans begin,
    // the loop with the loop, however long each process's setup took.
    const auto pair = static_cast<std::size_t>(run / 2);
    if (m_comparison && pair < m_comparison->diff.pairs.size()) {
        const RunPairDiff& diff = m_comparison->diff.pairs[pair];
        return run % 2 == 0 ? diff.before.judgedBeginNs : diff.after.judgedBeginNs;
    }
    // Elsewhere (View > Align runs, lessons) at the timed regions: asked on
    // every conversion to the axis, it must cost nothing.
    const JudgedRegion region = judgedRegion(r.run());
    if (region.lengthNs() <= 0)
        return std::nullopt;
    return region.beginNs;
}

std::int64_t TraceDocument::displayOffsetNs(int run) const
{
    // A folder of ranks sits on the job's clock: each rank's time 0 after
    // the earliest rank's, whatever View > Align says.
    if (m_ranks && m_ranks->folder.alignment.sharedClock && run >= 0 && run < runCount()) {
        const std::size_t row = m_ranks->rowOfRun[static_cast<std::size_t>(run)];
        const auto& offsets = m_ranks->folder.alignment.offsetNs;
        return row < offsets.size() ? offsets[row] : 0;
    }
    if (!m_alignTimedRegions || run < 0 || run >= runCount())
        return 0;
    const std::optional<std::int64_t> self = alignmentAnchorNs(run);
    if (!self)
        return 0;
    std::int64_t latestBegin = 0;
    for (int i = 0; i < runCount(); ++i)
        if (const std::optional<std::int64_t> anchor = alignmentAnchorNs(i))
            latestBegin = std::max(latestBegin, *anchor);
    return latestBegin - *self;
}

void TraceDocument::setTrace(const Trace& trace, const QString& sourcePath)
{
    setTrace(Trace(trace), sourcePath);
}

void TraceDocument::setTrace(Trace&& trace, const QString& sourcePath)
{
    replace(std::move(trace), sourcePath, nullptr);
    emit reset();
}

void TraceDocument::setComparison(Trace&& trace, std::shared_ptr<const Comparison> comparison)
{
    // Aligned before the views hear of the new runs: they draw it once.
    const bool alignChanged = !m_alignTimedRegions;
    m_alignTimedRegions = true;
    replace(std::move(trace), QString(), std::move(comparison));
    emit reset();
    if (alignChanged)
        emit alignTimedRegionsChanged(true);
}

void TraceDocument::setRanks(Trace&& opened, const std::vector<std::size_t>& rows, RankFolder&& folder,
                             const QString& sourcePath)
{
    RankJob job;
    job.runOfRow.assign(folder.ranks.size(), -1);
    job.folder = std::move(folder);
    std::vector<Run> runs = std::move(opened.runs);
    opened.runs.clear();
    replace(std::move(opened), sourcePath, nullptr, std::move(job));
    placeRankRuns(std::move(runs), rows);
    emit reset();
}

void TraceDocument::openRanks(Trace&& opened, const std::vector<std::size_t>& rows)
{
    if (!m_ranks)
        return;
    placeRankRuns(std::move(opened.runs), rows);
    emit reset();
}

void TraceDocument::placeRankRuns(std::vector<Run>&& runs, const std::vector<std::size_t>& rows)
{
    std::vector<std::pair<std::size_t, RunTimeline>> byRow;
    byRow.reserve(m_runs.size() + runs.size());
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        byRow.emplace_back(m_ranks->rowOfRun[i], std::move(m_runs[i]));
    for (std::size_t i = 0; i < runs.size() && i < rows.size(); ++i) {
        if (m_ranks->isOpen(rows[i]))
            continue; // opened twice (two clicks while it loaded): the first stays
        m_ranks->runOfRow[rows[i]] = 0; // marks it taken for the next of `runs`
        byRow.emplace_back(rows[i], RunTimeline(std::move(runs[i])));
    }
    std::stable_sort(byRow.begin(), byRow.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    m_runs.clear();
    m_ranks->rowOfRun.clear();
    std::fill(m_ranks->runOfRow.begin(), m_ranks->runOfRow.end(), -1);
    for (auto& [row, timeline] : byRow) {
        m_ranks->runOfRow[row] = static_cast<int>(m_runs.size());
        m_ranks->rowOfRun.push_back(row);
        m_runs.push_back(std::move(timeline));
    }
}

void TraceDocument::replace(Trace&& trace, const QString& sourcePath, std::shared_ptr<const Comparison> comparison,
                            std::optional<RankJob> ranks)
{
    m_comparison = std::move(comparison);
    m_ranks = std::move(ranks);
    m_runs.clear();
    m_runs.reserve(trace.runs.size());
    for (auto& run : trace.runs)
        m_runs.emplace_back(std::move(run));
    trace.runs.clear();
    m_sweeps = std::move(trace.sweeps);
    m_sourcePath = sourcePath;
    m_tool = std::move(trace.tool);
    m_createdUtc = std::move(trace.createdUtc);
    setModified(false);
}

void TraceDocument::clear()
{
    m_comparison.reset();
    m_ranks.reset();
    m_runs.clear();
    m_sweeps.clear();
    m_sourcePath.clear();
    m_tool.clear();
    m_createdUtc.clear();
    setModified(false);
    emit reset();
}

Trace TraceDocument::toTrace() const
{
    Trace trace;
    trace.tool = m_tool;
    trace.createdUtc = m_createdUtc;
    for (const auto& run : m_runs)
        trace.runs.push_back(run.toRun());
    trace.sweeps = m_sweeps;
    return trace;
}

void TraceDocument::markSaved(const QString& path)
{
    m_sourcePath = path;
    setModified(false);
}

void TraceDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void TraceDocument::stampProvenance(const std::string& tool)
{
    // Only an empty document's: runs recorded into a loaded trace join its
    // provenance rather than rewrite it.
    if (!m_tool.empty() || !m_createdUtc.empty())
        return;
    m_tool = tool.empty() ? std::string("overlapscope ") + OVERLAPSCOPE_VERSION : tool;
    m_createdUtc = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

int TraceDocument::beginRun(const Run& header, const std::string& tool)
{
    stampProvenance(tool);
    // A run recorded beside a folder of ranks is no rank of it: the
    // document becomes an ordinary one (its runs stay where they are drawn).
    m_ranks.reset();
    m_runs.push_back(RunTimeline::live(header));
    setModified(true);
    const int index = runCount() - 1;
    emit runAdded(index);
    return index;
}

void TraceDocument::addLane(int run, const Lane& lane, int laneIndex)
{
    if (run < 0 || run >= runCount())
        return;
    m_runs[static_cast<std::size_t>(run)].addLane(lane, laneIndex);
    emit runChanged(run);
}

void TraceDocument::addNames(int run, std::span<const std::string> names)
{
    if (run < 0 || run >= runCount() || names.empty())
        return;
    m_runs[static_cast<std::size_t>(run)].addNames(names);
}

void TraceDocument::addOps(int run, std::span<const Op> ops)
{
    if (run < 0 || run >= runCount() || ops.empty())
        return;
    m_runs[static_cast<std::size_t>(run)].addOps(ops);
    emit runChanged(run);
}

void TraceDocument::finishRun(int run, const Run& finished)
{
    if (run < 0 || run >= runCount())
        return;
    m_runs[static_cast<std::size_t>(run)].finish(finished);
    emit runChanged(run);
}

int TraceDocument::beginSweep(const BandwidthSweep& header)
{
    stampProvenance({});
    m_sweeps.push_back(header);
    setModified(true);
    emit sweepsChanged();
    return static_cast<int>(m_sweeps.size()) - 1;
}

void TraceDocument::addBandwidthPoint(int sweep, const BandwidthPoint& point)
{
    if (sweep < 0 || sweep >= static_cast<int>(m_sweeps.size()))
        return;
    m_sweeps[static_cast<std::size_t>(sweep)].points.push_back(point);
    emit sweepsChanged();
}

void TraceDocument::finishSweep(int sweep, const BandwidthSweep& finished)
{
    if (sweep < 0 || sweep >= static_cast<int>(m_sweeps.size()))
        return;
    m_sweeps[static_cast<std::size_t>(sweep)] = finished;
    emit sweepsChanged();
}

} // namespace ovs::ui
