#include "formats/NsightSqliteImport.h"

#include "formats/NsightCallchains.h"
#include "formats/NsightSchema.h"
#include "formats/RegionNesting.h"
#include "formats/SqliteDatabase.h"
#include "base/Printable.h"
#include "trace/ApiNames.h"
#include "profile/ProcessRunBuilder.h"
#include "profile/ProfileRecord.h"
#include "profile/ProfileStreamDecoder.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ovs {

namespace {

using namespace profile;

// Stream and event ids CUPTI gives as "none" (a context-wide wait).
constexpr std::int64_t kNoId = 0xFFFFFFFF;
// More processes than this in one report are counted, not read: a run each
// would make a window no one can read.
constexpr std::size_t kMaxRuns = 4096;
// Names from the file are shortened beyond this (a name is a label).
constexpr std::size_t kMaxNameBytes = 4096;

// Nsight's serialized ids: hardware id (8 bits), VM id (8), process id (24),
// thread id (24). A process is its id without the thread's bits.
std::uint64_t processKey(std::int64_t globalId)
{
    return static_cast<std::uint64_t>(globalId) >> 24;
}
std::uint32_t pidOf(std::uint64_t key)
{
    return static_cast<std::uint32_t>(key & 0xFFFFFF);
}
std::uint32_t tidOf(std::int64_t globalTid)
{
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(globalTid) & 0xFFFFFF);
}
std::uint64_t keyOf(std::int64_t hwId, std::int64_t vmId, std::int64_t pid)
{
    return (static_cast<std::uint64_t>(hwId & 0xFF) << 32) | (static_cast<std::uint64_t>(vmId & 0xFF) << 24)
           | static_cast<std::uint64_t>(pid & 0xFFFFFF);
}

// A name as the report stores it, made valid UTF-8 (SQLite never checks
// its text, and a trace we write must be JSON) and clipped.
std::string clippedName(std::string name)
{
    name = validUtf8(name);
    if (name.size() <= kMaxNameBytes)
        return name;
    std::size_t end = kMaxNameBytes;
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
        --end; // not inside a UTF-8 sequence
    name.resize(end);
    return name + "...";
}

