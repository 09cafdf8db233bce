#include "io/JsonReader.h"

#include "base/MessageText.h"
#include "io/JsonTextScan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>

namespace ovs {

namespace sj = simdjson;
namespace od = simdjson::ondemand;

namespace {

// A byte for a message: 'x' when printable ASCII, else its hex value.
std::string describeByte(const char* p, const char* end)
{
    if (p >= end)
        return "the end of the input";
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x21 && c < 0x7f)
        return std::string("'") + static_cast<char>(c) + "'";
    char text[16];
    std::snprintf(text, sizeof text, "byte 0x%02x", c);
    return text;
}

// Where the UTF-8 of `text` first goes wrong (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF); text.size() when it is all valid.
// simdjson only says that it is invalid; a user wants to know where.
std::size_t firstInvalidUtf8(std::string_view text)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xbf; // allowed range of the second byte
        if (c >= 0xc2 && c <= 0xdf) {
            length = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            length = 3;
            if (c == 0xe0)
                low = 0xa0;
            if (c == 0xed)
                high = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            length = 4;
            if (c == 0xf0)
                low = 0x90;
            if (c == 0xf4)
                high = 0x8f;
        } else {
            return i;
        }
        if (i + length > n || s[i + 1] < low || s[i + 1] > high)
            return i;
        for (std::size_t k = 2; k < length; ++k)
            if (s[i + k] < 0x80 || s[i + k] > 0xbf)
                return i;
        i += length;
    }
    return n;
}

// For errors simdjson finds before walking (unclosed strings, raw control
// characters): the string they are in, found by a plain scan.
struct StringScan {
    std::size_t unclosedStart = std::string_view::npos; // opening quote of an unclosed string
    std::size_t controlCharacter = std::string_view::npos;
};

StringScan scanStrings(std::string_view text)
{
    StringScan scan;
    bool inString = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!inString) {
            if (c == '"') {
                inString = true;
                start = i;
            }
        } else if (c == '\\') {
            ++i;
        } else if (c == '"') {
            inString = false;
        } else if (static_cast<unsigned char>(c) < 0x20 && scan.controlCharacter == std::string_view::npos) {
            scan.controlCharacter = i;
        }
    }
    if (inString)
        scan.unclosedStart = start;
    return scan;
}

// RFC 8259's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(std::string_view t)
{
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9')
            ++i;
        return i > from;
    };
    if (i < t.size() && t[i] == '-')
        ++i;
    if (i < t.size() && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == t.size();
}

// Whether an integer literal fits int64 (its magnitude is checked as text).
bool fitsInt64(std::string_view t)
{
    const bool negative = !t.empty() && t[0] == '-';
    const std::string_view digits = t.substr(negative ? 1 : 0);
    constexpr std::string_view kMax = "9223372036854775807";
    constexpr std::string_view kMinMagnitude = "9223372036854775808";
    if (digits.size() != kMax.size())
        return digits.size() < kMax.size();
    return digits <= (negative ? kMinMagnitude : kMax);
}

// Whether a JSON number's magnitude is at least 1 (decides whether a number
// no double holds is too large or too small).
bool exceedsOne(std::string_view t)
{
    std::size_t i = t[0] == '-' ? 1 : 0;
    long long position = 0; // of the first non-zero digit, relative to the point
    bool seenDigit = false, afterPoint = false;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
        if (t[i] == '.') {
            afterPoint = true;
        } else if (!seenDigit && t[i] != '0') {
            seenDigit = true;
            position = afterPoint ? position : 0;
        }
        if (t[i] >= '0' && t[i] <= '9') {
            if (!afterPoint && seenDigit)
                ++position; // integer digits from the first non-zero one
            else if (afterPoint && !seenDigit)
                --position;
        }
    }
    long long exponent = 0;
    if (i < t.size()) {
        ++i;
        const bool negative = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        for (; i < t.size(); ++i)
            exponent = std::min(exponent * 10 + (t[i] - '0'), 1'000'000'000LL);
        if (negative)
            exponent = -exponent;
    }
    return seenDigit && position + exponent > 0;
}

} // namespace

const char* describe(JsonKind kind)
{
    switch (kind) {
    case JsonKind::Null: return "null";
    case JsonKind::Bool: return "true or false";
    case JsonKind::Integer: return "an integer";
    case JsonKind::Number: return "a number";
    case JsonKind::String: return "a string";
    case JsonKind::Array: return "an array";
    case JsonKind::Object: return "an object";
    }
    return "unknown";
}

