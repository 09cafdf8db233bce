#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace ovs {

// What a site's line is. An older PyTorch's "Call stack" names each frame
// by the line executing in it: the call itself. PyTorch 2's python_function
// events name a frame by the line the profiler saw when it met the frame:
// where the function begins (its def) for a call made while profiling, the
// line it was on for a frame already running when profiling began (a
// real trace of examples/torch_implicit_syncs.py: "train_step" at its def,
// "main" at its `with profile(...)` line). Either way, not the call's line.
enum class SiteLine : std::uint8_t {
    Call,       // the line that made the call
    FrameEntry, // the line where the profiler met the frame
};
const char* toString(SiteLine line); // "call", "frame-entry"

// A line of the program's own code: where a CUDA call came from, as the
// trace's call stacks say (a Kineto trace's Python frames, an Nsight
// report's call chains; see docs/profiling.md, "Call sites", for the rule
// that picks the frame). Kept once per distinct line in Run::sourceSites.
struct SourceSite {
    // As the trace writes it: "/home/me/train.py", "<stdin>"; for a frame
    // with no line, the module (program or library) that holds the function.
    std::string file;
    // 1-based; 0 where the frame says none (Nsight's call chains name a
    // function and its module, never a line).
    std::uint32_t line = 0;
    std::string function;   // "train_step", "<module>"
    SiteLine lineIs = SiteLine::Call;

    friend auto operator<=>(const SourceSite&, const SourceSite&) = default;
};

// What a trace says about where one CUDA call came from, beside the op
// (Run::opSources) as a kernel's launch shape is. Each part 0 where the
// trace does not say: a call is never given a site it did not record.
struct OpSource {
    // 1 + the index in Run::sourceSites of the innermost frame of the user's
    // own code that encloses the call.
    std::uint32_t site = 0;
    // Run::names id of the innermost framework operation that encloses the
    // call: PyTorch's aten op ("aten::_local_scalar_dense").
    std::uint32_t op = 0;
    // Run::names id of what the user's line called, the frame just inside
    // the user's own ("<built-in method item of Tensor object>",
    // ".../torch/cuda/__init__.py(954): synchronize"): it names the Python
    // call that the aten op alone cannot tell apart (.tolist(), print).
    std::uint32_t called = 0;

    bool empty() const { return site == 0 && op == 0 && called == 0; }
    friend bool operator==(const OpSource&, const OpSource&) = default;
};

// Where a site is, in the words every report uses, the file by its name
// (the last part of its path): "at train.py:42 in train_step" for the
// call's line, "in train_step (train.py:58)" for the line where the
// profiler met the function, "in main (saxpy)" where the frame has no
// line (the file is then the function's module).
std::string sitePlaceText(std::string_view file, std::uint32_t line, std::string_view function, SiteLine lineIs);

} // namespace ovs