std::string plural(std::uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct NvtxRange {
    std::uint32_t threadId = 0;
    std::int64_t beginNs = 0;
    std::int64_t endNs = 0;
    std::string name;
};

struct GpuInfo {
    std::int64_t id = 0; // the host's GPU (TARGET_INFO_GPU's id)
    std::int64_t vmId = -1;
    std::string name;
    DeviceRecord record;
};

// TARGET_INFO_CUDA_DEVICE (2023 on): which of the host's GPUs a process's
// CUDA device is. CUDA numbers the devices a process sees (after
// CUDA_VISIBLE_DEVICES), and the CUPTI rows' deviceId is that number.
struct CudaDeviceInfo {
    std::int64_t cudaId = 0;
    std::int64_t gpuId = 0;
    std::int64_t pid = -1; // -1: every process
    std::uint32_t multiprocessors = 0;
};

class NsightImporter {
public:
    explicit NsightImporter(const SqliteDatabase& db)
        : m_db(db), m_schema(db), m_callchains(db, m_schema, [this](std::int64_t id) { return nsightString(id); })
    {
    }
    NsightSqliteImport read();
    [[noreturn]] void fail(const std::string& what) const { m_schema.fail(what); }

private:
    struct Process {
        std::unique_ptr<ProcessRunBuilder> builder;
        std::set<std::uint32_t> devices;
        std::unordered_set<std::uint32_t> sentNames;
        std::vector<NvtxRange> ranges;
        // Correlation id -> the kernel's name (an m_names id): a launch's
        // chain passes through nvcc's stub of the kernel's name.
        std::unordered_map<std::uint32_t, std::uint32_t> kernels;
    };
    // The call chain a call row names, and how much its row speaks for the
    // call: the runtime call the program made, then 2022's backtrace row
    // beside it, then a driver call inside it (one correlation id for all).
    struct ChainRef {
        std::int64_t id = 0;
        int rank = 0;
    };

    template <typename Payload>
    void feed(Process& process, const Payload& payload, std::string_view text = {});
    std::uint32_t intern(const std::string& name);
    std::uint32_t stringId(std::int64_t nsightId);
    std::string nsightString(std::int64_t nsightId);
    void sendName(Process& process, std::uint32_t id);
    Process* processOf(std::int64_t globalId);
    std::string commandLineOf(std::uint64_t key);

    void readTargets();
    void readGpus();
    void readCudaDevices();
    const GpuInfo* gpuOf(std::uint64_t processKey, std::uint32_t cudaId, std::uint32_t& multiprocessors) const;
    void readKernels();
    void readMemcpys();
    void readMigration(const SqliteStatement& rows, std::int64_t start, std::int64_t end);
    void readPageFaults();
    void readMemsets();
    void readApiCalls();
    void noteChain(const SqliteStatement& row, NsightSchema::ApiClass apiClass);
    void attachSources(std::uint64_t key, const Process& process, Run& run);
    void readSyncs();
    void readNvtx();
    void countMemoryEvents();
    void countTable(const char* table, std::uint64_t& count);
    Run finishRun(std::uint64_t key, Process& process);
    bool readTimes(const SqliteStatement& row, std::int64_t& start, std::int64_t& end);
    bool integers(const SqliteStatement& row, std::initializer_list<int> columns);
    std::string summary(const Trace& trace) const;

    const SqliteDatabase& m_db;
    NsightSchema m_schema;
    NsightCallchains m_callchains;
    // Process key -> correlation id -> the chain of that call.
    std::unordered_map<std::uint64_t, std::unordered_map<std::uint32_t, ChainRef>> m_chainOfCall;
    std::vector<std::uint8_t> m_recordBytes;
    std::map<std::uint64_t, Process> m_processes;
    std::vector<std::string> m_names{std::string()}; // id 0: none
    std::unordered_map<std::string, std::uint32_t> m_nameIds;
    std::unordered_map<std::int64_t, std::uint32_t> m_stringIds; // Nsight's StringIds id -> ours
    std::unique_ptr<SqliteStatement> m_stringLookup;
    std::unique_ptr<SqliteStatement> m_processLookup;
    std::multimap<std::uint64_t, ContextRecord> m_contexts;
    std::multimap<std::uint64_t, StreamRecord> m_streams;
    std::vector<GpuInfo> m_gpus;
    std::vector<CudaDeviceInfo> m_cudaDevices;

    // What was skipped, for the summary (what was read, the runs say).
    std::uint64_t m_badRows = 0;          // a value of the wrong type, or times out of range
    std::uint64_t m_otherApiClasses = 0;  // backtrace duplicates and other event classes
    std::uint64_t m_untracedCalls = 0;    // CUDA calls a profile does not trace
    std::uint64_t m_unifiedCopies = 0;    // unified-memory migrations device to device
    std::uint64_t m_unifiedBytes = 0;
    std::uint64_t m_otherNvtx = 0;        // marks, domains, thread names, unclosed ranges
    std::uint64_t m_nvtxWithoutRun = 0;   // ranges of processes with no CUDA work
    std::uint64_t m_tooManyRuns = 0;      // rows of processes beyond kMaxRuns
    std::uint64_t m_memoryEvents = 0;     // CUDA_GPU_MEMORY_USAGE_EVENTS
    // The traced calls with a call chain, by what it said (NsightCallchains::Outcome).
    std::uint64_t m_chainOutcomes[5] = {};
};

template <typename Payload>
void NsightImporter::feed(Process& process, const Payload& payload, std::string_view text)
{
    // The builder reads records as the profile's stream decoder hands them
    // over: the payload, then its text.
    m_recordBytes.resize(sizeof(Payload) + text.size());
    std::memcpy(m_recordBytes.data(), &payload, sizeof payload);
    if (!text.empty())
        std::memcpy(m_recordBytes.data() + sizeof payload, text.data(), text.size());
    DecodedRecord record;
    record.type = Payload::kType;
    record.body = m_recordBytes.data();
    record.bodyBytes = static_cast<std::uint32_t>(m_recordBytes.size());
    process.builder->add(record);
}

std::uint32_t NsightImporter::intern(const std::string& name)
{
    if (name.empty())
        return 0;
    const auto [it, added] = m_nameIds.try_emplace(name, static_cast<std::uint32_t>(m_names.size()));
    if (added)
        m_names.push_back(name);
    return it->second;
}

std::string NsightImporter::nsightString(std::int64_t nsightId)
{
    if (!m_stringLookup)
        m_schema.fail("the report has no StringIds table, which names its kernels and calls");
    m_stringLookup->reset();
    m_stringLookup->bind(1, nsightId);
    return m_stringLookup->step() ? clippedName(m_stringLookup->text(0)) : std::string();
}

std::uint32_t NsightImporter::stringId(std::int64_t nsightId)
{
    if (const auto known = m_stringIds.find(nsightId); known != m_stringIds.end())
        return known->second;
    const std::uint32_t id = intern(nsightString(nsightId));
    m_stringIds.emplace(nsightId, id);
    return id;
}

void NsightImporter::sendName(Process& process, std::uint32_t id)
{
    if (id == 0 || !process.sentNames.insert(id).second)
        return;
    const std::string& text = m_names[id];
    StringRecord r;
    r.id = id;
    r.textBytes = static_cast<std::uint32_t>(text.size());
    feed(process, r, text);
}

std::string NsightImporter::commandLineOf(std::uint64_t key)
{
    if (!m_processLookup)
        return "process";
    m_processLookup->reset();
    m_processLookup->bind(1, static_cast<std::int64_t>(key << 24));
    std::string name = m_processLookup->step() ? m_processLookup->text(0) : std::string();
    return name.empty() ? "process" : clippedName(std::move(name));
}

NsightImporter::Process* NsightImporter::processOf(std::int64_t globalId)
{
    const std::uint64_t key = processKey(globalId);
    if (const auto known = m_processes.find(key); known != m_processes.end())
        return &known->second;
    if (m_processes.size() >= kMaxRuns) {
        ++m_tooManyRuns;
        return nullptr;
    }
    Process& process = m_processes[key];
    // Time 0 of every run is the report's: Nsight's times count from the
    // start of its session, so the processes of one report share an axis.
    process.builder = std::make_unique<ProcessRunBuilder>(0);
    const std::string commandLine = commandLineOf(key);
    BeginRecord begin;
    begin.pid = pidOf(key);
    begin.textBytes = static_cast<std::uint32_t>(commandLine.size());
    feed(process, begin, commandLine);
    for (auto [it, end] = m_contexts.equal_range(key); it != end; ++it)
        feed(process, it->second);
    for (auto [it, end] = m_streams.equal_range(key); it != end; ++it)
        feed(process, it->second);
    return &process;
}

bool NsightImporter::integers(const SqliteStatement& row, std::initializer_list<int> columns)
{
    for (const int column : columns)
        if (!row.isInteger(column)) {
            ++m_badRows;
            return false;
        }
    return true;
}

// Columns 0 and 1 of every row read: start and end.
bool NsightImporter::readTimes(const SqliteStatement& row, std::int64_t& start, std::int64_t& end)
{
    if (!row.isInteger(0) || !row.isInteger(1)) {
        ++m_badRows;
        return false;
    }
    start = row.integer(0);
    end = row.integer(1);
    // Times below 0 or at 2^62 and beyond are none that a session makes
    // (Trace::kTimeLimitNs).
    if (start < 0 || end < 0 || start >= Trace::kTimeLimitNs || end >= Trace::kTimeLimitNs) {
        ++m_badRows;
        return false;
    }
    return true;
}

void NsightImporter::readTargets()
{
    if (m_schema.hasTable("StringIds"))
        m_stringLookup = std::make_unique<SqliteStatement>(
            m_db.prepare(m_schema.select("StringIds", {{"value", true, false}, {"id"}}) + " WHERE \"id\" = ?1"));
    if (m_schema.hasTable("PROCESSES"))
        m_processLookup = std::make_unique<SqliteStatement>(m_db.prepare(
            m_schema.select("PROCESSES", {{"name", true, false}, {"globalPid"}}) + " WHERE \"globalPid\" = ?1"));

    // The legacy default stream of each context: its own table in 3.x, the
    // null-stream table in 2.x.
    const bool contextInfo = m_schema.hasTable("TARGET_INFO_CUDA_CONTEXT_INFO");
    if (contextInfo || m_schema.hasTable("TARGET_INFO_CUDA_NULL_STREAM")) {
        const char* table = contextInfo ? "TARGET_INFO_CUDA_CONTEXT_INFO" : "TARGET_INFO_CUDA_NULL_STREAM";
        SqliteStatement rows = m_db.prepare(m_schema.select(
            table, {{contextInfo ? "nullStreamId" : "streamId"}, {"hwId"}, {"vmId"}, {"processId"}, {"deviceId"}, {"contextId"}}));
        while (rows.step()) {
            if (!integers(rows, {0, 1, 2, 3, 4, 5}))
                continue;
            ContextRecord r;
            r.nullStreamId = static_cast<std::uint32_t>(rows.integer(0));
            r.deviceId = static_cast<std::uint32_t>(rows.integer(4));
            r.contextId = static_cast<std::uint32_t>(rows.integer(5));
            m_contexts.emplace(keyOf(rows.integer(1), rows.integer(2), rows.integer(3)), r);
        }
    }
    if (m_schema.hasTable("TARGET_INFO_CUDA_STREAM")) {
        SqliteStatement rows = m_db.prepare(m_schema.select(
            "TARGET_INFO_CUDA_STREAM", {{"streamId"}, {"hwId"}, {"vmId"}, {"processId"}, {"contextId"}, {"priority", false}, {"flag"}}));
        while (rows.step()) {
            if (!integers(rows, {0, 1, 2, 3, 4, 6}))
                continue;
            StreamRecord r;
            r.streamId = static_cast<std::uint32_t>(rows.integer(0));
            r.contextId = static_cast<std::uint32_t>(rows.integer(4));
            r.priority = static_cast<std::int32_t>(rows.optionalInteger(5).value_or(0));
            r.flag = m_schema.streamFlag(rows.integer(6));
            m_streams.emplace(keyOf(rows.integer(1), rows.integer(2), rows.integer(3)), r);
        }
    }
    if (m_schema.hasTable("TARGET_INFO_GPU"))
        readGpus();
    if (m_schema.hasTable("TARGET_INFO_CUDA_DEVICE"))
        readCudaDevices();
}

void NsightImporter::readGpus()
{
    // Every column but the id is optional: older exports have fewer.
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "TARGET_INFO_GPU", {{"id"}, {"vmId", false}, {"name", false, false}, {"smCount", false},
                            {"asyncEngines", false}, {"totalMemory", false}, {"computeMajor", false},
                            {"computeMinor", false}}));
    while (rows.step()) {
        if (!integers(rows, {0}))
            continue;
        GpuInfo gpu;
        gpu.id = rows.integer(0);
        gpu.vmId = rows.optionalInteger(1).value_or(-1);
        gpu.name = clippedName(rows.text(2));
        gpu.record.multiprocessors = static_cast<std::uint32_t>(rows.optionalInteger(3).value_or(0));
        gpu.record.copyEngines = static_cast<std::uint32_t>(rows.optionalInteger(4).value_or(0));
        gpu.record.memoryBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.optionalInteger(5).value_or(0)));
        gpu.record.computeMajor = static_cast<std::uint32_t>(rows.optionalInteger(6).value_or(0));
        gpu.record.computeMinor = static_cast<std::uint32_t>(rows.optionalInteger(7).value_or(0));
        m_gpus.push_back(std::move(gpu));
    }
}

