#include "trace/JsonParser.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <unordered_set>

namespace ovs {

namespace {

struct ParseError {
    const char* at;
    std::string message;
};

// Objects with more members than this get a hash set for the duplicate check;
// smaller ones are scanned, which is faster at the sizes our files use.
constexpr std::size_t kLinearKeyCheckLimit = 32;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string describe(const char* at, const char* end)
{
    if (at == end)
        return "end of input";
    const auto c = static_cast<unsigned char>(*at);
    if (c >= 0x21 && c < 0x7f)
        return std::string("'") + static_cast<char>(c) + "'";
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 0xf];
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : m_p(text.data()), m_end(text.data() + text.size()) {}

    Json parseDocument()
    {
        Json value = parseValue(0);
        skipWhitespace();
        if (m_p != m_end)
            fail(m_p, "unexpected " + describe(m_p, m_end) + " after the JSON value");
        return value;
    }

private:
    [[noreturn]] void fail(const char* at, std::string message) { throw ParseError{at, std::move(message)}; }

    void skipWhitespace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    Json parseValue(int depth)
    {
        skipWhitespace();
        if (m_p == m_end)
            fail(m_p, "unexpected end of input: expected a value");
        switch (*m_p) {
        case '{': return parseObject(depth + 1);
        case '[': return parseArray(depth + 1);
        case '"': {
            std::string text;
            parseString(text);
            return Json(std::move(text));
        }
        case 't': parseLiteral("true"); return Json(true);
        case 'f': parseLiteral("false"); return Json(false);
        case 'n': parseLiteral("null"); return Json(nullptr);
        default:
            if (*m_p == '-' || isDigit(*m_p))
                return parseNumber();
            fail(m_p, "expected a value, found " + describe(m_p, m_end));
        }
    }

    void parseLiteral(std::string_view word)
    {
        const char* start = m_p;
        for (char expected : word) {
            if (m_p == m_end || *m_p != expected)
                fail(start, "invalid literal: expected '" + std::string(word) + "'");
            ++m_p;
        }
    }

    void checkDepth(int depth)
    {
        if (depth > kJsonMaxDepth)
            fail(m_p, "nesting deeper than " + std::to_string(kJsonMaxDepth) + " levels");
    }

    Json parseArray(int depth)
    {
        checkDepth(depth);
        ++m_p;
        Json::Array elements;
        skipWhitespace();
        if (m_p != m_end && *m_p == ']') {
            ++m_p;
            return Json(std::move(elements));
        }
        for (;;) {
            elements.push_back(parseValue(depth));
            skipWhitespace();
            if (m_p == m_end)
                fail(m_p, "unexpected end of input: expected ',' or ']'");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == ']') {
                ++m_p;
                return Json(std::move(elements));
            }
            fail(m_p, "expected ',' or ']', found " + describe(m_p, m_end));
        }
    }

