#pragma once

#include <string>

namespace ovs::cli {

// Why `path` cannot take an output file, in words, or empty when it can: the
// path is empty, names a directory or something that is not a regular file,
// is read-only, or its directory is missing or not writable. Checked before
// anything runs, so a recording is never made only to be thrown away.
// (Symlinks are followed: the file written is their target.)
std::string whyNotWritable(const std::string& path);

// Why `path`'s extension contradicts what is written to it, or empty when it
// does not. `extension` is the one the output's format goes by ("csv",
// "json", "md"). A name ending in another format's extension (.csv, .json,
// .png, .svg, .pdf, .md, .html, .txt, .gz) is refused, so `-o x.png` never
// gets a JSON trace; a missing or unknown extension takes the format written.
std::string whyWrongExtension(const std::string& path, const std::string& extension);

} // namespace ovs::cli
