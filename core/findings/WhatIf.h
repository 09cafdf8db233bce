#pragma once

// What-if: the run replayed on a model of its device's engines, unchanged and
// with fixes applied (docs/what-if.md). The replay of the unchanged run is
// checked against the measured active span; a finding's cost is what its fix
// saves in the replay. Qt-free and deterministic: the window calls these on
// a worker thread.

#include "findings/DemandMigrations.h"
#include "facts/IntervalSet.h"
#include "judgement/TransferRates.h"
#include "replay/Contention.h"
#include "replay/Fix.h"
#include "replay/FixTransforms.h"
#include "replay/GraphRestorePoint.h"
#include "replay/Replayer.h"
#include "replay/RunGraph.h"
#include "trace/NameRoles.h"
#include "trace/Run.h"

#include <atomic>
#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

struct WhatIfSummary {
    // False where the graph could not be built or its replay does not
    // reproduce the measurement (see `why`): costs then come from the
    // estimates of docs/profiling.md, labelled so.
    bool replayed = false;
    std::string why;                 // why not; empty when replayed
    std::int64_t measuredSpanNs = 0; // the GPU's active span: first GPU op of the judged span to last
    std::int64_t replaySpanNs = 0;   // the same span in the replay of the unchanged run
    FixSet allFixes = 0;             // every fix some finding asked for
    std::int64_t allFixesSpanNs = 0; // the replayed span with all of them
    std::string assumptions;         // the engine model in one line ("2 copy engines, ...")
    // What contends and on what basis ("kernels beside kernels: slowdown
    // 1.27x, calibrated from 14 kernels of the run ..."; Contention.h).
    std::string contention;
    // The all-fixes run's physical floor (the unchanged run's, with no fix):
    // its busiest resource's work at the contended rates (floorNs in
    // Contention.h), and which resource that is. No replayed span with
    // fixes goes below its own floor: allFixesClamped says the all-fixes
    // span was raised to it.
    std::int64_t floorNs = 0;
    std::string floorBinds;
    bool allFixesClamped = false;
    // Inferred waits the graph dropped since they contradicted the others
    // (GraphCycles.h), and those dropped in the replays of fix sets.
    int droppedWaits = 0;
    int fixDroppedWaits = 0;
    // Every set of fixes replayed (each finding's, the pairs that combine,
    // all of them), in FixSet order, with its replayed span (raised to its
    // floor where the replay went below it): what a fix that does exactly
    // these things would leave (`--json` whatIf.replays).
    struct FixReplay {
        FixSet fixes = 0;
        std::int64_t spanNs = 0;
    };
    std::vector<FixReplay> replays;
};

// A run's graph and its unchanged replay, built once; replays it with fixes.
class WhatIf {
public:
    // When the unchanged run is replayed: in the constructor, or with the
    // first fix sets replayEach is given (or where anything else needs it
    // first: replayUnchanged). A big graph's fix sets are replayed on two
    // threads; with the unchanged replay among them, the eight replays of
    // a run with three findings share the two cores four and four, instead
    // of one alone and then four and three (the 2 GB Kineto trace: from
    // the calibrated graph to the findings in 1.86 s instead of 2.02).
    enum class Unchanged { InConstructor, WithFixSets };

    // Over the run's timed region, or over `span`, the judged span
    // (judgement/JudgedSpan.h): the graph holds the ops that begin in it.
    // `roles` and `ops` as buildRunGraph takes them: the run's names decided
    // once, and a view's op ranges (a step judged on its own).
    WhatIf(const Run& run, const TransferRates& rates);
    WhatIf(const Run& run, const TransferRates& rates, Interval span, const NameRoles* roles = nullptr,
           const std::vector<OpRange>* ops = nullptr, Unchanged unchanged = Unchanged::InConstructor);
    // Not moved or copied: what a big graph's replays make ahead (m_ahead)
    // reads the graph where it is.
    WhatIf(const WhatIf&) = delete;
    WhatIf& operator=(const WhatIf&) = delete;

