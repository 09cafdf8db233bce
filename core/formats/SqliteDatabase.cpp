#include "formats/SqliteDatabase.h"

#include "base/MessageText.h"

#include <sqlite3.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

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

// The work a read may do. Reading the real exports took 0.06 steps a byte,
// a dense one of 400,000 kernels 0.45 (docs/trace-format.md): 16 leaves
// room for any export, and stops a crafted one after about 14 s per 100 MB
// (SQLite does some 115 million steps a second here). The base lets a
// small file's schema and lookups through.
constexpr std::uint64_t kBaseSteps = 20'000'000;
constexpr std::uint64_t kStepsPerByte = 16;

// The word after CREATE in a schema statement, in capitals ("TABLE",
// "VIRTUAL", "VIEW"), past white space and comments as SQLite's own parser
// skips them.
std::string wordAfterCreate(std::string_view sql)
{
    std::size_t at = 0;
    const auto skipGaps = [&] {
        for (;;) {
            while (at < sql.size() && std::isspace(static_cast<unsigned char>(sql[at])))
                ++at;
            if (sql.substr(at, 2) == "--") {
                const auto end = sql.find('\n', at);
                at = end == std::string_view::npos ? sql.size() : end;
            } else if (sql.substr(at, 2) == "/*") {
                const auto end = sql.find("*/", at + 2);
                at = end == std::string_view::npos ? sql.size() : end + 2;
            } else {
                return;
            }
        }
    };
    const auto word = [&] {
        skipGaps();
        std::string text;
        while (at < sql.size() && std::isalpha(static_cast<unsigned char>(sql[at])))
            text.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(sql[at++]))));
        return text;
    };
    return word() == "CREATE" ? word() : std::string();
}

std::string megabytes(std::uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

} // namespace

SqliteDatabase::SqliteDatabase(const std::string& path, const CancelFlag* cancel) : m_cancel(cancel)
{
    std::error_code error;
    m_fileBytes = std::filesystem::file_size(path, error);
    if (error)
        m_fileBytes = 0; // then opening fails
    // A WAL database's log is read with it.
    if (const auto log = std::filesystem::file_size(path + "-wal", error); !error)
        m_fileBytes += log;
    m_budget = kBaseSteps + kStepsPerByte * m_fileBytes;

    const std::string uri = fileUri(path) + (isWalDatabase(path) ? "?mode=ro" : "?mode=ro&immutable=1");
    const int status = sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (status != SQLITE_OK) {
        const std::string why = messageText(m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(status), 200);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw SqliteError(SqliteError::Cause::Unreadable, "cannot open the SQLite database: " + why);
    }
    // A constructor that throws runs no destructor: the handle is closed here.
    try {
        guard();
        // A damaged file shows itself at the first read of its schema.
        prepare("SELECT count(*) FROM sqlite_master").step();
    } catch (...) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw;
    }
}

