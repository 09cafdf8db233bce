#include "base/Printable.h"

#include <cstdint>
#include <cstdio>

namespace ovs {
namespace {

// Length of the valid UTF-8 sequence at text[i] and its code point, or 0
// when the bytes there are not one (overlong, surrogate, truncated, ...).
std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& cp)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) {
        cp = lead;
        return 1;
    }
    std::size_t length = 0;
    std::uint32_t min = 0;
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        cp = lead & 0x1Fu;
        min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        cp = lead & 0x0Fu;
        min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        cp = lead & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return length;
}

bool needsEscape(std::uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) // C0, DEL, C1
           || cp == 0x2028 || cp == 0x2029                       // line and paragraph separators
           || (cp >= 0x202A && cp <= 0x202E)                     // bidi embeddings and overrides
           || (cp >= 0x2066 && cp <= 0x2069);                    // bidi isolates
}

} // namespace

std::string validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    std::size_t runStart = 0;
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t cp = 0;
        const std::size_t length = decode(text, i, cp);
        if (length != 0) {
            i += length;
            continue;
        }
        out.append(text.substr(runStart, i - runStart));
        out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        runStart = ++i;
    }
    out.append(text.substr(runStart));
    return out;
}

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    char escape[12];
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t cp = 0;
        const std::size_t length = decode(text, i, cp);
        if (length == 0) {
            std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(text[i]));
            out += escape;
            ++i;
            continue;
        }
        if (!needsEscape(cp)) {
            out.append(text.substr(i, length));
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp < 0x80) {
            std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(cp));
            out += escape;
        } else {
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(cp));
            out += escape;
        }
        i += length;
    }
    return out;
}

std::string clipped(std::string_view text, std::size_t maxChars)
{
    // Where each character starts; continuation bytes (10xxxxxx) do not.
    std::size_t chars = 0;
    std::size_t cut = text.size(); // byte where character maxChars - 1 starts
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
            continue;
        if (maxChars > 0 && chars == maxChars - 1)
            cut = i;
        if (++chars > maxChars)
            return maxChars == 0 ? std::string() : std::string(text.substr(0, cut)) + "\xE2\x80\xA6"; // …
    }
    return std::string(text);
}

} // namespace ovs
