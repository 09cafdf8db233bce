#include "formats/NsightSchema.h"

#include "base/MessageText.h"
#include "cupti/RecordValues.h"
#include "profile/ProfileRecord.h"

#include <algorithm>
#include <cctype>

namespace ovs {

namespace {

// The value of `name` in an enumeration read from its table, else the
// fallback's (the 2.x numbering, which 3.x's tables repeat).
template <typename Value>
Value byName(const std::map<std::int64_t, std::string>& table, std::int64_t value,
             const std::vector<std::pair<std::string_view, Value>>& names, Value fallbackUnknown,
             const std::vector<Value>& fallbackByValue)
{
    if (!table.empty()) {
        const auto known = table.find(value);
        if (known == table.end())
            return fallbackUnknown;
        for (const auto& [name, mapped] : names)
            if (known->second == name)
                return mapped;
        return fallbackUnknown;
    }
    if (value < 0 || static_cast<std::uint64_t>(value) >= fallbackByValue.size())
        return fallbackUnknown;
    return fallbackByValue[static_cast<std::size_t>(value)];
}

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

} // namespace

NsightSchema::NsightSchema(const SqliteDatabase& db) : m_db(db)
{
    // A trigger could not fire on this read-only connection (triggers are
    // switched off too), but it is code a writer of the file left to run, and
    // no export of Nsight Systems has one: a report that holds one is not
    // plain data, and is refused as a view in a table's place is.
    if (const std::string trigger = db.firstTrigger(); !trigger.empty())
        throw NsightImportError("the report holds a trigger (" + messageText(trigger, 40)
                                + "): a report is read as data, and a trigger is code that would run");
    const char* metaTable = hasTable("META_DATA_EXPORT") ? "META_DATA_EXPORT"
                            : hasTable("EXPORT_META_DATA") ? "EXPORT_META_DATA"
                                                              : nullptr;
    std::string product;
    std::string schema;
    if (metaTable) {
        const auto columns = db.columns(metaTable);
        const auto has = [&columns](std::string_view name) {
            return std::any_of(columns.begin(), columns.end(), [name](const auto& c) { return c.name == name; });
        };
        if (has("name") && has("value")) {
            SqliteStatement meta = db.prepare(std::string("SELECT name, value FROM ") + metaTable);
            while (meta.step()) {
                const std::string name = meta.text(0);
                if (name == "EXPORT_PRODUCT_VERSION")
                    product = meta.text(1);
                else if (name == "EXPORT_SCHEMA_VERSION")
                    schema = meta.text(1);
            }
        }
    } else if (!hasTable("StringIds") && !hasTable("CUPTI_ACTIVITY_KIND_KERNEL")
               && !hasTable("CUPTI_ACTIVITY_KIND_RUNTIME")) {
        throw NsightImportError("an SQLite database, but not an Nsight Systems export (it has none of "
                                "META_DATA_EXPORT, EXPORT_META_DATA, StringIds and the CUPTI_ACTIVITY_KIND_* tables)");
    }
    m_schemaMajor = schema.empty() || !std::isdigit(static_cast<unsigned char>(schema[0])) ? 0 : std::atoi(schema.c_str());
    m_versionText = "Nsight Systems " + (product.empty() ? std::string("(version not given)") : messageText(product, 20))
                    + ", export schema " + (schema.empty() ? std::string("unknown") : messageText(schema, 20));

    m_memoryKinds = readEnum("ENUM_CUDA_MEM_KIND");
    m_copyKinds = readEnum("ENUM_CUDA_MEMCPY_OPER");
    m_migrationCauses = readEnum("ENUM_CUDA_UNIF_MEM_MIGRATION");
    m_syncTypes = readEnum("ENUM_CUPTI_SYNC_TYPE");
    m_streamTypes = readEnum("ENUM_CUPTI_STREAM_TYPE");
    m_eventClasses = readEnum("ENUM_NSYS_EVENT_CLASS");
    m_eventTypes = readEnum("ENUM_NSYS_EVENT_TYPE");
}

void NsightSchema::fail(const std::string& what) const
{
    // Before the export's metadata is read, there is no version to name.
    throw NsightImportError(m_versionText.empty() ? what : what + " (" + m_versionText + ")");
}

bool NsightSchema::hasTable(std::string_view table) const
{
    // Where an export has a table, only a table is read: anything else in
    // its place computes its rows when read, and a report is data.
    switch (m_db.tableKind(table)) {
    case SqliteDatabase::TableKind::Missing: return false;
    case SqliteDatabase::TableKind::Table: return true;
    case SqliteDatabase::TableKind::View:
        fail(std::string(table) + " is a view, not a table: a report is read as data, and a view is a query that would run");
    case SqliteDatabase::TableKind::Virtual:
        fail(std::string(table) + " is a virtual table, not a table: a report is read as data, and a virtual table's "
                                  "module is code that would run");
    case SqliteDatabase::TableKind::Other: break;
    }
    fail(std::string(table) + " is no plain table (its schema statement is not CREATE TABLE): a report is read as data");
}

std::map<std::int64_t, std::string> NsightSchema::readEnum(std::string_view table) const
{
    std::map<std::int64_t, std::string> values;
    if (!hasTable(table))
        return values;
    const auto columns = m_db.columns(table);
    const auto has = [&columns](std::string_view name) {
        return std::any_of(columns.begin(), columns.end(), [name](const auto& c) { return c.name == name; });
    };
    if (!has("id") || !has("name"))
        fail(std::string(table) + " has no id or name column");
    SqliteStatement rows = m_db.prepare("SELECT id, name FROM " + std::string(table));
    while (rows.step())
        if (rows.isInteger(0))
            values[rows.integer(0)] = rows.text(1);
    return values;
}

std::string NsightSchema::select(std::string_view table, const std::vector<NsightColumn>& columns) const
{
    const auto present = m_db.columns(table);
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const NsightColumn& wanted = columns[i];
        const auto found = std::find_if(present.begin(), present.end(),
                                        [&wanted](const auto& c) { return c.name == wanted.name; });
        if (i > 0)
            sql += ", ";
        if (found == present.end()) {
            if (wanted.required)
                fail(std::string(table) + " has no column " + wanted.name + ", which this reader needs");
            sql += "NULL";
            continue;
        }
        // SQLite keeps any value in any column; the declared type says
        // what the writer meant. Nsight declares its numbers INTEGER.
        const std::string type = upper(found->declaredType);
        if (wanted.integer && (type.find("CHAR") != std::string::npos || type.find("TEXT") != std::string::npos
                               || type.find("REAL") != std::string::npos || type.find("BLOB") != std::string::npos))
            fail(std::string(table) + "." + wanted.name + " is declared " + messageText(found->declaredType, 20)
                 + ", where Nsight Systems writes INTEGER");
        sql += "\"" + found->name + "\"";
    }
    return sql + " FROM \"" + std::string(table) + "\"";
}

