#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace ovs {

// A JSON value, as small as the formats need: integers stay exact int64
// (nanosecond times and byte counts must not pass through a double), and
// objects keep their members in insertion order so written files read in the
// order a person expects. Lookups are linear: our objects have a handful of
// members; bulk data lives in arrays.
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

} // namespace ovs