void NsightImporter::readCudaDevices()
{
    // Its columns as 2023 and later exports name them; an export that
    // names them otherwise leaves CUDA's numbers taken as the host's.
    const auto columns = m_db.columns("TARGET_INFO_CUDA_DEVICE");
    for (const char* column : {"cudaId", "gpuId"}) {
        if (std::none_of(columns.begin(), columns.end(), [&](const auto& c) { return c.name == column; }))
            return;
    }
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "TARGET_INFO_CUDA_DEVICE", {{"cudaId"}, {"gpuId"}, {"pid", false}, {"numMultiprocessors", false}}));
    while (rows.step()) {
        if (!integers(rows, {0, 1}))
            continue;
        CudaDeviceInfo device;
        device.cudaId = rows.integer(0);
        device.gpuId = rows.integer(1);
        device.pid = rows.optionalInteger(2).value_or(-1);
        device.multiprocessors = static_cast<std::uint32_t>(std::max<std::int64_t>(0, rows.optionalInteger(3).value_or(0)));
        m_cudaDevices.push_back(device);
    }
}

const GpuInfo* NsightImporter::gpuOf(std::uint64_t key, std::uint32_t cudaId, std::uint32_t& multiprocessors) const
{
    // The host GPU behind the process's CUDA device: its own mapping row
    // first, then one for every process; without any, CUDA's number is
    // taken as the host's (exports before 2023, or no CUDA_VISIBLE_DEVICES).
    std::int64_t gpuId = cudaId;
    const CudaDeviceInfo* mapped = nullptr;
    for (const CudaDeviceInfo& device : m_cudaDevices)
        if (device.cudaId == cudaId && (device.pid == pidOf(key) || (device.pid < 0 && !mapped)))
            mapped = &device;
    if (mapped) {
        gpuId = mapped->gpuId;
        multiprocessors = mapped->multiprocessors;
    }
    // TARGET_INFO_GPU lists the GPUs of every host of the report: prefer the
    // process's own.
    const std::int64_t vm = static_cast<std::int64_t>((key >> 24) << 48);
    const GpuInfo* match = nullptr;
    for (const GpuInfo& gpu : m_gpus)
        if (gpu.id == gpuId && (!match || gpu.vmId == vm))
            match = &gpu;
    return match;
}

