#pragma once

#include "formats/SqliteDatabase.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ovs {

// Why an Nsight Systems export could not be read, in one line that names
// the export's version.
struct NsightImportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A column a reader wants from a table, by name (never by position).
struct NsightColumn {
    const char* name;
    bool required = true;
    bool integer = true; // else text
};

// What an Nsight Systems SQLite export (nsys export --type sqlite) says
// about itself: its version (EXPORT_META_DATA in schema 2.x, 2022 and
// before; META_DATA_EXPORT in 3.x, 2023 on), its tables and columns checked
// by name, and its enumerations. Schema 3.x stores them in ENUM_* tables,
// which are read by their names; 2.x has none, and its values are taken as
// what the 2.x documentation and the real 2022.2 export in
// tests/data/nsight/ show, which are the numbers 3.x's tables give too
// (docs/trace-format.md, "Nsight Systems reports").
class NsightSchema {
public:
    // Throws NsightImportError when the database is not an Nsight export.
    explicit NsightSchema(const SqliteDatabase& db);

    // "Nsight Systems 2022.2.1.31, export schema 2.9.1"
    const std::string& versionText() const { return m_versionText; }
    int schemaMajor() const { return m_schemaMajor; }
    [[noreturn]] void fail(const std::string& what) const;

    // True for a table, false where there is none; a view, a virtual table
    // or anything else under the name fails, naming it.
    bool hasTable(std::string_view table) const;
    // "SELECT a, b, NULL FROM t" for the columns in order. A required
    // column that is missing, or that is declared TEXT or REAL where Nsight
    // writes INTEGER, fails with a message naming the table, the column
    // and this export's version; a missing optional one reads as NULL.
    std::string select(std::string_view table, const std::vector<NsightColumn>& columns) const;

    // Nsight's values as CUPTI's (cupti/RecordValues.h, profile/ProfileRecord.h).
    // No value (a NULL) is CUPTI's unknown.
    std::uint8_t cuptiMemoryKind(std::optional<std::int64_t> value) const;
    // CUPTI's copy kind; `unified` for the unified-memory migrations that
    // Nsight adds to the copy kinds (Unified Host-to-Device, ...).
    std::uint8_t cuptiCopyKind(std::int64_t value, bool& unified) const;
    // The unified-memory counter (profile/ProfileRecord.h) of such a
    // migration's copy kind: kUmBytesHtoD or kUmBytesDtoH; 0 for others
    // (Unified Device-to-Device, which CUPTI's counters do not have).
    std::uint32_t unifiedCounter(std::int64_t copyKind) const;
    // A migration's cause as CUPTI's (UnifiedMemoryCause); 2.x stores
    // CUPTI's numbers, 3.x names them in ENUM_CUDA_UNIF_MEM_MIGRATION.
    std::uint32_t migrationCause(std::optional<std::int64_t> value) const;
    std::uint32_t cuptiSyncType(std::int64_t value) const;
    // ProfileRecord.h's stream flags: 1 blocking, 2 non-blocking, 3 null, 0 unknown.
    std::uint32_t streamFlag(std::int64_t value) const;
    enum class ApiClass : std::uint8_t { Runtime, Driver, Other };
    ApiClass apiClass(std::int64_t eventClass) const;
    enum class NvtxKind : std::uint8_t { PushPop, StartEnd, Other };
    NvtxKind nvtxKind(std::int64_t eventType) const;

private:
    // An ENUM_* table as id -> name; empty where the export has none.
    std::map<std::int64_t, std::string> readEnum(std::string_view table) const;

    const SqliteDatabase& m_db;
    std::string m_versionText;
    int m_schemaMajor = 0;
    std::map<std::int64_t, std::string> m_memoryKinds;
    std::map<std::int64_t, std::string> m_copyKinds;
    std::map<std::int64_t, std::string> m_migrationCauses;
    std::map<std::int64_t, std::string> m_syncTypes;
    std::map<std::int64_t, std::string> m_streamTypes;
    std::map<std::int64_t, std::string> m_eventClasses;
    std::map<std::int64_t, std::string> m_eventTypes;
};

} // namespace ovs
