#pragma once

// The analysis room's own: what the findings' rules (FindingRules.cpp) and
// their driver (Findings.cpp) share: the run's work gathered once
// (Context), and the small helpers and cost rules the rules have in common.

#include "analysis/Findings.h"
#include "analysis/IntervalSet.h"
#include "trace/CorrelationMap.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::findings {

// Words and names (times: msText, analysis/NumberText.h).
std::string percentText(std::int64_t part, std::int64_t whole);
std::string plural(std::size_t n, const char* one, const char* many);
bool startsWith(std::string_view text, std::string_view prefix);

// Ops by what they are.
bool isCopy(OpKind kind);
// The interval an op held its engine: engine times where known (OpTimes.h).
Interval engineInterval(const Op& op);
// The CUDA ordinal a lane's name gives ("GPU 1 stream 7"); 0 when none.
int deviceOfLane(const Lane& lane);
// Host calls by what they do (profiles, imported traces and our pipelines
// name them differently).
bool isHostSync(const Run& run, const Op& op);
bool isAllocation(const Run& run, const Op& op);
bool isSyncCopyCall(const Run& run, const Op& op);

// Time sets.
// The parts of [beginNs, endNs) outside `busy`.
IntervalSet complement(const IntervalSet& busy, std::int64_t beginNs, std::int64_t endNs);
// The piece of `set` holding instant t, or nullptr.
const Interval* pieceAt(const IntervalSet& set, std::int64_t t);
// The start of the first piece beginning after t; -1 when none does.
std::int64_t nextStartAfter(const IntervalSet& set, std::int64_t t);
// `ns` within [0, wallNs].
std::int64_t capped(std::int64_t ns, std::int64_t wallNs);

// The fix of each kind, as the replay applies it (0: none to replay).
FixSet fixOf(FindingKind kind);
Finding makeFinding(FindingKind kind, std::vector<std::uint32_t> ops, int device);

// ---- What the run holds, gathered once.

// ---- What the run holds, gathered once.

struct DeviceWork {
    int device = 0;
    IntervalSet busy; // every GPU op of the device, clipped to the judged span
    std::map<int, std::vector<std::uint32_t>> laneOps; // stream lane -> its GPU ops in the region
    DeviceActivity activity;
};

struct Context {
    Context(const Run& r, const RunMetrics& m, const TransferRates& t, Interval s)
        : run(r), metrics(m), rates(t), span(s)
    {
    }
    const Run& run;
    const RunMetrics& metrics;
    const TransferRates& rates;
    Interval span; // the judged span (JudgedSpan.h): the run's timed region or its loop
    std::int64_t wallNs = 0;
    std::vector<DeviceWork> devices;       // by ordinal
    std::vector<int> laneDevice;           // per lane
    IntervalSet gpuBusy;                   // all devices together
    IntervalSet gpuIdle;                   // the judged span minus gpuBusy
    CorrelationMap gpuOpOf; // correlation -> GPU op
    CorrelationMap callOf;  // correlation -> API call (ApiCall or role op)
    std::vector<std::uint32_t> hostOps;    // ops on host lanes in the region, in time order
    int deviceForHost = -1;                // the one device, or -1 when several
    // The run replays: a finding's cost is what its fix saves in the replay,
    // so the rules name every candidate and leave out the gates that only
    // guard their estimates (the replay's 2% rule decides).
    bool replayed = false;

    bool inRegion(const Op& op) const { return op.startNs >= span.beginNs && op.startNs < span.endNs; }
    // What the span is called in the findings' words.
    const char* spanWords() const
    {
        return span.beginNs == run.timedBeginNs && span.endNs == run.timedEndNs ? "the timed region" : "the judged span";
    }
    bool interleaved(const Op& op) const
    {
        // GPU work both before the call and at or after its end.
        return !gpuBusy.isEmpty() && gpuBusy.pieces().front().beginNs < op.startNs
               && gpuBusy.pieces().back().endNs > op.endNs;
    }
};

Context gather(const Run& run, const RunMetrics& metrics, const TransferRates& rates, Interval span);

// The cost rules that several findings share (FindingContext.cpp says each).
std::int64_t overlapHeadroom(const DeviceActivity& a);
bool drainedTheGpu(const Context& c, const Op& call);
std::int64_t idleCostOf(const Context& c, const std::vector<std::uint32_t>& calls, bool onlyDraining = false);

} // namespace ovs::findings
