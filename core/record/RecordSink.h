#pragma once

#include "trace/BandwidthSweep.h"
#include "trace/Run.h"

#include <span>
#include <string>

namespace ovs {

// The one narrow seam through which recorded work leaves the core: the CLI
// prints and collects through it, the GUI wraps it in a QObject adapter that
// forwards batches to the GUI thread. Calls come from the thread doing the
// work, in order; implementations must not call back into the device.
class RecordSink {
public:
    virtual ~RecordSink() = default;

    // A run begins: its header (name, device, params, lanes known so far), no ops.
    virtual void runStarted(const Run& header) { (void)header; }
    virtual void laneAdded(const Lane& lane, int laneIndex) { (void)lane, (void)laneIndex; }
    // Ops of the current run that completed since the last call, in
    // completion order (not sorted).
    virtual void opsCompleted(std::span<const Op> ops) { (void)ops; }
    // The finished run: every op, sorted per lane, verified (or why not).
    virtual void runFinished(const Run& run) { (void)run; }

    virtual void sweepStarted(const BandwidthSweep& header) { (void)header; }
    virtual void bandwidthMeasured(const BandwidthPoint& point) { (void)point; }
    virtual void sweepFinished(const BandwidthSweep& sweep) { (void)sweep; }

    // Fraction in [0, 1] of the current job, and what it is doing.
    virtual void progress(double fraction, const std::string& what) { (void)fraction, (void)what; }
};

} // namespace ovs