    // Complete once the unchanged run is replayed (Unchanged above): until
    // then, replayed is false and the replay's span is 0.
    const WhatIfSummary& summary() const { return m_summary; }
    // Whether the run can be replayed: its graph was built, and its
    // unchanged replay reproduced the measurement or is still to be made.
    bool replayable() const { return m_graph && (m_unchangedPending || m_summary.replayed); }
    // The unchanged replay, where it waits (Unchanged::WithFixSets); nothing
    // where it was made.
    void replayUnchanged();
    // The span's managed memory moved on demand, read from the run's index
    // (demandMigrations): the kernels' fault stalls that Fix::PrefetchManaged
    // takes out, marked on the graph, and the finding's. Given after the
    // graph is built, since the analysis builds the index meanwhile on
    // another thread (findFindings gives it); until then empty, and the
    // prefetch fix finds nothing to move.
    void setDemand(DemandMigrations demand);
    const DemandMigrations& demand() const { return m_demand; }
    // The graph; nullptr where it could not be built.
    const RunGraph* graph() const { return m_graph ? &*m_graph : nullptr; }
    // The replayed active span with `fixes` applied; -1 where the run is not
    // replayed (summary().replayed). `applied`: the fixes that changed something.
    // Each set is replayed once: findings, their pairs and all fixes ask again.
    // `clamped`: the replay went below the fixed graph's floor, which is
    // what it answers instead.
    std::int64_t spanWith(FixSet fixes, FixSet* applied = nullptr, bool* clamped = nullptr);
    // What `fixes` save: the unchanged replay's span minus the span with
    // them, never negative; 0 where the run is not replayed.
    std::int64_t savingOf(FixSet fixes);
    // True when `fixes` cannot act for want of a rate (pinning or a
    // prefetch, with no pinned rate known), as opposed to having nothing to act on.
    bool cannotApply(FixSet fixes) const
    {
        return (has(fixes, Fix::PinHostMemory) && (m_rates.pinnedH2DGBps <= 0 || m_rates.pinnedD2HGBps <= 0))
               || (has(fixes, Fix::PrefetchManaged) && m_rates.pinnedH2DGBps <= 0);
    }
    // Records the fixes the findings ask for and replays them all at once.
    void setAllFixes(FixSet fixes);
    // The steps the savings are also split into: groups of steps (a region
    // group's instances, each its host span). Set before the first replay,
    // every replay then records its steps' lengths as well as its span, so
    // the steps and the whole come from the same replays.
    void setSteps(std::vector<std::vector<Interval>> groups);
    // What `fixes` save each step of group `group`, from the replay that
    // spanWith answers: a step's length in a replay runs from its first GPU
    // op's begin to the next step's, the last one's to its last GPU op's end,
    // so the steps' savings add up to the saving of the span they cover; a
    // replay the floor clamped has its steps' savings scaled by the same
    // share. A GPU op belongs to the step its enqueueing call began in.
    // nullopt for a step without GPU work; empty where the run is not
    // replayed or no steps were set.
    using StepSavings = std::vector<std::optional<std::int64_t>>;
    StepSavings stepSavings(FixSet fixes, std::size_t group);
    // Replays each of `sets` not replayed yet, and the unchanged run where
    // it waits, so that spanWith answers them from memory; a set never asked for after leaves no trace in the
    // summary (WhatIfSummary::replays), so a caller may add the sets it
    // will likely ask for. A big graph's sets are split between this thread,
    // which edits the graph itself, and a second one with a copy of it: the
    // replays are most of a big run's analysis, and the second core is idle
    // by then.
    //
    // spanWith, savingOf, stepSavings and replayEach edit the graph for each
    // fix set and put it back: a WhatIf replays on one thread at a time, and
    // not while replayedRun reads its graph on another.
    void replayEach(const std::vector<FixSet>& sets);
    // How replayEach groups its sets: fix sets replayed one after another
    // on one graph, each applied on top of the one before (which it extends
    // in kFixOrder: appliesAfter), so that a chain applies each fix once
    // and puts the graph back once. `sets` (distinct) in chains: each set
    // goes after the largest set it extends in order, where one ends a
    // chain; else it starts one. The longest chains first, then of chains
    // as long the one applying more fixes, for the two threads of
    // replayEach to take.
    using Chain = std::vector<FixSet>;
    static std::vector<Chain> chainsOf(const std::vector<FixSet>& sets);
    // The run as this graph replays with `fixes` (whatIfRun below says what
    // it holds): `run` and `span` are those the graph was built from. Const
    // and on its own copy of the graph, so that a WhatIf an analysis kept
    // (RunAnalysis::whatIf) serves the window's ghosts on any thread.
    std::optional<Run> replayedRun(const Run& run, FixSet fixes, Interval span, std::string* why = nullptr) const;
    // Gives back the memory the replays kept for the next one (a fixed
    // graph's copy, the replayer's buffers): for a WhatIf kept after its
    // analysis, which replays only through replayedRun.
    void releaseReplayMemory();

private:
    struct Replayed {
        std::int64_t spanNs = -1;
        FixSet applied = 0;
        std::int64_t floorNs = 0;
        std::string floorBinds;
        bool clamped = false;
        int droppedWaits = 0;
        // Asked for (spanWith), not only replayed ahead: the summary lists
        // these alone, so that a set replayed in case it is asked for
        // (replayEach) leaves no trace unless it is.
        bool asked = false;
        // Per step group, each step's length in this replay (setSteps).
        std::vector<StepSavings> stepNs;
    };
    // `chain`'s sets applied to `graph` (this one's, or a second thread's
    // copy of it) and each replayed by `replayer`; `graph` is put back as
    // it was after. Stops before the next set once `stop` is set. What it
    // returns is measured, not finished (finish).
    std::vector<std::pair<FixSet, Replayed>> replayChain(const Chain& chain, RunGraph& graph, Replayer& replayer,
                                                         const std::atomic<bool>* stop = nullptr) const;
    // What the replay of `graph`, with fixes applied that changed
    // `applied`, says (its span, steps and floor) before the unchanged
    // replay is read: made on a second thread while this one may still be
    // making the unchanged replay.
    Replayed measure(RunGraph& graph, Replayer& replayer, FixSet applied) const;
    // A measured replay completed from the unchanged one: a set that
    // changed nothing is the unchanged replay, and one that went below its
    // floor is raised to it, its steps with it.
    void finish(Replayed& replayed) const;
    // `fixes`' replay, made on this thread where it is not made yet; not
    // marked asked (spanWith marks it).
    Replayed& replayOnce(FixSet fixes);

