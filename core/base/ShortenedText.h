#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ovs {

// Names and messages that come from a trace (run, lane, device and kernel
// names, a run's error) may be any length the loader accepts: a 200 MiB run
// name is a valid trace. The model keeps each once, whole; the window and
// the console show a shortened copy, cut by this one rule, so no label,
// table row or finding converts, repeats or prints the whole string.
inline constexpr std::size_t kDisplayTextChars = 256;
// Tighter where the text shares a line with others or sets a margin: a run's
// name in its timeline title (device, parameters and status follow it) and a
// lane's label (the widest sets the timeline's left margin).
inline constexpr std::size_t kTitleNameChars = 80;
inline constexpr std::size_t kLaneLabelChars = 40;

// `text` (UTF-8) in at most `maxChars` characters: a longer text is cut at a
// character boundary and ends with "…". Characters are counted as the
// window's strings count them (UTF-16 code units: one for most, two for one
// beyond U+FFFF, one for each byte that is not UTF-8), so the console and
// the window cut a name at the same place. Reads at most about 4 x maxChars
// bytes of `text`, whatever its length. A maxChars of 0 counts as 1.
std::string shortenedText(std::string_view text, std::size_t maxChars = kDisplayTextChars);

} // namespace ovs
