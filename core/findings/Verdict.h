#pragma once

// What bounds a run: its verdict, decided once per analysed span by one
// function (judgeRun) with two cases. Our pipelines (runs with a chunk
// count) are judged by the pipeline model, which knows their chunks, slots
// and staging (PipelineModel.cpp for the arithmetic, PipelineVerdict.cpp for
// the words); any other run (a profiled program, an imported trace) by the
// general model: its busiest engine, or the host where the GPU idles most
// (Verdict.cpp). A run that cannot be judged (partial, untimed, empty) says
// so in either case. The Bound finding is the verdict as a finding, and
// every view (analyze, the window, the lessons, the ranks, the region
// judgements) reads the verdict: nothing judges a run a second time.

#include "judgement/RunMetrics.h"
#include "judgement/TransferRates.h"
#include "trace/Run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

struct RunGraph;
namespace findings {
struct Context;
}

// What bounds the run, in the verdict's words. Region judgements count
// instances by it in this order (the first of equal counts wins).
enum class VerdictKind : std::uint8_t {
    Cancelled,
    Failed,
    NoWork,           // no GPU copies or kernels in the judged span
    Serialized,       // copies, kernels and host copies took turns
    HostStagingBound, // the host threads' staging memcpy sets the pace
    TransferBound,    // the copy engines do
    ComputeBound,     // the kernels do
    LatencyBound,     // nothing is busy most of the time: fixed costs, too few chunks
    SetupBound,       // allocation or host memory registration takes most of the run
    // The general model only: the GPU idles most of the judged span, so the
    // host sets the pace.
    HostBound,
};
// The words a verdict starts with: "host staging bound", ...
const char* toString(VerdictKind kind);

// The pipeline model's terms, each a time the run could not beat at the
// rates it is judged by; the largest that applies binds (not the verdict's
// kind: a run far from its transfer bound is latency bound).
enum class BoundKind : std::uint8_t {
    None,        // nothing to bound: no GPU work in the timed region
    Transfer,    // the copy engines, at the link's rate
    HostStaging, // the host threads' memcpy into and out of staging buffers
    Compute,     // the kernels
    Serial,      // nothing may overlap, so the parts add up
};
const char* toString(BoundKind kind); // "transfer", "host staging", ...

// The pipeline case's part of a verdict: the fastest the run's pipeline
// could go at the given rates, term by term (PipelineModel.cpp says the
// formulas), with the inputs, for the reader who checks the arithmetic.
struct PipelineModel {
    std::int64_t transferNs = 0; // copies
    std::int64_t stagingNs = 0;  // 0 when the run stages nothing on the host, or its rate is unknown
    std::int64_t computeNs = 0;  // the union of the run's kernel intervals (engine time where known)
    BoundKind binding = BoundKind::None; // the largest that applies: the verdict's boundNs

    int chunks = 0;
    int devices = 1;                  // GPUs the chunks were split over (the terms count one GPU's share)
    std::int64_t uploadChunkNs = 0;   // one chunk's upload at the rate
    std::int64_t downloadChunkNs = 0;
    std::int64_t kernelChunkNs = 0;   // one chunk's kernel: computeNs over the kernels
    int stagingThreads = 0;
    double stagingGBps = 0;           // what those threads copy at together; 0: unknown
    std::string transferModel;        // which formula transferNs used, in words
};

// Where the judged span's time went, one activity at a time (the pipeline
// case ranks them; its words name the largest).
enum class CauseKind : std::uint8_t { Uploads, Downloads, Kernels, HostStaging, Allocation, Registration };
struct Cause {
    CauseKind kind = CauseKind::Uploads;
    std::string what;    // "pageable downloads", "host staging memcpy", ...: display only
    std::int64_t ns = 0; // time during which it ran (union of its ops)
    double share = 0;    // ns / wall time
    double gbps = 0;     // the rate it moved data at; 0 where that means nothing
};

struct Verdict {
    VerdictKind kind = VerdictKind::NoWork;
    // The bound: the fastest the judged span could take. Our pipelines: the
    // model's binding term; any other run: its busiest engine's busy time.
    // 0 where there is none (a partial or empty run).
    std::int64_t boundNs = 0;
    double distance = 0; // wall / boundNs: 1.0 is at the bound; 0 where there is no bound
    // The wall time beyond the bound, within [0, wall]: the Bound finding's cost.
    std::int64_t costNs = 0;
    // The GPU's own bound in every case: the busiest engine's busy time
    // (DeviceActivity::busiestEngineNs) of the busiest device.
    std::int64_t engineBoundNs = 0;
    // One sentence: "<kind>: <the numbers that say so>; <the fix>".
    std::string words;
    // As a finding: its cause (the words; the general model's without the
    // fix) and its fix (a short one where the words carry their own).
    std::string cause;
    std::string fix;
    // The pipeline case: the model's terms; empty for any other run and where
    // the model has nothing to bound (a partial run, no GPU work).
    std::optional<PipelineModel> pipeline;
    // The pipeline case: largest share first; ties keep the order uploads,
    // downloads, kernels, host staging, allocation, registration.
    std::vector<Cause> causes;

    // The model's binding term; None outside the pipeline case.
    BoundKind binding() const { return pipeline ? pipeline->binding : BoundKind::None; }
};

// What the replay said of the host's waits, which the general model's words
// carry: removing the synchronization saved `savingNs`, under the findings'
// minimum, so the host's own work between calls (in `graph`) binds.
// savingNs < 0: no such saving.
struct HostWaitsReplayed {
    const RunGraph* graph = nullptr;
    std::int64_t savingNs = -1;
};

// The verdict on the judged span the findings' context covers
// (findings::Context: the run, its metrics and rates, each device's
// activity, the GPU's idle time, the host calls). Deterministic: the same
// numbers give the same words.
Verdict judgeRun(const findings::Context& c, const HostWaitsReplayed& replayed);

// The pipeline case's two steps, for tests that build a model by hand:
// the model and its bound (PipelineModel.cpp), and the kind and words from
// the metrics and the model (PipelineVerdict.cpp; `v` carries the model,
// boundNs and distance, and gets kind, words, cause, fix and causes).
void modelPipeline(Verdict& v, const Run& run, const RunMetrics& metrics, const TransferRates& rates);
void judgePipeline(Verdict& v, const Run& run, const RunMetrics& metrics, const TransferRates& rates);

} // namespace ovs
