#include "cuda/CuptiActivityCollector.h"

#include "base/EnvironmentFlags.h"
#include "cupti/GpuActivityDecoder.h"
#include "cupti/Library.h"
#include "trace/ApiNames.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <utility>

namespace ovs {
namespace {

// Correlations and records that never meet a partner (work nobody tagged:
// benchmarks, checks, API calls that enqueue nothing) are dropped oldest first.
constexpr std::size_t kMaxUnpaired = std::size_t(1) << 17;
constexpr int kOwnerShift = 48;
constexpr int kClockSamples = 5;
constexpr std::int64_t kRecalibrateEveryNs = 1'000'000;
constexpr std::size_t kMaxClockPairs = 4096;

// Enabled in this order, disabled in reverse. A copy or kernel record
// carries the correlation id of the runtime call that launched it, and CUPTI
// emits external correlation records (our op ids) only for API calls whose
// records it collects with the RUNTIME kind on (switching on single calls
// without the kind gave none on the H200). So the kind is on, and then every
// runtime call that enqueues no work is switched off again (see
// quietRuntimeCalls): each launch also makes cudaSetDevice and
// cudaGetLastError calls, each op two cudaEventRecord and several queries,
// and their records cost host time for nothing. Driver-API records are
// never needed (the runtime call carries the correlation). Measured on the
// H200 with 1,984 launches in a run (docs/measurements.md): driver records
// cost 6 to 8% of it, the runtime records about as much again.
// OVERLAPSCOPE_CUPTI_ALL_API=1 traces every runtime and driver call, as
// builds before this one did, to measure what the filter saves.
struct Kind {
    CUpti_ActivityKind kind;
    const char* name;
    const char* token; // for OVERLAPSCOPE_CUPTI_SKIP
};
constexpr Kind kKinds[] = {
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "external correlation", "correlation"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime API", "runtime"},
    {CUPTI_ACTIVITY_KIND_DRIVER, "driver API", "driver"}, // only with OVERLAPSCOPE_CUPTI_ALL_API=1
    {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy", "memcpy"},
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent kernel", "kernel"},
};

// OVERLAPSCOPE_CUPTI_SKIP=runtime,driver,...: record kinds left off, to
// measure what each costs (docs/measurements.md). Tokens: "correlation",
// "runtime", "driver", "memcpy", "kernel". Not for normal use: without the
// runtime records or the correlations no engine record joins an op, and the
// run falls back to event times (it says so).
bool skipped(const char* token)
{
    return environmentListHas("OVERLAPSCOPE_CUPTI_SKIP", token);
}

// The runtime calls that enqueue the work we time: copies, memsets, kernel
// launches (every variant: _ptsz, Ex, the CUDA 13 triple-chevron entry).
std::int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void CUPTIAPI onBufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    *buffer = CuptiActivityCollector::instance().provideBuffer(size, maxNumRecords);
}

void CUPTIAPI onBufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    CuptiActivityCollector::instance().bufferCompleted(buffer, validSize);
}

} // namespace

CuptiActivityCollector& CuptiActivityCollector::instance()
{
    // Leaked on purpose: CUPTI's worker thread may still deliver a buffer while
    // the process exits, after static destructors would have run.
    static CuptiActivityCollector* collector = new CuptiActivityCollector;
    return *collector;
}

void CuptiActivityCollector::check(int result, const char* what) const
{
    if (result != CUPTI_SUCCESS)
        throw DeviceError(
            cupti::Library::instance().describe(static_cast<CUptiResult>(result), std::string(what) + " failed"));
}

