#include "trace/Json.h"

#include "trace/JsonWriter.h"

namespace ovs {

double Json::asDouble() const
{
    if (const auto* integer = std::get_if<std::int64_t>(&m_value))
        return static_cast<double>(*integer);
    return std::get<double>(m_value);
}

const Json* Json::find(std::string_view key) const
{
    const auto* object = std::get_if<Object>(&m_value);
    if (!object)
        return nullptr;
    for (const auto& member : *object)
        if (member.first == key)
            return &member.second;
    return nullptr;
}

void Json::set(std::string_view key, Json value)
{
    auto& object = asObject();
    for (auto& member : object)
        if (member.first == key) {
            member.second = std::move(value);
            return;
        }
    object.emplace_back(std::string(key), std::move(value));
}

std::string Json::toText() const
{
    std::string text;
    JsonWriter writer(text);
    writer.value(*this);
    return text;
}

const char* Json::typeName(Type type)
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

} // namespace ovs
