#include "io/JsonWriter.h"

#include <array>
#include <charconv>
#include <cmath>
#include <variant>

namespace ovs {

namespace {

template <typename T>
void appendNumber(std::string& out, T value)
{
    std::array<char, 32> buffer;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    out.append(buffer.data(), result.ptr);
}

} // namespace

namespace {

// The escaped characters of a JSON string, without its quotes. Escaping is
// byte by byte, so a text may be escaped in pieces cut anywhere.
void appendJsonStringBody(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t runStart = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(text.data() + runStart, i - runStart);
        runStart = i + 1;
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
            out.append("\\u00");
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xf]);
        }
    }
    out.append(text.data() + runStart, text.size() - runStart);
}

} // namespace

void appendJsonString(std::string& out, std::string_view text)
{
    out.push_back('"');
    appendJsonStringBody(out, text);
    out.push_back('"');
}

void JsonWriter::flush()
{
    if (m_drain && !m_out.empty()) {
        m_drain(m_out);
        m_out.clear();
    }
}

void JsonWriter::beforeValue()
{
    // Between two values nothing written is looked at again, so this is
    // where the buffer can go.
    if (m_out.size() >= kDrainBytes)
        flush();
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_hasElements.empty()) {
        if (m_hasElements.back())
            m_out.push_back(',');
        m_hasElements.back() = true;
    }
}

void JsonWriter::beginObject()
{
    beforeValue();
    m_out.push_back('{');
    m_hasElements.push_back(false);
}

void JsonWriter::endObject()
{
    m_out.push_back('}');
    m_hasElements.pop_back();
}

void JsonWriter::beginArray()
{
    beforeValue();
    m_out.push_back('[');
    m_hasElements.push_back(false);
}

void JsonWriter::endArray()
{
    m_out.push_back(']');
    m_hasElements.pop_back();
}

void JsonWriter::key(std::string_view name)
{
    beforeValue();
    appendJsonString(m_out, name);
    m_out.push_back(':');
    m_afterKey = true;
}

void JsonWriter::value(std::nullptr_t)
{
    beforeValue();
    m_out.append("null");
}

void JsonWriter::value(bool value)
{
    beforeValue();
    m_out.append(value ? "true" : "false");
}

void JsonWriter::value(std::int64_t value)
{
    beforeValue();
    appendNumber(m_out, value);
}

void JsonWriter::value(std::uint64_t value)
{
    beforeValue();
    appendNumber(m_out, value);
}

void JsonWriter::value(double value)
{
    beforeValue();
    if (!std::isfinite(value)) {
        m_out.append("null");
        return;
    }
    const auto before = m_out.size();
    appendNumber(m_out, value);
    // Keep it a double when read back: "2" would come back as an integer.
    if (m_out.find_first_of(".eE", before) == std::string::npos)
        m_out.append(".0");
}

void JsonWriter::value(std::string_view text)
{
    value(std::initializer_list<std::string_view>{text});
}

void JsonWriter::value(std::initializer_list<std::string_view> parts)
{
    beforeValue();
    m_out.push_back('"');
    for (std::string_view text : parts) {
        // A streaming writer escapes a long text (a loaded name may be
        // hundreds of MiB) a piece at a time and drains after each, so the
        // buffer never holds a whole escaped copy of it.
        while (m_drain && text.size() > kDrainBytes) {
            appendJsonStringBody(m_out, text.substr(0, kDrainBytes));
            text.remove_prefix(kDrainBytes);
            flush();
        }
        appendJsonStringBody(m_out, text);
    }
    m_out.push_back('"');
}

void JsonWriter::decimal(std::int64_t scaled, int decimals)
{
    beforeValue();
    std::uint64_t magnitude = scaled < 0 ? 0 - static_cast<std::uint64_t>(scaled) : static_cast<std::uint64_t>(scaled);
    if (scaled < 0)
        m_out.push_back('-');
    std::uint64_t divisor = 1;
    for (int i = 0; i < decimals; ++i)
        divisor *= 10;
    appendNumber(m_out, magnitude / divisor);
    if (decimals <= 0)
        return;
    std::array<char, 24> fraction;
    auto remainder = magnitude % divisor;
    for (int i = decimals - 1; i >= 0; --i) {
        fraction[static_cast<std::size_t>(i)] = static_cast<char>('0' + remainder % 10);
        remainder /= 10;
    }
    m_out.push_back('.');
    m_out.append(fraction.data(), static_cast<std::size_t>(decimals));
}

} // namespace ovs
