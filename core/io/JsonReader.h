#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ovs {

// Deeper input is refused rather than risking the stack.
inline constexpr int kJsonMaxDepth = 256;

// Any failure while reading a document: invalid JSON ("not valid JSON: line
// 3, column 7: ...") or content a reader refuses (its own words). One line.
struct JsonReadError {
    std::string message;
};

// What a value is, as messages name it; integers (exact int64) and other
// numbers are told apart because formats require integers in places.
enum class JsonKind : std::uint8_t { Null, Bool, Integer, Number, String, Array, Object };
// "null", "true or false", "an integer", "a number", "a string", ...
const char* describe(JsonKind kind);

// Strict, streaming JSON over simdjson On Demand: values are read straight
// from the text into the caller's structures, with no document tree. simdjson
// checks UTF-8 and the structure it walks; this adds what RFC 8259 and our
// formats require beyond that: every value is walked (members a reader does
// not know are validated, not skipped blindly), duplicate keys, raw control
// characters and nesting deeper than kJsonMaxDepth are refused, and integers
// stay exact. Errors are thrown as JsonReadError with a line and column.
class JsonReader {
public:
    using Value = simdjson::ondemand::value;

    // `text` must be followed by simdjson::SIMDJSON_PADDING readable bytes
    // (simdjson::padded_string gives them). The text must outlive the reader;
    // so must the views it hands out.
    explicit JsonReader(std::string_view text);
    // The same over a parser the caller keeps, so that reading a file in
    // pieces reuses one parser's buffers instead of allocating (and
    // faulting in) new ones for every piece.
    JsonReader(std::string_view text, simdjson::ondemand::parser& parser);
    JsonReader(const JsonReader&) = delete;
    JsonReader& operator=(const JsonReader&) = delete;

    simdjson::ondemand::document& document() { return m_document; }
    // The root's kind; the document is not consumed.
    JsonKind rootKind();
    simdjson::ondemand::object rootObject();
    // Back to the start, for a second pass over the root.
    void rewind() { m_document.rewind(); }
    // After the root was read: refuses anything but whitespace after it.
    void finish();

    JsonKind kind(Value& value);
    // The read* calls expect the kind to be right (checked by the caller
    // through kind(), or by trying: tryInteger).
    std::string_view string(Value& value);
    std::int64_t integer(Value& value);
    double number(Value& value); // an integer or any other number
    bool boolean(Value& value);
    // The integer, or false with `actual` set when the value is not one.
    bool tryInteger(Value& value, std::int64_t& out, JsonKind& actual);
    // Fast paths for the numbers of a big trace (two or more per event),
    // each read once instead of three times (typed, checked, converted).
    // The text of a well-formed number (RFC 8259) that ends before the
    // document does (one cut by a window's end is not whole); empty for
    // anything else, which the caller then reads through kind() and the
    // read calls, which word any error. The value is left unread:
    // simdjson steps over it.
    std::string_view numberText(Value& value);
    // A plain integer literal that fits int64 (what kind() calls Integer),
    // as integer() reads it; false for anything else, read as above.
    bool plainInteger(Value& value, std::int64_t& out) { return scaledInteger(value, 0, out); }
    // A well-formed number without an exponent and with at most `decimals`
    // digits after its point, times 10^decimals, where that takes at most
    // 19 digits and fits int64: exact, read in one pass over its text (a
    // trace's times are microseconds with three decimals, read as ns).
    // False for anything else, read as above; the value is left unread.
    bool scaledInteger(Value& value, int decimals, std::int64_t& out);
    // The value's text as written (for messages; clipped by the caller).
    static std::string_view rawText(Value& value);

