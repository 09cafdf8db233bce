#include "CuptiTracer.h"

#include "SmallFile.h"
#include "base/EnvironmentFlags.h"
#include "trace/ApiNames.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <optional>
#include <vector>

namespace ovs::inject {

using namespace ovs::profile;

namespace {

// How often completed records are asked for: what a live view waits at most
// for a finished op, give or take a buffer still holding work in flight.
constexpr std::chrono::milliseconds kFlushPeriod{100};
// NVTX records kept before they are written: a program that annotates
// before CUDA starts (or faster than the flush drains) keeps at most this
// much; further ranges are counted and said in a note.
constexpr std::size_t kMaxPendingRangeBytes = 16u << 20;
// How often a clock pair is added: often enough that a linear fit between
// pairs follows any drift between CUPTI's clock and the host's.
constexpr std::int64_t kClockPeriodNs = 500'000'000;

void CUPTIAPI onCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)
        CuptiTracer::instance().apiCallback(domain, *static_cast<const CUpti_CallbackData*>(data));
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        CuptiTracer::instance().contextDestroying();
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        CuptiTracer::instance().contextCreated();
}

// OVERLAPSCOPE_PROFILE_SKIP=kernel,runtime,...: record kinds left off, to
// measure what each costs (docs/profiling.md). Tokens: the activity kinds'
// (cupti/ActivityKinds.h), "runtime" and "driver" (API records, enabled call
// by call here) and "unified-memory". Not for normal use: a profile without
// kernels or copies has nothing to show.
constexpr const char* kSkipVariable = "OVERLAPSCOPE_PROFILE_SKIP";

bool skipped(const char* token)
{
    return ovs::environmentListHas(kSkipVariable, token);
}

// The first of the variables that is set to a number from 0 up; -1 for none.
std::int32_t environmentNumber(std::initializer_list<const char*> names)
{
    for (const char* name : names) {
        const char* text = std::getenv(name);
        if (!text || !*text)
            continue;
        char* end = nullptr;
        errno = 0;
        const long value = std::strtol(text, &end, 10);
        if (errno == 0 && *end == '\0' && value >= 0 && value <= std::numeric_limits<std::int32_t>::max())
            return static_cast<std::int32_t>(value);
    }
    return -1;
}

