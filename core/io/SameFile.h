#pragma once

#include <string>

namespace ovs {

// Whether `a` and `b` name the same file, however each path reaches it
// ("x", "./x", "dir/../x", a symbolic link, a hard link): two existing
// regular files by their device and inode; two files not made yet by their
// folder's device and inode and their name. Devices and pipes
// (/dev/stdout) are never the same file: nothing is kept in them.
bool sameFile(const std::string& a, const std::string& b);

// Why writing `output` would replace `input`, which the tool is reading
// (convert X.json -o X.json, through a link or "./X.json"), in one line, or
// empty when it would not. The check is made before the input is read, so
// a refused command writes nothing.
std::string whyOutputIsInput(const std::string& output, const std::string& input);

} // namespace ovs
