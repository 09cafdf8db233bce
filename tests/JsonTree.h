#pragma once

#include "io/JsonReader.h"
#include "io/JsonWriter.h"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace ovs::test {


// A JSON document tree for tests: to look into what the writers wrote and to
// mutate valid traces into malformed ones. Integers stay exact int64, and
// objects keep their members in order. The product reads JSON streaming
// (JsonReader) and never builds such a tree.
class Json {
public:
    enum class Type : std::uint8_t { Null, Bool, Integer, Double, String, Array, Object };
    using Array = std::vector<Json>;
    using Member = std::pair<std::string, Json>;
    using Object = std::vector<Member>;

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool value) : m_value(value) {}
    // Integers beyond int64 (only possible from uint64) become doubles rather
    // than wrap around.
    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Json(T value)
    {
        if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
            if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                m_value = static_cast<double>(value);
                return;
            }
        }
        m_value = static_cast<std::int64_t>(value);
    }
    Json(double value) : m_value(value) {}
    Json(std::string value) : m_value(std::move(value)) {}
    Json(std::string_view value) : m_value(std::string(value)) {}
    Json(const char* value) : m_value(std::string(value)) {}
    Json(Array value) : m_value(std::move(value)) {}
    Json(Object value) : m_value(std::move(value)) {}

    static Json array() { return Json(Array{}); }
    static Json object() { return Json(Object{}); }

    Type type() const { return static_cast<Type>(m_value.index()); }
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isInteger() const { return type() == Type::Integer; }
    bool isDouble() const { return type() == Type::Double; }
    bool isNumber() const { return isInteger() || isDouble(); }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }

    // The accessors throw std::bad_variant_access on a type mismatch; callers
    // that read untrusted input check the type first.
    bool asBool() const { return std::get<bool>(m_value); }
    std::int64_t asInteger() const { return std::get<std::int64_t>(m_value); }
    // Either number kind, since a writer may print 2.0 as 2.
    double asDouble() const;
    const std::string& asString() const { return std::get<std::string>(m_value); }
    const Array& asArray() const { return std::get<Array>(m_value); }
    Array& asArray() { return std::get<Array>(m_value); }
    const Object& asObject() const { return std::get<Object>(m_value); }
    Object& asObject() { return std::get<Object>(m_value); }

    // nullptr when this is not an object or has no such member.
    const Json* find(std::string_view key) const;
    // Replaces an existing member or appends a new one; this must be an object.
    void set(std::string_view key, Json value);
    // Appends to an array.
    void push(Json value) { asArray().push_back(std::move(value)); }

    // Compact JSON text.
    std::string toText() const;

    // Structural equality; an integer never equals a double, as the type is
    // part of what a file says.
    friend bool operator==(const Json& a, const Json& b) = default;

    static const char* typeName(Type type);

private:
    std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> m_value;
};



inline double Json::asDouble() const
{
    if (const auto* integer = std::get_if<std::int64_t>(&m_value))
        return static_cast<double>(*integer);
    return std::get<double>(m_value);
}

inline const Json* Json::find(std::string_view key) const
{
    const auto* object = std::get_if<Object>(&m_value);
    if (!object)
        return nullptr;
    for (const auto& member : *object)
        if (member.first == key)
            return &member.second;
    return nullptr;
}

inline void Json::set(std::string_view key, Json value)
{
    auto& object = asObject();
    for (auto& member : object)
        if (member.first == key) {
            member.second = std::move(value);
            return;
        }
    object.emplace_back(std::string(key), std::move(value));
}

inline void writeJson(JsonWriter& w, const Json& json)
{
    switch (json.type()) {
    case Json::Type::Null: w.value(nullptr); break;
    case Json::Type::Bool: w.value(json.asBool()); break;
    case Json::Type::Integer: w.value(json.asInteger()); break;
    case Json::Type::Double: w.value(json.asDouble()); break;
    case Json::Type::String: w.value(std::string_view(json.asString())); break;
    case Json::Type::Array:
        w.beginArray();
        for (const auto& element : json.asArray())
            writeJson(w, element);
        w.endArray();
        break;
    case Json::Type::Object:
        w.beginObject();
        for (const auto& [name, element] : json.asObject()) {
            w.key(name);
            writeJson(w, element);
        }
        w.endObject();
        break;
    }
}

inline std::string Json::toText() const
{
    std::string text;
    JsonWriter writer(text);
    writeJson(writer, *this);
    return text;
}

inline const char* Json::typeName(Type type)
{
    switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Integer: return "an integer";
    case Type::Double: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
    }
    return "unknown";
}


struct JsonParseResult {
    std::optional<Json> value;
    std::string error; // JsonReader's message, without "not valid JSON: "
    int line = 0;      // where, from the message; 0 when it names no place
    int column = 0;
};

// Reads `text` with the product's strict reader (JsonReader) into a tree;
// with `skipOnly`, only checks it as JsonReader::skip does for members a
// reader does not know (the value is then null), which must accept and
// refuse exactly what reading it does.
inline JsonParseResult parseJson(std::string_view text, bool skipOnly = false)
{
    struct Builder {
        JsonReader& json;
        Json value(JsonReader::Value& v, int depth)
        {
            switch (json.kind(v)) {
            case JsonKind::Null: json.skip(v, depth); return Json(nullptr);
            case JsonKind::Bool: return Json(json.boolean(v));
            case JsonKind::Integer: return Json(json.integer(v));
            case JsonKind::Number: return Json(json.number(v));
            case JsonKind::String: return Json(std::string(json.string(v)));
            case JsonKind::Array: {
                Json array = Json::array();
                json.forEachElement(v, depth, [&](JsonReader::Value& e, std::size_t) { array.push(value(e, depth + 1)); });
                return array;
            }
            case JsonKind::Object: {
                Json object = Json::object();
                json.forEachMember(v, depth, [&](std::string_view key, JsonReader::Value& m) {
                    object.asObject().emplace_back(std::string(key), value(m, depth + 1));
                });
                return object;
            }
            }
            return Json();
        }
    };
    // A scalar document is read as the one element of an array.
    const simdjson::padded_string padded(text);
    const bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
    JsonParseResult result;
    if (blank) {
        result.error = "the text is empty";
        return result;
    }
    try {
        JsonReader json(std::string_view(padded.data(), padded.size()));
        const JsonKind root = json.rootKind();
        if (root != JsonKind::Array && root != JsonKind::Object) {
            result.error = "a scalar document";
            return result;
        }
        JsonReader::Value v;
        if (const auto error = json.document().get_value().get(v))
            json.syntaxError(error);
        if (skipOnly) {
            json.skip(v, 1);
            result.value = Json(nullptr);
        } else {
            Builder builder{json};
            result.value = builder.value(v, 1);
        }
        json.finish();
    } catch (const JsonReadError& e) {
        result.value.reset();
        result.error = e.message.substr(e.message.rfind("not valid JSON: ", 0) == 0 ? 16 : 0);
        std::sscanf(result.error.c_str(), "line %d, column %d", &result.line, &result.column);
    }
    return result;
}

} // namespace ovs::test
