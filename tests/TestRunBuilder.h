#pragma once

// A profiled run in a few lines, for tests of the analysis and the replay:
// GPU ops carry engine times (as CUPTI's do) and host calls join them by
// correlation id, as the profiler records them.

#include "trace/Run.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace ovs::test {

class RunBuilder {
public:
    RunBuilder()
    {
        m_run.name = "test program";
        m_run.pipeline = "profile";
        m_run.timing = "cupti";
        m_run.device.name = "Test GPU";
    }
    // The stream kind is a field, as every reader fills it: a lane's name
    // says nothing to the analysis.
    int lane(const std::string& name, LaneKind kind = LaneKind::Stream, StreamKind streamKind = StreamKind::Unknown)
    {
        m_run.lanes.push_back({name, kind, 0, streamKind});
        return static_cast<int>(m_run.lanes.size() - 1);
    }
    // A GPU op on `lane`, issued by the call `correlation` (0: none).
    void gpu(OpKind kind, int lane, std::int64_t start, std::int64_t end, std::uint64_t bytes = 0,
             HostMemoryKind memory = HostMemoryKind::None, std::uint32_t correlation = 0)
    {
        Op op;
        op.kind = kind;
        op.lane = static_cast<std::uint16_t>(lane);
        op.startNs = op.execStartNs = start;
        op.endNs = op.execEndNs = end;
        op.bytes = bytes;
        op.memory = memory;
        op.correlation = correlation;
        m_run.ops.push_back(op);
    }
    void call(int lane, const std::string& name, std::int64_t start, std::int64_t end, std::uint32_t correlation = 0,
              OpKind kind = OpKind::ApiCall)
    {
        Op op;
        op.kind = kind;
        op.lane = static_cast<std::uint16_t>(lane);
        op.startNs = start;
        op.endNs = end;
        op.correlation = correlation;
        const auto known = std::find(m_run.names.begin(), m_run.names.end(), name);
        op.nameId = static_cast<std::uint32_t>(known - m_run.names.begin());
        if (known == m_run.names.end())
            m_run.names.push_back(name);
        m_run.ops.push_back(op);
    }
    // A unified-memory counter on `lane` (a device's "unified memory"
    // lane): its typed fields, as every reader fills them, and the name the
    // profiler gives it ("HtoD migration (fault)"), which the analysis never reads.
    void counter(int lane, UnifiedMemoryOp counter, std::int64_t start, std::int64_t end, std::uint64_t value)
    {
        call(lane, unifiedMemoryName(counter), start, end, 0, OpKind::UnifiedMemory);
        m_run.ops.back().memory = HostMemoryKind::Managed;
        m_run.ops.back().bytes = value;
        m_run.setUnifiedMemory(m_run.ops.size() - 1, counter);
    }
    // The run being built, for what the helpers do not set (stream kinds,
    // the device's copy engines).
    Run& run() { return m_run; }
    Run finish()
    {
        std::int64_t begin = m_run.ops.front().startNs, end = 0;
        for (const Op& op : m_run.ops) {
            begin = std::min(begin, op.startNs);
            end = std::max(end, op.endNs);
        }
        m_run.timedBeginNs = begin;
        m_run.timedEndNs = end;
        m_run.sortOps();
        return m_run;
    }

private:
    Run m_run;
};

} // namespace ovs::test