JsonReader::JsonReader(std::string_view text) : m_text(text), m_parser(m_ownParser)
{
    start();
}

JsonReader::JsonReader(std::string_view text, od::parser& parser) : m_text(text), m_parser(parser)
{
    start();
}

void JsonReader::start()
{
    const std::string_view text = m_text;
    const auto error = m_parser.iterate(sj::padded_string_view(text.data(), text.size(), text.size() + sj::SIMDJSON_PADDING))
                           .get(m_document);
    if (!error)
        return;
    // Stage-1 errors come without a place: find it ourselves.
    const char* end = text.data() + text.size();
    if (error == sj::UTF8_ERROR) {
        syntaxErrorAt(text.data() + firstInvalidUtf8(text), "invalid UTF-8");
    }
    const StringScan scan = scanStrings(text);
    if (error == sj::UNCLOSED_STRING && scan.unclosedStart != std::string_view::npos)
        syntaxErrorAt(text.data() + scan.unclosedStart, "unexpected end of input in a string");
    if (error == sj::UNESCAPED_CHARS && scan.controlCharacter != std::string_view::npos) {
        char what[80];
        std::snprintf(what, sizeof what, "control character U+%04X in a string must be escaped",
                      static_cast<unsigned>(static_cast<unsigned char>(text[scan.controlCharacter])));
        syntaxErrorAt(text.data() + scan.controlCharacter, what);
    }
    syntaxErrorAt(end, sj::error_message(error));
}

JsonKind JsonReader::rootKind()
{
    sj::ondemand::json_type type;
    if (const auto error = m_document.type().get(type))
        syntaxError(error);
    switch (type) {
    case od::json_type::array: return JsonKind::Array;
    case od::json_type::object: return JsonKind::Object;
    case od::json_type::string: return JsonKind::String;
    case od::json_type::boolean: return JsonKind::Bool;
    case od::json_type::null: return JsonKind::Null;
    case od::json_type::number: {
        bool integer = false;
        if (m_document.is_integer().get(integer))
            return JsonKind::Number;
        return integer ? JsonKind::Integer : JsonKind::Number;
    }
    }
    return JsonKind::Null;
}

od::object JsonReader::rootObject()
{
    od::object object;
    if (const auto error = m_document.get_object().get(object))
        syntaxError(error);
    return object;
}

void JsonReader::finish()
{
    // current_location() fails exactly when the whole text was walked.
    const char* where = nullptr;
    if (!m_document.current_location().get(where) && where)
        syntaxErrorAt(where, "unexpected " + describeByte(where, m_text.data() + m_text.size()) + " after the JSON value");
}

JsonKind JsonReader::kind(Value& value)
{
    od::json_type type;
    if (const auto error = value.type().get(type))
        syntaxError(error);
    switch (type) {
    case od::json_type::array: return JsonKind::Array;
    case od::json_type::object: return JsonKind::Object;
    case od::json_type::string: return JsonKind::String;
    case od::json_type::boolean: return JsonKind::Bool;
    case od::json_type::null: return JsonKind::Null;
    case od::json_type::number: {
        // Only a plain integer literal that fits int64 is an integer; 2.0,
        // 2e3 and 2^64 are numbers.
        od::number_type numberType;
        if (const auto error = value.get_number_type().get(numberType)) {
            // simdjson 3.0 cannot type some valid numbers (-9223372036854775809):
            // they are numbers all the same, read as doubles.
            if (isJsonNumber(rawText(value)))
                return JsonKind::Number;
            syntaxError(error);
        }
        // simdjson 3.0 calls -9223372036854775809 a signed integer too.
        return numberType == od::number_type::signed_integer && fitsInt64(rawText(value)) ? JsonKind::Integer
                                                                                          : JsonKind::Number;
    }
    }
    syntaxErrorAt(location(), "unexpected value");
}

std::string_view JsonReader::rawText(Value& value)
{
    std::string_view raw = value.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
        raw.remove_suffix(1);
    return raw;
}

