#pragma once

// Which part of a run is judged: the loop, not the process. Short programs
// spend most of their time in setup (allocations, warm-up) and teardown; a
// verdict about the whole process is a verdict about setup. Every analysis of
// a run (metrics, bounds, findings, the what-if replay) reads the span chosen
// here, so they never judge different parts of one run (docs/profiling.md,
// "What is judged").
//
// The rule, in order:
// 1. our pipelines: their timed region (the seed's wall time: setup is
//    already outside it);
// 2. a run with regions: the regions the user names (`--region`), else the
//    profiler's steps (ProfilerStep#N), else the repeated or single
//    outermost range (NVTX, record_function) that encloses most of the GPU
//    work; a first step much slower than the others is warm-up, reported
//    with the setup;
// 3. otherwise the steady state: from the first GPU op of the repeated
//    pattern of GPU work (the ops whose kind, name and size recur) to the
//    last; what comes before is setup;
// 4. else the timed region.
//
// A region's span runs from its begin to the later of its end and the end of
// the GPU work enqueued inside it (by correlation id where the trace has
// them, else by start time): asynchronous work belongs to the region that
// issued it.

#include "facts/IntervalSet.h"
#include "facts/Launches.h"
#include "trace/Run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// Instances of one repeated region: same name up to its trailing number
// ("ProfilerStep#3" and "ProfilerStep#4" are "ProfilerStep#N").
struct RegionGroup {
    std::string name;                  // the name with its number as N: "ProfilerStep#N", "chunk N", "loop"
    std::vector<std::uint32_t> regions; // indices into Run::regions, by begin
};

struct JudgedSpan {
    enum class Basis : std::uint8_t {
        TimedRegion, // the run's timed region (pipelines; or nothing better found)
        Regions,     // named regions (steps, ranges)
        SteadyState, // the repeated pattern of GPU work
    };
    Interval span;  // what is judged, in the run's time base
    Basis basis = Basis::TimedRegion;
    std::string label; // "steps ProfilerStep#1 to #5", "range 'loop'", "steady state", "timed region"
    // The regions judged (Basis::Regions): their group, warm-up left out.
    RegionGroup group;
    // Before the judged span, in the timed region: allocations, warm-up.
    Interval setup;
    // "setup: 610 ms before the judged span, of which cudaHostAlloc 585 ms
    // (12 calls)"; empty when there is no setup to speak of.
    std::string setupText;
    // Basis::TimedRegion: why no narrower span ("the repeated GPU work fills
    // it", "no GPU op recurs"); empty for our pipelines, where it is the rule.
    std::string whyWhole;

    bool wholeRun() const { return basis == Basis::TimedRegion; }
};

// True for runs of our own pipelines (they carry their chunk count): their
// verdict is the pipeline model's. Any other run (a profiled program, an
// imported trace) gets the general model's (findings/Verdict.h). Their
// judged span is their timed region (rule 1 above).
bool isPipelineRun(const Run& run);

const char* toString(JudgedSpan::Basis basis); // "timed region", "regions", "steady state"

// The run's timed region as an interval.
Interval timedRegion(const Run& run);

// Each takes the run's launches (Launches.h) where the caller found them
// once, and finds them itself otherwise (a walk of the run's ops).
// The default rule above.
JudgedSpan judgedSpan(const Run& run);
JudgedSpan judgedSpan(const Run& run, const std::vector<Launch>& launches);
// The span of the given regions (a group's instances): from the first begin
// to the last one's end or the end of its GPU work. `leaveOutWarmUp`: a first
// instance much slower than the others is counted with the setup.
JudgedSpan judgedSpanOf(const Run& run, const RegionGroup& group, bool leaveOutWarmUp = true);
JudgedSpan judgedSpanOf(const Run& run, const RegionGroup& group, const std::vector<Launch>& launches,
                        bool leaveOutWarmUp);
// One region's span: its begin to the later of its end and its GPU work's.
// The other forms do many at once.
Interval regionSpan(const Run& run, std::uint32_t region);
std::vector<Interval> regionSpans(const Run& run, const std::vector<std::uint32_t>& regions);
std::vector<Interval> regionSpans(const Run& run, const std::vector<std::uint32_t>& regions,
                                  const std::vector<Launch>& launches);

// The ops of `run` that begin in `span` (its lanes, names and device kept;
// its timed region the span): analysing it costs what the span holds, not
// what the run holds, and says what analysing the run over the span says.
Run sliceOf(const Run& run, Interval span);

// The run's regions grouped by name (trailing numbers as N), in order of
// each group's first begin. Our pipelines' chunk regions are left out (one
// analysis per chunk says nothing the run's does not).
std::vector<RegionGroup> regionGroups(const Run& run);
// The groups whose name, or whose instances' names, match `pattern`: the
// exact name first, else an ECMAScript regular expression that matches the
// whole name. An invalid expression leaves `error` saying why and answers
// nothing.
std::vector<RegionGroup> regionGroupsMatching(const Run& run, const std::string& pattern, std::string* error);

} // namespace ovs