std::uint8_t NsightSchema::cuptiMemoryKind(std::optional<std::int64_t> value) const
{
    using namespace cupti;
    if (!value)
        return kMemoryUnknown;
    return byName<std::uint8_t>(m_memoryKinds, *value,
                                {{"CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", kMemoryPageable},
                                 {"CUDA_MEMOPR_MEMORY_KIND_PINNED", kMemoryPinned},
                                 {"CUDA_MEMOPR_MEMORY_KIND_DEVICE", kMemoryDevice},
                                 {"CUDA_MEMOPR_MEMORY_KIND_ARRAY", kMemoryArray},
                                 {"CUDA_MEMOPR_MEMORY_KIND_MANAGED", kMemoryManaged},
                                 {"CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", kMemoryDeviceStatic},
                                 {"CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", kMemoryManagedStatic}},
                                kMemoryUnknown,
                                // Nsight counts from pageable = 0 (CUPTI from unknown = 0); 7 is unknown.
                                {kMemoryPageable, kMemoryPinned, kMemoryDevice, kMemoryArray, kMemoryManaged,
                                 kMemoryDeviceStatic, kMemoryManagedStatic});
}

std::uint8_t NsightSchema::cuptiCopyKind(std::int64_t value, bool& unified) const
{
    using namespace cupti;
    constexpr std::uint8_t kUnified = 0xFF;
    const std::uint8_t kind = byName<std::uint8_t>(
        m_copyKinds, value,
        {{"CUDA_MEMCPY_KIND_HTOD", kCopyHtoD}, {"CUDA_MEMCPY_KIND_DTOH", kCopyDtoH},
         {"CUDA_MEMCPY_KIND_HTOA", kCopyHtoA}, {"CUDA_MEMCPY_KIND_ATOH", kCopyAtoH},
         {"CUDA_MEMCPY_KIND_ATOA", kCopyAtoA}, {"CUDA_MEMCPY_KIND_ATOD", kCopyAtoD},
         {"CUDA_MEMCPY_KIND_DTOA", kCopyDtoA}, {"CUDA_MEMCPY_KIND_DTOD", kCopyDtoD},
         {"CUDA_MEMCPY_KIND_HTOH", kCopyHtoH}, {"CUDA_MEMCPY_KIND_PTOP", kCopyPtoP},
         {"CUDA_MEMCPY_KIND_UVM_HTOD", kUnified}, {"CUDA_MEMCPY_KIND_UVM_DTOH", kUnified},
         {"CUDA_MEMCPY_KIND_UVM_DTOD", kUnified}},
        kCopyUnknown,
        // CUPTI's numbers, and the three unified-memory kinds after them.
        {kCopyUnknown, kCopyHtoD, kCopyDtoH, kCopyHtoA, kCopyAtoH, kCopyAtoA, kCopyAtoD, kCopyDtoA, kCopyDtoD,
         kCopyHtoH, kCopyPtoP, kUnified, kUnified, kUnified});
    unified = kind == kUnified;
    return unified ? std::uint8_t(kCopyUnknown) : kind;
}

