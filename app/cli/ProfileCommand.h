#pragma once

#include <string>
#include <vector>

namespace ovs::cli {

// `overlapscope-cli profile [options] [--] PROGRAM [ARGS...]`: runs PROGRAM
// under the injection library and writes its trace. `args` are those after
// the command word. Returns the exit status: the program's own, or one of
// profile's documented failure codes (see its --help).
int commandProfile(const std::vector<std::string>& args);

} // namespace ovs::cli