std::string_view JsonReader::string(Value& value)
{
    // Most strings hold no escape: hand out a view of the text itself, which
    // also spares simdjson's copy. simdjson has checked UTF-8 already.
    const std::string_view raw = value.raw_json_token();
    if (raw.empty() || raw[0] != '"')
        syntaxErrorAt(location(), "expected a string");
    bool escaped = false;
    std::size_t i = static_cast<std::size_t>(jsonscan::firstSpecial(raw.data() + 1, raw.data() + raw.size()) - raw.data());
    for (; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '"')
            break;
        if (c == '\\') {
            escaped = true;
            ++i;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char what[80];
            std::snprintf(what, sizeof what, "control character U+%04X in a string must be escaped",
                          static_cast<unsigned>(static_cast<unsigned char>(c)));
            syntaxErrorAt(raw.data() + i, what);
        }
    }
    if (i >= raw.size())
        syntaxErrorAt(raw.data(), "unexpected end of input in a string");
    if (!escaped) {
        od::raw_json_string consumed;
        if (const auto error = value.get_raw_json_string().get(consumed))
            syntaxError(error);
        return raw.substr(1, i - 1);
    }
    std::string_view text;
    if (value.get_string().get(text))
        syntaxErrorAt(raw.data(), "invalid escape in a string (a bad \\ sequence or an unpaired \\u surrogate)");
    return text;
}

std::int64_t JsonReader::integer(Value& value)
{
    std::int64_t v = 0;
    if (const auto error = value.get_int64().get(v))
        syntaxError(error);
    return v;
}

bool JsonReader::tryInteger(Value& value, std::int64_t& out, JsonKind& actual)
{
    const auto error = value.get_int64().get(out);
    if (!error)
        return true;
    actual = kind(value);
    if (actual == JsonKind::Integer) // what looked like one is malformed (01)
        syntaxError(error);
    if (actual == JsonKind::Number)
        (void)number(value); // a malformed number is a syntax error, not a type error
    return false;
}

std::string_view JsonReader::numberText(Value& value)
{
    const std::string_view raw = rawText(value);
    if (raw.empty() || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
        || !endsInText(raw) || !isJsonNumber(raw))
        return {};
    return raw;
}

namespace {

// A number without an exponent, as read by readPlain.
struct PlainNumber {
    std::uint64_t magnitude = 0; // its digits, the point left out
    int digits = 0;              // summed into magnitude: at most 19, below 10^19
    int fraction = 0;            // of them after the point
    bool negative = false;
};

// RFC 8259's grammar checked and the digits summed in one pass: a big
// trace has several numbers per event, and reading each as text, then
// checking it, then converting it was a fifth of the reader's time. False
// for an exponent, over 19 digits, more than `maxFraction` after the
// point, or anything malformed.
bool readPlain(std::string_view raw, int maxFraction, PlainNumber& out)
{
    // Summed in locals, `out` written once: a store through it per digit
    // may alias the text, so each was stored and loaded again.
    const char* p = raw.data();
    const char* const end = p + raw.size();
    const bool negative = p != end && *p == '-';
    p += negative ? 1 : 0;
    std::uint64_t magnitude = 0;
    int digits = 0, fraction = 0;
    const auto digit = [&] { return p != end && static_cast<unsigned>(*p - '0') < 10; };
    const auto add = [&] {
        magnitude = magnitude * 10 + static_cast<unsigned>(*p++ - '0');
        return ++digits <= 19;
    };
    if (!digit())
        return false;
    if (*p == '0')
        ++p; // a lone zero: "01" is malformed, refused below
    else
        while (digit())
            if (!add())
                return false;
    if (p != end && *p == '.') {
        ++p;
        if (!digit())
            return false;
        while (digit())
            if (++fraction > maxFraction || !add())
                return false;
    }
    if (p != end)
        return false; // an exponent, or anything else
    out = {magnitude, digits, fraction, negative};
    return true;
}

} // namespace

bool JsonReader::scaledInteger(Value& value, int decimals, std::int64_t& out)
{
    const std::string_view raw = rawText(value);
    PlainNumber n;
    if (raw.empty() || !endsInText(raw) || !readPlain(raw, decimals, n))
        return false;
    for (; n.fraction < decimals; ++n.fraction) {
        if (++n.digits > 19)
            return false;
        n.magnitude *= 10;
    }
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (n.magnitude > kMax + (n.negative ? 1 : 0))
        return false;
    out = n.negative ? static_cast<std::int64_t>(0 - n.magnitude) : static_cast<std::int64_t>(n.magnitude);
    return true;
}