std::uint32_t NsightSchema::unifiedCounter(std::int64_t copyKind) const
{
    using namespace profile;
    return byName<std::uint32_t>(m_copyKinds, copyKind,
                                 {{"CUDA_MEMCPY_KIND_UVM_HTOD", kUmBytesHtoD}, {"CUDA_MEMCPY_KIND_UVM_DTOH", kUmBytesDtoH}},
                                 0, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, kUmBytesHtoD, kUmBytesDtoH});
}

std::uint32_t NsightSchema::migrationCause(std::optional<std::int64_t> value) const
{
    using namespace profile;
    if (!value)
        return kUmCauseUnknown;
    return byName<std::uint32_t>(m_migrationCauses, *value,
                                 {{"CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER", kUmCauseUser},
                                  {"CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE", kUmCauseCoherence},
                                  {"CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH", kUmCausePrefetch},
                                  {"CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION", kUmCauseEviction},
                                  {"CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS", kUmCauseAccessCounters}},
                                 kUmCauseUnknown,
                                 {kUmCauseUnknown, kUmCauseUser, kUmCauseCoherence, kUmCausePrefetch, kUmCauseEviction,
                                  kUmCauseAccessCounters});
}

std::uint32_t NsightSchema::cuptiSyncType(std::int64_t value) const
{
    using namespace profile;
    return byName<std::uint32_t>(m_syncTypes, value,
                                 {{"CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", kSyncEvent},
                                  {"CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", kSyncStreamWaitEvent},
                                  {"CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", kSyncStream},
                                  {"CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", kSyncContext}},
                                 kSyncUnknown, {kSyncUnknown, kSyncEvent, kSyncStreamWaitEvent, kSyncStream, kSyncContext});
}

std::uint32_t NsightSchema::streamFlag(std::int64_t value) const
{
    using namespace profile;
    return byName<std::uint32_t>(m_streamTypes, value,
                                 {{"CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", kStreamFlagBlocking},
                                  {"CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", kStreamFlagNonBlocking},
                                  {"CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", kStreamFlagNull}},
                                 0, {0, kStreamFlagBlocking, kStreamFlagNonBlocking, kStreamFlagNull});
}

NsightSchema::ApiClass NsightSchema::apiClass(std::int64_t eventClass) const
{
    std::vector<ApiClass> fallback(2, ApiClass::Other);
    fallback[0] = ApiClass::Runtime;
    fallback[1] = ApiClass::Driver;
    return byName<ApiClass>(m_eventClasses, eventClass,
                            {{"TRACE_PROCESS_EVENT_CUDA_RUNTIME", ApiClass::Runtime},
                             {"TRACE_PROCESS_EVENT_CUDA_DRIVER", ApiClass::Driver}},
                            ApiClass::Other, fallback);
}

NsightSchema::NvtxKind NsightSchema::nvtxKind(std::int64_t eventType) const
{
    if (!m_eventTypes.empty())
        return byName<NvtxKind>(m_eventTypes, eventType,
                                {{"NvtxPushPopRange", NvtxKind::PushPop}, {"NvtxtPushPopRange", NvtxKind::PushPop},
                                 {"NvtxStartEndRange", NvtxKind::StartEnd}, {"NvtxtStartEndRange", NvtxKind::StartEnd}},
                                NvtxKind::Other, {});
    // The 2.x values (the same as 3.x's table).
    switch (eventType) {
    case 59:
    case 70: return NvtxKind::PushPop;
    case 60:
    case 71: return NvtxKind::StartEnd;
    default: return NvtxKind::Other;
    }
}

} // namespace ovs