// The process's place in a distributed job, as its launcher set it:
// torchrun (and PyTorch's other launchers) RANK, LOCAL_RANK and WORLD_SIZE;
// Open MPI's mpirun OMPI_COMM_WORLD_*; MPICH's and Intel MPI's PMI_*;
// Slurm's srun SLURM_PROCID, SLURM_LOCALID and SLURM_NTASKS. None where no
// rank is set.
std::optional<RankRecord> rankFromEnvironment()
{
    RankRecord r;
    r.rank = environmentNumber({"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"});
    if (r.rank < 0)
        return std::nullopt;
    r.localRank = environmentNumber({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
    r.worldSize = environmentNumber({"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"});
    return r;
}

} // namespace

CuptiTracer& CuptiTracer::instance()
{
    // Leaked on purpose: CUPTI may deliver a buffer while the process exits,
    // after static destructors would have run.
    static CuptiTracer* tracer = new CuptiTracer;
    return *tracer;
}

void CuptiTracer::start()
{
    m_pid = ::getpid();
    m_debug = ovs::environmentFlag("OVERLAPSCOPE_PROFILE_DEBUG");
    std::string why;
    if (!openStream(&why)) {
        std::fprintf(stderr, "overlapscope: %s: this process is not recorded\n", why.c_str());
        return;
    }
    bool heldElsewhere = false;
    m_cupti = &cupti::Library::instance();
    m_session = &cupti::Session::instance();
    if (!m_cupti->loaded()) {
        say(kNoteNotRecorded, m_cupti->whyNot() + ": this process is not recorded");
    } else if (!startCupti(&why, &heldElsewhere)) {
        say(kNoteNotRecorded, heldElsewhere ? "CUPTI is in use by another profiler (" + why
                                                  + "): this process is not recorded"
                                            : "CUPTI would not start (" + why + "): this process is not recorded");
    } else {
        m_tracing = true;
        m_flusher = std::thread([this] { flushLoop(); });
    }
    std::atexit([] { CuptiTracer::instance().finish(); });
}

bool CuptiTracer::openStream(std::string* whyNot)
{
    const char* dir = std::getenv(kOutputDirVariable);
    if (!dir || !*dir) {
        *whyNot = std::string(kOutputDirVariable) + " is not set (run the program through 'overlapscope-cli profile')";
        return false;
    }
    // The pid alone may repeat: a process that exec()s keeps it, and the new
    // image may load CUDA again. The monotonic clock keeps names apart.
    const std::string path = std::string(dir) + "/" + std::to_string(m_pid) + "-"
                             + std::to_string(cupti::monotonicNowNs()) + kStreamSuffix;
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (m_fd < 0) {
        *whyNot = "cannot create " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string commandLine = readSmallFile("/proc/self/cmdline");
    while (!commandLine.empty() && commandLine.back() == '\0')
        commandLine.pop_back();
    ProfileStreamEncoder out;
    out.addMagic();
    BeginRecord begin;
    begin.pid = static_cast<std::uint32_t>(m_pid);
    begin.parentPid = static_cast<std::uint32_t>(::getppid());
    out.addWithText(begin, commandLine);
    if (const std::optional<RankRecord> rank = rankFromEnvironment())
        out.add(*rank);
    std::lock_guard lock(m_mutex);
    emit(out);
    return true;
}

bool CuptiTracer::startCupti(std::string* whyNot, bool* heldElsewhere)
{
    const cupti::Library::Api& c = api();
    {
        std::lock_guard lock(m_mutex);
        m_records.emplace(c.getCallbackName);
    }
    // Subscribing first both claims CUPTI and finds out whether another tool
    // (Nsight Systems, Nsight Compute, a sanitizer, an in-process profiler)
    // already holds it: CUPTI serves one client per process.
    CUptiResult result;
    char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
    if (c.subscribeV2) {
        CUpti_SubscriberParams params{};
        params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
        params.subscriberName = "OverlapScope";
        params.oldSubscriberName = holder;
        params.oldSubscriberSize = sizeof holder - 1;
        result = c.subscribeV2(&m_subscriber, onCallback, nullptr, &params);
    } else {
        result = c.subscribe(&m_subscriber, onCallback, nullptr);
    }
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        *heldElsewhere = true;
        *whyNot = holder[0] ? std::string(holder) : m_cupti->describe(result, "cuptiSubscribe");
        return false;
    }
    if (result != CUPTI_SUCCESS) {
        *whyNot = m_cupti->describe(result, "cuptiSubscribe");
        return false;
    }
    if (std::uint32_t version = 0; c.getVersion(&version) == CUPTI_SUCCESS)
        say(kNoteInfo, "CUPTI API version " + std::to_string(version) + " (" + m_cupti->path() + ")");

    // cudaDeviceReset and context teardown at exit: records of a context
    // being destroyed are asked for before it goes.
    result = c.enableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (result != CUPTI_SUCCESS)
        say(kNoteWarning, m_cupti->describe(result, "cuptiEnableCallback(context destroy)")
                              + ": records still in CUPTI when a context is destroyed may be lost");
    // Thread ids that match /proc and the debugger's, not pthread handles.
    static_cast<void>(c.setThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
    // Synchronization records only on request: measured on the H200, a
    // PyTorch loop of 12,000 small ops ran about 20% slower with them and
    // about as fast as unprofiled without (docs/profiling.md). The waits are
    // recorded as API calls either way; these only name their object.
    std::vector<std::string_view> requested;
    if (ovs::environmentFlag(kSyncRecordsVariable))
        requested.push_back("sync");
    else
        say(kNoteInfo, "synchronization records off (profile --sync-records turns them on)");
    std::vector<std::string> warnings;
    if (!m_session->start(cupti::Client::Profile, *this, requested, kSkipVariable, whyNot, &warnings)) {
        // A process that is not recorded leaves CUPTI as it found it (the
        // session turned off what it had turned on), free for a profiler of
        // its own.
        static_cast<void>(c.unsubscribe(m_subscriber));
        m_subscriber = nullptr;
        return false;
    }
    for (const std::string& warning : warnings)
        say(kNoteWarning, warning);
    // No records for event and stream queries that find work still running:
    // polling loops would fill buffers with them.
    if (c.activityEnableAllSyncRecords)
        static_cast<void>(c.activityEnableAllSyncRecords(0));
    enableApiRecords(CUPTI_CB_DOMAIN_RUNTIME_API);
    enableApiRecords(CUPTI_CB_DOMAIN_DRIVER_API);
    enableUnifiedMemory();
    startStacks();

    ProfileStreamEncoder out;
    std::lock_guard lock(m_mutex);
    addClockPair(out);
    emit(out);
    return true;
}

void CuptiTracer::enableApiRecords(CUpti_CallbackDomain domain)
{
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    if (skipped(runtime ? "runtime" : "driver")) {
        say(kNoteWarning, std::string(runtime ? "runtime" : "driver") + " API records left off (OVERLAPSCOPE_PROFILE_SKIP)");
        return;
    }
    std::string failure;
    const int enabled = cupti::switchApiRecords(
        api(), domain, [](std::string_view name) { return apiRole(apiDisplayName(name)) != ApiRole::Untraced; }, true,
        &failure);
    if (!failure.empty())
        say(kNoteWarning, failure + ": some " + (runtime ? "runtime" : "driver") + " API calls are not recorded");
    if (m_debug)
        std::fprintf(stderr, "overlapscope[%d]: %d %s API calls traced\n", int(m_pid), enabled,
                     runtime ? "runtime" : "driver");
}

void CuptiTracer::startStacks()
{
    const char* asked = std::getenv(kStacksVariable);
    bool known = false;
    const StackMode mode = StackCapture::parseMode(asked ? asked : "", &known);
    if (!known)
        say(kNoteWarning, std::string(kStacksVariable) + "=" + asked + " is not sync, all or off: no call stacks");
    if (mode == kStacksOff) {
        say(kNoteInfo, "call stacks off (profile --stacks sync or all turns them on)");
        return;
    }
    // libunwind next to this library first: a packed build carries it there.
    std::string folder;
    Dl_info self{};
    if (::dladdr(reinterpret_cast<const void*>(&onCallback), &self) && self.dli_fname) {
        folder = self.dli_fname;
        const std::size_t slash = folder.rfind('/');
        folder = slash == std::string::npos ? std::string() : folder.substr(0, slash);
    }
    std::string why;
    if (!m_stacks.start(mode, folder, &why)) {
        say(kNoteWarning, "no call stacks: " + why);
        return;
    }
    const int runtime = enableStackCallbacks(CUPTI_CB_DOMAIN_RUNTIME_API);
    const int driver = enableStackCallbacks(CUPTI_CB_DOMAIN_DRIVER_API);
    say(kNoteInfo, std::string("call stacks at ") + std::to_string(runtime) + " runtime and " + std::to_string(driver)
                       + " driver calls (" + StackCapture::modeName(mode) + ", " + m_stacks.libraryPath() + ")");
    ProfileStreamEncoder out;
    m_stacks.take(out);
    std::lock_guard lock(m_mutex);
    emit(out);
}

int CuptiTracer::enableStackCallbacks(CUpti_CallbackDomain domain)
{
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    const std::uint32_t count = runtime ? std::uint32_t(CUPTI_RUNTIME_TRACE_CBID_SIZE)
                                        : std::uint32_t(CUPTI_DRIVER_TRACE_CBID_SIZE);
    int enabled = 0;
    std::string failure;
    for (std::uint32_t id = 1; id < count; ++id) {
        const char* name = nullptr;
        if (api().getCallbackName(domain, id, &name) != CUPTI_SUCCESS || !name
            || !StackCapture::wants(m_stacks.mode(), apiDisplayName(name)))
            continue;
        const CUptiResult result = api().enableCallback(1, m_subscriber, domain, id);
        if (result == CUPTI_SUCCESS)
            ++enabled;
        else if (failure.empty())
            failure = m_cupti->describe(result, "cuptiEnableCallback");
    }
    if (!failure.empty())
        say(kNoteWarning, failure + ": some " + (runtime ? "runtime" : "driver") + " calls get no call stack");
    return enabled;
}

void CuptiTracer::apiCallback(CUpti_CallbackDomain domain, const CUpti_CallbackData& call)
{
    // The driver calls a runtime call makes are inside its stack already:
    // one stack per call the program made.
    thread_local int runtimeDepth = 0;
    const bool enter = call.callbackSite == CUPTI_API_ENTER;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        if (!enter) {
            runtimeDepth = std::max(0, runtimeDepth - 1);
            return;
        }
        if (runtimeDepth++ > 0)
            return;
    } else if (!enter || runtimeDepth > 0) {
        return;
    }
    m_stacks.record(call.correlationId);
}

void CuptiTracer::enableUnifiedMemory()
{
    if (skipped("unified-memory")) {
        say(kNoteWarning, "unified-memory records left off (OVERLAPSCOPE_PROFILE_SKIP)");
        return;
    }
    if (!api().activityConfigureUnifiedMemoryCounter) {
        say(kNoteWarning, m_cupti->path() + " lacks cuptiActivityConfigureUnifiedMemoryCounter: "
                                            "unified-memory migrations and page faults are not recorded");
        return;
    }
    if (configureUnifiedMemory(false))
        return;
    // At injection the driver has no context yet, and CUPTI (13.0, on an
    // H200) answers CUPTI_ERROR_NOT_READY; configured then, the counters stay
    // refused even once a context exists. Both are done again when the first
    // context is made, before the program can allocate managed memory.
    m_unifiedMemoryPending = true;
    const CUptiResult later =
        api().enableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (later != CUPTI_SUCCESS) {
        m_unifiedMemoryPending = false;
        say(kNoteWarning, m_cupti->describe(later, "cuptiEnableCallback(context created)")
                              + ": unified-memory migrations and page faults are not recorded");
    }
}

bool CuptiTracer::configureUnifiedMemory(bool lastTry)
{
    const auto configure = api().activityConfigureUnifiedMemoryCounter;
    struct Counter {
        CUpti_ActivityUnifiedMemoryCounterKind kind;
        const char* name;
    };
    constexpr Counter kCounters[] = {
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, "HtoD migrations"},
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, "DtoH migrations"},
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT, "CPU page faults"},
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT, "GPU page faults"},
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, "thrashing"},
        {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, "throttling"},
    };
    const auto configOf = [](const Counter& counter) {
        CUpti_ActivityUnifiedMemoryCounterConfig config{};
        config.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_ALL_DEVICES;
        config.kind = counter.kind;
        config.enable = 1;
        return config;
    };
    std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> all;
    for (const Counter& counter : kCounters)
        all.push_back(configOf(counter));
    CUptiResult result = configure(all.data(), static_cast<std::uint32_t>(all.size()));
    if (result != CUPTI_SUCCESS) {
        // CUPTI refuses the whole list when one counter is unsupported
        // (thrashing and throttling need a GPU that reports them): each is
        // tried alone, and those accepted are configured together, since a
        // call may replace what the one before it set.
        const std::string whyAll = m_cupti->describe(result, "cuptiActivityConfigureUnifiedMemoryCounter");
        std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> accepted;
        std::string refused;
        for (const Counter& counter : kCounters) {
            CUpti_ActivityUnifiedMemoryCounterConfig config = configOf(counter);
            if (configure(&config, 1) == CUPTI_SUCCESS)
                accepted.push_back(config);
            else
                refused += (refused.empty() ? "" : ", ") + std::string(counter.name);
        }
        if (!accepted.empty())
            result = configure(accepted.data(), static_cast<std::uint32_t>(accepted.size()));
        if (accepted.empty() || result != CUPTI_SUCCESS) {
            say(kNoteWarning, whyAll + ": unified-memory migrations and page faults are not recorded (CUPTI "
                                       "supports no unified-memory counter here, e.g. under MPS)");
            return true; // said; no second try
        }
        say(kNoteInfo, whyAll + ": no " + refused + " records");
    }
    result = api().activityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
    if (result == CUPTI_SUCCESS)
        return true;
    if (lastTry || result != CUPTI_ERROR_NOT_READY) {
        say(kNoteWarning, m_cupti->describe(result, "cuptiActivityEnable(unified memory counter)")
                              + ": unified-memory migrations and page faults are not recorded");
        return true;
    }
    return false;
}

