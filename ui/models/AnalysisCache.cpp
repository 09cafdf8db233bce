#include "models/AnalysisCache.h"

#include "document/TraceDocument.h"
#include "workers/BackgroundWorker.h"

#include "judgement/JudgedSpan.h"
#include "analysis/RegionJudgement.h"
#include "findings/WhatIf.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <utility>

namespace ovs::ui {

namespace {

AnalysedRun analyse(std::shared_ptr<const Run> run, const std::vector<BandwidthSweep>& sweeps, const Run* baseline,
                    const GivenPinnedRates& pinnedRates)
{
    AnalysedRun out;
    AnalysisOptions options;
    options.pinnedRates = pinnedRates;
    options.keepWhatIf = true; // the ghosts replay its graph
    out.analysis = analyzeRun(*run, sweeps, baseline, options);
    if (run->deviceCount() >= 2)
        out.hostShare = analyseHostShare(*run, sweeps);
    out.run = std::move(run);
    return out;
}

// The GPU's active span of a replayed run: first op on a stream to last.
std::int64_t activeSpanOf(const Run& run)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const Op& op : run.ops) {
        if (op.lane >= run.lanes.size() || run.lanes[op.lane].kind != LaneKind::Stream)
            continue;
        first = std::min(first, op.startNs);
        last = std::max(last, op.endNs);
    }
    return last > first ? last - first : 0;
}

// The replayed span with `fixes` as the analysis counted it (so the ghost's
// saving is the finding's cost); the replayed run's own where no finding or
// the all-fixes line has exactly these fixes.
std::int64_t replayedSpanOf(const RunFindings& findings, FixSet fixes, const Run& replayed)
{
    const WhatIfSummary& summary = findings.whatIf;
    if (summary.replayed && fixes == summary.allFixes)
        return summary.allFixesSpanNs;
    for (const Finding& f : findings.findings)
        if (summary.replayed && f.fixes == fixes && f.costSource == CostSource::Replay)
            return std::max<std::int64_t>(0, summary.replaySpanNs - f.costNs);
    return activeSpanOf(replayed);
}

WhatIfGhost replay(const AnalysedRun& analysed, FixSet fixes)
{
    WhatIfGhost ghost;
    const WhatIfSummary& summary = analysed.analysis.findings.whatIf;
    ghost.measuredSpanNs = summary.measuredSpanNs;
    ghost.unchangedSpanNs = summary.replaySpanNs;
    // The graph the analysis built and priced the findings on (analyse
    // keeps it), replayed once more with the fixes and node times: never a
    // second graph.
    std::optional<Run> replayed =
        analysed.analysis.whatIf
            ? analysed.analysis.whatIf->replayedRun(*analysed.run, fixes, analysed.analysis.judged.span, &ghost.why)
            : std::nullopt;
    if (!replayed) {
        if (ghost.why.empty())
            ghost.why = "the run could not be replayed";
        return ghost;
    }
    ghost.why.clear();
    ghost.spanNs = replayedSpanOf(analysed.analysis.findings, fixes, *replayed);
    ghost.run = std::make_shared<const RunTimeline>(std::move(*replayed));
    return ghost;
}

} // namespace

AnalysisCache* AnalysisCache::of(TraceDocument* document)
{
    if (!document)
        return nullptr;
    if (auto* cache = document->findChild<AnalysisCache*>(QString(), Qt::FindDirectChildrenOnly))
        return cache;
    return new AnalysisCache(document);
}

AnalysisCache::AnalysisCache(TraceDocument* document)
    : QObject(document), m_document(document), m_worker(std::make_unique<BackgroundWorker>())
{
    // Rates come from the sweeps, so new sweeps change every analysis.
    connect(document, &TraceDocument::reset, this, &AnalysisCache::invalidate);
    connect(document, &TraceDocument::sweepsChanged, this, &AnalysisCache::invalidate);
}

AnalysisCache::~AnalysisCache() = default;

void AnalysisCache::setPinnedRates(const GivenPinnedRates& rates)
{
    if (rates == m_pinnedRates)
        return;
    m_pinnedRates = rates;
    invalidate();
}

