#include "WritableOutput.h"

#include "base/Printable.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

namespace ovs::cli {

std::string whyWrongExtension(const std::string& path, const std::string& extension)
{
    const std::size_t slash = path.find_last_of('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.find_last_of('.');
    if (dot == std::string::npos || dot == 0)
        return {};
    std::string given = name.substr(dot + 1);
    for (char& c : given)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::set<std::string> kKnown = {"csv", "json", "png", "svg", "pdf", "md", "html", "htm", "txt", "gz"};
    if (given == extension || (extension == "md" && given == "markdown") || !kKnown.count(given))
        return {};
    return echoed(name) + " is named ." + given + " but gets " + (extension == "md" ? "Markdown" : extension == "csv" ? "CSV" : "JSON")
           + ": name it ." + extension;
}

std::string whyNotWritable(const std::string& path)
{
    if (path.empty())
        return "the output path is empty";
    std::string target = path;
    struct stat info {};
    if (stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode))
            return echoed(path) + " is a directory";
        if (!S_ISREG(info.st_mode))
            return echoed(path) + " is not a regular file";
        if (access(path.c_str(), W_OK) != 0)
            return echoed(path) + " is read-only";
        // The file is replaced in its own directory: the link's target's.
        if (char* real = realpath(path.c_str(), nullptr)) {
            target = real;
            std::free(real);
        }
    }
    const auto slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
    if (stat(dir.c_str(), &info) != 0)
        return "directory " + echoed(dir) + " does not exist";
    if (!S_ISDIR(info.st_mode))
        return echoed(dir) + " is not a directory";
    if (access(dir.c_str(), W_OK | X_OK) != 0)
        return "cannot create files in " + echoed(dir) + ": " + std::strerror(errno);
    return {};
}

} // namespace ovs::cli