void NsightImporter::readKernels()
{
    if (!m_schema.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUPTI_ACTIVITY_KIND_KERNEL",
        {{"start"}, {"end"}, {"deviceId"}, {"contextId"}, {"streamId"}, {"correlationId"}, {"globalPid"},
         {"demangledName"}, {"gridX"}, {"gridY"}, {"gridZ"}, {"blockX"}, {"blockY"}, {"blockZ"},
         {"staticSharedMemory", false}, {"dynamicSharedMemory", false}, {"registersPerThread", false}}));
    while (rows.step()) {
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}))
            continue;
        Process* process = processOf(rows.integer(6));
        if (!process)
            continue;
        KernelRecord r;
        r.startNs = static_cast<std::uint64_t>(start);
        r.endNs = static_cast<std::uint64_t>(end);
        r.deviceId = static_cast<std::uint32_t>(rows.integer(2));
        r.contextId = static_cast<std::uint32_t>(rows.integer(3));
        r.streamId = static_cast<std::uint32_t>(rows.integer(4));
        r.correlationId = static_cast<std::uint32_t>(rows.integer(5));
        r.nameId = stringId(rows.integer(7));
        for (int d = 0; d < 3; ++d) {
            r.grid[d] = static_cast<std::int32_t>(rows.integer(8 + d));
            r.block[d] = static_cast<std::int32_t>(rows.integer(11 + d));
        }
        r.sharedMemoryBytes = static_cast<std::uint32_t>(rows.optionalInteger(14).value_or(0)
                                                         + rows.optionalInteger(15).value_or(0));
        r.registersPerThread = static_cast<std::uint16_t>(rows.optionalInteger(16).value_or(0));
        sendName(*process, r.nameId);
        process->devices.insert(r.deviceId);
        if (!m_chainOfCall.empty())
            process->kernels.emplace(r.correlationId, r.nameId);
        feed(*process, r);
    }
}

void NsightImporter::readMemcpys()
{
    if (!m_schema.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        {{"start"}, {"end"}, {"deviceId"}, {"contextId"}, {"streamId"}, {"correlationId"}, {"globalPid"}, {"bytes"},
         {"copyKind"}, {"srcKind", false}, {"dstKind", false}, {"srcDeviceId", false}, {"dstDeviceId", false},
         {"migrationCause", false}, {"virtualAddress", false}}));
    while (rows.step()) {
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2, 3, 4, 5, 6, 7, 8}))
            continue;
        bool unified = false;
        const std::uint8_t copyKind = m_schema.cuptiCopyKind(rows.integer(8), unified);
        if (unified) {
            // Migrations of managed memory that the driver made, not copies
            // a call enqueued: on the GPU's unified-memory lane, as a
            // profile records them.
            readMigration(rows, start, end);
            continue;
        }
        Process* process = processOf(rows.integer(6));
        if (!process)
            continue;
        MemcpyRecord r;
        r.startNs = static_cast<std::uint64_t>(start);
        r.endNs = static_cast<std::uint64_t>(end);
        r.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.integer(7)));
        r.deviceId = static_cast<std::uint32_t>(rows.integer(2));
        r.contextId = static_cast<std::uint32_t>(rows.integer(3));
        r.streamId = static_cast<std::uint32_t>(rows.integer(4));
        r.correlationId = static_cast<std::uint32_t>(rows.integer(5));
        r.copyKind = copyKind;
        r.srcKind = m_schema.cuptiMemoryKind(rows.optionalInteger(9));
        r.dstKind = m_schema.cuptiMemoryKind(rows.optionalInteger(10));
        const auto srcDevice = rows.optionalInteger(11);
        const auto dstDevice = rows.optionalInteger(12);
        r.srcDeviceId = static_cast<std::uint32_t>(srcDevice.value_or(0));
        r.dstDeviceId = static_cast<std::uint32_t>(dstDevice.value_or(0));
        // Nsight puts CUPTI's peer-to-peer records in this table as
        // peer-to-peer copies between two devices.
        if (copyKind == cupti::kCopyPtoP && srcDevice && dstDevice && *srcDevice != *dstDevice)
            r.flags |= kMemcpyFlagPeer;
        process->devices.insert(r.deviceId);
        feed(*process, r);
    }
}

