// overlapscope-stack-bench: what a call stack costs the profiled program
// (profile --stacks; docs/profiling.md, "What call stacks cost"). It
// captures stacks with the injection library's own code (StackCapture:
// libunwind's unw_backtrace, the dedupe table, the call record) at several
// depths on this CPU, then puts that price on the calls the stored profiles
// of the examples made (tests/data/profiled, recorded on a GPU): the calls
// that `--stacks sync` gives a stack, by the same role table, against the
// span each profile recorded. An estimate from a CPU measurement; the
// measurement on the GPU is scripts/measure-stack-overhead.sh.
//
//   overlapscope-stack-bench [PROFILE.json ...]
#include "formats/TraceJson.h"
#include "profile/StackCapture.h"

#include <unwind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

using namespace ovs;
using namespace ovs::profile;

namespace {

using Clock = std::chrono::steady_clock;

// A stack `depth` frames deeper than the caller's, each a real frame.
__attribute__((noinline)) int descend(StackCapture& capture, int depth, std::uint32_t correlation)
{
    if (depth == 0) {
        capture.record(correlation);
        return 0;
    }
    const int below = descend(capture, depth - 1, correlation);
    asm volatile("" ::: "memory"); // no tail call: the frame stays
    return below + 1;
}

// The other unwinder at hand: libgcc's, which C++ exceptions and glibc's
// backtrace() use; measured beside libunwind for the choice
// (docs/profiling.md).
struct GccTrace {
    void* frames[StackCapture::kMaxFrames + 2];
    int count = 0;
};

_Unwind_Reason_Code gccFrame(_Unwind_Context* context, void* data)
{
    auto& t = *static_cast<GccTrace*>(data);
    if (t.count >= int(std::size(t.frames)))
        return _URC_END_OF_STACK;
    t.frames[t.count++] = reinterpret_cast<void*>(_Unwind_GetIP(context));
    return _URC_NO_REASON;
}

__attribute__((noinline)) int descendGcc(int depth)
{
    if (depth == 0) {
        GccTrace t;
        _Unwind_Backtrace(gccFrame, &t);
        return t.count;
    }
    const int below = descendGcc(depth - 1);
    asm volatile("" ::: "memory");
    return below + 1;
}

struct Price {
    int depth = 0;
    double gccNs = 0; // libgcc's unwinder, the same stack again (best of 5, less the recursion)
    double firstUs = 0;    // the first capture of a stack (the unwinder reads its tables)
    double repeatedNs = 0; // the same stack again, as a loop's call is (best of 5)
};

Price measure(StackCapture& capture, int depth)
{
    Price p;
    p.depth = depth;
    const auto first = Clock::now();
    descend(capture, depth, 1);
    p.firstUs = std::chrono::duration<double, std::micro>(Clock::now() - first).count();
    constexpr int kCalls = 20'000;
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto start = Clock::now();
        for (int i = 0; i < kCalls; ++i)
            descend(capture, depth, static_cast<std::uint32_t>(i));
        best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kCalls);
        ProfileStreamEncoder drained; // as the flush thread would
        capture.take(drained);
    }
    // Less the recursion alone, measured the same way with stacks off.
    StackCapture off;
    double bare = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto start = Clock::now();
        for (int i = 0; i < kCalls; ++i)
            descend(off, depth, static_cast<std::uint32_t>(i));
        bare = std::min(bare, std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kCalls);
    }
    p.repeatedNs = std::max(0.0, best - bare);
    double gcc = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto start = Clock::now();
        for (int i = 0; i < kCalls / 10; ++i)
            descendGcc(depth);
        gcc = std::min(gcc, std::chrono::duration<double, std::nano>(Clock::now() - start).count() / (kCalls / 10));
    }
    p.gccNs = std::max(0.0, gcc - bare);
    return p;
}

} // namespace

int main(int argc, char** argv)
{
    StackCapture capture;
    std::string why;
    if (!capture.start(kStacksSync, {}, &why)) {
        std::fprintf(stderr, "overlapscope-stack-bench: %s\n", why.c_str());
        return 1;
    }
    std::vector<Price> prices;
    for (int depth : {4, 16, 28, 40})
        prices.push_back(measure(capture, depth));
    std::printf("| frames below the caller | first capture (us) | each capture after (ns) | libgcc's unwinder instead (ns) |\n"
                "|---|---|---|---|\n");
    for (const Price& p : prices)
        std::printf("| %d | %.1f | %.0f | %.0f |\n", p.depth, p.firstUs, p.repeatedNs, p.gccNs);
    // The price of a call: the dearest measured (a stack cut at kMaxFrames).
    const double perCallNs = std::max_element(prices.begin(), prices.end(), [](const Price& a, const Price& b) {
                                 return a.repeatedNs < b.repeatedNs;
                             })->repeatedNs;

    if (argc < 2)
        return 0;
    std::printf("\n| stored profile | calls with a stack (sync) | span recorded (ms) | their capture (ms) | share |\n"
                "|---|---|---|---|---|\n");
    for (int i = 1; i < argc; ++i) {
        const TraceLoadResult loaded = loadTrace(argv[i]);
        if (!loaded.trace) {
            std::fprintf(stderr, "overlapscope-stack-bench: %s\n", loaded.error.c_str());
            return 1;
        }
        std::string name = argv[i];
        name = name.substr(name.find_last_of('/') + 1);
        for (const Run& run : loaded.trace->runs) {
            std::size_t calls = 0;
            std::int64_t begin = INT64_MAX, end = 0;
            for (const Op& op : run.ops) {
                begin = std::min(begin, op.startNs);
                end = std::max(end, op.endNs);
                if (!isStreamLaneOp(op.kind) && StackCapture::wants(kStacksSync, run.nameOf(op)))
                    ++calls;
            }
            const double spanMs = end > begin ? double(end - begin) / 1e6 : 0;
            const double costMs = double(calls) * perCallNs / 1e6;
            std::printf("| %s | %zu | %.2f | %.4f | %.2f%% |\n", name.c_str(), calls, spanMs, costMs,
                        spanMs > 0 ? 100.0 * costMs / spanMs : 0.0);
        }
    }
    return 0;
}
