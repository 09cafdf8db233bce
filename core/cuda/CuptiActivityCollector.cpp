#include "cuda/CuptiActivityCollector.h"

#include "base/EnvironmentFlags.h"
#include "cupti/GpuActivityDecoder.h"
#include "trace/ApiNames.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace ovs {
namespace {

// Correlations and records that never meet a partner (work nobody tagged:
// benchmarks, checks, API calls that enqueue nothing) are dropped oldest first.
constexpr std::size_t kMaxUnpaired = std::size_t(1) << 17;
constexpr int kOwnerShift = 48;
// A clock pair per take() at most this often: often enough that the linear
// fit between pairs follows any drift between CUPTI's clock and the host's
// (tens of ppm is common, and NTP may slew one of them).
constexpr std::int64_t kRecalibrateEveryNs = 1'000'000;
// OVERLAPSCOPE_CUPTI_SKIP=runtime,driver,...: record kinds left off, to
// measure what each costs (docs/measurements.md; tokens in
// cupti/ActivityKinds.h). Not for normal use: without the runtime records or
// the correlations no engine record joins an op, and the run falls back to
// event times (it says so).
constexpr const char* kSkipVariable = "OVERLAPSCOPE_CUPTI_SKIP";

// What `later` adds to `earlier`, both totals of one session.
cupti::BufferLoss since(const cupti::BufferLoss& earlier, const cupti::BufferLoss& later)
{
    cupti::BufferLoss added;
    added.dropped = later.dropped - std::min(earlier.dropped, later.dropped);
    added.unreadBuffers = later.unreadBuffers - std::min(earlier.unreadBuffers, later.unreadBuffers);
    if (added.unreadBuffers > 0)
        added.firstReadError = later.firstReadError;
    return added;
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
        throw DeviceError(m_session.library().describe(static_cast<CUptiResult>(result), std::string(what) + " failed"));
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
    const cupti::Library& library = m_session.library();
    if (!library.loaded()) {
        if (whyNot)
            *whyNot = library.whyNot();
        return 0;
    }
    std::lock_guard attachLock(m_attachMutex);
    if (m_owners == 0 && !start(whyNot))
        return 0;
    ++m_owners;
    if (++m_lastOwner == 0) // 0 means "no owner"
        ++m_lastOwner;
    // Only what is lost from now on is this owner's to report.
    m_lossSeen[m_lastOwner] = m_session.loss();
    return m_lastOwner;
}

bool CuptiActivityCollector::start(std::string* whyNot)
{
    // OVERLAPSCOPE_CUPTI_ALL_API=1 traces every runtime and driver call, as
    // builds before the filter did, to measure what the filter saves.
    const bool allApi = environmentFlag("OVERLAPSCOPE_CUPTI_ALL_API");
    std::vector<std::string_view> requested;
    if (allApi)
        requested.push_back("driver");
    std::vector<std::string> warnings;
    std::string why;
    if (!m_session.start(cupti::Client::EngineTiming, *this, requested, kSkipVariable, &why, &warnings)) {
        if (whyNot)
            *whyNot = why + " (" + m_session.library().path() + ")";
        return false;
    }
    m_kindWarnings = std::move(warnings);
    if (!allApi)
        quietRuntimeCalls(false);
    cupti::ClockPair pair;
    if (const CUptiResult result = m_session.readClocks(&pair); result != CUPTI_SUCCESS) {
        stop();
        if (whyNot)
            *whyNot = m_session.library().describe(result, "cuptiGetTimestamp failed");
        return false;
    }
    std::lock_guard lock(m_mutex);
    m_clock.clear();
    m_clock.add(pair.cuptiNs, pair.monotonicNs);
    m_lastClockNs = pair.monotonicNs;
    return true;
}

void CuptiActivityCollector::quietRuntimeCalls(bool restore)
{
    // Each launch also makes cudaSetDevice and cudaGetLastError calls, each
    // op two cudaEventRecord and several queries, and their records cost host
    // time for nothing (about as much as the driver records: ActivityKinds.h).
    // Best effort: a call left traced costs host time, never a wrong result.
    cupti::switchApiRecords(
        m_session.library().api(), CUPTI_CB_DOMAIN_RUNTIME_API,
        [](std::string_view name) { return !apiEnqueuesWork(name); }, restore, nullptr);
}

void CuptiActivityCollector::detach(std::uint16_t owner)
{
    if (owner == 0)
        return;
    std::lock_guard attachLock(m_attachMutex);
    m_lossSeen.erase(owner);
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_joined, [owner](const Activity& a) { return a.externalId >> kOwnerShift == owner; });
    }
    if (--m_owners == 0)
        stop();
}

