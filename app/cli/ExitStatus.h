#pragma once

#include "jobs/JobOutcome.h"

namespace ovs::cli {

// overlapscope-cli's exit statuses, one meaning each, so a script can tell a
// typo from a missing GPU from a wrong result. --help and README.md list them;
// the window's headless export (app/gui) follows the same table.
enum ExitStatus : int {
    kExitOk = 0,
    kExitFailed = 1,     // a run or the sweep failed, or writing the output failed
    kExitUsage = 2,      // bad usage: unknown or repeated option, bad value, an output that cannot be written or is the input
    kExitBadInput = 3,   // an input trace that cannot be read or is malformed
    kExitNoDevice = 4,   // the device asked for is not available (no CUDA GPU, no such index)
    kExitUnverified = 5, // a run completed but its output did not verify
    kExitCancelled = 130, // cancelled (SIGINT / Ctrl-C), as a shell reports it
};

inline constexpr const char* kExitStatusHelp =
    "Exit status:\n"
    "  0    success\n"
    "  1    a run or the sweep failed, or writing the output failed\n"
    "  2    bad usage (unknown or repeated option, bad value, an output path that cannot be written\n"
    "       or that is the input)\n"
    "  3    bad input (a trace that cannot be read or is malformed)\n"
    "  4    the device is not available (no CUDA GPU, no GPU with that index)\n"
    "  5    a run completed but its output did not verify\n"
    "  130  cancelled with Ctrl-C; what was recorded is still reported and written (before any run\n"
    "       finished, an existing output file is left as it was)\n"
    "  Where several apply, the first of 5, 1, 130 is given.\n";

// How a request's jobs map onto the statuses. A wrong result outranks a
// failure, which outranks the user's own cancel.
inline ExitStatus exitStatusOf(const JobOutcome& outcome)
{
    if (outcome.runsUnverified > 0)
        return kExitUnverified;
    if (!outcome.problems.empty())
        return kExitFailed;
    if (outcome.cancelled)
        return kExitCancelled;
    return kExitOk;
}

} // namespace ovs::cli
