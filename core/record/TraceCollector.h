#pragma once

#include "record/RecordSink.h"
#include "trace/Trace.h"

namespace ovs {

// A sink that keeps every finished run and sweep as a Trace, and forwards
// everything to another sink (or nowhere).
class TraceCollector : public RecordSink {
public:
    explicit TraceCollector(RecordSink* next = nullptr) : m_next(next) {}

    const Trace& trace() const { return m_trace; }
    Trace& trace() { return m_trace; }

    void runStarted(const Run& header) override { if (m_next) m_next->runStarted(header); }
    void laneAdded(const Lane& lane, int laneIndex) override { if (m_next) m_next->laneAdded(lane, laneIndex); }
    void opsCompleted(std::span<const Op> ops) override { if (m_next) m_next->opsCompleted(ops); }
    void runFinished(const Run& run) override
    {
        m_trace.runs.push_back(run);
        if (m_next)
            m_next->runFinished(run);
    }
    void sweepStarted(const BandwidthSweep& header) override { if (m_next) m_next->sweepStarted(header); }
    void bandwidthMeasured(const BandwidthPoint& point) override { if (m_next) m_next->bandwidthMeasured(point); }
    void sweepFinished(const BandwidthSweep& sweep) override
    {
        m_trace.sweeps.push_back(sweep);
        if (m_next)
            m_next->sweepFinished(sweep);
    }
    void progress(double fraction, const std::string& what) override { if (m_next) m_next->progress(fraction, what); }

private:
    RecordSink* m_next;
    Trace m_trace;
};

} // namespace ovs