void CuptiActivityCollector::stop()
{
    // Runs from device destructors, which cannot report failures. Back to
    // CUPTI's default (every call of an enabled kind), for whoever enables
    // the runtime kind next.
    quietRuntimeCalls(true);
    // Hands CUPTI's buffers back through read() (their records are of no
    // use any more), then none come.
    m_session.stop();
    m_kindWarnings.clear();
    std::lock_guard lock(m_mutex);
    m_externalIds.clear();
    m_unjoined.clear();
    m_joined.clear();
    m_clock.clear();
}

void CuptiActivityCollector::pushOpId(std::uint16_t owner, std::uint64_t opId)
{
    if (opId == 0 || opId > kMaxOpId)
        throw DeviceError("CUPTI tagging: op id " + std::to_string(opId) + " is outside 1.."
                          + std::to_string(kMaxOpId));
    const std::uint64_t externalId = (std::uint64_t(owner) << kOwnerShift) | opId;
    check(m_session.library().api().activityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0,
                                                                      externalId),
          "cuptiActivityPushExternalCorrelationId");
}

void CuptiActivityCollector::popOpId()
{
    std::uint64_t last = 0;
    check(m_session.library().api().activityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
          "cuptiActivityPopExternalCorrelationId");
}

std::vector<EngineRecord> CuptiActivityCollector::take(std::uint16_t owner, bool forced)
{
    // Unforced, CUPTI hands over only full buffers, which a short run never
    // fills; forced, also the records of work still in flight, untimed.
    check(m_session.flush(forced), "cuptiActivityFlushAll");
    cupti::ClockPair pair;
    check(m_session.readClocks(&pair), "cuptiGetTimestamp");

    std::lock_guard lock(m_mutex);
    if (m_clock.empty() || pair.monotonicNs - m_lastClockNs >= kRecalibrateEveryNs) {
        if (m_clock.add(pair.cuptiNs, pair.monotonicNs))
            m_lastClockNs = pair.monotonicNs;
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
        records.push_back(
            {a.externalId & kMaxOpId, m_clock.toMonotonic(a.startNs), m_clock.toMonotonic(a.endNs), a.memory});
    }
    m_joined.resize(kept);
    return records;
}

std::vector<std::string> CuptiActivityCollector::takeLoss(std::uint16_t owner)
{
    std::lock_guard attachLock(m_attachMutex);
    const cupti::BufferLoss total = m_session.loss();
    cupti::BufferLoss& seen = m_lossSeen[owner];
    std::vector<std::string> words = cupti::lossWords(since(seen, total));
    seen = total;
    words.insert(words.end(), m_kindWarnings.begin(), m_kindWarnings.end());
    return words;
}

std::string CuptiActivityCollector::countsText() const
{
    const cupti::BufferLoss loss = m_session.loss();
    std::string text = "CUPTI delivered " + std::to_string(m_counts[0]) + " buffers: " + std::to_string(m_counts[1])
                       + " external correlations, " + std::to_string(m_counts[2]) + " memcpys, "
                       + std::to_string(m_counts[3]) + " kernels, " + std::to_string(m_counts[4])
                       + " other records; " + std::to_string(m_counts[5]) + " joined; "
                       + std::to_string(m_unjoined.size()) + " waiting for a correlation";
    for (const std::string& words : cupti::lossWords(loss))
        text += "; " + words;
    return text;
}

void CuptiActivityCollector::read(cupti::RecordCursor& records)
{
    std::lock_guard lock(m_mutex);
    ++m_counts[0];
    while (const CUpti_Activity* record = records.next()) {
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
