#pragma once

#include <string>
#include <vector>

namespace ovs {

// What a request's jobs came to, for the closing message and exit status.
// The recorded runs and sweep themselves went to the sink.
struct JobOutcome {
    int runsRequested = 0;
    int runsCompleted = 0;  // ran to the end, verified or not
    int runsVerified = 0;   // completed and their output checked out exactly
    int runsUnverified = 0; // completed, but the output (or the async contract) was wrong
    int runsFailed = 0;     // stopped by the device, the host or bad parameters
    bool sweepRequested = false;
    // Cells of the sweep recorded, complete or not; -1 while no sweep ran.
    int sweepCells = -1;
    bool sweepFailed = false;
    // The user cancelled: the job in flight ended as a cancelled run or
    // sweep, the later ones never started.
    bool cancelled = false;
    // One line per failed or unverified job: "serialized pageable did not
    // verify: ...", "bandwidth sweep failed: ...".
    std::vector<std::string> problems;

    bool ok() const { return !cancelled && problems.empty(); }
};

} // namespace ovs
