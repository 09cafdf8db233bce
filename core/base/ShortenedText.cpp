#include "base/ShortenedText.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace ovs {

namespace {

// Length in bytes of the valid UTF-8 sequence at text[i] and its width in
// UTF-16 code units; a byte that starts no valid sequence is one byte of
// width one (the window shows it as one U+FFFD).
std::pair<std::size_t, std::size_t> nextCharacter(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t cp = 0, least = 0;
    if (lead < 0x80)
        return {1, 1};
    if ((lead & 0xE0) == 0xC0) {
        length = 2, cp = lead & 0x1Fu, least = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, cp = lead & 0x0Fu, least = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, cp = lead & 0x07u, least = 0x10000;
    } else {
        return {1, 1};
    }
    if (i + length > text.size())
        return {1, 1};
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return {1, 1};
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return {1, 1};
    return {length, cp > 0xFFFF ? 2 : 1};
}

} // namespace

std::string shortenedText(std::string_view text, std::size_t maxChars)
{
    maxChars = std::max<std::size_t>(1, maxChars);
    std::size_t units = 0;
    std::size_t cut = std::string_view::npos; // where the kept prefix ends, once known
    for (std::size_t i = 0; i < text.size();) {
        const auto [length, width] = nextCharacter(text, i);
        // The prefix that leaves room for the "…".
        if (cut == std::string_view::npos && units + width > maxChars - 1)
            cut = i;
        units += width;
        if (units > maxChars)
            return std::string(text.substr(0, cut)) + "\xE2\x80\xA6"; // …
        i += length;
    }
    return std::string(text);
}

} // namespace ovs
