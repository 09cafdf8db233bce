#include "trace/PythonFrame.h"

#include <array>
#include <charconv>

namespace ovs {

namespace {

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// Standard library modules whose frames some traces name without their
// folder; with a folder, ".../lib/python3.N/" says it.
constexpr std::array<std::string_view, 5> kBareStdlibFiles{"threading.py", "runpy.py", "contextlib.py", "functools.py",
                                                           "selectors.py"};

bool isUserFile(std::string_view file)
{
    // <frozen importlib._bootstrap>, <built-in ...>; other pseudo files
    // (<stdin>, <string>, <ipython-input-3-...>) are code the user typed.
    if (file.starts_with("<frozen") || file.starts_with("<built-in"))
        return false;
    if (contains(file, "site-packages/") || contains(file, "dist-packages/"))
        return false;
    if (file.starts_with("torch/") || contains(file, "/torch/"))
        return false;
    // /usr/lib/python3.12/, /opt/conda/lib/python3.11/, /usr/local/lib64/python3.9/
    if (contains(file, "/lib/python") || contains(file, "/lib64/python"))
        return false;
    for (std::string_view bare : kBareStdlibFiles)
        if (file == bare)
            return false;
    return true;
}

} // namespace

PythonFrame parsePythonFrame(std::string_view name)
{
    PythonFrame frame;
    // "FILE(LINE): FUNCTION": the line is the digits in the last parentheses
    // before the first "): " (a folder may hold parentheses, a line not).
    const auto close = name.find("): ");
    if (close == std::string_view::npos || close == 0)
        return frame;
    const auto open = name.rfind('(', close);
    if (open == std::string_view::npos || open == 0 || open + 1 == close)
        return frame;
    std::uint32_t line = 0;
    const char* first = name.data() + open + 1;
    const char* last = name.data() + close;
    const auto [end, error] = std::from_chars(first, last, line);
    if (error != std::errc() || end != last)
        return frame;
    SourceSite site{std::string(name.substr(0, open)), line, std::string(name.substr(close + 3))};
    frame.user = isUserFile(site.file);
    frame.site = std::move(site);
    return frame;
}

std::string stablePythonFrameName(std::string_view name)
{
    if (!name.starts_with("<built-in"))
        return std::string(name);
    const auto at = name.rfind(" at 0x");
    if (at == std::string_view::npos || !name.ends_with(">"))
        return std::string(name);
    return std::string(name.substr(0, at)) + ">";
}

} // namespace ovs
