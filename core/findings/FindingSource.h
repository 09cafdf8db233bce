#pragma once

#include "trace/SourceSite.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ovs {

// A line of the user's code that a finding's calls came from (Finding::sources).
struct FindingSource {
    std::string file;       // as the trace writes it: "/home/me/train.py"
    std::uint32_t line = 0;
    std::string function;
    SiteLine lineIs = SiteLine::Call; // the call's line, or where the function begins
    std::size_t calls = 0;  // the finding's CUDA calls attributed to this line
    // The PyTorch call they came from, in words (".item() ..."); "" where it
    // is none of TorchSyncCauses.h's. A line's calls of two causes are two
    // sources.
    std::string cause;
    // The ops behind it, indices into the analysed run's ops, ascending:
    // the calls it counts and the GPU op each enqueued (its correlation).
    // What the window outlines when the site is chosen; no output prints it.
    std::vector<std::uint32_t> ops;
};

// A framework op (PyTorch's aten op) that encloses a finding's calls
// (Finding::torchOps): it names the cause where the trace has no stacks.
struct FindingTorchOp {
    std::string op;        // "aten::_local_scalar_dense"
    std::string cause;     // torchCauseWords, "" where none
    std::string fix;       // torchCauseFix, "" where none
    std::size_t calls = 0;
};

} // namespace ovs
