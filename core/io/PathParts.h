#pragma once

// A path's folder and last name, as the file tools split it: by the last
// '/', without touching the file system (a symbolic link is resolved by the
// caller when it matters).

#include <string>

namespace ovs {

inline std::string parentOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

inline std::string nameOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace ovs