void NsightImporter::readMigration(const SqliteStatement& rows, std::int64_t start, std::int64_t end)
{
    const std::uint64_t bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.integer(7)));
    const std::uint32_t counter = m_schema.unifiedCounter(rows.integer(8));
    if (counter == 0) {
        ++m_unifiedCopies;
        m_unifiedBytes += bytes;
        return;
    }
    Process* process = processOf(rows.integer(6));
    if (!process)
        return;
    UnifiedMemoryRecord r;
    r.startNs = static_cast<std::uint64_t>(start);
    r.endNs = static_cast<std::uint64_t>(end);
    r.value = bytes;
    r.address = static_cast<std::uint64_t>(rows.optionalInteger(14).value_or(0));
    r.counter = counter;
    r.deviceId = static_cast<std::uint32_t>(rows.integer(2));
    r.cause = m_schema.migrationCause(rows.optionalInteger(13));
    process->devices.insert(r.deviceId);
    feed(*process, r);
}

void NsightImporter::readPageFaults()
{
    // A GPU's fault groups, each with its number of faults (the value the
    // profile's counter carries), and the host's faults, one per row.
    if (m_schema.hasTable("CUDA_UM_GPU_PAGE_FAULT_EVENTS")) {
        SqliteStatement rows = m_db.prepare(m_schema.select(
            "CUDA_UM_GPU_PAGE_FAULT_EVENTS",
            {{"start"}, {"end"}, {"globalPid"}, {"deviceId"}, {"numberOfPageFaults", false}, {"address", false}}));
        while (rows.step()) {
            std::int64_t start = 0;
            std::int64_t end = 0;
            if (!readTimes(rows, start, end) || !integers(rows, {2, 3}))
                continue;
            Process* process = processOf(rows.integer(2));
            if (!process)
                continue;
            UnifiedMemoryRecord r;
            r.startNs = static_cast<std::uint64_t>(start);
            r.endNs = static_cast<std::uint64_t>(std::max(start, end));
            r.value = static_cast<std::uint64_t>(std::max<std::int64_t>(1, rows.optionalInteger(4).value_or(1)));
            r.address = static_cast<std::uint64_t>(rows.optionalInteger(5).value_or(0));
            r.counter = kUmGpuPageFault;
            r.deviceId = static_cast<std::uint32_t>(rows.integer(3));
            process->devices.insert(r.deviceId);
            feed(*process, r);
        }
    }
    if (m_schema.hasTable("CUDA_UM_CPU_PAGE_FAULT_EVENTS")) {
        SqliteStatement rows = m_db.prepare(
            m_schema.select("CUDA_UM_CPU_PAGE_FAULT_EVENTS", {{"start"}, {"start"}, {"globalPid"}, {"address", false}}));
        while (rows.step()) {
            std::int64_t start = 0;
            std::int64_t end = 0;
            if (!readTimes(rows, start, end) || !integers(rows, {2}))
                continue;
            Process* process = processOf(rows.integer(2));
            if (!process)
                continue;
            UnifiedMemoryRecord r;
            r.startNs = static_cast<std::uint64_t>(start);
            r.endNs = r.startNs;
            r.value = 1;
            r.address = static_cast<std::uint64_t>(rows.optionalInteger(3).value_or(0));
            r.counter = kUmCpuPageFault;
            r.deviceId = kUmNoDevice;
            feed(*process, r);
        }
    }
}

void NsightImporter::readMemsets()
{
    if (!m_schema.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUPTI_ACTIVITY_KIND_MEMSET", {{"start"}, {"end"}, {"deviceId"}, {"contextId"}, {"streamId"}, {"correlationId"},
                                       {"globalPid"}, {"bytes"}, {"memKind", false}}));
    while (rows.step()) {
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2, 3, 4, 5, 6, 7}))
            continue;
        Process* process = processOf(rows.integer(6));
        if (!process)
            continue;
        MemsetRecord r;
        r.startNs = static_cast<std::uint64_t>(start);
        r.endNs = static_cast<std::uint64_t>(end);
        r.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.integer(7)));
        r.deviceId = static_cast<std::uint32_t>(rows.integer(2));
        r.contextId = static_cast<std::uint32_t>(rows.integer(3));
        r.streamId = static_cast<std::uint32_t>(rows.integer(4));
        r.correlationId = static_cast<std::uint32_t>(rows.integer(5));
        r.memoryKind = m_schema.cuptiMemoryKind(rows.optionalInteger(8));
        process->devices.insert(r.deviceId);
        feed(*process, r);
    }
}

void NsightImporter::readApiCalls()
{
    if (!m_schema.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUPTI_ACTIVITY_KIND_RUNTIME",
        {{"start"}, {"end"}, {"globalTid"}, {"correlationId"}, {"nameId"}, {"eventClass", false}, {"returnValue", false},
         {"callchainId", false}}));
    // Nsight's names as ids, and what each says a call is (most reports
    // repeat a few dozen names).
    std::unordered_map<std::int64_t, std::pair<std::uint32_t, ApiRole>> calls;
    while (rows.step()) {
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2, 3, 4}))
            continue;
        // 2022 exports with CUDA backtraces repeat each call in a class of
        // its own (67, with the call chain): the runtime row is the call.
        const auto apiClass = rows.isInteger(5) ? m_schema.apiClass(rows.integer(5)) : NsightSchema::ApiClass::Runtime;
        if (!rows.isNull(7))
            noteChain(rows, apiClass);
        if (apiClass == NsightSchema::ApiClass::Other) {
            ++m_otherApiClasses;
            continue;
        }
        auto known = calls.find(rows.integer(4));
        if (known == calls.end()) {
            const std::string name(apiDisplayName(nsightString(rows.integer(4))));
            known = calls.emplace(rows.integer(4), std::make_pair(intern(name), apiRole(name))).first;
        }
        // A profile traces the calls that bear on overlap (ApiNames.h); the
        // same calls, and only those, become ops here.
        if (known->second.second == ApiRole::Untraced) {
            ++m_untracedCalls;
            continue;
        }
        Process* process = processOf(rows.integer(2));
        if (!process)
            continue;
        ApiRecord r;
        r.startNs = static_cast<std::uint64_t>(start);
        r.endNs = static_cast<std::uint64_t>(end);
        r.threadId = tidOf(rows.integer(2));
        r.correlationId = static_cast<std::uint32_t>(rows.integer(3));
        r.nameId = known->second.first;
        r.returnValue = static_cast<std::uint32_t>(rows.optionalInteger(6).value_or(0));
        r.domain = apiClass == NsightSchema::ApiClass::Runtime ? kApiRuntime : kApiDriver;
        sendName(*process, r.nameId);
        feed(*process, r);
    }
}