void AnalysisCache::invalidate()
{
    m_slots.clear();
    ++m_generation; // jobs in flight are of what was there before
    m_analysing = 0;
    emit invalidated();
}

AnalysisCache::Slot* AnalysisCache::currentSlot(int run)
{
    if (run < 0 || run >= m_document->runCount())
        return nullptr;
    if (m_slots.size() < static_cast<std::size_t>(m_document->runCount()))
        m_slots.resize(static_cast<std::size_t>(m_document->runCount()));
    const RunTimeline& timeline = m_document->run(run);
    Slot& slot = m_slots[static_cast<std::size_t>(run)];
    if (slot.opCount != timeline.opCount() || slot.status != static_cast<int>(timeline.run().status)
        || timeline.isLive()) {
        // The run changed (a live run grew or finished): what was known of
        // it is of another run. A result in flight is dropped on arrival.
        if (slot.pending)
            --m_analysing;
        slot = Slot{};
        slot.opCount = timeline.opCount();
        slot.status = static_cast<int>(timeline.run().status);
    }
    return &slot;
}

std::shared_ptr<const AnalysedRun> AnalysisCache::analysis(int run)
{
    Slot* slot = currentSlot(run);
    // A run in flight has no wall time yet: nothing to judge.
    if (!slot || m_document->run(run).isLive())
        return nullptr;
    if (!slot->result && !slot->pending)
        postAnalysis(run, *slot);
    return slot->result;
}

std::shared_ptr<const AnalysedRun> AnalysisCache::analysisIfReady(int run) const
{
    if (run < 0 || run >= m_document->runCount() || static_cast<std::size_t>(run) >= m_slots.size())
        return nullptr;
    const Slot& slot = m_slots[static_cast<std::size_t>(run)];
    const RunTimeline& timeline = m_document->run(run);
    if (timeline.isLive() || slot.opCount != timeline.opCount()
        || slot.status != static_cast<int>(timeline.run().status))
        return nullptr;
    return slot.result;
}

void AnalysisCache::postAnalysis(int run, Slot& slot)
{
    // Linear-logarithmic in the ops: a run of a million takes long enough
    // to freeze the window, so it runs on the worker, on a copy.
    slot.pending = true;
    ++m_analysing;
    const RunTimeline& timeline = m_document->run(run);
    // The document's own run, shared: no copy, no re-sort, and the
    // findings' op indices are the timeline's.
    std::shared_ptr<const Run> copy = timeline.sharedRun();
    auto sweeps = std::make_shared<const std::vector<BandwidthSweep>>(m_document->sweeps());
    std::shared_ptr<const Run> baseline;
    if (const Run* b = findSerializedBaseline(m_document->finishedRunHeaders(), timeline.run()))
        for (int r = 0; r < m_document->runCount() && !baseline; ++r)
            if (&m_document->run(r).run() == b)
                baseline = m_document->run(r).sharedRun();
    const int generation = m_generation;
    const std::size_t opCount = slot.opCount;
    const int status = slot.status;
    const GivenPinnedRates pinnedRates = m_pinnedRates;
    m_worker->post([this, run, generation, opCount, status, copy, sweeps, baseline,
                    pinnedRates]() -> BackgroundWorker::Delivery {
        auto result = std::make_shared<const AnalysedRun>(analyse(copy, *sweeps, baseline.get(), pinnedRates));
        return [this, run, generation, opCount, status, result] {
            if (generation != m_generation)
                return; // of a document that was replaced
            const auto index = static_cast<std::size_t>(run);
            if (index >= m_slots.size())
                return;
            Slot& slot = m_slots[index];
            if (!slot.pending || slot.opCount != opCount || slot.status != status)
                return; // superseded: the run changed (its slot was emptied, and counted down, then)
            slot.pending = false;
            --m_analysing;
            slot.result = result;
            for (const FixSet fixes : slot.ghostsPending)
                postWhatIf(run, fixes, result);
            for (const std::uint32_t region : slot.regionsPending)
                postRegion(run, region, result);
            emit analysed(run);
            if (m_analysing == 0)
                emit idle();
        };
    });
}

