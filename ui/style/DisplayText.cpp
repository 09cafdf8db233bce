#include "style/DisplayText.h"

#include <algorithm>

namespace ovs::ui {

QString displayText(std::string_view text, qsizetype maxChars)
{
    maxChars = std::max<qsizetype>(1, maxChars);
    // A character is at most 4 UTF-8 bytes, so this prefix holds every
    // character that can be shown, plus one to tell that the text goes on.
    const std::size_t budget = static_cast<std::size_t>(maxChars + 1) * 4;
    std::size_t cut = std::min(text.size(), budget);
    // Do not split a multi-byte character (its continuation bytes are 10xxxxxx).
    while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    QString shown = QString::fromUtf8(text.data(), static_cast<qsizetype>(cut));
    if (cut == text.size() && shown.size() <= maxChars)
        return shown;
    qsizetype keep = std::min(shown.size(), maxChars - 1);
    // Nor a UTF-16 surrogate pair.
    if (keep > 0 && shown.at(keep - 1).isHighSurrogate())
        --keep;
    shown.truncate(keep);
    shown += QChar(0x2026);
    return shown;
}

} // namespace ovs::ui
