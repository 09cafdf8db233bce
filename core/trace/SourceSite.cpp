#include "trace/SourceSite.h"

namespace ovs {

std::string sitePlaceText(std::string_view file, std::uint32_t line, std::string_view function, SiteLine lineIs)
{
    const std::size_t slash = file.find_last_of('/');
    const std::string name(slash == std::string_view::npos ? file : file.substr(slash + 1));
    const std::string fn(function);
    // No line is no "line 0": the function, then where it is.
    if (line == 0)
        return "in " + fn + " (" + name + ")";
    // A frame's entry line is not the call's: the function first.
    if (lineIs == SiteLine::FrameEntry)
        return "in " + fn + " (" + name + ":" + std::to_string(line) + ")";
    return "at " + name + ":" + std::to_string(line) + " in " + fn;
}

} // namespace ovs