void CuptiTracer::contextCreated()
{
    if (m_unifiedMemoryPending.exchange(false)) {
        configureUnifiedMemory(true);
        static_cast<void>(
            api().enableCallback(0, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED));
    }
}

void CuptiTracer::flushLoop()
{
    std::unique_lock lock(m_flushMutex);
    while (!m_stopFlushing) {
        m_flushWake.wait_for(lock, kFlushPeriod);
        if (m_stopFlushing)
            break;
        lock.unlock();
        // Unforced: only buffers whose records are all complete. A forced
        // flush would hand over the records of work still running without
        // their times, and they would be lost.
        static_cast<void>(m_session->flush(false));
        {
            // Stacks (and the objects they need) before the stream's lock:
            // listing the objects takes the loader's lock.
            ProfileStreamEncoder stacks;
            m_stacks.take(stacks);
            std::lock_guard streamLock(m_mutex);
            ProfileStreamEncoder out;
            out.appendRecords(stacks);
            if (cupti::monotonicNowNs() - m_lastClockNs >= kClockPeriodNs)
                addClockPair(out);
            takeRanges(out);
            emit(out);
        }
        lock.lock();
    }
}

void CuptiTracer::finish()
{
    // A child made by fork() without exec inherits this handler and the
    // stream: it is not the process being recorded.
    if (::getpid() != m_pid || m_finished.exchange(true))
        return;
    if (m_flusher.joinable()) {
        {
            std::lock_guard lock(m_flushMutex);
            m_stopFlushing = true;
        }
        m_flushWake.notify_all();
        m_flusher.join();
    }
    // Forced: the process is ending, so records of work still in flight come
    // back now or never (they are counted as untimed).
    if (m_tracing)
        static_cast<void>(m_session->flush(true));
    ProfileStreamEncoder stacks;
    m_stacks.take(stacks);
    std::lock_guard lock(m_mutex);
    ProfileStreamEncoder out;
    out.appendRecords(stacks);
    if (m_tracing) {
        addClockPair(out);
        // Records CUPTI dropped after the last buffer are counted only now.
        addLossIfChanged(out);
    }
    takeRanges(out);
    EndRecord end;
    end.dropped = m_tracing ? m_session->loss().dropped : 0;
    end.untimed = untimed();
    out.add(end);
    emit(out);
    // The stream stays open: context teardown after this handler may still
    // deliver records, which follow the end marker.
}

