#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ovs {

// What reading a database failed on, in one line for the user.
struct SqliteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class SqliteStatement;

// One SQLite database opened read-only (libsqlite3): nothing we do can
// change the file, and a report on a read-only disk opens as well. Where the
// file is not in write-ahead-log mode it is opened immutable too, so SQLite
// takes no locks and makes no side files: a finished report does not change
// under us. A WAL database is opened plainly read-only, since immutable would
// ignore what its log holds.
class SqliteDatabase {
public:
    // Throws SqliteError when the file cannot be opened as a database.
    explicit SqliteDatabase(const std::string& path);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    bool hasTable(std::string_view table) const;
    struct Column {
        std::string name;
        std::string declaredType; // "INTEGER", "TEXT", "" when none
    };
    // The table's columns by name (PRAGMA table_info); empty when it has none.
    std::vector<Column> columns(std::string_view table) const;
    SqliteStatement prepare(const std::string& sql) const;
    // The connection's last error, for messages.
    std::string lastError() const;

private:
    sqlite3* m_db = nullptr;
};

// A prepared statement stepped row by row: rows are streamed from the file,
// never gathered. Any error other than "no more rows" throws SqliteError
// (a truncated or damaged file reads as one, on the row it reaches).
class SqliteStatement {
public:
    SqliteStatement(sqlite3* db, sqlite3_stmt* statement);
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
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_statement = nullptr;
};

} // namespace ovs