double JsonReader::number(Value& value)
{
    double v = 0;
    const auto error = value.get_double().get(v);
    if (!error)
        return v;
    if (error != sj::NUMBER_ERROR && error != sj::NUMBER_OUT_OF_RANGE && error != sj::INCORRECT_TYPE)
        syntaxError(error);
    const std::string_view raw = rawText(value);
    if (!isJsonNumber(raw))
        syntaxErrorAt(raw.data(), "invalid number " + messageText(raw, 40));
    // A well-formed number simdjson refused: cut off by the end of the text
    // ("[1,2"), beyond a double (1e400), or one simdjson 3.0 does not convert
    // (-9223372036854775809), which from_chars does. simdjson has not
    // consumed it; the enclosing array or object steps over it.
    if (raw.data() + raw.size() >= m_text.data() + m_text.size())
        syntaxError(sj::INCOMPLETE_ARRAY_OR_OBJECT);
    const auto [end, status] = std::from_chars(raw.data(), raw.data() + raw.size(), v);
    if (status == std::errc::result_out_of_range) {
        if (exceedsOne(raw))
            syntaxErrorAt(raw.data(), "number out of range for a double: " + messageText(raw, 40));
        return 0; // below the smallest double: valid JSON, read as 0
    }
    if (status != std::errc() || end != raw.data() + raw.size())
        syntaxErrorAt(raw.data(), "invalid number " + messageText(raw, 40));
    return v;
}

bool JsonReader::boolean(Value& value)
{
    bool v = false;
    if (const auto error = value.get_bool().get(v))
        syntaxError(error);
    return v;
}

std::size_t JsonReader::countElements(Value& value)
{
    std::size_t n = 0;
    if (const auto error = value.count_elements().get(n))
        syntaxError(error);
    return n;
}

od::object JsonReader::objectOf(Value& value)
{
    od::object object;
    if (const auto error = value.get_object().get(object))
        syntaxError(error);
    return object;
}

od::array JsonReader::arrayOf(Value& value)
{
    od::array array;
    if (const auto error = value.get_array().get(array))
        syntaxError(error);
    return array;
}

std::string_view JsonReader::key(od::field& field)
{
    // As for strings: a view of the text unless the key holds an escape.
    const char* raw = field.key().raw();
    const char* end = m_text.data() + m_text.size();
    bool escaped = false;
    const char* p = jsonscan::firstSpecial(raw, end);
    for (; p < end && *p != '"'; ++p) {
        if (*p == '\\') {
            escaped = true;
            ++p;
        } else if (static_cast<unsigned char>(*p) < 0x20) {
            syntaxErrorAt(p, "control character in a key must be escaped");
        }
    }
    if (!escaped)
        return std::string_view(raw, static_cast<std::size_t>(p - raw));
    std::string_view text;
    if (field.unescaped_key().get(text))
        syntaxErrorAt(raw - 1, "invalid escape in a key (a bad \\ sequence or an unpaired \\u surrogate)");
    return text;
}

void JsonReader::checkDepth(int depth)
{
    if (depth > kJsonMaxDepth)
        syntaxErrorAt(location(), "nesting deeper than " + std::to_string(kJsonMaxDepth) + " levels");
}

void JsonReader::skip(Value& value, int depth)
{
    // A number of at most 19 digits without an exponent is valid and in
    // range (an int64 or a double) whatever its digits: checked in one pass,
    // not typed, checked and converted. Traces' arguments hold many.
    if (const std::string_view raw = rawText(value); endsInText(raw))
        if (PlainNumber n; readPlain(raw, 19, n))
            return;
    switch (kind(value)) {
    case JsonKind::Object:
        forEachMember(value, depth, [&](std::string_view, Value& member) { skip(member, depth + 1); });
        break;
    case JsonKind::Array:
        forEachElement(value, depth, [&](Value& element, std::size_t) { skip(element, depth + 1); });
        break;
    case JsonKind::String: (void)string(value); break;
    case JsonKind::Integer: (void)integer(value); break;
    case JsonKind::Number: (void)number(value); break;
    case JsonKind::Bool: (void)boolean(value); break;
    case JsonKind::Null: {
        bool isNull = false;
        if (const auto error = value.is_null().get(isNull))
            syntaxError(error);
        if (!isNull)
            syntaxErrorAt(location(), "invalid literal: expected 'null'");
        break;
    }
    }
}

