#pragma once

#include <QString>

#include <string_view>

namespace ovs::ui {

// Names and messages that come from a trace (run, lane and device names, a
// run's error) may be any length the loader accepts: a 200 MiB run name is a
// valid trace. The model keeps each once, whole; the views show this
// shortened copy, so no label, title, tooltip or legend entry converts the
// whole string (UTF-16 doubles it) or repeats it per lane or per paint.
inline constexpr qsizetype kDisplayTextChars = 256;
// Tighter where the text shares a line with others or sets a margin: a run's
// name in its timeline title (device, parameters and status follow it) and a
// lane's label (the widest sets the timeline's left margin).
inline constexpr qsizetype kTitleNameChars = 80;
inline constexpr qsizetype kLaneLabelChars = 40;

// `text` (UTF-8) as a QString of at most `maxChars` characters: a longer
// text is cut at a character boundary and ends with "…". Only the bytes that
// can be shown are converted.
QString displayText(std::string_view text, qsizetype maxChars = kDisplayTextChars);

} // namespace ovs::ui