// A call row with a call chain (nsys profile --cudabacktrace): its chain
// goes to the call of its correlation id in its process, whichever row of
// the call carries it (Nsight 2022 puts it on a backtrace row beside the
// runtime call's, later versions on the call's own row).
void NsightImporter::noteChain(const SqliteStatement& row, NsightSchema::ApiClass apiClass)
{
    if (!row.isInteger(7)) {
        ++m_badRows;
        return;
    }
    const int rank = apiClass == NsightSchema::ApiClass::Runtime ? 3 : apiClass == NsightSchema::ApiClass::Other ? 2 : 1;
    ChainRef& ref = m_chainOfCall[processKey(row.integer(2))][static_cast<std::uint32_t>(row.integer(3))];
    if (ref.rank >= rank)
        return;
    ref = {row.integer(7), rank};
    m_callchains.noteCall(ref.id, m_names[stringId(row.integer(4))]);
}

void NsightImporter::readSyncs()
{
    if (!m_schema.hasTable("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        {{"start"}, {"end"}, {"contextId"}, {"streamId"}, {"correlationId"}, {"globalPid"}, {"syncType"}, {"eventId"}}));
    while (rows.step()) {
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2, 3, 4, 5, 6, 7}))
            continue;
        // Only processes with calls: a synchronization names a call.
        const auto process = m_processes.find(processKey(rows.integer(5)));
        if (process == m_processes.end())
            continue;
        SyncRecord r;
        r.startNs = static_cast<std::uint64_t>(start);
        r.endNs = static_cast<std::uint64_t>(end);
        r.type = m_schema.cuptiSyncType(rows.integer(6));
        r.correlationId = static_cast<std::uint32_t>(rows.integer(4));
        r.contextId = static_cast<std::uint32_t>(rows.integer(2));
        r.streamId = static_cast<std::uint32_t>(rows.integer(3));
        r.eventId = static_cast<std::uint32_t>(rows.integer(7));
        // A wait on neither a stream nor an event is context-wide, whatever
        // type the row gives (2024 exports give cudaDeviceSynchronize the
        // event type with no event).
        if (rows.integer(3) == kNoId && rows.integer(7) == kNoId)
            r.type = kSyncContext;
        feed(process->second, r);
    }
}

void NsightImporter::readNvtx()
{
    if (!m_schema.hasTable("NVTX_EVENTS"))
        return;
    SqliteStatement rows = m_db.prepare(m_schema.select(
        "NVTX_EVENTS", {{"start"}, {"end"}, {"globalTid"}, {"eventType"}, {"text", false, false}, {"textId", false}}));
    while (rows.step()) {
        if (!rows.isInteger(3)) {
            ++m_badRows;
            continue;
        }
        const NsightSchema::NvtxKind kind = m_schema.nvtxKind(rows.integer(3));
        if (kind == NsightSchema::NvtxKind::Other || rows.isNull(1)) {
            ++m_otherNvtx; // marks, domains, thread names, a range never closed
            continue;
        }
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!readTimes(rows, start, end) || !integers(rows, {2}))
            continue;
        // Only processes with CUDA work are runs: the ranges of the others
        // have no run to go to.
        const auto process = m_processes.find(processKey(rows.integer(2)));
        if (process == m_processes.end()) {
            ++m_nvtxWithoutRun;
            continue;
        }
        NvtxRange range;
        range.threadId = tidOf(rows.integer(2));
        range.beginNs = start;
        range.endNs = std::max(start, end);
        range.name = rows.isText(4) ? clippedName(rows.text(4))
                     : rows.isInteger(5) ? m_names[stringId(rows.integer(5))]
                                         : std::string();
        if (range.name.empty())
            range.name = "(unnamed range)";
        process->second.ranges.push_back(std::move(range));
    }
}

void NsightImporter::countTable(const char* table, std::uint64_t& count)
{
    if (!m_schema.hasTable(table))
        return;
    SqliteStatement rows = m_db.prepare(std::string("SELECT count(*) FROM \"") + table + "\"");
    if (rows.step())
        count = static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.integer(0)));
}

void NsightImporter::countMemoryEvents()
{
    // Allocations and frees are the calls that made them (cudaMalloc,
    // cudaFree: ops already). Counted for the summary, as a profile has none.
    countTable("CUDA_GPU_MEMORY_USAGE_EVENTS", m_memoryEvents);
}

