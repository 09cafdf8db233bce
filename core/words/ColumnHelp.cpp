#include "words/ColumnHelp.h"

namespace ovs {

namespace {
constexpr std::string_view kOverlap = "share of copy time during which some kernel ran";
constexpr std::string_view kOfPossible =
    "time copies and kernels ran at once over the shorter of copy and kernel time (100%: the shorter hid entirely)";
constexpr std::string_view kSpeedup = "the serialized run's wall time over this run's (same workload and device)";
constexpr std::string_view kDistance =
    "wall time over the bound: 1.00x is at the bound; a run cannot beat it, so below 1 only by the rates' noise";
} // namespace

const std::vector<ColumnHelp>& summaryTableColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"pipeline", "the strategy, with its staging threads where it has several"},
        {"wall ms", "the seed's timed region; setup before it is recorded but not counted"},
        {"H2D busy", "share of wall time some upload ran (engine time where CUPTI or the model gives it)"},
        {"D2H busy", "share of wall time some download ran"},
        {"compute busy", "share of wall time some kernel ran"},
        {"overlap", kOverlap},
        {"of possible", kOfPossible},
        {"H2D+D2H", "share of copy time during which an upload and a download ran at once"},
        {"staging ms", "time some host thread copied into or out of a staging buffer"},
        {"host wait ms", "time the main host thread waited for the GPU"},
        {"speedup", kSpeedup},
        {"bound ms", "the fastest this pipeline could go at the rates below, and what binds it"},
        {"distance", kDistance},
    };
    return columns;
}

const std::vector<ColumnHelp>& summaryPanelColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"Run", "the strategy and its parameters"},
        {"Device", "what it ran on; [simulated] marks the simulator's model"},
        {"Status", "completed, cancelled or failed, and why"},
        {"Wall time", "the seed's timed region; setup before it is recorded but not counted"},
        {"Speedup", kSpeedup},
        {"Overlap", kOverlap},
        {"Bound", kDistance},
        {"GPUs together", "runs on several GPUs of one host: the uploads of every GPU together against the sum of "
                          "what each reaches alone, and what bounds them (each GPU's link, or the host memory they "
                          "share); hover a cell for the rate per device"},
        {"Verification", "every output element checked to equal its input plus one per kernel pass"},
        {"Ops", "operations recorded: GPU ops timed by events (and CUPTI), host ops by the host clock"},
    };
    return columns;
}

const std::vector<ColumnHelp>& findingsPanelColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"Cost", "how much shorter the judged span would be without it (\u2248: estimated by its kind's rule, "
                 "else replayed with its fix)"},
        {"Saving", "the cost against the judged span: the longest bar is the biggest win; hatched where the cost is "
                   "an estimate"},
        {"Source", "replay: the run replayed with the fix against the run replayed as it was; estimate: the rule "
                   "of docs/profiling.md for its kind (no replayable fix, or the run could not be replayed)"},
        {"Finding", "what keeps copies and kernels from overlapping"},
        {"Ops", "the operations it concerns (the first 1,000 are outlined on the timeline)"},
        {"Cause", "what happened, with the numbers that say so; the whole text, the fix and the what-if are in "
                  "the details when it is chosen"},
    };
    return columns;
}

const std::vector<ColumnHelp>& stepsPanelColumns()
{
    static const std::vector<ColumnHelp> columns = {
        {"Step", "each judged instance of the repeated region (profiler step, NVTX range, --region), in order"},
        {"Duration", "the instance's span, from its begin to its end on the host"},
        {"Against the slowest", "the duration as a bar, the slowest the longest (in red); the tick marks the median"},
        {"Findings in it", "the findings of the whole judged span that hold in this step, with what their fixes "
                           "save in it: its share of the replayed saving (at least 2% of the step)"},
    };
    return columns;
}

} // namespace ovs
