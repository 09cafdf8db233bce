#pragma once

// Small Nsight Systems SQLite exports built in a test, in the shape of
// schema 2.x (2022: EXPORT_META_DATA, no ENUM_* tables) or 3.x (2023 on:
// META_DATA_EXPORT and ENUM_* tables). The 3.x variant numbers its
// enumerations unlike 2.x on purpose (every id moved), so a reader that
// ignores the ENUM_* tables misreads it.

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ovs::test {

class NsightReportWriter {
public:
    enum class Memory { Pageable, Pinned, Device, Managed, Unknown };
    enum class Copy { HtoD, DtoH, DtoD, PtoP, UnifiedHtoD, UnifiedDtoH, HtoH };
    enum class Sync { Event, StreamWaitEvent, Stream, Context };
    enum class StreamFlag { Default, NonBlocking, Null };
    enum class ApiClass { Runtime, Driver, Backtrace };
    enum class Nvtx { PushPop, StartEnd, Mark };

    static constexpr std::int64_t kVm = 1;

    NsightReportWriter(const std::string& path, int schemaMajor) : m_schema(schemaMajor)
    {
        if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK)
            throw std::runtime_error("cannot create " + path);
        exec("PRAGMA journal_mode = DELETE; BEGIN");
        exec("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)");
        exec("CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)");
        exec("CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER)");
        exec("CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER, "
             "smCount INTEGER, asyncEngines INTEGER, computeMajor INTEGER, computeMinor INTEGER)");
        exec("CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT "
             "NULL, processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL)");
        exec("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
             "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes "
             "INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
             "dstDeviceId INTEGER, migrationCause INTEGER, virtualAddress INTEGER)");
        exec("CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL, globalPid "
             "INTEGER NOT NULL, deviceId INTEGER NOT NULL, address INTEGER NOT NULL, numberOfPageFaults INTEGER NOT "
             "NULL, faultAccessType INTEGER NOT NULL)");
        exec("CREATE TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL, address "
             "INTEGER NOT NULL, originalFaultPc INTEGER, CpuInstruction INTEGER NOT NULL, module INTEGER NOT NULL, "
             "unresolvedFaultPc INTEGER)");
        exec("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
             "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value "
             "INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER)");
        exec("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
             "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
             "demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL, gridX "
             "INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER "
             "NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL)");
        exec("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER "
             "NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, "
             "callchainId INTEGER)");
        exec("CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
             "INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid "
             "INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL)");
        exec("CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, "
             "text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER)");
        if (m_schema >= 3) {
            exec("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)");
            exec("INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2024.2.1.106'), "
                 "('EXPORT_SCHEMA_VERSION', '3.11.1')");
            exec("CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (nullStreamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId "
                 "INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL)");
            enumTable("ENUM_CUDA_MEM_KIND", {{10, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE"}, {11, "CUDA_MEMOPR_MEMORY_KIND_PINNED"},
                                             {12, "CUDA_MEMOPR_MEMORY_KIND_DEVICE"}, {14, "CUDA_MEMOPR_MEMORY_KIND_MANAGED"},
                                             {17, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN"}});
            enumTable("ENUM_CUDA_MEMCPY_OPER", {{21, "CUDA_MEMCPY_KIND_HTOD"}, {22, "CUDA_MEMCPY_KIND_DTOH"},
                                                {28, "CUDA_MEMCPY_KIND_DTOD"}, {29, "CUDA_MEMCPY_KIND_HTOH"},
                                                {30, "CUDA_MEMCPY_KIND_PTOP"},
                                                {31, "CUDA_MEMCPY_KIND_UVM_HTOD"}, {32, "CUDA_MEMCPY_KIND_UVM_DTOH"}});
            enumTable("ENUM_CUDA_UNIF_MEM_MIGRATION", {{60, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN"},
                                                       {61, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER"},
                                                       {62, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE"},
                                                       {63, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH"},
                                                       {64, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION"},
                                                       {65, "CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS"}});
            enumTable("ENUM_CUPTI_SYNC_TYPE", {{41, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE"},
                                               {42, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT"},
                                               {43, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE"},
                                               {44, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE"}});
            enumTable("ENUM_CUPTI_STREAM_TYPE", {{51, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT"},
                                                 {52, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING"},
                                                 {53, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL"}});
            enumTable("ENUM_NSYS_EVENT_CLASS", {{100, "TRACE_PROCESS_EVENT_CUDA_RUNTIME"},
                                                {101, "TRACE_PROCESS_EVENT_CUDA_DRIVER"},
                                                {167, "TRACE_PROCESS_EVENT_CUDABACKTRACE"}});
            enumTable("ENUM_NSYS_EVENT_TYPE", {{134, "NvtxMark"}, {159, "NvtxPushPopRange"}, {160, "NvtxStartEndRange"}});
        } else {
            exec("CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT)");
            exec("INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION', '2022.2.1.31'), "
                 "('EXPORT_SCHEMA_VERSION', '2.9.1')");
            exec("CREATE TABLE TARGET_INFO_CUDA_NULL_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId "
                 "INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL)");
        }
    }
    ~NsightReportWriter() { close(); }
    NsightReportWriter(const NsightReportWriter&) = delete;
    NsightReportWriter& operator=(const NsightReportWriter&) = delete;

    void close()
    {
        if (!m_db)
            return;
        exec("COMMIT");
        sqlite3_close(m_db);
        m_db = nullptr;
    }

    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string message = error ? error : "?";
            sqlite3_free(error);
            throw std::runtime_error(message + " in: " + sql);
        }
    }

    static std::int64_t globalPid(std::int64_t pid) { return (kVm << 48) | (pid << 24); }
    static std::int64_t globalTid(std::int64_t pid, std::int64_t tid) { return globalPid(pid) | tid; }

    std::int64_t string(const std::string& text)
    {
        const auto known = m_strings.find(text);
        if (known != m_strings.end())
            return known->second;
        const auto id = static_cast<std::int64_t>(m_strings.size()) + 1;
        m_strings.emplace(text, id);
        exec("INSERT INTO StringIds VALUES (" + num(id) + ", " + quoted(text) + ")");
        return id;
    }

    void process(std::int64_t pid, const std::string& name)
    {
        exec("INSERT INTO PROCESSES VALUES (" + num(globalPid(pid)) + ", " + num(pid) + ", " + quoted(name) + ")");
    }
    void threadName(std::int64_t pid, std::int64_t tid, const std::string& name)
    {
        exec("INSERT INTO ThreadNames VALUES (" + num(string(name)) + ", 10, " + num(globalTid(pid, tid)) + ")");
    }
    void gpu(std::int64_t id, const std::string& name, std::int64_t memory, int sms, int engines, int major, int minor)
    {
        exec("INSERT INTO TARGET_INFO_GPU VALUES (" + num(kVm << 48) + ", " + num(id) + ", " + quoted(name) + ", "
             + num(memory) + ", " + num(sms) + ", " + num(engines) + ", " + num(major) + ", " + num(minor) + ")");
    }
    void stream(std::int64_t pid, std::int64_t streamId, StreamFlag flag)
    {
        const int value = flag == StreamFlag::Default ? 1 : flag == StreamFlag::NonBlocking ? 2 : 3;
        exec("INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (" + num(streamId) + ", 0, " + num(kVm) + ", " + num(pid)
             + ", 1, 0, " + num(value + (m_schema >= 3 ? 50 : 0)) + ")");
    }
    void nullStream(std::int64_t pid, std::int64_t streamId)
    {
        exec(std::string("INSERT INTO ") + (m_schema >= 3 ? "TARGET_INFO_CUDA_CONTEXT_INFO" : "TARGET_INFO_CUDA_NULL_STREAM")
             + " VALUES (" + num(streamId) + ", 0, " + num(kVm) + ", " + num(pid) + ", 0, 1)");
    }
    void memcpy(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t streamId, std::int64_t correlation,
                std::int64_t bytes, Copy copy, Memory src, Memory dst, std::int64_t srcDevice = 0, std::int64_t dstDevice = 0)
    {
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + num(start) + ", " + num(end) + ", 0, 1, " + num(streamId)
             + ", " + num(correlation) + ", " + num(globalPid(pid)) + ", " + num(bytes) + ", " + num(copyValue(copy)) + ", "
             + num(memoryValue(src)) + ", " + num(memoryValue(dst)) + ", " + num(srcDevice) + ", " + num(dstDevice)
             + ", NULL, NULL)");
    }
    // A unified-memory migration, with CUPTI's cause (1 user, 2 coherence,
    // 3 prefetch, ...), as Nsight lists it among the copies.
    void migration(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t bytes, bool toDevice, int cause)
    {
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (" + num(start) + ", " + num(end) + ", 0, 1, 0, 0, "
             + num(globalPid(pid)) + ", " + num(bytes) + ", " + num(copyValue(toDevice ? Copy::UnifiedHtoD : Copy::UnifiedDtoH))
             + ", " + num(memoryValue(Memory::Managed)) + ", " + num(memoryValue(Memory::Managed)) + ", 0, 0, "
             + num(cause + (m_schema >= 3 ? 60 : 0)) + ", 4096)");
    }
    void gpuPageFaults(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t faults)
    {
        exec("INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES (" + num(start) + ", " + num(end) + ", "
             + num(globalPid(pid)) + ", 0, 4096, " + num(faults) + ", 1)");
    }
    void cpuPageFault(std::int64_t pid, std::int64_t start)
    {
        exec("INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES (" + num(start) + ", " + num(globalPid(pid))
             + ", 4096, 0, 0, 0, 0)");
    }
    void memset(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t streamId, std::int64_t correlation,
                std::int64_t bytes, Memory memory)
    {
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (" + num(start) + ", " + num(end) + ", 0, 1, " + num(streamId)
             + ", " + num(correlation) + ", " + num(globalPid(pid)) + ", 0, " + num(bytes) + ", " + num(memoryValue(memory))
             + ")");
    }
    void kernel(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t streamId, std::int64_t correlation,
                const std::string& name, const int (&grid)[3], const int (&block)[3], std::int64_t staticShared = 0,
                std::int64_t dynamicShared = 0)
    {
        const std::int64_t nameId = string(name);
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + num(start) + ", " + num(end) + ", 0, 1, " + num(streamId)
             + ", " + num(correlation) + ", " + num(globalPid(pid)) + ", " + num(nameId) + ", " + num(nameId) + ", 32, "
             + num(grid[0]) + ", " + num(grid[1]) + ", " + num(grid[2]) + ", " + num(block[0]) + ", " + num(block[1]) + ", "
             + num(block[2]) + ", " + num(staticShared) + ", " + num(dynamicShared) + ")");
    }
    void api(std::int64_t pid, std::int64_t tid, std::int64_t start, std::int64_t end, std::int64_t correlation,
             const std::string& name, ApiClass apiClass = ApiClass::Runtime)
    {
        const int value = apiClass == ApiClass::Runtime ? 0 : apiClass == ApiClass::Driver ? 1 : 67;
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + num(start) + ", " + num(end) + ", "
             + num(value + (m_schema >= 3 ? 100 : 0)) + ", " + num(globalTid(pid, tid)) + ", " + num(correlation) + ", "
             + num(string(name)) + ", 0, NULL)");
    }
    void sync(std::int64_t pid, std::int64_t start, std::int64_t end, std::int64_t streamId, std::int64_t correlation,
              Sync type, std::int64_t eventId)
    {
        const int value = static_cast<int>(type) + 1; // CUPTI's numbers in 2.x
        exec("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (" + num(start) + ", " + num(end) + ", 0, 1, "
             + num(streamId) + ", " + num(correlation) + ", " + num(globalPid(pid)) + ", "
             + num(value + (m_schema >= 3 ? 40 : 0)) + ", " + num(eventId) + ")");
    }
    // A range named by text (registered strings go through StringIds: `registered`).
    void nvtx(std::int64_t pid, std::int64_t tid, std::int64_t start, std::optional<std::int64_t> end, Nvtx type,
              const std::string& name, bool registered = false)
    {
        const int value = type == Nvtx::PushPop ? 59 : type == Nvtx::StartEnd ? 60 : 34;
        exec("INSERT INTO NVTX_EVENTS VALUES (" + num(start) + ", " + (end ? num(*end) : "NULL") + ", "
             + num(value + (m_schema >= 3 ? 100 : 0)) + ", NULL, " + (registered ? "NULL" : quoted(name)) + ", "
             + num(globalTid(pid, tid)) + ", NULL, " + (registered ? num(string(name)) : "NULL") + ", 0)");
    }

    // CUDA backtraces (nsys profile --cudabacktrace): the frames' table as
    // NVIDIA's schema reference gives it, and a frame of chain `id` at
    // `depth` (0 innermost). An unresolved frame is named by its address,
    // as Nsight names it.
    void callchainTable()
    {
        exec("CREATE TABLE CUDA_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL, "
             "unresolved INTEGER, originalIP INTEGER, stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth))");
    }
    void frame(std::int64_t id, std::int64_t depth, const std::string& symbol, const std::string& module,
               bool unresolved = false)
    {
        exec("INSERT INTO CUDA_CALLCHAINS VALUES (" + num(id) + ", " + num(string(symbol)) + ", " + num(string(module))
             + ", " + (unresolved ? "1" : "NULL") + ", " + num(0x400000 + depth) + ", " + num(depth) + ")");
    }
    // Frames from the innermost out.
    void chain(std::int64_t id, std::initializer_list<std::pair<const char*, const char*>> frames)
    {
        std::int64_t depth = 0;
        for (const auto& [symbol, module] : frames) {
            const std::string name = symbol;
            frame(id, depth++, name, module, name.starts_with("0x"));
        }
    }

    // An ENUM_* table of schema 3.x: id -> name.
    void enumTable(const std::string& table, std::initializer_list<std::pair<int, const char*>> values)
    {
        exec("CREATE TABLE " + table + " (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT)");
        for (const auto& [id, name] : values)
            exec("INSERT INTO " + table + " VALUES (" + num(id) + ", '" + name + "', '')");
    }

private:
    static std::string num(std::int64_t value) { return std::to_string(value); }
    static std::string quoted(const std::string& text)
    {
        std::string out = "'";
        for (const char c : text)
            out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'";
    }
    std::int64_t memoryValue(Memory memory) const
    {
        // 2.x: pageable 0, pinned 1, device 2, managed 4, unknown 7.
        const int value = memory == Memory::Pageable ? 0
                          : memory == Memory::Pinned ? 1
                          : memory == Memory::Device ? 2
                          : memory == Memory::Managed ? 4
                                                      : 7;
        return value + (m_schema >= 3 ? 10 : 0);
    }
    std::int64_t copyValue(Copy copy) const
    {
        const int value = copy == Copy::HtoD      ? 1
                          : copy == Copy::DtoH    ? 2
                          : copy == Copy::DtoD    ? 8
                          : copy == Copy::HtoH    ? 9
                          : copy == Copy::PtoP    ? 10
                          : copy == Copy::UnifiedHtoD ? 11
                                                      : 12;
        return value + (m_schema >= 3 ? 20 : 0);
    }

    sqlite3* m_db = nullptr;
    int m_schema = 3;
    std::unordered_map<std::string, std::int64_t> m_strings;
};

} // namespace ovs::test
