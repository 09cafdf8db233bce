#include "WritableOutput.h"

#include "base/Printable.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace ovs::cli {

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