bool JsonReader::KeySet::insert(std::string_view key)
{
    if (!m_many.empty())
        return m_many.insert(key).second;
    // The first eight bytes as one load, the bytes past a shorter key masked
    // off: a key is a view of the padded text or of simdjson's string buffer
    // (padded too), so eight bytes are always there to read. Most of a
    // trace's keys are shorter ("ph", "ts", "pid"), and a byte loop per key
    // cost more than the check itself.
    std::uint64_t prefix = 0;
    std::memcpy(&prefix, key.data(), sizeof prefix);
    if (key.size() < sizeof prefix)
        prefix &= (std::uint64_t{1} << (8 * key.size())) - 1;
    // Fibonacci hashing of the prefix and length: its top six bits pick the bit.
    const std::uint64_t bit = std::uint64_t{1} << (((prefix ^ key.size()) * 0x9E3779B97F4A7C15ull) >> 58);
    if ((m_seen & bit) != 0)
        for (std::size_t i = 0; i < m_fewCount; ++i)
            if (m_prefix[i] == prefix && m_fewSize[i] == key.size()
                && (key.size() <= sizeof prefix || std::memcmp(m_fewText[i], key.data(), key.size()) == 0))
                return false;
    if (m_fewCount < kFew) {
        m_seen |= bit;
        m_prefix[m_fewCount] = prefix;
        m_fewText[m_fewCount] = key.data();
        m_fewSize[m_fewCount++] = key.size();
        return true;
    }
    for (std::size_t i = 0; i < m_fewCount; ++i)
        m_many.emplace(m_fewText[i], m_fewSize[i]);
    m_many.insert(key);
    m_fewCount = 0;
    return true;
}

const char* JsonReader::location()
{
    const char* where = nullptr;
    if (m_document.current_location().get(where) || !where)
        return m_text.data() + m_text.size();
    return where;
}

void JsonReader::syntaxError(sj::error_code code)
{
    const char* where = location();
    const char* end = m_text.data() + m_text.size();
    switch (code) {
    case sj::TAPE_ERROR:
    case sj::INCORRECT_TYPE:
        if (where >= end)
            syntaxErrorAt(end, "unexpected end of input: an array or object is not closed");
        syntaxErrorAt(where, "unexpected " + describeByte(where, end)
                                 + ": a value, comma, colon, bracket or brace is missing or misplaced");
    case sj::INCOMPLETE_ARRAY_OR_OBJECT:
        syntaxErrorAt(end, "unexpected end of input: an array or object is not closed");
    case sj::T_ATOM_ERROR: syntaxErrorAt(where, "invalid literal: expected 'true'");
    case sj::F_ATOM_ERROR: syntaxErrorAt(where, "invalid literal: expected 'false'");
    case sj::N_ATOM_ERROR: syntaxErrorAt(where, "invalid literal: expected 'null'");
    case sj::NUMBER_ERROR: syntaxErrorAt(where, "invalid number");
    case sj::NUMBER_OUT_OF_RANGE: syntaxErrorAt(where, "number out of range");
    case sj::STRING_ERROR: syntaxErrorAt(where, "invalid escape in a string");
    case sj::DEPTH_ERROR:
        syntaxErrorAt(where, "nesting deeper than " + std::to_string(kJsonMaxDepth) + " levels");
    case sj::TRAILING_CONTENT: syntaxErrorAt(where, "unexpected " + describeByte(where, end) + " after the JSON value");
    default: syntaxErrorAt(where, sj::error_message(code));
    }
}

void JsonReader::syntaxErrorAt(const char* where, const std::string& what)
{
    if (!m_placeErrors)
        throw JsonReadError{"not valid JSON: " + what};
    const char* begin = m_text.data();
    const char* end = begin + m_text.size();
    where = std::clamp(where, begin, end);
    // Lines count '\n'; columns count characters (UTF-8 lead bytes), from 1.
    long long line = 1;
    const char* lineStart = begin;
    for (const char* p = begin; p < where; ++p)
        if (*p == '\n') {
            ++line;
            lineStart = p + 1;
        }
    long long column = 1;
    for (const char* p = lineStart; p < where; ++p)
        if ((static_cast<unsigned char>(*p) & 0xc0) != 0x80)
            ++column;
    throw JsonReadError{"not valid JSON: line " + std::to_string(line) + ", column " + std::to_string(column) + ": "
                        + what};
}

} // namespace ovs