void CuptiTracer::contextDestroying()
{
    if (::getpid() != m_pid)
        return;
    // The context's work is done or abandoned; what CUPTI holds of it must
    // come out before the context goes.
    static_cast<void>(m_session->flush(true));
}

void CuptiTracer::read(cupti::RecordCursor& records)
{
    const auto began = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    ProfileStreamEncoder out;
    // Not tracing: the session started before m_tracing was set (nothing of
    // it is wanted until then), or a fork()ed child that is not the process
    // being recorded.
    if (m_tracing && ::getpid() == m_pid) {
        while (const CUpti_Activity* record = records.next())
            m_records->encode(*record, out);
        addLossIfChanged(out);
    }
    const std::size_t encoded = out.bytes().size();
    emit(out);
    ++m_buffersRead;
    if (m_debug)
        std::fprintf(stderr, "overlapscope[%d]: buffer %llu: %zu records, %zu bytes out, %lld us\n", int(m_pid),
                     static_cast<unsigned long long>(m_buffersRead), records.count(), encoded,
                     static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                std::chrono::steady_clock::now() - began)
                                                .count()));
}

void CuptiTracer::addClockPair(ProfileStreamEncoder& out)
{
    // A pair CUPTI would not read is left out: the reader's ClockMap holds
    // the nearest pair's offset until the next.
    cupti::ClockPair pair;
    if (m_session->readClocks(&pair) != CUPTI_SUCCESS)
        return;
    m_lastClockNs = pair.monotonicNs;
    out.add(ClockRecord{pair.cuptiNs, pair.monotonicNs, pair.realtimeNs});
}