    Json parseObject(int depth)
    {
        checkDepth(depth);
        ++m_p;
        Json::Object members;
        std::unordered_set<std::string> seen;
        skipWhitespace();
        if (m_p != m_end && *m_p == '}') {
            ++m_p;
            return Json(std::move(members));
        }
        for (;;) {
            skipWhitespace();
            if (m_p == m_end)
                fail(m_p, "unexpected end of input: expected a string key");
            if (*m_p != '"')
                fail(m_p, "expected a string key, found " + describe(m_p, m_end));
            const char* keyStart = m_p;
            std::string key;
            parseString(key);
            if (isDuplicate(members, seen, key))
            {
                // The message is one line even when the key is not.
                std::string shown = key;
                std::replace_if(shown.begin(), shown.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }, ' ');
                fail(keyStart, "duplicate key \"" + shown + "\"");
            }
            skipWhitespace();
            if (m_p == m_end)
                fail(m_p, "unexpected end of input: expected ':'");
            if (*m_p != ':')
                fail(m_p, "expected ':', found " + describe(m_p, m_end));
            ++m_p;
            Json value = parseValue(depth);
            members.emplace_back(std::move(key), std::move(value));
            skipWhitespace();
            if (m_p == m_end)
                fail(m_p, "unexpected end of input: expected ',' or '}'");
            if (*m_p == ',') {
                ++m_p;
                continue;
            }
            if (*m_p == '}') {
                ++m_p;
                return Json(std::move(members));
            }
            fail(m_p, "expected ',' or '}', found " + describe(m_p, m_end));
        }
    }

    static bool isDuplicate(const Json::Object& members, std::unordered_set<std::string>& seen, const std::string& key)
    {
        if (members.size() < kLinearKeyCheckLimit) {
            for (const auto& member : members)
                if (member.first == key)
                    return true;
            return false;
        }
        if (seen.empty())
            for (const auto& member : members)
                seen.insert(member.first);
        return !seen.insert(key).second;
    }

    void parseString(std::string& out)
    {
        ++m_p;
        const char* runStart = m_p;
        for (;;) {
            if (m_p == m_end)
                fail(m_p, "unexpected end of input in a string");
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out.append(runStart, m_p);
                ++m_p;
                return;
            }
            if (c == '\\') {
                out.append(runStart, m_p);
                parseEscape(out);
                runStart = m_p;
            } else if (c < 0x20) {
                static constexpr char kHex[] = "0123456789ABCDEF";
                fail(m_p, std::string("control character U+00") + kHex[c >> 4] + kHex[c & 0xf]
                              + " in a string must be escaped");
            } else if (c < 0x80) {
                ++m_p;
            } else {
                skipUtf8Sequence();
            }
        }
    }

    // Accepts exactly the well-formed sequences of Unicode table 3-7: no
    // overlong forms, no surrogates, nothing past U+10FFFF.
    void skipUtf8Sequence()
    {
        const auto* s = reinterpret_cast<const unsigned char*>(m_p);
        const auto left = static_cast<std::size_t>(m_end - m_p);
        const unsigned char c = s[0];
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            if (c == 0xE0)
                low = 0xA0;
            else if (c == 0xED)
                high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            if (c == 0xF0)
                low = 0x90;
            else if (c == 0xF4)
                high = 0x8F;
        } else {
            fail(m_p, "invalid UTF-8 in a string");
        }
        if (left < length)
            fail(m_p, "invalid UTF-8 in a string");
        if (s[1] < low || s[1] > high)
            fail(m_p, "invalid UTF-8 in a string");
        for (std::size_t i = 2; i < length; ++i)
            if (s[i] < 0x80 || s[i] > 0xBF)
                fail(m_p, "invalid UTF-8 in a string");
        m_p += length;
    }

    void parseEscape(std::string& out)
    {
        const char* start = m_p;
        ++m_p;
        if (m_p == m_end)
            fail(m_p, "unexpected end of input in a string");
        switch (*m_p) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
            ++m_p;
            std::uint32_t cp = parseHex4(start);
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                fail(start, "invalid \\u escape: unpaired low surrogate");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                    fail(start, "invalid \\u escape: high surrogate not followed by a low surrogate");
                m_p += 2;
                const std::uint32_t low = parseHex4(start);
                if (low < 0xDC00 || low > 0xDFFF)
                    fail(start, "invalid \\u escape: high surrogate not followed by a low surrogate");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            appendUtf8(out, cp);
            return;
        }
        default: fail(start, "invalid escape \\" + describe(m_p, m_end));
        }
        ++m_p;
    }

    std::uint32_t parseHex4(const char* escapeStart)
    {
        std::uint32_t value = 0;
        for (int i = 0; i < 4; ++i, ++m_p) {
            if (m_p == m_end)
                fail(m_p, "unexpected end of input in a string");
            const char c = *m_p;
            std::uint32_t digit;
            if (c >= '0' && c <= '9')
                digit = static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                digit = static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                digit = static_cast<std::uint32_t>(c - 'A' + 10);
            else
                fail(escapeStart, "invalid \\u escape: expected 4 hex digits");
            value = value * 16 + digit;
        }
        return value;
    }

    Json parseNumber()
    {
        const char* start = m_p;
        const bool negative = *m_p == '-';
        if (negative)
            ++m_p;
        if (m_p == m_end || !isDigit(*m_p))
            fail(m_p, "invalid number: expected a digit, found " + describe(m_p, m_end));
        const char* digitsStart = m_p;
        if (*m_p == '0') {
            ++m_p;
            if (m_p != m_end && isDigit(*m_p))
                fail(start, "invalid number: leading zeros are not allowed");
        } else {
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
        }
        const char* digitsEnd = m_p;
        bool integral = true;
        if (m_p != m_end && *m_p == '.') {
            ++m_p;
            if (m_p == m_end || !isDigit(*m_p))
                fail(m_p, "invalid number: expected a digit after '.'");
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
            integral = false;
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            ++m_p;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (m_p == m_end || !isDigit(*m_p))
                fail(m_p, "invalid number: expected a digit in the exponent");
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
            integral = false;
        }
        if (integral) {
            // Exact when it fits int64; larger integers fall through to double.
            constexpr std::uint64_t kLimit = std::uint64_t(1) << 63;
            std::uint64_t magnitude = 0;
            bool fits = true;
            for (const char* d = digitsStart; d != digitsEnd && fits; ++d) {
                const auto digit = static_cast<std::uint64_t>(*d - '0');
                if (magnitude > (kLimit - digit) / 10)
                    fits = false;
                else
                    magnitude = magnitude * 10 + digit;
            }
            if (fits && (negative || magnitude < kLimit))
                return Json(negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude));
        }
        double value = 0;
        const auto result = std::from_chars(start, m_p, value);
        if (result.ec != std::errc() || result.ptr != m_p)
            fail(start, "number out of range: " + std::string(start, m_p));
        return Json(value);
    }

    const char* m_p;
    const char* m_end;
};

} // namespace

JsonParseResult parseJson(std::string_view text)
{
    JsonParseResult result;
    try {
        result.value = Parser(text).parseDocument();
    } catch (const ParseError& error) {
        int line = 1;
        int column = 1;
        for (const char* p = text.data(); p != error.at; ++p) {
            if (*p == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(*p) & 0xC0) != 0x80) {
                ++column;
            }
        }
        result.line = line;
        result.column = column;
        result.error = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + error.message;
    }
    return result;
}

} // namespace ovs