    // Calls f(key, value) for each member of an object at nesting `depth`
    // (the root is at depth 1), refusing duplicate keys. `f` must read or
    // skip() the value.
    template <typename F>
    void forEachMember(simdjson::ondemand::object object, int depth, F&& f);
    template <typename F>
    void forEachMember(Value& value, int depth, F&& f)
    {
        forEachMember(objectOf(value), depth, static_cast<F&&>(f));
    }
    // Calls f(element, index) for each element of an array.
    template <typename F>
    void forEachElement(Value& value, int depth, F&& f);
    // Number of elements, before iterating (to reserve).
    std::size_t countElements(Value& value);

    // Validates and discards a value at nesting `depth`.
    void skip(Value& value, int depth);
    void checkDepth(int depth);

    // Errors without their line and column ("not valid JSON: <what>"), for
    // a reader that expects them and never shows them (a file read in
    // windows, whose last event is cut): finding the line costs a pass
    // over the text.
    void setErrorsUnplaced() { m_placeErrors = false; }

    // Throws "not valid JSON: line L, column C: <what simdjson found>".
    [[noreturn]] void syntaxError(simdjson::error_code code);
    [[noreturn]] void syntaxErrorAt(const char* where, const std::string& what);

private:
    simdjson::ondemand::object objectOf(Value& value);
    simdjson::ondemand::array arrayOf(Value& value);
    std::string_view key(simdjson::ondemand::field& field);
    const char* location();

    // Member names already seen in one object: a short list in place (no
    // allocation for the small objects that make up most documents), a
    // hash set once an object grows large (hostile files may hold millions
    // of keys).
    class KeySet {
    public:
        bool insert(std::string_view key);

    private:
        static constexpr std::size_t kFew = 16;
        // Each few key's text and length apart, each stored from its own
        // register: a string_view stored in two words and read back as one
        // (which the compiler made of it) stalled on every key.
        const char* m_fewText[kFew];
        std::size_t m_fewSize[kFew];
        // Each few key's length and first eight bytes, compared before its
        // text: most keys of a trace are as long as another of their object
        // ("ph", "ts"; "pid", "tid", "dur") and eight bytes or shorter, and a
        // memcmp per pair was 5% of reading a big Kineto trace.
        std::uint64_t m_prefix[kFew];
        // One bit per few key, chosen by its length and prefix: a key whose
        // bit is clear is new without a comparison. Most keys of a trace's
        // objects are new, and comparing each with all before it was a
        // tenth of reading a big Kineto trace.
        std::uint64_t m_seen = 0;
        std::size_t m_fewCount = 0;
        std::unordered_set<std::string_view> m_many;
    };

    void start();
    // A value's text (rawText) that ends before the document does: a
    // number cut by the end of a window's text is not whole.
    bool endsInText(std::string_view raw) const { return raw.data() + raw.size() < m_text.data() + m_text.size(); }

    std::string_view m_text;
    bool m_placeErrors = true;
    simdjson::ondemand::parser m_ownParser; // allocates nothing unless used
    simdjson::ondemand::parser& m_parser;
    simdjson::ondemand::document m_document;
};

template <typename F>
void JsonReader::forEachMember(simdjson::ondemand::object object, int depth, F&& f)
{
    checkDepth(depth);
    KeySet keys;
    for (auto member : object) {
        if (const auto error = member.error())
            syntaxError(error);
        // The field used where simdjson made it, not copied out first.
        auto&& field = std::move(member).value_unsafe();
        // Where the key starts, taken first: unescaping a key (key() does for
        // keys with escapes) consumes it, and field.key() is invalid after.
        const char* keyQuote = field.key().raw() - 1;
        const std::string_view name = key(field);
        if (!keys.insert(name))
            syntaxErrorAt(keyQuote, "duplicate key \"" + std::string(name.substr(0, 60)) + "\"");
        f(name, field.value());
    }
}

template <typename F>
void JsonReader::forEachElement(Value& value, int depth, F&& f)
{
    checkDepth(depth);
    std::size_t index = 0;
    for (auto element : arrayOf(value)) {
        if (const auto error = element.error())
            syntaxError(error);
        auto&& v = std::move(element).value_unsafe(); // as for members
        f(v, index++);
    }
}

} // namespace ovs
