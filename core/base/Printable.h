#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ovs {

// How much of a text a message quotes (an option's value, a name, a path),
// and how long one whole message line may get. A 100,000-digit number or a
// 200 MB run name must not be echoed whole.
inline constexpr std::size_t kEchoLimit = 200;
inline constexpr std::size_t kMessageLimit = 400;

// Text from a trace, a device or the command line, made safe to print on a
// terminal: control characters (C0, DEL, C1), line and paragraph separators
// and bidirectional overrides become visible escapes ("\n", "\t", "\x1b",
// "\u202e"), so a name can neither move the cursor, retitle or clear the
// terminal, nor break a table row or reorder what is shown. Bytes that are
// not UTF-8 become "\xNN". Everything else is kept as it is.
std::string printable(std::string_view text);

// `text` with every byte that does not start a valid UTF-8 sequence
// (overlong, surrogate, truncated, stray continuation) replaced by U+FFFD.
// Names from a source that does not check its text (an SQLite report) pass
// through this on import, so that every trace we write is valid JSON.
std::string validUtf8(std::string_view text);

// At most `maxChars` characters (code points) of `text`, the last of them
// "…" when it was cut. Never splits a UTF-8 sequence.
std::string clipped(std::string_view text, std::size_t maxChars = kEchoLimit);

// How a message quotes text it did not write: printable, then clipped.
inline std::string echoed(std::string_view text, std::size_t maxChars = kEchoLimit)
{
    return clipped(printable(text), maxChars);
}

} // namespace ovs
