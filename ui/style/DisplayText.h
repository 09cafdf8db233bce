#pragma once

#include "base/ShortenedText.h"

#include <QString>

#include <string_view>

namespace ovs::ui {

// The window's names from a trace, shortened by core's one rule
// (base/ShortenedText.h: why, and the limits), which the console uses too.
inline constexpr qsizetype kDisplayTextChars = static_cast<qsizetype>(ovs::kDisplayTextChars);
inline constexpr qsizetype kTitleNameChars = static_cast<qsizetype>(ovs::kTitleNameChars);
inline constexpr qsizetype kLaneLabelChars = static_cast<qsizetype>(ovs::kLaneLabelChars);

// `text` (UTF-8) as a QString of at most `maxChars` characters: a longer
// text is cut at a character boundary and ends with "…". Only the bytes that
// can be shown are converted.
QString displayText(std::string_view text, qsizetype maxChars = kDisplayTextChars);

} // namespace ovs::ui