Run NsightImporter::finishRun(std::uint64_t key, Process& process)
{
    // The devices the process used, from its host's GPUs (TARGET_INFO_GPU
    // lists every GPU of the host, used or not; TARGET_INFO_CUDA_DEVICE
    // says which of them each CUDA device was).
    for (const std::uint32_t id : process.devices) {
        std::uint32_t multiprocessors = 0;
        const GpuInfo* match = gpuOf(key, id, multiprocessors);
        if (!match)
            continue;
        DeviceRecord r = match->record;
        r.deviceId = id; // as the process's ops name it
        if (r.multiprocessors == 0)
            r.multiprocessors = multiprocessors;
        r.nameId = intern(match->name);
        sendName(process, r.nameId);
        feed(process, r);
    }
    if (m_schema.hasTable("ThreadNames")) {
        SqliteStatement rows = m_db.prepare(m_schema.select("ThreadNames", {{"nameId"}, {"globalTid"}}));
        while (rows.step()) {
            if (!rows.isInteger(0) || !rows.isInteger(1) || processKey(rows.integer(1)) != key)
                continue;
            ThreadRecord r;
            r.threadId = tidOf(rows.integer(1));
            r.nameId = stringId(rows.integer(0));
            sendName(process, r.nameId);
            feed(process, r);
        }
    }
    feed(process, EndRecord{});
    Run run = process.builder->finish(ProcessEnding{}, std::string());
    if (const auto chains = m_chainOfCall.find(key); chains != m_chainOfCall.end())
        attachSources(key, process, run);
    for (NvtxRange& range : process.ranges) {
        Region region;
        region.name = std::move(range.name);
        region.beginNs = range.beginNs;
        region.endNs = range.endNs;
        const int lane = process.builder->threadLaneOf(range.threadId);
        region.lane = lane < 0 ? Region::kNoLane : static_cast<std::uint16_t>(lane);
        region.source = RegionSource::Nvtx;
        run.regions.push_back(std::move(region));
    }
    std::vector<NvtxRange>().swap(process.ranges);
    nestRegions(run.regions);
    return run;
}

// Each traced call's site from its call chain (NsightCallchains), on the
// finished run's ops: a call is one op on its thread's lane, with its
// correlation id. Run::stacksRecorded stays false: nsys takes a backtrace
// only of the calls its --cudabacktrace kinds and threshold choose, so a
// call without one is no call without the program's code on its stack.
void NsightImporter::attachSources(std::uint64_t key, const Process& process, Run& run)
{
    const auto& chains = m_chainOfCall.at(key);
    std::map<SourceSite, std::uint32_t> siteIds;
    std::unordered_map<std::string, std::uint32_t> nameIds; // run.names, once one is wanted
    const auto nameId = [&](const std::string& name) -> std::uint32_t {
        if (name.empty())
            return 0;
        if (nameIds.empty())
            for (std::uint32_t i = 0; i < run.names.size(); ++i)
                nameIds.emplace(run.names[i], i);
        const auto [it, added] = nameIds.try_emplace(name, static_cast<std::uint32_t>(run.names.size()));
        if (added)
            run.names.push_back(name);
        return it->second;
    };
    for (std::size_t i = 0; i < run.ops.size(); ++i) {
        const Op& op = run.ops[i];
        if (op.correlation == 0 || op.lane >= run.lanes.size() || run.lanes[op.lane].kind != LaneKind::HostThread)
            continue;
        const auto chain = chains.find(op.correlation);
        if (chain == chains.end())
            continue;
        const auto kernel = process.kernels.find(op.correlation);
        const std::string& launched = kernel == process.kernels.end() ? m_names.front() : m_names[kernel->second];
        NsightCallchains::Site site;
        const auto outcome = m_callchains.siteOf(chain->second.id, launched, site);
        ++m_chainOutcomes[static_cast<int>(outcome)];
        if (outcome != NsightCallchains::Outcome::Site)
            continue;
        // No line: the module stands where a file would (SourceSite).
        const SourceSite at{site.module, 0, site.function, SiteLine::Call};
        auto [known, added] = siteIds.try_emplace(at, static_cast<std::uint32_t>(run.sourceSites.size() + 1));
        if (added)
            run.sourceSites.push_back(at);
        OpSource source;
        source.site = known->second;
        source.called = nameId(site.called);
        run.setSource(i, source);
    }
}

