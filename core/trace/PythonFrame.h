#pragma once

#include "trace/SourceSite.h"

#include <optional>
#include <string>
#include <string_view>

namespace ovs {

// One frame of a Python stack as PyTorch's profiler names it: a
// python_function event's name, or an entry of an older trace's "Call
// stack" ("/home/me/train.py(42): train_step", "<built-in method item of
// Tensor object at 0x7f...>", "nn.Module: Linear_0").
struct PythonFrame {
    // Its file, line and function where the name has the "FILE(LINE): FUNCTION"
    // form; nullopt for built-ins and module markers, which have no line.
    std::optional<SourceSite> site;
    // The user's own code by the documented rule (docs/profiling.md, "Call
    // sites"): a file that is not PyTorch's (a "torch/" folder), not an
    // installed package (site-packages, dist-packages), not the standard
    // library (.../lib/python3.N/, <frozen ...>) and not a built-in.
    bool user = false;
};

PythonFrame parsePythonFrame(std::string_view name);

// The name with what changes from run to run taken out: a built-in's
// object address ("<built-in method item of Tensor object at 0x7f..>"
// becomes "<built-in method item of Tensor object>"), so that one call
// is one name in every run.
std::string stablePythonFrameName(std::string_view name);

} // namespace ovs