std::uint16_t CuptiActivityCollector::attach(std::string* whyNot)
{
    // Tracing costs host time per CUDA call; this measures runs without it.
    if (environmentFlag("OVERLAPSCOPE_NO_CUPTI")) {
        if (whyNot)
            *whyNot = "CUPTI turned off by OVERLAPSCOPE_NO_CUPTI";
        return 0;
    }
    // Under `overlapscope-cli profile` our injection library already holds
    // CUPTI in this process: registering our buffer callbacks would take its
    // records away from it, so the profile would lose them. Step aside: the
    // run keeps event times, and the profile records the engines.
    if (const char* profiled = std::getenv("OVERLAPSCOPE_PROFILE_OUT"); profiled && *profiled) {
        if (whyNot)
            *whyNot = "CUPTI is held by overlapscope-cli profile, which is recording this process";
        return 0;
    }
    const cupti::Library& library = cupti::Library::instance();
    if (!library.loaded()) {
        if (whyNot)
            *whyNot = library.whyNot();
        return 0;
    }
    std::lock_guard attachLock(m_attachMutex);
    if (m_owners == 0 && !enable(whyNot))
        return 0;
    ++m_owners;
    if (++m_lastOwner == 0) // 0 means "no owner"
        ++m_lastOwner;
    return m_lastOwner;
}

bool CuptiActivityCollector::enable(std::string* whyNot)
{
    const cupti::Library& library = cupti::Library::instance();
    const cupti::Library::Api& api = library.api();
    auto refuse = [&](CUptiResult result, const std::string& what) {
        if (whyNot)
            *whyNot = library.describe(result, what + " failed") + " (" + library.path() + ")";
        return false;
    };
    if (!m_callbacksRegistered) {
        const CUptiResult result = api.activityRegisterCallbacks(onBufferRequested, onBufferCompleted);
        if (result != CUPTI_SUCCESS)
            return refuse(result, "cuptiActivityRegisterCallbacks");
        m_callbacksRegistered = true;
    }
    const bool allApi = environmentFlag("OVERLAPSCOPE_CUPTI_ALL_API");
    for (std::size_t i = 0; i < std::size(kKinds); ++i) {
        if (skipped(kKinds[i].token) || (kKinds[i].kind == CUPTI_ACTIVITY_KIND_DRIVER && !allApi))
            continue;
        const CUptiResult result = api.activityEnable(kKinds[i].kind);
        if (result != CUPTI_SUCCESS) {
            const std::string what = std::string("cuptiActivityEnable(") + kKinds[i].name + " records)";
            // Leaves nothing half on; a failure here cannot add to the one reported.
            while (i-- > 0)
                static_cast<void>(api.activityDisable(kKinds[i].kind));
            return refuse(result, what);
        }
    }
    if (!allApi)
        quietRuntimeCalls(false);
    try {
        const ClockPair pair = sampleClocks();
        std::lock_guard lock(m_mutex);
        m_clock.assign(1, pair);
    } catch (const DeviceError& error) {
        disable();
        if (whyNot)
            *whyNot = error.what();
        return false;
    }
    return true;
}

void CuptiActivityCollector::quietRuntimeCalls(bool restore)
{
    // Best effort: a call left traced costs host time, never a wrong result.
    const cupti::Library::Api& api = cupti::Library::instance().api();
    for (std::uint32_t id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id) {
        const char* name = nullptr;
        if (api.getCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, id, &name) != CUPTI_SUCCESS || !name
            || apiEnqueuesWork(name))
            continue;
        static_cast<void>(api.activityEnableRuntimeApi(id, restore ? 1 : 0));
    }
}

void CuptiActivityCollector::detach(std::uint16_t owner)
{
    if (owner == 0)
        return;
    std::lock_guard attachLock(m_attachMutex);
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_joined, [owner](const Activity& a) { return a.externalId >> kOwnerShift == owner; });
    }
    if (--m_owners == 0)
        disable();
}

void CuptiActivityCollector::disable()
{
    const cupti::Library::Api& api = cupti::Library::instance().api();
    // Runs from device destructors, which cannot report failures; a kind that
    // would not disable costs only tracing overhead until the process exits.
    // Back to CUPTI's default (every call of an enabled kind), for whoever
    // enables the runtime kind next.
    quietRuntimeCalls(true);
    for (std::size_t i = std::size(kKinds); i-- > 0;)
        static_cast<void>(api.activityDisable(kKinds[i].kind));
    // Takes CUPTI's buffers back (their records are of no use any more).
    static_cast<void>(api.activityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    std::lock_guard lock(m_mutex);
    m_externalIds.clear();
    m_unjoined.clear();
    m_joined.clear();
    m_clock.clear();
    m_problem.clear();
}

void CuptiActivityCollector::pushOpId(std::uint16_t owner, std::uint64_t opId)
{
    if (opId == 0 || opId > kMaxOpId)
        throw DeviceError("CUPTI tagging: op id " + std::to_string(opId) + " is outside 1.."
                          + std::to_string(kMaxOpId));
    const std::uint64_t externalId = (std::uint64_t(owner) << kOwnerShift) | opId;
    check(cupti::Library::instance().api().activityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                                                                         externalId),
          "cuptiActivityPushExternalCorrelationId");
}