std::string NsightImporter::summary(const Trace& trace) const
{
    // What the runs hold: a driver call inside a runtime call was read and
    // then dropped, as in a profile.
    std::uint64_t gpuOps = 0;
    std::uint64_t calls = 0;
    std::uint64_t unified = 0;
    std::uint64_t regions = 0;
    for (const Run& run : trace.runs) {
        for (const Op& op : run.ops)
            ++(op.kind == OpKind::UnifiedMemory ? unified : isGpuOp(op.kind) ? gpuOps : calls);
        regions += run.regions.size();
    }
    std::string text = "imported from " + m_schema.versionText() + ": " + plural(trace.runs.size(), "run", "runs") + ", "
                       + plural(gpuOps, "GPU op", "GPU ops") + ", " + plural(calls, "CUDA call", "CUDA calls") + ", "
                       + plural(regions, "NVTX range", "NVTX ranges");
    if (unified > 0)
        text += ", " + plural(unified, "unified-memory event", "unified-memory events");
    using Outcome = NsightCallchains::Outcome;
    const auto outcome = [this](Outcome o) { return m_chainOutcomes[static_cast<int>(o)]; };
    std::uint64_t backtraces = 0;
    for (const std::uint64_t n : m_chainOutcomes)
        backtraces += n;
    if (backtraces > 0) {
        text += ", " + plural(backtraces, "CUDA call with a backtrace", "CUDA calls with backtraces") + " ("
                + std::to_string(outcome(Outcome::Site)) + " from the program's own code, "
                + std::to_string(outcome(Outcome::NoUserFrame)) + " from libraries only";
        if (m_callchains.joinOffset() != 0)
            text += "; chains joined at callchainId + " + std::to_string(m_callchains.joinOffset())
                    + ", as this export numbers them";
        text += ")";
    }
    std::vector<std::string> skipped;
    if (m_untracedCalls > 0)
        skipped.push_back(plural(m_untracedCalls, "CUDA call that a profile does not trace",
                                 "CUDA calls that a profile does not trace"));
    if (m_otherApiClasses > 0)
        skipped.push_back(plural(m_otherApiClasses, "API row of another class (CUDA backtraces)",
                                 "API rows of other classes (CUDA backtraces)"));
    if (m_unifiedCopies > 0)
        skipped.push_back(plural(m_unifiedCopies, "unified-memory migration device to device",
                                 "unified-memory migrations device to device")
                          + " (" + std::to_string(m_unifiedBytes) + " bytes)");
    if (m_memoryEvents > 0)
        skipped.push_back(plural(m_memoryEvents, "GPU memory event (the allocation calls are ops)",
                                 "GPU memory events (the allocation calls are ops)"));
    if (m_otherNvtx + m_nvtxWithoutRun > 0)
        skipped.push_back(plural(m_otherNvtx + m_nvtxWithoutRun, "NVTX event that is no closed range of a run",
                                 "NVTX events that are no closed ranges of a run"));
    if (outcome(Outcome::NoTable) > 0)
        skipped.push_back(plural(outcome(Outcome::NoTable), "CUDA backtrace", "CUDA backtraces")
                          + " the calls name (callchainId) in a report with no CUDA_CALLCHAINS table");
    if (outcome(Outcome::NoFrames) > 0)
        skipped.push_back(plural(outcome(Outcome::NoFrames), "CUDA backtrace", "CUDA backtraces")
                          + " whose callchainId has no frames in CUDA_CALLCHAINS");
    if (outcome(Outcome::Garbled) > 0)
        skipped.push_back(plural(outcome(Outcome::Garbled), "CUDA backtrace", "CUDA backtraces")
                          + " with frames missing, repeated or past " + std::to_string(NsightCallchains::kMaxFrames)
                          + " (stackDepth not 0, 1, 2, ...)");
    if (m_callchains.badRows() > 0)
        skipped.push_back(plural(m_callchains.badRows(), "CUDA_CALLCHAINS row", "CUDA_CALLCHAINS rows")
                          + " whose id or stackDepth is no integer");
    if (m_badRows > 0)
        skipped.push_back(plural(m_badRows, "row with a value of the wrong type or time out of range",
                                 "rows with values of the wrong type or times out of range"));
    if (m_tooManyRuns > 0)
        skipped.push_back(plural(m_tooManyRuns, "row", "rows") + " of processes beyond the first "
                          + std::to_string(kMaxRuns));
    if (m_schema.schemaMajor() > 3)
        skipped.push_back("anything new in schema " + std::to_string(m_schema.schemaMajor())
                          + ".x, which is newer than the 2.x and 3.x this reader was tested on");
    for (std::size_t i = 0; i < skipped.size(); ++i)
        text += (i == 0 ? "; skipped " : ", ") + skipped[i];
    return text;
}

NsightSqliteImport NsightImporter::read()
{
    const bool anyCuda = m_schema.hasTable("CUPTI_ACTIVITY_KIND_KERNEL") || m_schema.hasTable("CUPTI_ACTIVITY_KIND_MEMCPY")
                         || m_schema.hasTable("CUPTI_ACTIVITY_KIND_MEMSET")
                         || m_schema.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME");
    if (!anyCuda)
        m_schema.fail("the report holds no CUDA trace (no CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET or _RUNTIME "
                      "table): record it with nsys profile --trace=cuda");
    if (!m_schema.hasTable("StringIds"))
        m_schema.fail("the report has no StringIds table, which names its kernels and calls");
    readTargets();
    // Calls before synchronizations: a synchronization names its call.
    readApiCalls();
    readKernels();
    readMemcpys();
    readMemsets();
    readPageFaults();
    readSyncs();
    readNvtx();
    countMemoryEvents();
    if (!m_chainOfCall.empty())
        m_callchains.read();

    NsightSqliteImport imported;
    for (auto& [key, process] : m_processes)
        imported.trace.runs.push_back(finishRun(key, process));
    imported.trace.tool = m_schema.versionText();
    imported.summary = summary(imported.trace);
    return imported;
}

} // namespace

NsightSqliteImport NsightSqliteImport::read(const std::string& path, const CancelFlag* cancel)
{
    // A truncated or damaged file fails on the first page it reaches that
    // is not there, be it while opening or on a row.
    const auto why = [](const SqliteError& e) {
        switch (e.cause) {
        case SqliteError::Cause::ValueTooLong:
            return "a value in it is longer than " + std::to_string(SqliteDatabase::kMaxValueBytes >> 20)
                   + " MiB, the most this reader takes for one (" + e.what() + ")";
        case SqliteError::Cause::OverBudget: return std::string(e.what());
        case SqliteError::Cause::Unreadable: break;
        }
        return std::string("the SQLite database cannot be read (damaged or cut short?): ") + e.what();
    };
    try {
        const SqliteDatabase db(path, cancel);
        NsightImporter importer(db);
        try {
            return importer.read();
        } catch (const SqliteError& e) {
            importer.fail(why(e));
        }
    } catch (const SqliteError& e) {
        throw NsightImportError(why(e));
    }
}

} // namespace ovs
