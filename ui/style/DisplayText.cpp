#include "style/DisplayText.h"

#include <algorithm>

namespace ovs::ui {

QString displayText(std::string_view text, qsizetype maxChars)
{
    const std::size_t most = static_cast<std::size_t>(std::max<qsizetype>(1, maxChars));
    const std::string shown = shortenedText(text, most);
    return QString::fromUtf8(shown.data(), static_cast<qsizetype>(shown.size()));
}

} // namespace ovs::ui