std::shared_ptr<const WhatIfGhost> AnalysisCache::whatIf(int run, FixSet fixes) const
{
    if (!analysisIfReady(run))
        return nullptr; // a ghost of the run as it was is no ghost of this one
    const Slot& slot = m_slots[static_cast<std::size_t>(run)];
    const auto found = slot.ghosts.find(fixes);
    return found == slot.ghosts.end() ? nullptr : found->second;
}

void AnalysisCache::requestWhatIf(int run, FixSet fixes)
{
    Slot* slot = currentSlot(run);
    if (!slot || m_document->run(run).isLive() || slot->ghosts.count(fixes)
        || std::find(slot->ghostsPending.begin(), slot->ghostsPending.end(), fixes) != slot->ghostsPending.end())
        return;
    slot->ghostsPending.push_back(fixes);
    if (slot->result)
        postWhatIf(run, fixes, slot->result);
    else if (!slot->pending)
        postAnalysis(run, *slot); // the ghost follows the analysis
}

void AnalysisCache::postWhatIf(int run, FixSet fixes, const std::shared_ptr<const AnalysedRun>& analysed)
{
    const int generation = m_generation;
    m_worker->post([this, run, fixes, generation, analysed]() -> BackgroundWorker::Delivery {
        auto ghost = std::make_shared<const WhatIfGhost>(replay(*analysed, fixes));
        return [this, run, fixes, generation, analysed, ghost] {
            if (generation != m_generation || static_cast<std::size_t>(run) >= m_slots.size())
                return;
            Slot& slot = m_slots[static_cast<std::size_t>(run)];
            if (slot.result != analysed)
                return; // the run changed since
            std::erase(slot.ghostsPending, fixes);
            slot.ghosts[fixes] = ghost;
            emit whatIfReady(run, fixes);
        };
    });
}

std::shared_ptr<const AnalysedRun> AnalysisCache::regionAnalysis(int run, int region)
{
    Slot* slot = currentSlot(run);
    if (!slot || m_document->run(run).isLive() || region < 0
        || static_cast<std::size_t>(region) >= m_document->run(run).run().regions.size())
        return nullptr;
    const auto index = static_cast<std::uint32_t>(region);
    if (const auto found = slot->regions.find(index); found != slot->regions.end())
        return found->second;
    if (std::find(slot->regionsPending.begin(), slot->regionsPending.end(), index) != slot->regionsPending.end())
        return nullptr;
    slot->regionsPending.push_back(index);
    if (slot->result)
        postRegion(run, index, slot->result);
    else if (!slot->pending)
        postAnalysis(run, *slot); // the region follows the analysis, whose rates it is judged by
    return nullptr;
}

void AnalysisCache::postRegion(int run, std::uint32_t region, const std::shared_ptr<const AnalysedRun>& analysed)
{
    const int generation = m_generation;
    m_worker->post([this, run, region, generation, analysed]() -> BackgroundWorker::Delivery {
        // A slice and its analysis: what the region holds, never the whole
        // run again, and never on the GUI thread.
        const Run& whole = *analysed->run;
        auto judged = std::make_shared<AnalysedRun>();
        Run slice;
        judged->analysis =
            judgeRegionInstance(whole, analysed->analysis.rates, region, regionSpan(whole, region), &slice);
        judged->run = std::make_shared<const Run>(std::move(slice));
        std::shared_ptr<const AnalysedRun> result = std::move(judged);
        return [this, run, region, generation, analysed, result] {
            if (generation != m_generation || static_cast<std::size_t>(run) >= m_slots.size())
                return;
            Slot& slot = m_slots[static_cast<std::size_t>(run)];
            if (slot.result != analysed)
                return; // the run changed since
            std::erase(slot.regionsPending, region);
            slot.regions[region] = result;
            emit regionAnalysed(run, static_cast<int>(region));
        };
    });
}

void AnalysisCache::finishPending()
{
    // A delivery may post more (an analysis, then the ghosts waiting for
    // it), so until the worker has nothing left.
    while (m_worker->isBusy()) {
        m_worker->waitForJobs();
        QCoreApplication::sendPostedEvents(m_worker.get(), QEvent::MetaCall);
    }
}

} // namespace ovs::ui