    std::optional<RunGraph> m_graph;
    FixRates m_rates;
    ContentionRates m_contentionRates;
    WhatIfSummary m_summary;
    DemandMigrations m_demand;
    // What puts the graph back after a fix set's replay edited it (made
    // before the first), and the replays' memory: kept, since a fresh copy
    // of a big graph for each fix set cost more than the fixes and the
    // replay together (page faults).
    std::optional<GraphRestorePoint> m_restore;
    Replayer m_replayer;
    // Made ahead on a second thread for a big graph, from the calibrated
    // graph, while this one replays the unchanged graph and the findings
    // are found (the second core is idle then): the restore point, and the
    // second replay thread's copy of the graph's arrays (the nodes' states
    // and the edges' order; the nodes' facts, the edges as built and the
    // kernel fill are shared) and its replayer's memory. Made when the first fix set
    // is asked for, they held its replays up (0.4 s of the 2 GB trace's).
    // Nothing edits those arrays before restorePoint takes it.
    struct Ahead {
        GraphRestorePoint point;
        RunGraph arrays;
        Replayer replayer;
    };
    std::future<Ahead> m_ahead;
    // The restore point, made here or taken from what was made ahead (the
    // arrays and replayer made ahead into `otherArrays` and `otherReplayer`
    // where given, else dropped), with the graph's model as it is now.
    GraphRestorePoint& restorePoint(RunGraph* otherArrays = nullptr, Replayer* otherReplayer = nullptr);
    // The replayer's times are the unchanged graph's (no fix set was
    // replayed by it since): setSteps reads them without a second replay.
    bool m_replayerHoldsUnchanged = false;
    // The unchanged run is still to be replayed (Unchanged::WithFixSets).
    bool m_unchangedPending = false;
    std::map<FixSet, Replayed> m_replayed;
    std::vector<std::vector<Interval>> m_steps;
    std::vector<StepSavings> m_unchangedStepNs; // the unchanged replay's step lengths
};

// The run as the replay has it with `fixes` applied (0: unchanged): the same
// lanes and names, each op that the replay places at its replayed times
// (exec and event times alike), ops the fix removes (hoisted allocations)
// left out, and ops a fix moves to another stream on that stream's lane
// (added where the run has none). Named "what if: <fixes>", timing "replay".
// nullopt, with *why set, where the run cannot be replayed.
// `span`: the judged span the findings were made over (RunAnalysis::judged).
std::optional<Run> whatIfRun(const Run& run, const TransferRates& rates, FixSet fixes, Interval span,
                             std::string* why = nullptr);

} // namespace ovs