void CuptiActivityCollector::popOpId()
{
    std::uint64_t last = 0;
    check(cupti::Library::instance().api().activityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                                                                        &last),
          "cuptiActivityPopExternalCorrelationId");
}

CuptiActivityCollector::ClockPair CuptiActivityCollector::sampleClocks() const
{
    // The pair read closest together (least preempted) bounds the error best:
    // the CUPTI reading lies within [before, after] on the host clock.
    const cupti::Library::Api& api = cupti::Library::instance().api();
    ClockPair best;
    std::int64_t bestSpan = std::numeric_limits<std::int64_t>::max();
    for (int i = 0; i < kClockSamples; ++i) {
        std::uint64_t cupti = 0;
        const std::int64_t before = steadyNowNs();
        const CUptiResult result = api.getTimestamp(&cupti);
        const std::int64_t after = steadyNowNs();
        check(result, "cuptiGetTimestamp");
        if (after - before < bestSpan) {
            bestSpan = after - before;
            best = {static_cast<std::int64_t>(cupti), before + (after - before) / 2};
        }
    }
    return best;
}

std::int64_t CuptiActivityCollector::toHostNs(std::uint64_t cuptiNs) const
{
    // CUPTI's clock and steady_clock tick at slightly different rates (tens of
    // ppm is common, and NTP may slew one of them), so one offset taken at
    // enable time drifts by microseconds per second of run. The offset is
    // resampled at every take() and interpolated linearly between the samples
    // around each record, which leaves only the sampling error.
    const auto c = static_cast<std::int64_t>(cuptiNs);
    const auto next = std::upper_bound(m_clock.begin(), m_clock.end(), c,
                                       [](std::int64_t v, const ClockPair& p) { return v < p.cuptiNs; });
    if (next == m_clock.begin())
        return c + (next->hostNs - next->cuptiNs);
    const ClockPair& before = *(next - 1);
    const std::int64_t beforeOffset = before.hostNs - before.cuptiNs;
    if (next == m_clock.end())
        return c + beforeOffset;
    const std::int64_t afterOffset = next->hostNs - next->cuptiNs;
    const double f = static_cast<double>(c - before.cuptiNs) / static_cast<double>(next->cuptiNs - before.cuptiNs);
    return c + beforeOffset + std::llround(f * static_cast<double>(afterOffset - beforeOffset));
}

std::vector<EngineRecord> CuptiActivityCollector::take(std::uint16_t owner, bool forced)
{
    // Unforced, CUPTI hands over only full buffers, which a short run never
    // fills; forced, also the records of work still in flight, untimed.
    check(cupti::Library::instance().api().activityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0),
          "cuptiActivityFlushAll");
    const ClockPair pair = sampleClocks();

    std::lock_guard lock(m_mutex);
    if (!m_problem.empty())
        throw DeviceError(std::exchange(m_problem, {}));
    if (m_clock.empty() || pair.hostNs - m_clock.back().hostNs >= kRecalibrateEveryNs) {
        if (m_clock.empty() || pair.cuptiNs > m_clock.back().cuptiNs)
            m_clock.push_back(pair);
        if (m_clock.size() > kMaxClockPairs)
            m_clock.erase(m_clock.begin(), m_clock.begin() + static_cast<std::ptrdiff_t>(m_clock.size() / 2));
    }

    if (std::getenv("OVERLAPSCOPE_CUPTI_DEBUG"))
        std::fprintf(stderr, "%s\n", countsText().c_str());
    std::vector<EngineRecord> records;
    std::size_t kept = 0;
    for (const Activity& a : m_joined) {
        if (a.externalId >> kOwnerShift != owner) {
            m_joined[kept++] = a;
            continue;
        }
        records.push_back({a.externalId & kMaxOpId, toHostNs(a.startNs), toHostNs(a.endNs), a.memory});
    }
    m_joined.resize(kept);
    return records;
}

