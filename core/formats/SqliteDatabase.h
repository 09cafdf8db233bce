#pragma once

#include "base/CancelFlag.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ovs {

// What reading a database failed on, in one line for the user, and which
// kind of failure it was, so that a reader can say it in its own words.
struct SqliteError : std::runtime_error {
    enum class Cause : std::uint8_t {
        Unreadable,   // not a database, damaged, cut short, or a statement it refused
        ValueTooLong, // a value over SqliteDatabase::kMaxValueBytes
        OverBudget,   // more work than SqliteDatabase::workBudget allows
    };
    SqliteError(Cause why, const std::string& what) : std::runtime_error(what), cause(why) {}
    Cause cause;
};

class SqliteStatement;

// One SQLite database from a stranger, opened as data, never as a program
// (docs/trace-format.md, "Nsight Systems reports"): read-only, and
// immutable where it is not in write-ahead-log mode (no locks, no side
// files; a WAL database is opened plainly read-only, since immutable would
// ignore what its log holds). No view, trigger or extension of the file
// runs (SQLite's defensive mode, trusted_schema off, views and triggers
// switched off), tableKind tells real tables from what stands in their
// place, no value is longer than kMaxValueBytes, and every statement
// stops once the connection has done its work budget (virtual machine
// steps in proportion to the file's size) or once `cancel` is raised.
class SqliteDatabase {
public:
    // Real exports' longest value is 97,328 bytes and their longest
    // schema statement 4,373 bytes (measured on tests/data/nsight/);
    // limits ten times that and more leave room for longer names while no
    // single value can hold the memory a crafted one asks for.
    static constexpr int kMaxValueBytes = 1 << 20;
    static constexpr int kMaxSqlBytes = 64 << 10;
    // A read checks its budget and cancel flag every this many steps.
    static constexpr int kStepsPerCheck = 1000;

    // Throws SqliteError when the file cannot be opened as a database.
    // `cancel`, raised from another thread, ends the statement in flight
    // with RunCancelled.
    explicit SqliteDatabase(const std::string& path, const CancelFlag* cancel = nullptr);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    // What the schema has under a name (SQLite's names ignore ASCII case):
    // only a Table holds rows that reading does not compute.
    enum class TableKind : std::uint8_t { Missing, Table, View, Virtual, Other };
    TableKind tableKind(std::string_view table) const;
    // The name of a trigger the file holds, or "" when it holds none (read
    // from the schema's text: nothing is compiled).
    std::string firstTrigger() const;
    struct Column {
        std::string name;
        std::string declaredType; // "INTEGER", "TEXT", "" when none
    };
    // A real table's stored columns by name (PRAGMA table_info; generated
    // columns are computed, not stored, and are not listed). Throws
    // SqliteError for a name that is no real table.
    std::vector<Column> columns(std::string_view table) const;
    SqliteStatement prepare(const std::string& sql) const;
    // The virtual machine steps every statement together may take.
    std::uint64_t workBudget() const { return m_budget; }
    // Throws what stopped the connection's last call: RunCancelled, or a
    // SqliteError of the cause that applies.
    [[noreturn]] void throwLastError() const;

private:
    void guard();
    static int onProgress(void* database);

    sqlite3* m_db = nullptr;
    const CancelFlag* m_cancel = nullptr;
    std::uint64_t m_fileBytes = 0;
    std::uint64_t m_budget = 0;
    // Changed by the progress handler, which SQLite calls from inside a
    // const method's statement.
    mutable std::uint64_t m_steps = 0;
    enum class Stop : std::uint8_t { None, Cancelled, OverBudget };
    mutable Stop m_stop = Stop::None;
};

// A prepared statement stepped row by row: rows are streamed from the file,
// never gathered. Any error other than "no more rows" throws as
// SqliteDatabase::throwLastError does (a truncated or damaged file reads as
// one, on the row it reaches).
class SqliteStatement {
public:
    SqliteStatement(const SqliteDatabase& database, sqlite3_stmt* statement);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement& operator=(SqliteStatement&&) = delete;

    void bind(int index, std::int64_t value); // 1-based, as SQLite counts
    void reset();
    // True with a row to read, false at the end.
    bool step();

    bool isNull(int column) const;
    bool isInteger(int column) const;
    bool isText(int column) const;
    std::int64_t integer(int column) const;
    // The integer when it is one; nullopt for NULL or another type.
    std::optional<std::int64_t> optionalInteger(int column) const;
    std::string text(int column) const; // "" for NULL

private:
    const SqliteDatabase* m_database = nullptr;
    sqlite3_stmt* m_statement = nullptr;
};

} // namespace ovs
