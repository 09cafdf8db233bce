#include "formats/SqliteDatabase.h"

#include <sqlite3.h>

#include <cstdio>
#include <fstream>

namespace ovs {

namespace {

// A path as a file: URI, so that "?", "#" and "%" in a name stay a name.
std::string fileUri(const std::string& path)
{
    std::string uri = "file:";
    for (const char c : path) {
        const auto u = static_cast<unsigned char>(c);
        const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '/'
                           || c == '-' || c == '_' || c == '.' || c == '~';
        if (plain) {
            uri.push_back(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", u);
            uri += escaped;
        }
    }
    return uri;
}

// Byte 18 of the header is 2 in write-ahead-log mode (SQLite's file format).
bool isWalDatabase(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    char header[20] = {};
    return file.read(header, sizeof header) && header[18] == 2;
}

std::string quotedIdentifier(std::string_view name)
{
    std::string quoted = "\"";
    for (const char c : name) {
        quoted.push_back(c);
        if (c == '"')
            quoted.push_back('"');
    }
    return quoted + "\"";
}

} // namespace

SqliteDatabase::SqliteDatabase(const std::string& path)
{
    const std::string uri = fileUri(path) + (isWalDatabase(path) ? "?mode=ro" : "?mode=ro&immutable=1");
    const int status = sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (status != SQLITE_OK) {
        const std::string why = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(status);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw SqliteError("cannot open the SQLite database: " + why);
    }
    // A damaged file shows itself at the first read of its schema. A
    // constructor that throws runs no destructor: the handle is closed here.
    try {
        prepare("SELECT count(*) FROM sqlite_master").step();
    } catch (...) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw;
    }
}

SqliteDatabase::~SqliteDatabase()
{
    // close_v2: a statement still alive (it should not be) keeps the handle
    // until it is finalized, where sqlite3_close would refuse and leak.
    sqlite3_close_v2(m_db);
}

std::string SqliteDatabase::lastError() const
{
    return sqlite3_errmsg(m_db);
}

SqliteStatement SqliteDatabase::prepare(const std::string& sql) const
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
        sqlite3_finalize(statement);
        throw SqliteError(lastError());
    }
    return SqliteStatement(m_db, statement);
}

bool SqliteDatabase::hasTable(std::string_view table) const
{
    std::string literal;
    for (const char c : table)
        literal += c == '\'' ? std::string("''") : std::string(1, c);
    SqliteStatement query =
        prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = '" + literal + "'");
    return query.step();
}

std::vector<SqliteDatabase::Column> SqliteDatabase::columns(std::string_view table) const
{
    std::vector<Column> result;
    SqliteStatement query = prepare("PRAGMA table_info(" + quotedIdentifier(table) + ")");
    // table_info's columns: cid, name, type, notnull, dflt_value, pk.
    while (query.step())
        result.push_back({query.text(1), query.text(2)});
    return result;
}

SqliteStatement::SqliteStatement(sqlite3* db, sqlite3_stmt* statement) : m_db(db), m_statement(statement) {}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db), m_statement(other.m_statement)
{
    other.m_statement = nullptr;
}

void SqliteStatement::bind(int index, std::int64_t value)
{
    if (sqlite3_bind_int64(m_statement, index, value) != SQLITE_OK)
        throw SqliteError(sqlite3_errmsg(m_db));
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_statement);
}

bool SqliteStatement::step()
{
    const int status = sqlite3_step(m_statement);
    if (status == SQLITE_ROW)
        return true;
    if (status == SQLITE_DONE)
        return false;
    throw SqliteError(sqlite3_errmsg(m_db));
}

bool SqliteStatement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

bool SqliteStatement::isInteger(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_INTEGER;
}

bool SqliteStatement::isText(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_TEXT;
}

std::int64_t SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

std::optional<std::int64_t> SqliteStatement::optionalInteger(int column) const
{
    if (!isInteger(column))
        return std::nullopt;
    return integer(column);
}

std::string SqliteStatement::text(int column) const
{
    const auto* bytes = sqlite3_column_text(m_statement, column);
    if (!bytes)
        return {};
    return std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)));
}

} // namespace ovs
