#pragma once

#include <string>

namespace ovs::cli {

// Why `path` cannot take an output file, in words, or empty when it can: the
// path is empty, names a directory or something that is not a regular file,
// is read-only, or its directory is missing or not writable. Checked before
// anything runs, so a recording is never made only to be thrown away.
// (Symlinks are followed: the file written is their target.)
std::string whyNotWritable(const std::string& path);

} // namespace ovs::cli