std::uint8_t* CuptiActivityCollector::provideBuffer(std::size_t* bytes, std::size_t* maxRecords)
{
    std::uint8_t* buffer = m_buffers.lend(bytes, maxRecords);
    if (!buffer) {
        // CUPTI drops the records it has no buffer for; say so rather than
        // show ops without engine times for no visible reason.
        std::lock_guard lock(m_mutex);
        if (m_problem.empty())
            m_problem = "out of host memory for a CUPTI activity buffer: engine records were dropped";
    }
    return buffer;
}

void CuptiActivityCollector::bufferCompleted(std::uint8_t* buffer, std::size_t validBytes)
{
    if (!buffer)
        return;
    {
        std::lock_guard lock(m_mutex);
        parse(buffer, validBytes);
    }
    m_buffers.giveBack(buffer);
}

std::string CuptiActivityCollector::countsText() const
{
    return "CUPTI delivered " + std::to_string(m_counts[0]) + " buffers: " + std::to_string(m_counts[1])
           + " external correlations, " + std::to_string(m_counts[2]) + " memcpys, " + std::to_string(m_counts[3])
           + " kernels, " + std::to_string(m_counts[4]) + " other records; " + std::to_string(m_counts[5])
           + " joined; " + std::to_string(m_unjoined.size()) + " waiting for a correlation";
}

void CuptiActivityCollector::parse(std::uint8_t* buffer, std::size_t validBytes)
{
    ++m_counts[0];
    const cupti::Library& library = cupti::Library::instance();
    CUpti_Activity* record = nullptr;
    for (;;) {
        const CUptiResult result = library.api().activityGetNextRecord(buffer, validBytes, &record);
        if (result == CUPTI_ERROR_MAX_LIMIT_REACHED) // the end of the buffer
            return;
        if (result != CUPTI_SUCCESS) {
            if (m_problem.empty())
                m_problem =
                    library.describe(result, "reading a CUPTI activity buffer (cuptiActivityGetNextRecord) failed");
            return;
        }
        if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
            ++m_counts[1];
            const auto* c = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
            if (c->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0)
                addCorrelation(c->correlationId, c->externalId);
        } else if (const auto work = cupti::decodeGpuActivity(*record)) {
            ++m_counts[work->kind == OpKind::Kernel ? 3 : 2];
            if (const auto activity = timedActivity(*work))
                addActivity(work->correlationId, *activity);
        } else {
            ++m_counts[4];
        }
    }
}

std::optional<CuptiActivityCollector::Activity> CuptiActivityCollector::timedActivity(const cupti::GpuActivity& work)
{
    if (!work.timed)
        return std::nullopt;
    return Activity{0, work.startNs, work.endNs, work.memory};
}

void CuptiActivityCollector::addCorrelation(std::uint32_t correlationId, std::uint64_t externalId)
{
    m_externalIds[correlationId] = externalId;
    if (m_externalIds.size() > kMaxUnpaired)
        m_externalIds.erase(m_externalIds.begin());
    const auto [first, last] = m_unjoined.equal_range(correlationId);
    for (auto it = first; it != last; ++it) {
        Activity activity = it->second;
        activity.externalId = externalId;
        ++m_counts[5];
        m_joined.push_back(activity);
    }
    m_unjoined.erase(first, last);
}

void CuptiActivityCollector::addActivity(std::uint32_t correlationId, Activity activity)
{
    const auto known = m_externalIds.find(correlationId);
    if (known != m_externalIds.end()) {
        activity.externalId = known->second;
        ++m_counts[5];
        m_joined.push_back(activity);
        return;
    }
    m_unjoined.emplace(correlationId, activity);
    if (m_unjoined.size() > kMaxUnpaired)
        m_unjoined.erase(m_unjoined.begin());
}

} // namespace ovs
