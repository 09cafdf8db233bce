#include "io/SameFile.h"

#include "io/PathParts.h"

#include "base/Printable.h"

#include <cerrno>

#include <sys/stat.h>

namespace ovs {

namespace {

bool sameNode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

} // namespace

bool sameFile(const std::string& a, const std::string& b)
{
    struct stat infoA {}, infoB {};
    const bool existsA = ::stat(a.c_str(), &infoA) == 0;
    const int errnoA = errno;
    const bool existsB = ::stat(b.c_str(), &infoB) == 0;
    const int errnoB = errno;
    if (existsA && existsB)
        return S_ISREG(infoA.st_mode) && S_ISREG(infoB.st_mode) && sameNode(infoA, infoB);
    // Two outputs not written yet (-o a.png --bandwidth ./a.png): the second
    // would replace the first.
    if (existsA || existsB || errnoA != ENOENT || errnoB != ENOENT)
        return false;
    const std::string nameA = nameOf(a), nameB = nameOf(b);
    if (nameA.empty() || nameA != nameB || nameA == "." || nameA == "..")
        return false;
    return ::stat(parentOf(a).c_str(), &infoA) == 0 && ::stat(parentOf(b).c_str(), &infoB) == 0 && sameNode(infoA, infoB);
}

std::string whyOutputIsInput(const std::string& output, const std::string& input)
{
    if (!sameFile(output, input))
        return {};
    const std::string which = output == input ? "itself" : "'" + echoed(input) + "' (the same file)";
    return "the output '" + echoed(output) + "' is the input " + which
           + ": writing it would replace what is being read; name another output file";
}

} // namespace ovs
