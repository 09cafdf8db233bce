#pragma once

#include "analysis/RunAnalysis.h"
#include "bench/BandwidthBench.h"
#include "pipeline/PipelineConfig.h"
#include "trace/BandwidthSweep.h"
#include "trace/Op.h"
#include "trace/Run.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ovs {

// A lesson is data (its words, its question, the runs it makes, what to
// look at) plus two functions: one sizes the runs for the device at hand
// from a short calibration run, the other reads the measured runs and says
// what they showed. The window, the CLI and the slide export all show the
// same Lesson and LessonResult; none of them decides anything itself.

struct LessonChoice {
    std::string id;   // "a", "b", ...
    std::string text;
};

struct LessonQuestion {
    std::string text;
    std::vector<LessonChoice> choices;
};

// One run of a lesson: a pipeline or a bandwidth sweep, on the lesson's
// device or on a fixed simulated one (the one-copy-engine GPU of the issue
// order lesson).
struct LessonStep {
    std::string id;      // "pinned", used by focus and judging
    std::string caption; // over its timeline: "data already pinned, 3 streams"
    std::optional<PipelineConfig> pipeline;
    std::optional<BenchConfig> sweep;
    std::string deviceSpec; // empty: the lesson's device; else a createDevice spec ("sim:one-engine")
};

// What to look at: the ops of one run that a selector picks, to highlight
// with a callout. The time range is where those ops are in the measured run.
struct OpSelector {
    std::optional<OpKind> kind;
    std::string laneName;   // empty: any lane; else lanes whose name starts with it
    std::optional<HostMemoryKind> memory;
    int firstChunk = -1;    // -1: any chunk
    int lastChunk = -1;
};

struct LessonFocus {
    std::string stepId;
    OpSelector select;
    std::string callout;
};

// A focus placed on a measured run: [startNs, endNs] spans the ops picked
// (run time, the run's own time base); none picked leaves it empty.
struct ResolvedFocus {
    std::string stepId;
    int runIndex = -1; // into LessonResult::runs
    std::string callout;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::vector<std::size_t> ops; // indices into the run's ops
};

// One expected outcome, checked against the measurement.
struct LessonCheck {
    std::string expectation; // "breadth-first beats depth-first on the one-copy-engine GPU"
    bool held = false;
    std::string measured;    // "breadth-first 9.1 ms, depth-first 14.0 ms"
};

// A measured run of the lesson, with the analysis every view shows.
struct LessonRunResult {
    std::string stepId;
    std::string caption;
    Run run;
    RunAnalysis analysis;
};

struct LessonSweepResult {
    std::string stepId;
    std::string caption;
    BandwidthSweep sweep;
};

// What the judge reads: the measured runs and sweeps by step id.
struct LessonMeasurements {
    std::vector<LessonRunResult> runs;
    std::vector<LessonSweepResult> sweeps;

    const LessonRunResult* run(const std::string& stepId) const;
    const BandwidthSweep* sweep(const std::string& stepId) const;
};

// What the judge decides: the right answer, the checks, and the numbers the
// takeaway template names ({wall_pinned} ...).
struct LessonVerdict {
    std::string answer; // a choice id
    std::string why;    // one sentence: the numbers the answer rests on
    std::vector<LessonCheck> checks;
    std::map<std::string, std::string> values;
};

// How big a lesson's runs are. Every lesson sizes its chunks from this one
// figure, so a test can run all of them small and a class large.
//
// 32 MiB by default: a kernel pass over 8 MiB takes the H200 about as long
// as one traced launch costs the host (CUPTI adds some 7 µs a launch), so at
// 8 MiB the host's launches, not the GPU, paced the lessons whose kernels
// make many passes, and their overlap checks failed there (copy-vs-compute
// with heavy kernels: 19.5 ms traced, 5.3 ms untraced). At 32 MiB every
// check held on the H200 (docs/lessons.md).
struct LessonOptions {
    static constexpr std::uint64_t kDefaultChunkBytes = 32ull << 20;
    std::uint64_t chunkBytes = kDefaultChunkBytes;
};

// The parameter a lesson's runs sweep, when they sweep one. A lesson that
// declares one gets a chart of each run's wall time against it, beside the
// run's bound (lessons/SweepPoints.h): the window and the slides draw it for
// any lesson that says so, never by its id.
enum class SweptParameter : std::uint8_t {
    None,
    ChunkBytes,    // RunParams::chunkBytes
    KernelRepeats, // RunParams::kernelRepeats
};

struct Lesson {
    int number = 0;          // 1..10, the order of the course
    std::string id;          // "pageable-vs-pinned"
    std::string title;
    std::string explanation; // 3 to 6 sentences
    LessonQuestion question;
    // Whether a calibration run (data already pinned, one stream, one kernel
    // pass per chunk) goes first, on the lesson's device, to size the
    // lesson's kernels for it: passes so that compute takes about as long as
    // a copy.
    bool calibrate = false;
    // The lesson's runs, sized from the calibration run (none: sized for the
    // simulated H200, used only to count the jobs before calibration).
    std::function<std::vector<LessonStep>(std::span<const Run> calibration, const LessonOptions& options)> plan;
    std::vector<LessonFocus> focus;
    // What its pipeline runs sweep (None: they are not a sweep).
    SweptParameter swept = SweptParameter::None;
    // With {name} for each value the judge fills in.
    std::string takeaway;
    std::function<LessonVerdict(const LessonMeasurements&)> judge;
};

// The lessons in course order.
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const std::string& id);
std::string lessonIds(); // "pageable-vs-pinned, pageable-async-blocks, ..."

// The template with each {name} replaced by its value; a name with no value
// stays as it is, so a missing number shows rather than vanishes.
std::string fillTakeaway(const std::string& text, const std::map<std::string, std::string>& values);

// The focus placed on the measured runs.
std::vector<ResolvedFocus> resolveFocus(const std::vector<LessonFocus>& focus, const LessonMeasurements& measured);

} // namespace ovs
