#pragma once

// Shared by the example programs: argument parsing, error checks, the
// kernel, the timer and the result check. Each example shows one overlap
// pitfall in its main loop and, with --fix, the fix; profile both with
//   overlapscope-cli profile -o before.json -- build/examples/<example>
//   overlapscope-cli profile -o after.json -- build/examples/<example> --fix
// (docs/profiling.md, "Example programs").

#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#define EXAMPLE_CHECK(call)                                                                                            \
    do {                                                                                                               \
        const cudaError_t e_ = (call);                                                                                 \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));        \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

struct ExampleArgs {
    bool fix = false;
    bool variant = false; // the example's own variant flag (parseExampleArgs' `variantFlag`)
    int chunks = 16;
    size_t chunkBytes = size_t(16) << 20;
    int streams = 3;
    int kernelRepeats = 20;
};

// Whether `flag` is among the arguments: for an example whose defaults
// depend on its variant flag, asked before parseExampleArgs.
inline bool hasArg(int argc, char** argv, const char* flag)
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], flag) == 0)
            return true;
    return false;
}

// `what`: the pitfall and the fix, printed by --help. `a`: the defaults, for
// examples that differ from the pitfall demos'. `variantFlag`: an extra flag
// of the example (sets `variant`; `what` says what it does).
inline ExampleArgs parseExampleArgs(int argc, char** argv, const char* what, ExampleArgs a = {},
                                    const char* variantFlag = nullptr)
{
    const ExampleArgs defaults = a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--fix") {
            a.fix = true;
        } else if (variantFlag && arg == variantFlag) {
            a.variant = true;
        } else if (arg == "--chunks" && hasValue) {
            a.chunks = std::atoi(argv[++i]);
        } else if (arg == "--chunk-mib" && hasValue) {
            a.chunkBytes = size_t(std::atoi(argv[++i])) << 20;
        } else if (arg == "--kernel-repeats" && hasValue) {
            a.kernelRepeats = std::atoi(argv[++i]);
        } else {
            std::printf("%s\nUsage: %s [--fix]%s%s%s [--chunks N (%d)] [--chunk-mib N (%zu)] [--kernel-repeats N (%d)]\n",
                        what, argv[0], variantFlag ? " [" : "", variantFlag ? variantFlag : "", variantFlag ? "]" : "",
                        defaults.chunks, defaults.chunkBytes >> 20, defaults.kernelRepeats);
            std::exit(arg == "--help" ? 0 : 2);
        }
    }
    if (a.chunks < 1 || a.chunkBytes < 4 || a.kernelRepeats < 1) {
        std::fprintf(stderr, "%s: chunks, chunk size and kernel repeats must be positive\n", argv[0]);
        std::exit(2);
    }
    return a;
}

// Adds 1 in `repeats` steps: the arithmetic per byte sets how long a kernel
// takes against its chunk's copies (overlap pays most when they are equal).
// With `repeats` a power of two up to 8192 every partial sum is exact (the
// step and the inputs, under 1024, fit the float mantissa together), so a
// long kernel still gives exactly input + 1.
__global__ void incrementKernel(float* data, size_t n, int repeats)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = data[i];
    for (int r = 0; r < repeats; ++r)
        v += 1.0f / float(repeats);
    data[i] = v;
}

inline void launchIncrement(float* data, size_t n, int repeats, cudaStream_t stream)
{
    const unsigned blocks = unsigned((n + 255) / 256);
    incrementKernel<<<blocks, 256, 0, stream>>>(data, n, repeats);
    EXAMPLE_CHECK(cudaGetLastError());
}

inline void fillInput(float* data, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        data[i] = float(i % 1024);
}

// Every output element is its input + 1 (within float rounding of the
// repeated additions); returns the number of elements out[begin],
// out[begin + stride], ... before out[end] that are not.
inline size_t countWrongStrided(const float* out, size_t begin, size_t end, size_t stride)
{
    size_t wrong = 0;
    for (size_t i = begin; i < end; i += stride)
        if (std::abs(out[i] - (float(i % 1024) + 1.0f)) > 1e-3f)
            ++wrong;
    return wrong;
}

// The stride of the examples' in-loop look at a finished chunk: one element
// in 4097, about a thousand reads per 16 MiB (cheap beside the chunk's GPU
// work), and a stride that walks through every residue of the input pattern.
// The whole output is checked after the timed loop.
inline constexpr size_t kSampleStride = 4097;

inline size_t countWrong(const float* out, size_t n)
{
    return countWrongStrided(out, 0, n, 1);
}

class ExampleTimer {
public:
    ExampleTimer() : m_start(std::chrono::steady_clock::now()) {}
    double ms() const
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

inline int reportExample(const char* name, const ExampleArgs& a, double ms, size_t wrong)
{
    const double gb = double(a.chunks) * double(a.chunkBytes) * 2 / 1e9;
    std::printf("%s%s: %d chunks x %zu MiB in %.2f ms (%.1f GB/s of copies), %s\n", name, a.fix ? " --fix" : "",
                a.chunks, a.chunkBytes >> 20, ms, gb / (ms / 1e3),
                wrong == 0 ? "verified" : "WRONG RESULTS");
    return wrong == 0 ? 0 : 1;
}