void SqliteDatabase::guard()
{
    // SQLite's advice for files from strangers (sqlite.org/security.html),
    // before the schema is first read: nothing of the file's may run (views
    // and triggers off, so that a view in a table's place cannot be read
    // even past tableKind; functions only where SQLite deems them harmless;
    // no extensions), and no statement can grow past what reading a report's
    // rows needs. Any of it missing (an SQLite older than 3.35) refuses.
    const std::pair<int, int> settings[] = {
        {SQLITE_DBCONFIG_DEFENSIVE, 1},          {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
        {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0}, {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0},
        {SQLITE_DBCONFIG_ENABLE_VIEW, 0},        {SQLITE_DBCONFIG_DQS_DML, 0},
    };
    for (const auto& [setting, value] : settings) {
        int now = -1;
        if (sqlite3_db_config(m_db, setting, value, &now) != SQLITE_OK || now != value)
            throw SqliteError(SqliteError::Cause::Unreadable,
                              std::string("this SQLite (") + sqlite3_libversion() + ") cannot open a file defensively");
    }
    // Above what reading a real export needs (measured on tests/data/nsight/:
    // values to 97,328 bytes, schema statements to 4,373, tables to 41
    // columns; our statements have no compound, depth 3, one variable), far
    // below SQLite's defaults (a billion bytes a value).
    const std::pair<int, int> limits[] = {
        {SQLITE_LIMIT_LENGTH, kMaxValueBytes}, {SQLITE_LIMIT_SQL_LENGTH, kMaxSqlBytes},
        {SQLITE_LIMIT_COLUMN, 256},            {SQLITE_LIMIT_EXPR_DEPTH, 32},
        {SQLITE_LIMIT_COMPOUND_SELECT, 3},     {SQLITE_LIMIT_VDBE_OP, 25000},
        {SQLITE_LIMIT_FUNCTION_ARG, 8},        {SQLITE_LIMIT_ATTACHED, 0},
        {SQLITE_LIMIT_VARIABLE_NUMBER, 8},     {SQLITE_LIMIT_TRIGGER_DEPTH, 1},
    };
    for (const auto& [limit, value] : limits)
        sqlite3_limit(m_db, limit, value);
    sqlite3_progress_handler(m_db, kStepsPerCheck, &SqliteDatabase::onProgress, this);
    // Pages are checked as they are read, and read through the page cache
    // (a bounded 2 MB by default), not mapped.
    prepare("PRAGMA cell_size_check = ON").step();
    prepare("PRAGMA mmap_size = 0").step();
}

int SqliteDatabase::onProgress(void* database)
{
    const auto* self = static_cast<const SqliteDatabase*>(database);
    if (self->m_cancel && self->m_cancel->isCancelled()) {
        self->m_stop = Stop::Cancelled;
        return 1;
    }
    self->m_steps += kStepsPerCheck;
    if (self->m_steps > self->m_budget) {
        self->m_stop = Stop::OverBudget;
        return 1;
    }
    return 0;
}

SqliteDatabase::~SqliteDatabase()
{
    // close_v2: a statement still alive (it should not be) keeps the handle
    // until it is finalized, where sqlite3_close would refuse and leak.
    sqlite3_close_v2(m_db);
}

void SqliteDatabase::throwLastError() const
{
    switch (m_stop) {
    case Stop::Cancelled: throw RunCancelled();
    case Stop::OverBudget:
        throw SqliteError(SqliteError::Cause::OverBudget,
                          "reading it went past its work budget of " + std::to_string(m_budget / 1000000)
                              + " million SQLite steps for a file of " + megabytes(m_fileBytes)
                              + ", and was stopped");
    case Stop::None: break;
    }
    // SQLite quotes the file in its messages (a schema statement's text,
    // line breaks and all): one line, of a bounded length.
    const std::string why = messageText(sqlite3_errmsg(m_db), 200);
    throw SqliteError(sqlite3_errcode(m_db) == SQLITE_TOOBIG ? SqliteError::Cause::ValueTooLong
                                                             : SqliteError::Cause::Unreadable,
                      why);
}

SqliteStatement SqliteDatabase::prepare(const std::string& sql) const
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
        sqlite3_finalize(statement);
        throwLastError();
    }
    return SqliteStatement(*this, statement);
}

SqliteDatabase::TableKind SqliteDatabase::tableKind(std::string_view table) const
{
    std::string literal;
    for (const char c : table)
        literal += c == '\'' ? std::string("''") : std::string(1, c);
    // The schema table is read as text; nothing named in it is opened.
    SqliteStatement query = prepare("SELECT type, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name = '"
                                    + literal + "' COLLATE NOCASE");
    if (!query.step())
        return TableKind::Missing;
    if (query.text(0) == "view")
        return TableKind::View;
    // What SQLite builds from the entry is what its statement says, whatever
    // the type column claims.
    const std::string kind = wordAfterCreate(query.text(1));
    return kind == "TABLE" ? TableKind::Table : kind == "VIRTUAL" ? TableKind::Virtual
                                              : kind == "VIEW"    ? TableKind::View
                                                                  : TableKind::Other;
}

std::string SqliteDatabase::firstTrigger() const
{
    SqliteStatement query = prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' LIMIT 1");
    return query.step() ? query.text(0) : std::string();
}

std::vector<SqliteDatabase::Column> SqliteDatabase::columns(std::string_view table) const
{
    // table_info would build a view's columns from its query and connect a
    // virtual table's module.
    if (tableKind(table) != TableKind::Table)
        throw SqliteError(SqliteError::Cause::Unreadable, std::string(table) + " is not a table");
    std::vector<Column> result;
    SqliteStatement query = prepare("PRAGMA table_info(" + quotedIdentifier(table) + ")");
    // table_info's columns: cid, name, type, notnull, dflt_value, pk.
    while (query.step())
        result.push_back({query.text(1), query.text(2)});
    return result;
}

SqliteStatement::SqliteStatement(const SqliteDatabase& database, sqlite3_stmt* statement)
    : m_database(&database), m_statement(statement)
{
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_database(other.m_database), m_statement(other.m_statement)
{
    other.m_statement = nullptr;
}

void SqliteStatement::bind(int index, std::int64_t value)
{
    if (sqlite3_bind_int64(m_statement, index, value) != SQLITE_OK)
        m_database->throwLastError();
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
    m_database->throwLastError();
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
