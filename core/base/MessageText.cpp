#include "base/MessageText.h"

#include "base/Printable.h"

#include <algorithm>

namespace ovs {

namespace {

bool isContinuation(unsigned char c) { return (c & 0xc0) == 0x80; }

} // namespace

std::string messageText(std::string_view raw, std::size_t maxChars)
{
    // Invalid UTF-8 (a report's version string, a name) becomes U+FFFD
    // first: a message goes into traces and JSON, which must stay valid.
    // Only as many bytes as can hold maxChars characters and one more are
    // looked at, so a 200 MB name costs no more than a short one.
    const std::string valid = validUtf8(raw.substr(0, std::min(raw.size(), maxChars * 4 + 4)));
    const std::string_view text = valid;
    std::string out;
    out.reserve(std::min(text.size(), maxChars * 4));
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!isContinuation(c) && ++chars > maxChars) {
            out += "…";
            return out;
        }
        if (c < 0x20 || c == 0x7f) {
            out.push_back(' ');
        } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
                   && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            out.push_back(' '); // a C1 control (U+0080 ... U+009F)
            ++i;
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

std::string quotedMessageText(std::string_view text, std::size_t maxChars)
{
    return "\"" + messageText(text, maxChars) + "\"";
}

std::string clippedMessage(std::string message, std::size_t maxChars)
{
    std::size_t chars = 0;
    std::size_t cut = std::string::npos; // where character maxChars (counting from 1) starts
    for (std::size_t i = 0; i < message.size(); ++i) {
        if (isContinuation(static_cast<unsigned char>(message[i])))
            continue;
        if (++chars == maxChars)
            cut = i;
        if (chars > maxChars) {
            message.resize(cut);
            message += "…";
            break;
        }
    }
    return message;
}

} // namespace ovs
