#pragma once

// The findings room's own: what the findings' rules (FindingRules.cpp) and
// their driver (Findings.cpp) share: the run's work gathered once
// (Context), and the small helpers and cost rules the rules have in common.

#include "findings/Findings.h"
#include "facts/IntervalSet.h"
#include "facts/RunIndex.h"
#include "trace/CorrelationMap.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ovs::findings {

// Words and names (times: msText, base/DurationText.h).
std::string percentText(std::int64_t part, std::int64_t whole);
std::string plural(std::size_t n, const char* one, const char* many);
bool startsWith(std::string_view text, std::string_view prefix);

// Ops by what they are (engine intervals, lanes' devices and calls' roles:
// facts/RunIndex.h).
bool isCopy(OpKind kind);

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

// ---- What the rules read: the run's index over the judged span, and each
// device's activity in the findings' terms.

struct DeviceWork {
    const DeviceFacts* facts = nullptr; // the index's
    int device = 0;
    DeviceActivity activity;
    const IntervalSet& busy() const { return facts->busy; }
    const std::map<int, std::vector<std::uint32_t>>& laneOps() const { return facts->laneOps; }
};

struct Context {
    Context(const RunIndex& i, const RunMetrics& m, const TransferRates& t)
        : index(i), run(i.run()), metrics(m), rates(t), span(i.span()), wallNs(i.wallNs()), gpuBusy(i.gpuBusy()),
          gpuOpOf(i.gpuOpOf()), callOf(i.callOf()), hostOps(i.hostOps())
    {
    }
    const RunIndex& index;
    const Run& run;
    const RunMetrics& metrics;
    const TransferRates& rates;
    Interval span; // the judged span (judgement/JudgedSpan.h): the run's timed region or its loop
    std::int64_t wallNs = 0;
    std::vector<DeviceWork> devices;    // by ordinal
    const IntervalSet& gpuBusy;         // all devices together
    IntervalSet gpuIdle;                // the judged span minus gpuBusy
    const CorrelationMap& gpuOpOf;      // correlation -> GPU op
    const CorrelationMap& callOf;       // correlation -> API call (ApiCall or role op)
    const std::vector<std::uint32_t>& hostOps; // ops on host lanes in the region, in time order
    int deviceForHost = -1;             // the one device, or -1 when several
    // The run replays: a finding's cost is what its fix saves in the replay,
    // so the rules name every candidate and leave out the gates that only
    // guard their estimates (the replay's 2% rule decides).
    bool replayed = false;

    bool inRegion(const Op& op) const { return index.inSpan(op); }
    // What the span is called in the findings' words.
    const char* spanWords() const
    {
        const Interval timed = index.timed();
        return span.beginNs == timed.beginNs && span.endNs == timed.endNs ? "the timed region" : "the judged span";
    }
    bool interleaved(const Op& op) const
    {
        // GPU work both before the call and at or after its end.
        return !gpuBusy.isEmpty() && gpuBusy.pieces().front().beginNs < op.startNs
               && gpuBusy.pieces().back().endNs > op.endNs;
    }
};

// The context of the index: each device's activity, the GPU's idle time.
Context gather(const RunIndex& index, const RunMetrics& metrics, const TransferRates& rates);

// The cost rules that several findings share (FindingContext.cpp says each).
std::int64_t overlapHeadroom(const DeviceActivity& a);
bool drainedTheGpu(const Context& c, const Op& call);
std::int64_t idleCostOf(const Context& c, const std::vector<std::uint32_t>& calls, bool onlyDraining = false);

} // namespace ovs::findings
