#pragma once

#include "trace/Run.h"

#include <span>
#include <string>
#include <vector>

namespace ovs::profile {

// Where a profile's runs go while the program runs: RecordSink's shape, with
// a run index on every call, since the processes of a profile record at the
// same time (one run each). The CLI prints progress through it; the window
// wraps it like RecordSink to draw the timeline live. Calls come from the
// thread that polls the ProfileSession, in order.
class ProfileSink {
public:
    virtual ~ProfileSink() = default;

    // A traced process appeared: its run's header (name, device so far), no ops.
    virtual void runStarted(int run, const Run& header) { (void)run, (void)header; }
    virtual void laneAdded(int run, const Lane& lane, int laneIndex) { (void)run, (void)lane, (void)laneIndex; }
    // Ops that arrived since the last call, in arrival order, times on the
    // profile's time base. `names` is the run's name table so far (it only
    // grows), for the ops' nameId.
    virtual void opsCompleted(int run, std::span<const Op> ops, const std::vector<std::string>& names)
    {
        (void)run, (void)ops, (void)names;
    }
    // The finished run. Its lanes are re-ordered (devices, streams, then host
    // threads) and may be renamed, so it replaces what was built live.
    virtual void runFinished(int run, const Run& finished) { (void)run, (void)finished; }
};

} // namespace ovs::profile
