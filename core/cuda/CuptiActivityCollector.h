#pragma once

#include "cupti/ClockMap.h"
#include "cupti/GpuActivity.h"
#include "cupti/Session.h"
#include "device/DeviceTypes.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ovs {

// The CUDA device's client of the process's CUPTI session (cupti/Session.h,
// which holds the kinds, the buffers, the loss tally and the clock pairs):
// one collector serves every CUDA device of the process. It records when the
// copy engines and SMs really ran each memcpy and kernel, and joins those
// records to our ops through CUPTI's external correlation ids (pushed around
// the API calls that enqueue an op: CUPTI then emits a record tying the
// call's correlation id, which the memcpy or kernel record carries, to our
// id).
//
// Each attached device is an owner: the external id carries the owner in its
// top 16 bits and the device's op id below, so records reach the device that
// enqueued the work even when two devices record at once.
//
// Internal to core/cuda. Never destroyed (see instance()).
class CuptiActivityCollector final : public cupti::Session::Reader {
public:
    // The largest op id an owner can tag work with.
    static constexpr std::uint64_t kMaxOpId = (std::uint64_t(1) << 48) - 1;

    static CuptiActivityCollector& instance();

    // Starts collecting for one more owner: the first starts the session.
    // Returns the owner id, or 0 with `whyNot` when libcupti is missing or
    // refuses ("libcupti not found: ...").
    std::uint16_t attach(std::string* whyNot);
    // The last owner to go stops the session. Drops the owner's records.
    void detach(std::uint16_t owner);

    // CUDA work the calling thread enqueues between push and pop carries
    // `opId` (CUPTI keeps the id stack per thread). Throw DeviceError when
    // CUPTI refuses.
    void pushOpId(std::uint16_t owner, std::uint64_t opId);
    void popOpId();

    // Flushes CUPTI's completed buffers and returns the owner's records whose
    // op is known, converted to the host clock (steady_clock ns). Throws
    // DeviceError when CUPTI would not flush or read its clock.
    // `forced`: also hand over partly filled buffers, which is safe only when
    // no traced work is still running (its records would come back untimed).
    std::vector<EngineRecord> take(std::uint16_t owner, bool forced);
    // What the owner's engine records lack since it last asked, in the
    // session's words (cupti::lossWords: records dropped, buffers unread),
    // and the kinds the session would not record (said every time: each run
    // lacks them).
    std::vector<std::string> takeLoss(std::uint16_t owner);

    // One memcpy or kernel as CUPTI timed it; times in CUPTI's clock.
    struct Activity {
        std::uint64_t externalId = 0; // ours, once joined
        std::uint64_t startNs = 0;
        std::uint64_t endNs = 0;
        HostMemoryKind memory = HostMemoryKind::None;
    };
    // What is kept of a decoded GPU record until it joins its op; nullopt
    // when it is untimed. Public for the test that compares this device's
    // reading of records with the profile's.
    static std::optional<Activity> timedActivity(const cupti::GpuActivity& work);

private:
    CuptiActivityCollector() = default;

    // The session's reader: one completed buffer (CUPTI's thread).
    void read(cupti::RecordCursor& records) override;
    bool start(std::string* whyNot);
    void stop();
    // Switches off (or back on) the runtime-API records of every call that
    // enqueues no GPU work.
    void quietRuntimeCalls(bool restore);
    // Throws DeviceError unless `result` is CUPTI_SUCCESS.
    void check(int result, const char* what) const;
    void addActivity(std::uint32_t correlationId, Activity activity);
    void addCorrelation(std::uint32_t correlationId, std::uint64_t externalId);
    // What CUPTI delivered so far, for OVERLAPSCOPE_CUPTI_DEBUG=1.
    std::string countsText() const;

    cupti::Session& m_session = cupti::Session::instance();

    // Serialises attach and detach (devices may be made on different threads).
    std::mutex m_attachMutex;
    int m_owners = 0;
    std::uint16_t m_lastOwner = 0;
    // Kinds the session left off or CUPTI refused, in words (since start).
    std::vector<std::string> m_kindWarnings;
    // The session's loss when each owner last asked (takeLoss).
    std::map<std::uint16_t, cupti::BufferLoss> m_lossSeen;

    // Guards everything below; CUPTI delivers buffers on its own thread. Never
    // held across a CUPTI call that can deliver buffers (flush, stop),
    // since it may deliver on the calling thread.
    mutable std::mutex m_mutex;
    // buffers, external correlations, memcpys, kernels, other records, joined
    std::uint64_t m_counts[6] = {};
    // CUPTI call correlation id -> our external id, and memcpy/kernel records
    // still waiting for theirs (records of one call may arrive in a later
    // buffer than the correlation, or earlier). Both are capped: work nobody
    // tagged (benchmarks, checks) never finds a partner.
    std::map<std::uint32_t, std::uint64_t> m_externalIds;
    std::multimap<std::uint32_t, Activity> m_unjoined;
    std::vector<Activity> m_joined;
    cupti::ClockMap m_clock{4096};
    std::int64_t m_lastClockNs = 0; // monotonic time of the last pair added
};

} // namespace ovs