void CuptiTracer::addRange(const RangeRecord& record, std::string_view text)
{
    std::lock_guard lock(m_rangeMutex);
    if (m_ranges.bytes().size() >= kMaxPendingRangeBytes) {
        ++m_rangesDropped;
        return;
    }
    m_ranges.addWithText(record, text);
}

void CuptiTracer::takeRanges(ProfileStreamEncoder& out)
{
    std::uint64_t dropped = 0;
    {
        std::lock_guard lock(m_rangeMutex);
        out.appendRecords(m_ranges);
        m_ranges.clear();
        dropped = m_rangesDropped;
        m_rangesDropped = 0;
    }
    if (dropped > 0) {
        NoteRecord note;
        note.severity = kNoteWarning;
        out.addWithText(note, std::to_string(dropped) + " NVTX range calls not recorded (more than "
                                  + std::to_string(kMaxPendingRangeBytes >> 20) + " MiB waiting to be written)");
    }
}

void CuptiTracer::addLossIfChanged(ProfileStreamEncoder& out)
{
    const cupti::BufferLoss loss = m_session->loss();
    if (loss.unreadBuffers != m_reportedUnreadBuffers) {
        m_reportedUnreadBuffers = loss.unreadBuffers;
        UnreadBuffersRecord r;
        r.buffers = loss.unreadBuffers;
        out.addWithText(r, loss.firstReadError);
    }
    if (loss.dropped + untimed() == m_reportedLoss)
        return;
    m_reportedLoss = loss.dropped + untimed();
    LossRecord r;
    r.dropped = loss.dropped;
    r.untimed = untimed();
    out.add(r);
}

void CuptiTracer::emit(ProfileStreamEncoder& out)
{
    if (out.empty())
        return;
    if (m_fd < 0) {
        out.clear();
        return;
    }
    if (!out.writeTo(m_fd)) {
        const int error = errno;
        std::fprintf(stderr, "overlapscope: cannot write the record stream (%s): recording of this process stops\n",
                     std::strerror(error));
        ::close(m_fd);
        m_fd = -1;
    }
}

void CuptiTracer::say(NoteSeverity severity, const std::string& text)
{
    if (severity != kNoteInfo || m_debug)
        std::fprintf(stderr, "overlapscope: %s\n", text.c_str());
    ProfileStreamEncoder out;
    NoteRecord note;
    note.severity = severity;
    out.addWithText(note, text);
    std::lock_guard lock(m_mutex);
    emit(out);
}

} // namespace ovs::inject
