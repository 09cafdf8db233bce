#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ovs {

// Text from a file, made safe to quote in a one-line message: control
// characters (line breaks, terminal escapes, C1 controls) become spaces,
// invalid UTF-8 becomes U+FFFD, and
// anything longer than `maxChars` characters is cut with "…", so a 200 MB
// name or a 100,000-digit token never fills a message.
std::string messageText(std::string_view text, std::size_t maxChars = 60);
// The same in double quotes.
std::string quotedMessageText(std::string_view text, std::size_t maxChars = 60);
// A whole message cut to `maxChars` characters (at a UTF-8 boundary).
std::string clippedMessage(std::string message, std::size_t maxChars = 300);

} // namespace ovs
