#pragma once

#include "models/AnalysedRun.h"
#include "models/WhatIfGhost.h"

#include "judgement/TransferRates.h"
#include "replay/Fix.h"

#include <QObject>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ovs::ui {

class BackgroundWorker;
class TraceDocument;

// The analysis of a document's finished runs (core's analyzeRun: metrics,
// bound, diagnosis, findings and the what-if summary; the host share on
// several GPUs), each computed once, on a worker thread, and announced by
// a signal. The summary, the findings view, the timeline's what-if ghost
// and the exports all read it here, so no view computes it again and the
// GUI thread never waits for it (heaptrack's parser -> models pattern).
//
// One per document: of(document) makes it on first use, as the document's
// child. A reader calls of() before it connects to the document's signals,
// so the cache hears of a new document first. A run is analysed when first
// asked for, again only once its ops or status change; new sweeps (rates)
// or a new document drop everything. What-if runs (core's WhatIf::replayedRun) are
// computed on request, per run and fix set, on the same worker, and so is
// the judgement of one region (a step picked in the regions band).
class AnalysisCache : public QObject {
    Q_OBJECT

public:
    static AnalysisCache* of(TraceDocument* document);
    ~AnalysisCache() override;

    // The run's analysis; null while the run is live or being analysed (it
    // is then asked for, once: analysed(run) follows).
    std::shared_ptr<const AnalysedRun> analysis(int run);
    // The same, without asking: null unless it is here.
    std::shared_ptr<const AnalysedRun> analysisIfReady(int run) const;
    // Analyses on the worker, not yet delivered.
    bool isAnalysing() const { return m_analysing > 0; }

    // The run replayed with `fixes`, once computed (its `run` null where it
    // could not be replayed, `why` says why); null until then.
    std::shared_ptr<const WhatIfGhost> whatIf(int run, FixSet fixes) const;
    // Computes it on the worker (after the run's analysis, whose rates the
    // replay uses) unless it is here or on its way; whatIfReady follows.
    void requestWhatIf(int run, FixSet fixes);

    // One region of a finished run judged on its own, as core judges each
    // instance of a repeated region (judgeRegionInstance): the instance a
    // user picked in the regions band. Its `run` is the slice judged, which
    // the findings' op indices point into. Null until it is in (it is then
    // asked for, once, after the run's analysis: regionAnalysed follows).
    std::shared_ptr<const AnalysedRun> regionAnalysis(int run, int region);

    // Pinned rates every run is judged by in place of the trace's own and
    // the device class table's (core's AnalysisOptions::pinnedRates, the
    // CLI's --pinned-rate); none given: those. A change drops every
    // analysis (invalidated), and the views ask again.
    void setPinnedRates(const GivenPinnedRates& rates);
    const GivenPinnedRates& pinnedRates() const { return m_pinnedRates; }

    // Blocks until every job posted so far, and any it leads to, has run,
    // and delivers the results. For the headless export and tests: the
    // window never calls it.
    void finishPending();

signals:
    // A run's analysis is in (analysis(run) returns it).
    void analysed(int run);
    // Every analysis asked for so far is in.
    void idle();
    void whatIfReady(int run, quint32 fixes);
    void regionAnalysed(int run, int region);
    // Everything was dropped (a new document, new sweeps).
    void invalidated();

private:
    struct Slot {
        std::size_t opCount = 0;
        int status = -1;
        bool pending = false;
        std::shared_ptr<const AnalysedRun> result;
        std::map<FixSet, std::shared_ptr<const WhatIfGhost>> ghosts;
        std::vector<FixSet> ghostsPending; // asked for, posted or waiting for the analysis
        std::map<std::uint32_t, std::shared_ptr<const AnalysedRun>> regions;
        std::vector<std::uint32_t> regionsPending; // as ghostsPending
    };

    explicit AnalysisCache(TraceDocument* document);
    void invalidate();
    // The run's slot, emptied first when the run changed since it was filled.
    Slot* currentSlot(int run);
    void postAnalysis(int run, Slot& slot);
    void postWhatIf(int run, FixSet fixes, const std::shared_ptr<const AnalysedRun>& analysed);
    void postRegion(int run, std::uint32_t region, const std::shared_ptr<const AnalysedRun>& analysed);

    TraceDocument* m_document;
    std::vector<Slot> m_slots;
    int m_generation = 0; // bumped when everything is dropped: results of before are stale
    GivenPinnedRates m_pinnedRates;
    int m_analysing = 0;
    std::unique_ptr<BackgroundWorker> m_worker; // last: destroyed first, waiting for the job in progress
};

} // namespace ovs::ui
